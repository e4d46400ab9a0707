// Picks the backend: Postgres when a database URL is given (DATABASE_URL),
// else the embedded SQLite file in the data folder (default `./.warden`).

import type { Store } from './types.js';

import { DEFAULT_DATA } from '../data-folder.js';

export { DEFAULT_DATA };

export interface OpenStoreOptions {
  /** The data folder for SQLite (and for what lives beside the database). */
  readonly data?: string;
  /** A Postgres URL; wins over `data` for the database. */
  readonly databaseUrl?: string;
  /** Postgres: a schema of its own. */
  readonly schema?: string;
  /** SQLite: write the audit log from a thread of its own (default true). */
  readonly auditThread?: boolean;
}

/** Reads DATABASE_URL (and WARDEN_DB_SCHEMA) from an environment. */
export function storeOptionsFromEnv(
  env: NodeJS.ProcessEnv,
  data: string | undefined,
): OpenStoreOptions {
  const url = env.DATABASE_URL;
  const schema = env.WARDEN_DB_SCHEMA;
  return {
    ...(data === undefined ? {} : { data }),
    ...(url === undefined || url === '' ? {} : { databaseUrl: url }),
    ...(schema === undefined || schema === '' ? {} : { schema }),
  };
}

/** Each backend's driver is loaded only when it is used: a command on SQLite never loads `pg`. */
export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  if (options.databaseUrl !== undefined) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres({
      url: options.databaseUrl,
      ...(options.schema === undefined ? {} : { schema: options.schema }),
    });
  }
  const { openSqlite } = await import('./sqlite.js');
  return openSqlite({
    data: options.data ?? DEFAULT_DATA,
    ...(options.auditThread === undefined ? {} : { auditThread: options.auditThread }),
  });
}
