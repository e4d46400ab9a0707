// Postgres for multi-node deployments (DATABASE_URL): any number of Warden
// processes share one database; changes reach the others at once through
// LISTEN/NOTIFY, and they poll as well, so a dropped notice only delays.

import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrate } from './migrations.js';
import type { Database as Schema } from './schema.js';
import { postgresWrite } from './sql/context.js';
import { sqlStore } from './sql/store.js';
import type { Events, Store, StoreEvent } from './types.js';

export interface PostgresOptions {
  readonly url: string;
  /** A schema of its own (created when missing); default `public`. */
  readonly schema?: string;
  readonly poolSize?: number;
  /** How long a statement may run (default 10 s). */
  readonly statementTimeoutMs?: number;
  /** How long opening a connection may take (default 5 s). */
  readonly connectTimeoutMs?: number;
  /** Called when the notice channel fails and reconnects; the store keeps working. */
  readonly onNoticeError?: (error: Error) => void;
}

const CHANNEL = 'warden_events';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The URL without its password, for banners and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unreadable URL)';
  }
}

/** int8 columns (counters, epoch milliseconds) as numbers; they stay far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export async function openPostgres(options: PostgresOptions): Promise<Store> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name \`${schema}\``);
  const connection = {
    connectionString: options.url,
    // A statement that runs longer than this is cancelled by the server.
    options: `-c search_path=${schema} -c statement_timeout=${options.statementTimeoutMs ?? 10_000}`,
    types,
    // A server that stops answering makes a query fail after this, not hang (the gate then denies).
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    query_timeout: (options.statementTimeoutMs ?? 10_000) + 2000,
    keepAlive: true,
  };
  const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 10 });
  // A client's error (the server went away) must not crash the process: the query it ran
  // fails, and the gate denies. Idle clients report on the pool, checked-out ones on themselves.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (schema !== 'public') await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
    await migrate(db, schema);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const events = new Notices(connection, schema, options.onNoticeError);
  await events.start().catch(() => undefined); // polling covers a channel that cannot open yet
  return sqlStore({
    backend: 'postgres',
    location: `${redactUrl(options.url)}${schema === 'public' ? '' : ` (schema ${schema})`}`,
    db,
    write: postgresWrite(db),
    events,
    close: async () => {
      await events.stop();
      await db.destroy();
    },
  });
}

/** LISTEN/NOTIFY on one dedicated connection, reopened when it drops. */
class Notices implements Events {
  private client: pg.Client | null = null;
  private readonly listeners = new Set<(event: StoreEvent) => void>();
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly origin = randomUUID();

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly schema: string,
    private readonly onError: ((error: Error) => void) | undefined,
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client(this.connection);
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('notice channel closed')));
    client.on('notification', (message) => this.deliver(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.lost(client, error as Error);
      throw error;
    }
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client === client) this.client = null;
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (this.stopped || this.retry !== null) return;
    this.onError?.(error);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.start().catch(() => undefined);
    }, 1000);
    this.retry.unref();
  }

  private deliver(payload: string | undefined): void {
    if (payload === undefined) return;
    let parsed: { s?: string; e?: StoreEvent };
    try {
      parsed = JSON.parse(payload) as { s?: string; e?: StoreEvent };
    } catch {
      return;
    }
    if (parsed.s !== this.schema || parsed.e === undefined) return;
    for (const listener of this.listeners) {
      try {
        listener(parsed.e);
      } catch {
        // A listener's fault is its own.
      }
    }
  }

  async publish(event: StoreEvent): Promise<void> {
    const client = this.client;
    if (client === null) return;
    await client.query('select pg_notify($1, $2)', [
      CHANNEL,
      JSON.stringify({ s: this.schema, o: this.origin, e: event }),
    ]);
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry !== null) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client !== null) await client.end().catch(() => undefined);
  }
}
