// Lists a folder inside a confinement: hidden and disallowed names are left
// out (I6), links are reported as links and never followed, the folder listed
// is the folder that was checked, and the entries are read as a stream up to
// a cap, so a folder of any size costs a bounded time and memory (I7).

import type { Dir, Dirent, Stats } from 'node:fs';
import { lstat, opendir } from 'node:fs/promises';
import type { Confinement } from './confinement.js';
import type { OpenedDir } from './descriptor.js';
import { closeQuietly } from './descriptor.js';
import { checkLexical, checkSegments, isPlainName } from './lexical.js';
import type { PathResult } from './problem.js';
import { changed, fsProblem, ok, quote, refuse } from './problem.js';
import { walk } from './resolve.js';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface ListedEntry {
  readonly name: string;
  readonly type: EntryType;
  /** Bytes for a file; 0 for anything else. */
  readonly size: number;
}

export interface ConfinedListing {
  /** The normalised path as given, `.` for the root. */
  readonly rel: string;
  /** Sorted by name; hidden and disallowed entries are absent. When cut, the first entries in the folder's own order. */
  readonly entries: ListedEntry[];
  /** Entries left out because their names could never be addressed (control characters, `%`, `:` …), among those read. */
  readonly omitted: number;
  /** Whether the folder holds more listable entries than `maxEntries`. */
  readonly truncated: boolean;
}

export interface ListOptions {
  /** Most entries listed (default 1000); beyond it the listing stops and says `truncated`. */
  readonly maxEntries?: number;
}

/** Entries listed when the caller names no cap. */
export const DEFAULT_MAX_ENTRIES = 1000;

export async function listConfined(
  c: Confinement,
  input: string,
  opts: ListOptions = {},
): Promise<PathResult<ConfinedListing>> {
  const max = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isSafeInteger(max) || max < 0) {
    throw new RangeError(`maxEntries must be a whole number of entries, not ${max}`);
  }
  const lexical = checkLexical(c, input);
  if (!lexical.ok) return lexical;
  const shown = quote(input);
  const walked = await walk(c, lexical.value.segments, shown, { last: 'follow' });
  if (!walked.ok) return walked;
  const { dir, name } = walked.value;
  try {
    if (name !== undefined) return refuse('not-directory', `path ${shown} is not a folder`);
    const read = await readNames(c, dir, max, shown);
    if (!read.ok) return read;
    const entries: ListedEntry[] = [];
    for (const entryName of read.value.names) {
      let entry: Stats;
      try {
        entry = await lstat(dir.child(entryName));
      } catch {
        continue; // removed while listing
      }
      entries.push({ name: entryName, type: typeOf(entry), size: entry.isFile() ? entry.size : 0 });
    }
    if (!(await dir.stillThere())) return changed(shown);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const { omitted, truncated } = read.value;
    return ok({ rel: lexical.value.rel, entries, omitted, truncated });
  } finally {
    await dir.close();
  }
}

/** Streams the folder's names: at most `max` listable ones, and whether another one follows. */
async function readNames(
  c: Confinement,
  dir: OpenedDir,
  max: number,
  shown: string,
): Promise<PathResult<{ names: string[]; omitted: number; truncated: boolean }>> {
  let stream: Dir;
  try {
    stream = await opendir(dir.path);
  } catch (error) {
    return fsProblem(error, shown);
  }
  const names: string[] = [];
  let omitted = 0;
  try {
    for (;;) {
      let entry: Dirent | null;
      try {
        entry = await stream.read();
      } catch (error) {
        return fsProblem(error, shown);
      }
      if (entry === null) return ok({ names, omitted, truncated: false });
      if (!isPlainName(entry.name)) {
        omitted += 1;
        continue;
      }
      if (!checkSegments(c, [...dir.segments, entry.name], shown).ok) continue;
      if (names.length === max) return ok({ names, omitted, truncated: true });
      names.push(entry.name);
    }
  } finally {
    await closeQuietly(stream);
  }
}

function typeOf(stat: Stats): EntryType {
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'directory';
  return 'other';
}
