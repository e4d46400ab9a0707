// The embedded default: one SQLite file in the data folder, in WAL mode. A
// committed transaction is in the write-ahead log before `commit` returns, so
// it survives the process being killed (synchronous=NORMAL; FULL also
// survives the machine losing power, at the cost of an fsync per commit).

import { randomUUID } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { localEvents } from './events.js';
import { migrate } from './migrations.js';
import type { Database as Schema } from './schema.js';
import { sqliteWrite } from './sql/context.js';
import { sqlStore } from './sql/store.js';
import type { ThreadedAppender } from './sqlite-appender.js';
import { threadedAppender } from './sqlite-appender.js';
import type { Store } from './types.js';

export interface SqliteOptions {
  /** The data folder; the database is `<data>/warden.db`. Or `:memory:`. */
  readonly data: string;
  readonly synchronous?: 'NORMAL' | 'FULL';
  /** How long a writer waits for another process's write lock. */
  readonly busyTimeoutMs?: number;
  /** Write the audit log from a thread of its own (default); false keeps it in this thread. */
  readonly auditThread?: boolean;
}

export const SQLITE_FILE = 'warden.db';

const STATEMENT_CACHE = 512;

/**
 * Prepares each distinct statement once. Kysely hands the driver the same SQL
 * text for the same query shape, and preparing is most of the cost of a small
 * write; a cached statement is only re-bound.
 */
function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (sql: string) => {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE) cache.clear();
        cache.set(sql, statement);
      }
      return statement as unknown as SqliteStatement;
    },
  };
}

interface Shared {
  readonly db: Kysely<Schema>;
  readonly ready: Promise<void>;
  readonly appender: ThreadedAppender | null;
  users: number;
}

/**
 * One connection per file within a process. better-sqlite3 is synchronous: a
 * second connection in the same process waiting for the first one's write
 * lock would block the very thread that has to release it.
 */
const shared = new Map<string, Shared>();

function connect(file: string, options: SqliteOptions): Shared {
  const sqlite = new Database(file);
  try {
    // For a new database only: 8 KiB pages hold several ~1 KiB audit entries each,
    // which makes appending about twice as fast as SQLite's default 4 KiB (measured).
    sqlite.pragma('page_size = 8192');
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
    // Checkpoints (copying the log into the database, with an fsync) are what a write
    // costs most: do them every ~40 MB of log rather than every 4 MB, and trim the log after.
    sqlite.pragma('wal_autocheckpoint = 10000');
    sqlite.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const db = new Kysely<Schema>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  const appender =
    file === ':memory:' || options.auditThread === false
      ? null
      : threadedAppender(db, file, {
          busyTimeoutMs: options.busyTimeoutMs ?? 10_000,
          synchronous: options.synchronous ?? 'NORMAL',
        });
  return { db, ready: migrate(db).then(() => undefined), appender, users: 0 };
}

/**
 * The database holds the audit log and token hashes: it is readable by its
 * owner only (0600). SQLite gives its `-wal` and `-shm` files the mode of the
 * database file, so the file is made (or narrowed) before SQLite opens it.
 */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (existsSync(path)) chmodSync(path, 0o600);
    } catch (error) {
      // Another user's file keeps its mode: Warden narrows only what it owns.
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    }
  }
}

export async function openSqlite(options: SqliteOptions): Promise<Store> {
  let file: string;
  if (options.data === ':memory:') {
    file = ':memory:';
  } else {
    const dir = resolve(options.data);
    // A folder Warden makes is its own; one that exists is left as its owner made it.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    file = join(dir, SQLITE_FILE);
    ownerOnly(file);
  }
  const key = file === ':memory:' ? `memory:${randomUUID()}` : file;
  let entry = shared.get(key);
  if (entry === undefined) {
    entry = connect(file, options);
    shared.set(key, entry);
  }
  const used = entry;
  used.users += 1;
  const release = async (): Promise<void> => {
    used.users -= 1;
    if (used.users > 0) return;
    if (shared.get(key) === used) shared.delete(key);
    await used.appender?.close();
    await used.db.destroy();
  };
  try {
    await used.ready;
  } catch (error) {
    await release();
    throw error;
  }
  return sqlStore({
    backend: 'sqlite',
    location: file,
    db: used.db,
    write: sqliteWrite(used.db),
    events: localEvents(key),
    close: release,
    auditAppender: used.appender?.append ?? null,
  });
}
