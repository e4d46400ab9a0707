// What every SQL-backed store shares: the Kysely handle, write transactions
// that take the write lock up front, and the state counter that tells other
// processes a policy changed.

import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Backend, StoreTopic } from '../types.js';
import type { Database } from '../schema.js';
import { storableText } from '../../well-formed.js';

export type Db = Kysely<Database>;
/** A handle inside a write transaction. */
export type Tx = Kysely<Database> | Transaction<Database>;

export interface SqlContext {
  readonly backend: Backend;
  readonly db: Db;
  /**
   * Runs `work` in one write transaction. SQLite takes the write lock at the
   * start (`begin immediate`), so two processes never deadlock upgrading a
   * read; Postgres uses row locks where the work needs them (`forUpdate`).
   */
  write<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Called after a change commits, to tell other processes (LISTEN/NOTIFY on Postgres). */
  readonly notify: (topic: StoreTopic, workspace: string | null, id?: string) => void;
}

export function sqliteWrite(db: Db): SqlContext['write'] {
  return (work) =>
    db.connection().execute(async (conn) => {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await work(conn);
        await sql`commit`.execute(conn);
        return result;
      } catch (error) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw error;
      }
    });
}

export function postgresWrite(db: Db): SqlContext['write'] {
  return (work) => db.transaction().execute((trx) => work(trx));
}

/** The counter of a workspace (its id), or of the managed layer (null): two namespaces, so no workspace name can alias the managed layer's. */
export function versionKey(workspace: string | null): string {
  return workspace === null ? 'managed' : `workspace:${workspace}`;
}

/** Grows the counter of a workspace (or of the managed layer: null) inside the caller's transaction. */
export async function bumpVersion(tx: Tx, workspace: string | null): Promise<void> {
  const key = versionKey(workspace);
  await tx
    .insertInto('state_versions')
    .values({ key, version: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ version: sql<number>`state_versions.version + 1` }),
    )
    .execute();
}

/**
 * Serialises writers of one key across processes: Postgres takes a
 * transaction-scoped advisory lock; SQLite's `begin immediate` already holds
 * the only write lock.
 */
export async function lockKey(ctx: SqlContext, tx: Tx, name: string): Promise<void> {
  if (ctx.backend === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(tx);
}

export async function readVersion(db: Db, workspace: string | null): Promise<number> {
  const key = versionKey(workspace);
  const row = await db
    .selectFrom('state_versions')
    .select('version')
    .where('key', '=', key)
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.version);
}

/** Text as both backends can hold it in a plain column (see `storableText`). */
export function storable<T extends string | null>(text: T): T {
  return (text === null ? null : storableText(text)) as T;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** Numbers from bigint columns (Postgres may hand them over as strings). */
export function num(value: number | string | bigint): number {
  return typeof value === 'number' ? value : Number(value);
}

export function numOrNull(value: number | string | bigint | null): number | null {
  return value === null ? null : num(value);
}

/** The first row a query finds, as the store's record; null when it finds none. */
export async function first<R, T>(
  query: { executeTakeFirst(): Promise<R | undefined> },
  record: (row: R) => T,
): Promise<T | null> {
  const row = await query.executeTakeFirst();
  return row === undefined ? null : record(row);
}

/** Every row a query finds, as the store's records. */
export async function every<R, T>(
  query: { execute(): Promise<R[]> },
  record: (row: R) => T,
): Promise<T[]> {
  return (await query.execute()).map((row) => record(row));
}

/** The query narrowed to rows whose column equals each value given; a value left undefined narrows nothing. */
export function whereGiven<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  columns: { readonly [C in keyof O & string]?: O[C] | undefined },
): SelectQueryBuilder<Database, TB, O> {
  let narrowed = query;
  for (const [column, value] of Object.entries(columns))
    if (value !== undefined) narrowed = narrowed.where(sql.ref(column), '=', value);
  return narrowed;
}

/** Newest first by a time column (ties by id, newest id first), at most `limit` rows. */
export function newestFirst<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  column: 'created_at_ms' | 'started_at_ms',
  limit: number,
): SelectQueryBuilder<Database, TB, O> {
  return query.orderBy(sql.ref(column), 'desc').orderBy(sql.ref('id'), 'desc').limit(limit);
}
