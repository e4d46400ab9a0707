// Opening files and folders so that the thing used is the thing checked (I5):
// no-follow flags, folders pinned by descriptor, and a check of the OPENED
// descriptor rather than of the path, so a link swapped in after the check
// cannot redirect a read or a write.

import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { lstat, open, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Confinement } from './confinement.js';
import { checkSegments } from './lexical.js';
import type { PathResult, Refusal } from './problem.js';
import { fsProblem, ok, refuse } from './problem.js';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOCTTY = constants.O_NOCTTY ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Never follows a final link, never blocks on a FIFO, never takes a terminal. */
export const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
/** Like reads, and without `O_TRUNC`: the file is truncated only after it is verified. */
export const WRITE_FLAGS = constants.O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
export const CREATE_FLAGS = WRITE_FLAGS | constants.O_CREAT | constants.O_EXCL;
const DIR_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;

/** The segments of `abs` below `root`, or `undefined` when `abs` lies outside it. */
export function segmentsInside(root: string, abs: string): string[] | undefined {
  const rel = relative(root, abs);
  if (rel === '') return [];
  if (isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return undefined;
  return rel.split(sep);
}

/** Where the kernel says a descriptor points (Linux `/proc`); `undefined` elsewhere. */
async function descriptorPath(fd: number): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function changed(shown: string): Refusal {
  return refuse('changed', `path ${shown} changed while it was opened: it was not used`);
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** A folder held open. Names are reached through its descriptor where the platform allows. */
export interface OpenedDir {
  /** Segments of the folder below the root, as the kernel reports them. */
  readonly segments: readonly string[];
  /** A path that reaches this very folder: `/proc/self/fd/<fd>` when pinned. */
  readonly path: string;
  /** A path that reaches `name` inside this very folder. */
  child(name: string): string;
  /** Without `/proc`: whether the folder path still names the opened folder. */
  stillSame(): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens the folder `abs` (a real path found by the walk) and checks the opened folder is that folder. */
export async function openDir(
  c: Confinement,
  abs: string,
  shown: string,
): Promise<PathResult<OpenedDir>> {
  let handle: FileHandle;
  try {
    handle = await open(abs, DIR_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ELOOP' || code === 'ENOTDIR' ? changed(shown) : fsProblem(error, shown);
  }
  const opened = await handle.stat();
  const linked = await descriptorPath(handle.fd);
  const segments = segmentsInside(c.root, linked ?? abs);
  const stillSame = async () => {
    try {
      return (await realpath(abs)) === abs && sameFile(await lstat(abs), opened);
    } catch {
      return false;
    }
  };
  // Pinned, the folder must be exactly the one the walk found; unpinned, its path must still name it.
  if (
    !opened.isDirectory() ||
    segments === undefined ||
    (linked !== undefined ? linked !== abs : !(await stillSame()))
  ) {
    await handle.close();
    return changed(shown);
  }
  const path = linked !== undefined ? `/proc/self/fd/${handle.fd}` : abs;
  return ok({
    segments,
    path,
    child: (name) => join(path, name),
    stillSame: async () => linked !== undefined || (await stillSame()),
    close: () => handle.close(),
  });
}

export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stat: Stats;
}

/**
 * Opens `name` in an opened folder with no-follow flags and verifies the
 * descriptor: it points inside the root and within the allowlist (Linux:
 * `/proc/self/fd`; elsewhere the path must still be link-free and name the
 * same device and inode), and it is a regular file with exactly one link.
 */
export async function openFile(
  c: Confinement,
  dir: OpenedDir,
  name: string,
  flags: number,
  shown: string,
): Promise<PathResult<OpenedFile>> {
  let handle: FileHandle;
  try {
    handle = await open(dir.child(name), flags, 0o666);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP'
      ? refuse('symlink', `path ${shown} is a symbolic link: links are not followed here`)
      : fsProblem(error, shown);
  }
  const verified = await verify(c, handle, dir, name, shown);
  if (!verified.ok) await handle.close();
  return verified;
}

async function verify(
  c: Confinement,
  handle: FileHandle,
  dir: OpenedDir,
  name: string,
  shown: string,
): Promise<PathResult<OpenedFile>> {
  const stat = await handle.stat();
  const linked = await descriptorPath(handle.fd);
  if (linked !== undefined) {
    const segments = segmentsInside(c.root, linked);
    if (segments === undefined || !checkSegments(c, segments, shown).ok) return changed(shown);
  } else {
    const abs = join(dir.path, name);
    try {
      if ((await realpath(abs)) !== abs || !sameFile(await lstat(abs), stat)) return changed(shown);
    } catch {
      return changed(shown);
    }
    if (!(await dir.stillSame())) return changed(shown);
  }
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
