// Soft delete for an agent's file tools: moves a file or folder into
// `<root>/<trash>/<stamp>/<path>` instead of removing it. The move is a rename
// between two pinned folders, so neither end can be redirected outside the root.

import { lstat, rename } from 'node:fs/promises';
import type { Confinement } from './confinement.js';
import { startsWithFolded } from './confinement.js';
import type { OpenedDir } from './descriptor.js';
import { openDir } from './descriptor.js';
import { checkLexical, parsePath, relOf } from './lexical.js';
import type { PathResult, Refusal } from './problem.js';
import { fsProblem, ok, quote, refuse } from './problem.js';
import { recheck, walk } from './resolve.js';

export interface TrashPlace {
  /** Where the trash lives below the root, e.g. `['.trash']`; usually a hidden prefix. */
  readonly segments: readonly string[];
  /** One segment naming this deletion, e.g. a timestamp; a fresh one per call. */
  readonly stamp: string;
}

export interface TrashedPath {
  /** The normalised path as given. */
  readonly rel: string;
  /** Where it now lies, relative to the root: `.trash/<stamp>/<path>`. */
  readonly trashedAs: string;
}

/** A bad trash place is a configuration bug, not a refusal: it throws. */
function checkPlace(trash: TrashPlace): void {
  for (const segment of [...trash.segments, trash.stamp]) {
    const parsed = parsePath(segment);
    if (!parsed.ok || parsed.value.length !== 1 || parsed.value[0] !== segment) {
      throw new RangeError(`trash segment \`${segment}\` must be one plain path segment`);
    }
  }
  if (trash.segments.length === 0) throw new RangeError('trash segments must not be empty');
}

export async function trashConfined(
  c: Confinement,
  input: string,
  trash: TrashPlace,
): Promise<PathResult<TrashedPath>> {
  checkPlace(trash);
  const lexical = checkLexical(c, input);
  if (!lexical.ok) return lexical;
  const shown = quote(input);
  const name = lexical.value.segments.at(-1);
  if (name === undefined)
    return refuse('root', `path ${shown} is the root folder: it cannot be trashed`);
  const inTrash = trashProblem(lexical.value.segments, trash.segments, shown);
  if (inTrash !== undefined) return inTrash;

  const parent = await walk(c, lexical.value.segments.slice(0, -1), shown);
  if (!parent.ok) return parent;
  if (!parent.value.stat.isDirectory()) {
    return refuse('not-directory', `path ${shown} does not exist: its parent is not a folder`);
  }
  const segments = [...parent.value.segments, name];
  const rechecked = recheck(c, segments, parent.value.viaLink, shown);
  if (!rechecked.ok) return rechecked;
  const realInTrash = trashProblem(segments, trash.segments, shown);
  if (realInTrash !== undefined) return realInTrash;

  const from = await openDir(c, parent.value.abs, shown);
  if (!from.ok) return from;
  try {
    try {
      await lstat(from.value.child(name)); // the entry itself, never what a link points at
    } catch (error) {
      return fsProblem(error, shown);
    }
    const target = [...trash.segments, trash.stamp, ...segments];
    const moved = await moveInto(c, from.value, name, target);
    return moved.ok ? ok({ rel: lexical.value.rel, trashedAs: relOf(target) }) : moved;
  } finally {
    await from.value.close();
  }
}

/** The trash cannot be trashed, nor can a folder that holds it. */
function trashProblem(
  segments: readonly string[],
  trash: readonly string[],
  shown: string,
): Refusal | undefined {
  if (startsWithFolded(segments, trash)) {
    return refuse('trash', `path ${shown} lies in the trash: the trash itself cannot be trashed`);
  }
  if (startsWithFolded(trash, segments)) {
    return refuse('trash', `path ${shown} holds the trash: it cannot be moved into itself`);
  }
  return undefined;
}

/** Creates the trash folders (inside the root, links out refused) and renames the entry there. */
async function moveInto(
  c: Confinement,
  from: OpenedDir,
  name: string,
  target: readonly string[],
): Promise<PathResult<true>> {
  const shownTarget = quote(relOf(target));
  const parent = await walk(c, target.slice(0, -1), shownTarget, { create: true, hiddenOk: true });
  if (!parent.ok) return parent;
  if (!parent.value.stat.isDirectory()) {
    return refuse(
      'not-directory',
      `trash entry ${shownTarget} cannot be made: its parent is not a folder`,
    );
  }
  const to = await openDir(c, parent.value.abs, shownTarget);
  if (!to.ok) return to;
  try {
    try {
      await lstat(to.value.child(name));
      return refuse('exists', `trash entry ${shownTarget} already exists: use a fresh stamp`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return fsProblem(error, shownTarget);
    }
    try {
      await rename(from.child(name), to.value.child(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EINVAL') {
        return refuse('trash', `trash entry ${shownTarget} would lie inside what is moved`);
      }
      return fsProblem(error, shownTarget);
    }
    if (!(await from.stillSame()) || !(await to.value.stillSame())) {
      return refuse('changed', `trash entry ${shownTarget} changed while it was moved`);
    }
    return ok(true);
  } finally {
    await to.value.close();
  }
}
