// The backends every store test runs on: SQLite always; Postgres whenever one
// answers (required under CI=true). Each Postgres store gets a schema of its
// own, dropped afterwards, so tests never see each other's rows.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { detectHost, sandboxBackend } from '../../src/honesty/index.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';

export const PG_URL =
  process.env.WARDEN_TEST_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

export const UNDER_CI = process.env.CI === 'true' || process.env.CI === '1';

async function probe(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const problem = await probe();

/** Why Postgres tests are skipped, or null when they run. */
export const POSTGRES_SKIP: string | null =
  problem === null ? null : `no Postgres at ${PG_URL}: ${problem}`;

if (POSTGRES_SKIP !== null && !UNDER_CI) {
  console.warn(
    `skipping Postgres tests: ${POSTGRES_SKIP} (set WARDEN_TEST_DATABASE_URL to run them)`,
  );
}

/** Under CI a missing Postgres is a failure, not a skip. */
export function requirePostgresUnderCi(): void {
  if (POSTGRES_SKIP !== null && UNDER_CI)
    throw new Error(`Postgres is required under CI: ${POSTGRES_SKIP}`);
}

/**
 * This host's OS sandbox backend for tests of sandboxed runs, and why `runs`
 * are skipped when it has none (`missing`, null when it has one). Under CI a
 * host without one fails at once; elsewhere the skip is said on the console
 * unless `say` is false.
 */
export function sandboxForTests(
  runs = 'the sandboxed runs',
  say = true,
): { readonly backend: string | null; readonly missing: string | null } {
  const backend = sandboxBackend(detectHost());
  const missing =
    backend === null
      ? `this host offers no sandbox backend (\`bwrap\` and \`socat\` on Linux): ${runs} are skipped`
      : null;
  if (missing !== null && UNDER_CI) throw new Error(`under CI the sandbox is required: ${missing}`);
  if (missing !== null && say) console.warn(`[skip] ${missing}`);
  return { backend, missing };
}

/**
 * Where the tests make folders outside the system's temporary folder: the run's own folder
 * under /var/tmp, which the global setup makes and removes, or /var/tmp itself for a test
 * run without that setup.
 */
export const HOST_TMP = process.env.WARDEN_TEST_HOST_TMP ?? '/var/tmp';

export function tempDir(prefix = 'warden-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

const hostDirs: string[] = [];

/**
 * A folder the sandbox's commands see as it is on the host: outside the
 * system's temporary folder, which a sandboxed command gets a private,
 * read-only copy of. Removed when the test process ends.
 */
export function hostDir(prefix = 'warden-'): string {
  if (hostDirs.length === 0)
    process.once('exit', () => {
      for (const dir of hostDirs) rmSync(dir, { recursive: true, force: true });
    });
  const dir = mkdtempSync(join(HOST_TMP, prefix));
  hostDirs.push(dir);
  return dir;
}

export function uniqueSchema(): string {
  return `wt_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

export interface Backend {
  readonly name: 'sqlite' | 'postgres';
  readonly skip: string | null;
  /** A fresh, empty store; `shared` opens a second one on the same data. */
  open(): Promise<{ store: Store; reopen: () => Promise<Store>; cleanup: () => Promise<void> }>;
}

export const BACKENDS: readonly Backend[] = [
  {
    name: 'sqlite',
    skip: null,
    async open() {
      const dir = tempDir('warden-store-');
      const store = await openSqlite({ data: dir });
      return {
        store,
        reopen: () => openSqlite({ data: dir }),
        cleanup: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    skip: UNDER_CI ? null : POSTGRES_SKIP,
    async open() {
      requirePostgresUnderCi();
      const schema = uniqueSchema();
      const store = await openPostgres({ url: PG_URL, schema });
      return {
        store,
        reopen: () => openPostgres({ url: PG_URL, schema }),
        cleanup: async () => {
          await store.close();
          await dropSchema(schema);
        },
      };
    },
  },
];
