// The SQLite audit writer thread: its own connection to the database file,
// running the statements Kysely compiled in the main thread. It links each
// batch into the chain under the write lock, commits, and only then answers,
// so an answered batch is durable. Hashing and writing take this thread's
// core, not the one that decides.

import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { linkHash } from '../audit/chain.js';
import { entrySpecific, errorCode } from './faults.js';

export interface AppendWorkerInit {
  readonly file: string;
  readonly busyTimeoutMs: number;
  readonly synchronous: 'NORMAL' | 'FULL';
  readonly head: { readonly sql: string; readonly parameters: readonly unknown[] };
  readonly updateHead: { readonly sql: string; readonly idParameter: unknown };
  readonly insert: string;
  /** Positions in an insert's parameters of `seq`, `entry`, `prev_hash` and `hash`. */
  readonly slots: {
    readonly seq: number;
    readonly entry: number;
    readonly prev: number;
    readonly hash: number;
  };
}

export interface AppendRequest {
  readonly id: number;
  /** Per entry: its insert parameters, `entry` holding its canonical JSON, the chain's slots to fill. */
  readonly rows: readonly unknown[][];
}

export type AppendReply =
  | { readonly id: number; readonly positions: readonly [number, string, string][] }
  | { readonly id: number; readonly error: string; readonly code?: string };

const port = parentPort;
if (port !== null) {
  const init = workerData as AppendWorkerInit;
  const db = new Database(init.file);
  db.pragma(`busy_timeout = ${init.busyTimeoutMs}`);
  db.pragma(`synchronous = ${init.synchronous}`);
  db.pragma('wal_autocheckpoint = 10000');
  const head = db.prepare(init.head.sql);
  const insert = db.prepare(init.insert);
  const update = db.prepare(init.updateHead.sql);
  const { slots } = init;

  /** Batches that arrived while one was written: they share the next transaction. */
  let waiting: AppendRequest[] = [];
  let closing = false;

  /** Links and commits the batches in one transaction; answers each only after the commit. */
  const commit = (batches: readonly AppendRequest[]): void => {
    db.exec('begin immediate');
    try {
      const at = head.get(...init.head.parameters) as { seq: number | bigint; hash: string };
      let seq = Number(at.seq);
      let prev = at.hash;
      const replies: AppendReply[] = [];
      for (const batch of batches) {
        const positions: [number, string, string][] = [];
        for (const row of batch.rows) {
          seq += 1;
          const hash = linkHash(prev, row[slots.entry] as string);
          row[slots.seq] = seq;
          row[slots.prev] = prev;
          row[slots.hash] = hash;
          insert.run(...row);
          positions.push([seq, prev, hash]);
          prev = hash;
        }
        replies.push({ id: batch.id, positions });
      }
      update.run(seq, prev, init.updateHead.idParameter);
      db.exec('commit');
      for (const reply of replies) port.postMessage(reply);
    } catch (error) {
      if (db.inTransaction) db.exec('rollback');
      throw error;
    }
  };

  const refuse = (batches: readonly AppendRequest[], error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    const code = errorCode(error);
    for (const batch of batches)
      port.postMessage({
        id: batch.id,
        error: message,
        ...(code === undefined ? {} : { code }),
      } satisfies AppendReply);
  };

  const write = (): void => {
    const batches = waiting;
    waiting = [];
    try {
      commit(batches);
    } catch (error) {
      // An entry the database refused fails its own batch only: the others are written
      // each on its own. Any other failure (a full disk, a lock) fails them all alike.
      if (batches.length > 1 && entrySpecific(error)) {
        for (const batch of batches) {
          try {
            commit([batch]);
          } catch (alone) {
            refuse([batch], alone);
          }
        }
      } else {
        refuse(batches, error);
      }
    }
    if (closing) {
      db.close();
      port.close();
    }
  };

  port.on('message', (message: AppendRequest | 'close') => {
    if (message === 'close') {
      closing = true;
      if (waiting.length === 0) {
        db.close();
        port.close();
      }
      return;
    }
    waiting.push(message);
    // Messages already queued are delivered before this runs: they join the transaction.
    if (waiting.length === 1) setImmediate(write);
  });
}
