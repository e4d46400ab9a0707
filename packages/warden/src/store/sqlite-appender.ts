// The main thread's side of the SQLite audit writer thread: compiles the
// statements with Kysely once, hands batches over, and settles each batch's
// promise when the thread has committed it. A thread that dies fails its
// batches (the gate then denies) and is started anew for the next one.

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { AuditDraft } from './types.js';
import type { AuditAppender, ChainPosition } from './sql/audit.js';
import { AUDIT_COLUMNS, unlinkedRow } from './sql/audit.js';
import type { AppendReply, AppendRequest, AppendWorkerInit } from './sqlite-append-worker.js';

/** Sources the writer thread runs, relative to this package's `src/`. */
const THREAD_SOURCES = [
  'store/sqlite-append-worker.ts',
  'store/faults.ts',
  'audit/chain.ts',
  'audit/columns.ts',
  'well-formed.ts',
];

/**
 * The compiled writer thread. Tests run this package from its TypeScript
 * sources, which a thread cannot load; they use the build the test command
 * makes first — unless the build is older than the sources, which would run
 * other code than the code under test: then the log is written in this
 * thread (the same chain, the same durability, only slower).
 */
function workerFile(): string | null {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) {
    const file = here.replace(/sqlite-appender\.js$/, 'sqlite-append-worker.js');
    return existsSync(file) ? file : null;
  }
  const src = here.replace(/[/\\]store[/\\]sqlite-appender\.ts$/, '');
  const dist = join(src, '..', 'dist');
  const file = join(dist, 'store', 'sqlite-append-worker.js');
  if (!existsSync(file)) return null;
  for (const source of THREAD_SOURCES) {
    const built = join(dist, source.replace(/\.ts$/, '.js'));
    if (!existsSync(built) || statSync(join(src, source)).mtimeMs > statSync(built).mtimeMs)
      return null;
  }
  return file;
}

function compile(
  db: Kysely<Database>,
  file: string,
  busyTimeoutMs: number,
  synchronous: 'NORMAL' | 'FULL',
): AppendWorkerInit {
  const sample = Object.fromEntries(
    AUDIT_COLUMNS.map((c) => [c, null]),
  ) as unknown as Database['audit_entries'];
  const head = db.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).compile();
  const update = db
    .updateTable('audit_head')
    .set({ seq: 0, hash: '' })
    .where('id', '=', 1)
    .compile();
  const slot = (column: (typeof AUDIT_COLUMNS)[number]) => AUDIT_COLUMNS.indexOf(column);
  return {
    file,
    busyTimeoutMs,
    synchronous,
    head: { sql: head.sql, parameters: [...head.parameters] },
    updateHead: { sql: update.sql, idParameter: update.parameters[2] },
    insert: db.insertInto('audit_entries').values(sample).compile().sql,
    slots: { seq: slot('seq'), entry: slot('entry'), prev: slot('prev_hash'), hash: slot('hash') },
  };
}

export interface ThreadedAppender {
  readonly append: AuditAppender;
  close(): Promise<void>;
}

/** null when the writer thread is not available (the package is not built): append in this thread then. */
export function threadedAppender(
  db: Kysely<Database>,
  file: string,
  options: { readonly busyTimeoutMs: number; readonly synchronous: 'NORMAL' | 'FULL' },
): ThreadedAppender | null {
  const script = workerFile();
  if (script === null) return null;
  const init = compile(db, file, options.busyTimeoutMs, options.synchronous);
  let worker: Worker | null = null;
  let next = 1;
  const pending = new Map<
    number,
    { resolve: (p: ChainPosition[]) => void; reject: (e: Error) => void }
  >();

  const start = (): Worker => {
    const started = new Worker(script, { workerData: init });
    started.unref();
    started.on('message', (reply: AppendReply) => {
      const waiting = pending.get(reply.id);
      if (waiting === undefined) return;
      pending.delete(reply.id);
      if ('error' in reply) {
        // The driver's code goes along, so the writer can tell a refused entry from a failed database.
        const error = new Error(reply.error) as Error & { code?: string };
        if (reply.code !== undefined) error.code = reply.code;
        waiting.reject(error);
      } else
        waiting.resolve(reply.positions.map(([seq, prevHash, hash]) => ({ seq, prevHash, hash })));
    });
    const lost = (why: Error) => {
      if (worker === started) worker = null;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(why);
      }
    };
    started.on('error', (error) => lost(new Error(`the audit writer failed: ${error.message}`)));
    started.on('exit', (code) => lost(new Error(`the audit writer stopped (exit ${code})`)));
    return started;
  };

  return {
    append(drafts: readonly AuditDraft[]) {
      worker ??= start();
      const active = worker;
      const id = next++;
      // Each entry goes over as its row, with its canonical JSON: strings cross to the
      // thread as copies of their bytes, where objects are serialised and rebuilt,
      // and the thread — which writes every entry in turn — is left only the chain
      // and the insert (measured: both threads busier, throughput lower, otherwise).
      const request: AppendRequest = {
        id,
        rows: drafts.map((draft) => {
          const row = unlinkedRow(draft);
          return AUDIT_COLUMNS.map((c) => row[c as keyof typeof row] ?? null);
        }),
      };
      return new Promise<ChainPosition[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // A thread waiting for an answer keeps the process alive; an idle one does not.
        active.ref();
        active.postMessage(request);
      }).finally(() => {
        if (pending.size === 0) active.unref();
      });
    },
    async close() {
      const active = worker;
      worker = null;
      if (active === null) return;
      await new Promise<void>((resolve) => {
        active.once('exit', () => resolve());
        active.ref(); // until it has closed its connection
        active.postMessage('close');
      });
    },
  };
}
