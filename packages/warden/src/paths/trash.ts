// Soft delete for an agent's file tools: moves a file or folder into
// `<root>/<trash>/<stamp>/<path>` instead of removing it. The move is a rename
// between two pinned folders; every trash folder is a real folder (a link
// there would send trashed files elsewhere), a new trash keeps itself out of
// git, and a move that fails takes back the folders it made.

import { lstat, rename, rmdir, unlink } from 'node:fs/promises';
import type { Confinement } from './confinement.js';
import { assertWritable, startsWithFolded } from './confinement.js';
import type { OpenedDir } from './descriptor.js';
import { closeQuietly, CREATE_FLAGS, openFile } from './descriptor.js';
import { checkLexical, isPlainName, relOf } from './lexical.js';
import type { PathResult, Refusal } from './problem.js';
import { changed, errorCode, fsProblem, linkRefusal, ok, quote, refuse } from './problem.js';
import { walk } from './resolve.js';

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

/** What a new trash folder holds, so `git add -A` never stages what was deleted. */
const TRASH_GITIGNORE = '*\n';

/** A bad trash place is a configuration bug, not a refusal: it throws. */
function checkPlace(trash: TrashPlace): void {
  for (const segment of [...trash.segments, trash.stamp]) {
    if (!isPlainName(segment)) {
      throw new RangeError(`trash segment \`${segment}\` must be one plain path segment`);
    }
  }
  if (trash.segments.length === 0) throw new RangeError('trash segments must not be empty');
}

/** Moves `input` into the trash; throws a `TypeError` for a read-only confinement (I4). */
export async function trashConfined(
  c: Confinement,
  input: string,
  trash: TrashPlace,
): Promise<PathResult<TrashedPath>> {
  assertWritable(c, 'trash');
  checkPlace(trash);
  const lexical = checkLexical(c, input);
  if (!lexical.ok) return lexical;
  const shown = quote(input);
  if (lexical.value.segments.length === 0) {
    return refuse('root', `path ${shown} is the root folder: it cannot be trashed`);
  }
  const inTrash = trashProblem(lexical.value.segments, trash.segments, shown);
  if (inTrash !== undefined) return inTrash;

  const walked = await walk(c, lexical.value.segments, shown, { last: 'entry' });
  if (!walked.ok) return walked;
  const { dir: from, name, stat, segments, viaLink } = walked.value;
  try {
    if (name === undefined || stat === undefined) {
      return viaLink ? linkRefusal(shown) : refuse('not-found', `path ${shown} does not exist`);
    }
    if (lexical.value.folder === true && !stat.isDirectory()) {
      return refuse('not-directory', `path ${shown} ends in \`/\`, but it is not a folder`);
    }
    const realInTrash = trashProblem(segments, trash.segments, shown);
    if (realInTrash !== undefined) return realInTrash;
    const target = [...trash.segments, trash.stamp, ...segments];
    const moved = await moveInto(c, from, name, target, trash.segments, shown);
    return moved.ok ? ok({ rel: lexical.value.rel, trashedAs: relOf(target) }) : moved;
  } finally {
    await from.close();
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

/** Makes the trash folders (real folders inside the root) and renames the entry there; undoes what it made on failure. */
async function moveInto(
  c: Confinement,
  from: OpenedDir,
  name: string,
  target: readonly string[],
  trash: readonly string[],
  shown: string,
): Promise<PathResult<true>> {
  const made: (readonly string[])[] = [];
  const moved = await makeAndMove(c, from, name, target, trash, shown, made);
  if (!moved.ok) await removeMade(c, made, trash, shown);
  return moved;
}

async function makeAndMove(
  c: Confinement,
  from: OpenedDir,
  name: string,
  target: readonly string[],
  trash: readonly string[],
  shown: string,
  made: (readonly string[])[],
): Promise<PathResult<true>> {
  const root = await walk(c, trash, shown, { last: 'follow', create: true, trash });
  if (!root.ok) return root;
  made.push(...root.value.made);
  try {
    if (root.value.name !== undefined) return notAFolder(shown, trash);
    if (made.some((m) => m.length === trash.length)) {
      const ignored = await writeGitignore(root.value.dir, shown);
      if (!ignored.ok) return ignored;
    }
  } finally {
    await root.value.dir.close();
  }
  const parent = await walk(c, target.slice(0, -1), shown, { last: 'follow', create: true, trash });
  if (!parent.ok) return parent;
  made.push(...parent.value.made);
  const to = parent.value.dir;
  try {
    if (parent.value.name !== undefined) return notAFolder(shown, target.slice(0, -1));
    try {
      await lstat(to.child(name));
      return refuse(
        'exists',
        `trash entry ${quote(relOf(target))} already exists: use a fresh stamp`,
      );
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') return fsProblem(error, shown);
    }
    if (!(await from.stillThere()) || !(await to.stillThere())) return changed(shown);
    try {
      await rename(from.child(name), to.child(name));
    } catch (error) {
      if (errorCode(error) === 'EINVAL') {
        return refuse('trash', `path ${shown} would lie inside itself in the trash`);
      }
      return fsProblem(error, shown);
    }
    if (!(await from.stillThere()) || !(await to.stillThere())) return changed(shown);
    return ok(true);
  } finally {
    await to.close();
  }
}

function notAFolder(shown: string, segments: readonly string[]): Refusal {
  return refuse(
    'not-directory',
    `path ${shown} cannot be moved to the trash: ${quote(relOf(segments))} is not a folder`,
  );
}

async function writeGitignore(dir: OpenedDir, shown: string): Promise<PathResult<true>> {
  const opened = await openFile(dir, '.gitignore', CREATE_FLAGS, shown);
  if (!opened.ok) return opened;
  const { handle } = opened.value;
  try {
    await handle.writeFile(TRASH_GITIGNORE);
    await handle.close();
    return ok(true);
  } catch (error) {
    await closeQuietly(handle);
    return fsProblem(error, shown);
  }
}

/** Removes the folders a failed trash made, innermost first, each through its pinned, link-free parent. */
async function removeMade(
  c: Confinement,
  made: readonly (readonly string[])[],
  trash: readonly string[],
  shown: string,
): Promise<void> {
  for (const folder of [...made].reverse()) {
    if (folder.length === trash.length) await removeIn(c, folder, '.gitignore', trash, shown);
    const name = folder.at(-1);
    if (name === undefined || !(await removeIn(c, folder.slice(0, -1), name, trash, shown))) return;
  }
}

/** Removes the file or empty folder `name` in the real folder `segments`; whether it is gone. */
async function removeIn(
  c: Confinement,
  segments: readonly string[],
  name: string,
  trash: readonly string[],
  shown: string,
): Promise<boolean> {
  const walked = await walk(c, segments, shown, { last: 'follow', trash });
  if (!walked.ok) return false;
  const { dir } = walked.value;
  try {
    if (walked.value.name !== undefined) return false;
    const path = dir.child(name);
    await ((await lstat(path)).isDirectory() ? rmdir(path) : unlink(path));
    return true;
  } catch {
    return false; // not empty, or gone: leave the rest as it is
  } finally {
    await dir.close();
  }
}
