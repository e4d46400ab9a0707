// Opening files and folders so that the thing used is the thing checked (I5):
// no-follow flags, folders pinned by descriptor and reached only through
// their parent's descriptor, and a check of the OPENED descriptor rather than
// of the path, so a link swapped in after the check cannot redirect anything.

import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { lstat, open, readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Confinement } from './confinement.js';
import type { PathResult, Refusal } from './problem.js';
import { changed, errorCode, fsProblem, ok, refuse } from './problem.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOCTTY = constants.O_NOCTTY ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Never follows a final link, never blocks on a FIFO, never takes a terminal. */
export const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
/** A fresh file only: writes go to a new temporary file that is renamed into place. */
export const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
const DIR_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;

/** The real absolute path of `segments` below the root. */
export function absOf(c: Confinement, segments: readonly string[]): string {
  return join(c.root, ...segments);
}

/** Where the kernel says a descriptor points (Linux `/proc`); `undefined` elsewhere. */
async function descriptorPath(fd: number): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Without `/proc`: whether `abs` is still link-free and names the file `stat` describes. */
async function stillAt(abs: string, stat: Stats): Promise<boolean> {
  try {
    return (await realpath(abs)) === abs && sameFile(await lstat(abs), stat);
  } catch {
    return false;
  }
}

/** Closes a descriptor that was only read: a failing close loses nothing. */
export async function closeQuietly(handle: { close(): Promise<void> }): Promise<void> {
  try {
    await handle.close();
  } catch {
    // nothing was written through it
  }
}

/** A folder held open. Names in it are reached through its descriptor where the platform allows. */
export interface OpenedDir {
  /** Its real segments below the root. */
  readonly segments: readonly string[];
  /** Its real absolute path. */
  readonly abs: string;
  /** A path that reaches this very folder: `/proc/self/fd/<fd>` when pinned. */
  readonly path: string;
  /** Whether names are reached through the descriptor (Linux) or through `abs` (elsewhere). */
  readonly pinned: boolean;
  /** A path that reaches `name` inside this very folder. */
  child(name: string): string;
  /** Whether the folder still lies at `abs` (it was not moved or swapped). */
  stillThere(): Promise<boolean>;
  /** Closes the descriptor; never throws. */
  close(): Promise<void>;
}

/** A folder that could not be opened, with the errno that says why, if any. */
export interface FolderRefusal extends Refusal {
  readonly errno?: string;
}

/**
 * Opens the folder at `path` that should be the real folder `segments`, with
 * no-follow flags: a link there fails with `ELOOP`, anything but a folder
 * with `ENOTDIR`, and nothing is opened that could block or take a terminal.
 * Reached by name through a pinned folder (`via`), it is pinned by
 * construction; otherwise it must lie at its real path as the kernel sees it
 * (`/proc/self/fd`), or, without `/proc`, as its device and inode say.
 */
export async function openFolder(
  c: Confinement,
  path: string,
  segments: readonly string[],
  via: OpenedDir | undefined,
  shown: string,
): Promise<PathResult<OpenedDir> | FolderRefusal> {
  const abs = absOf(c, segments);
  let handle: FileHandle;
  try {
    handle = await open(path, DIR_FLAGS);
  } catch (error) {
    const refusal = fsProblem(error, shown);
    const errno = errorCode(error);
    return errno === undefined ? refusal : { ...refusal, errno };
  }
  const linked = via === undefined ? await descriptorPath(handle.fd) : undefined;
  const pinned = via?.pinned ?? linked !== undefined;
  let stat: Stats | undefined;
  try {
    stat = pinned ? undefined : await handle.stat();
  } catch (error) {
    await closeQuietly(handle);
    return fsProblem(error, shown);
  }
  const there =
    via?.pinned === true ||
    (linked !== undefined ? linked === abs : stat !== undefined && (await stillAt(abs, stat)));
  if (!there || (stat !== undefined && !stat.isDirectory())) {
    await closeQuietly(handle);
    return changed(shown);
  }
  const dirPath = pinned ? `/proc/self/fd/${handle.fd}` : abs;
  return ok({
    segments,
    abs,
    path: dirPath,
    pinned,
    child: (name) => join(dirPath, name),
    stillThere: async () =>
      stat === undefined ? (await descriptorPath(handle.fd)) === abs : stillAt(abs, stat),
    close: () => closeQuietly(handle),
  });
}

/** Opens the root; pinned when `/proc/self/fd` tells where the descriptor points. */
export function openRoot(c: Confinement, shown: string): Promise<PathResult<OpenedDir>> {
  return openFolder(c, c.root, [], undefined, shown);
}

export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stat: Stats;
}

/**
 * Opens `name` in an opened folder with no-follow flags and verifies the
 * descriptor: it is `name` in that very folder (Linux: `/proc/self/fd`;
 * elsewhere the path must still be link-free and name the same device and
 * inode), and it is a regular file with exactly one link.
 */
export async function openFile(
  dir: OpenedDir,
  name: string,
  flags: number,
  shown: string,
): Promise<PathResult<OpenedFile>> {
  let handle: FileHandle;
  try {
    handle = await open(dir.child(name), flags, 0o666);
  } catch (error) {
    return fsProblem(error, shown);
  }
  const verified = await verify(handle, dir, name, shown);
  if (!verified.ok) await closeQuietly(handle);
  return verified;
}

async function verify(
  handle: FileHandle,
  dir: OpenedDir,
  name: string,
  shown: string,
): Promise<PathResult<OpenedFile>> {
  let stat: Stats;
  try {
    stat = await handle.stat();
  } catch (error) {
    return fsProblem(error, shown);
  }
  const abs = join(dir.abs, name);
  // Opened by name in the pinned folder, the file was that entry; removed since, Linux says so.
  const linked = dir.pinned ? await descriptorPath(handle.fd) : undefined;
  const there = dir.pinned
    ? linked === abs || linked === `${abs} (deleted)`
    : (await stillAt(abs, stat)) && (await dir.stillThere());
  if (!there) return changed(shown);
  const kind = fileKind(stat, shown);
  return kind.ok ? ok({ handle, stat }) : kind;
}

/** Only regular files with a single link are read or written. */
export function fileKind(stat: Stats, shown: string): PathResult<true> {
  if (stat.isDirectory()) return refuse('is-directory', `path ${shown} is a folder, not a file`);
  if (stat.isSymbolicLink()) {
    return refuse('symlink', `path ${shown} is a symbolic link: links are not followed here`);
  }
  if (!stat.isFile()) {
    return refuse(
      'not-regular',
      `path ${shown} is not a regular file: only regular files are used`,
    );
  }
  if (stat.nlink > 1) {
    return refuse(
      'hardlink',
      `path ${shown} has ${stat.nlink} hard links: a file with more than one link is refused`,
    );
  }
  return ok(true);
}
