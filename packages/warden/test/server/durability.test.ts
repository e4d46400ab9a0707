// An acknowledged audit entry survives `kill -9` (issue: the audit log): a
// child process decides at full speed and prints each decision id once
// `decide` has answered; it is killed mid-stream, and every id it printed
// must be in the log, whose chain still verifies.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/audit/chain.js';
import type { ChainItem } from '../../src/audit/chain.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';
import {
  PG_URL,
  POSTGRES_SKIP,
  UNDER_CI,
  dropSchema,
  requirePostgresUnderCi,
  tempDir,
  uniqueSchema,
} from '../support/backends.js';

const WRITER = join(import.meta.dirname, '..', 'fixtures', 'ack-writer.mjs');

/** Runs the writer until it has acknowledged `count` decisions, then kills it with SIGKILL. */
function killAfter(args: readonly string[], count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: string[] = [];
    let buffer = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) if (line !== 'ready' && line !== '') acked.push(line);
      if (!killed && acked.length >= count) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`the writer stopped by itself (code ${code}): ${stderr}`));
    });
  });
}

async function check(store: Store, acked: readonly string[]): Promise<void> {
  const missing: string[] = [];
  for (const id of acked) if ((await store.audit.get(id)) === null) missing.push(id);
  expect(missing).toEqual([]);
  const items = async function* (): AsyncIterable<ChainItem> {
    for await (const { seq, entry } of store.audit.scan()) yield { entry, position: seq };
  };
  expect(await verifyChain(items(), await store.audit.head())).toMatchObject({ ok: true });
}

describe('durability under kill -9', () => {
  it('loses no acknowledged entry on SQLite, and the chain verifies after the crash', async () => {
    const data = tempDir('warden-kill-');
    const acked = await killAfter([data], 3000);
    expect(acked.length).toBeGreaterThanOrEqual(3000);
    const store = await openSqlite({ data });
    try {
      await check(store, acked);
    } finally {
      await store.close();
    }
  });

  it.skipIf(POSTGRES_SKIP !== null && !UNDER_CI)(
    'loses no acknowledged entry on Postgres',
    async () => {
      requirePostgresUnderCi();
      const schema = uniqueSchema();
      try {
        const acked = await killAfter([tempDir('warden-kill-'), PG_URL, schema], 1500);
        const store = await openPostgres({ url: PG_URL, schema });
        try {
          await check(store, acked);
        } finally {
          await store.close();
        }
      } finally {
        await dropSchema(schema);
      }
    },
  );
});
