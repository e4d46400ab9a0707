// The one way a command opens the data folder's store (or DATABASE_URL's
// Postgres), and Warden over it: where it is, whether there is one yet, and
// one wording for every problem — a usage error on the flag or setting that
// named the place (`--data`, `DATABASE_URL`), never a stack trace.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OpenStoreOptions } from '../store/open.js';
import { DEFAULT_DATA, openStore, storeOptionsFromEnv } from '../store/open.js';
import { SQLITE_FILE } from '../store/sqlite.js';
import type { Store } from '../store/types.js';
import type { Warden, WardenOptions } from '../warden.js';
import type { Io } from './io.js';
import { usage } from './io.js';

/** Where a command's store is: the settings to open it, and how to name it to a person. */
export interface StorePlace {
  readonly data: string;
  readonly options: OpenStoreOptions;
  /** `--data` or `DATABASE_URL`: what a problem with the place is about. */
  readonly flag: '--data' | 'DATABASE_URL';
  /** "`.warden`" or "the database named by DATABASE_URL". */
  readonly where: string;
}

export function storePlace(io: Io, data: string | undefined): StorePlace {
  const folder = data ?? DEFAULT_DATA;
  return placeOf(folder, storeOptionsFromEnv(io.env, folder));
}

/** A place from settings read elsewhere (a configuration file's `data` and database). */
export function placeOf(folder: string, options: OpenStoreOptions): StorePlace {
  const postgres = options.databaseUrl !== undefined;
  return {
    data: folder,
    options,
    flag: postgres ? 'DATABASE_URL' : '--data',
    where: postgres ? 'the database named by DATABASE_URL' : `\`${folder}\``,
  };
}

/** Whether the place holds a store yet (Postgres: assumed; its schema is made on open). */
export function storeExists(place: StorePlace): boolean {
  return (
    place.options.databaseUrl !== undefined || existsSync(join(resolve(place.data), SQLITE_FILE))
  );
}

/** The words for a data folder that holds no store yet. */
export function noStoreYet(place: StorePlace, hint?: string): string {
  return `no Warden store in \`${place.data}\`: there is no \`${SQLITE_FILE}\` there (${hint ?? 'is it the data folder `warden serve` uses?'})`;
}

export interface OpenFor {
  readonly json: boolean;
  /**
   * A command that only reads refuses a folder with no store yet, rather than
   * make an empty one; given, the hint says what to do instead.
   */
  readonly existing?: { readonly hint?: string } | false;
  /** SQLite: write the audit log from a thread of its own (default true; false for a call or two). */
  readonly auditThread?: boolean;
}

/**
 * What `open` opens at `place`, checked as `how` asks first; when it cannot
 * open, a usage error on the flag or setting that named the place.
 */
async function opening<T>(
  io: Io,
  place: StorePlace,
  how: OpenFor,
  open: (options: OpenStoreOptions) => Promise<T>,
): Promise<T> {
  if (how.existing !== undefined && how.existing !== false && !storeExists(place))
    usage(io, how.json, '--data', noStoreYet(place, how.existing.hint));
  try {
    return await open({
      ...place.options,
      ...(how.auditThread === undefined ? {} : { auditThread: how.auditThread }),
    });
  } catch (error) {
    return usage(
      io,
      how.json,
      place.flag,
      `cannot open ${place.where}: ${(error as Error).message}`,
    );
  }
}

/** Opens the store at `data` (or DATABASE_URL's), or ends the command with a usage error saying why not. */
export async function openStoreFor(
  io: Io,
  at: string | undefined | StorePlace,
  how: OpenFor,
): Promise<Store> {
  const place = typeof at === 'object' ? at : storePlace(io, at);
  return opening(io, place, how, openStore);
}

/** Opens Warden over the store at `data`, or ends the command with a usage error saying why not. */
export async function openWardenFor(
  io: Io,
  data: string | undefined,
  how: OpenFor & { readonly warden?: Omit<WardenOptions, 'data' | 'databaseUrl' | 'schema'> },
): Promise<Warden> {
  const place = storePlace(io, data);
  // Loaded here: a command that only needs the store does not load all of Warden.
  const { Warden: Opened } = await import('../warden.js');
  return opening(io, place, how, (options) => Opened.open({ ...options, ...how.warden }));
}
