// Lists a folder inside a confinement: hidden and disallowed names are left
// out (I6), links are reported as links and never followed, and the folder
// listed is the folder that was checked.

import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import type { Confinement } from './confinement.js';
import { openDir } from './descriptor.js';
import { checkLexical, checkSegments, parsePath } from './lexical.js';
import type { PathResult } from './problem.js';
import { ok, quote, refuse } from './problem.js';
import { recheck, walk } from './resolve.js';

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
  /** Sorted by name; hidden and disallowed entries are absent. */
  readonly entries: ListedEntry[];
  /** Entries left out because their names could never be addressed (control characters, `%`, `:` …). */
  readonly omitted: number;
}

export async function listConfined(
  c: Confinement,
  input: string,
): Promise<PathResult<ConfinedListing>> {
  const lexical = checkLexical(c, input);
  if (!lexical.ok) return lexical;
  const shown = quote(input);
  const walked = await walk(c, lexical.value.segments, shown);
  if (!walked.ok) return walked;
  const { abs, segments, stat, viaLink } = walked.value;
  const rechecked = recheck(c, segments, viaLink, shown);
  if (!rechecked.ok) return rechecked;
  if (!stat.isDirectory()) return refuse('not-directory', `path ${shown} is not a folder`);

  const opened = await openDir(c, abs, shown);
  if (!opened.ok) return opened;
  const dir = opened.value;
  try {
    if (!checkSegments(c, dir.segments, shown).ok) {
      return refuse('changed', `path ${shown} changed while it was opened: it was not used`);
    }
    const entries: ListedEntry[] = [];
    let omitted = 0;
    let names: string[];
    try {
      names = await readdir(dir.path);
    } catch {
      return refuse('changed', `path ${shown} changed while it was opened: it was not used`);
    }
    for (const name of names) {
      const parsed = parsePath(name);
      if (!parsed.ok || parsed.value.length !== 1 || parsed.value[0] !== name) {
        omitted += 1;
        continue;
      }
      if (!checkSegments(c, [...dir.segments, name], shown).ok) continue;
      let entry: Stats;
      try {
        entry = await lstat(dir.child(name));
      } catch {
        continue; // removed while listing
      }
      entries.push({ name, type: typeOf(entry), size: entry.isFile() ? entry.size : 0 });
    }
    if (!(await dir.stillSame())) {
      return refuse('changed', `path ${shown} changed while it was opened: it was not used`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return ok({ rel: lexical.value.rel, entries, omitted });
  } finally {
    await dir.close();
  }
}

function typeOf(stat: Stats): EntryType {
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'directory';
  return 'other';
}
