// Writes a file inside a confinement for an agent's own file tools: never
// through a link, never into a file with other names, parents created only
// inside the root. The bytes go to a fresh temporary file in the pinned
// folder, verified by descriptor, which is then renamed into place: a write
// that fails half-way leaves the old content whole.

import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import type { Confinement } from './confinement.js';
import { assertWritable } from './confinement.js';
import type { OpenedDir } from './descriptor.js';
import { absOf, closeQuietly, CREATE_FLAGS, fileKind, openFile } from './descriptor.js';
import { checkLexical } from './lexical.js';
import type { PathResult } from './problem.js';
import { changed, fsProblem, ok, quote, refuse } from './problem.js';
import { walk } from './resolve.js';

export interface WrittenFile {
  /** The normalised path as given. */
  readonly rel: string;
  /** The real absolute path written. */
  readonly abs: string;
  readonly bytes: number;
  /** Whether the file did not exist before. */
  readonly created: boolean;
}

export interface WriteOptions {
  /** Create missing parent folders (inside the root only). Default: false. */
  readonly createParents?: boolean;
}

/** Writes `data` to `input`; throws a `TypeError` for a read-only confinement (I4). */
export async function writeConfined(
  c: Confinement,
  input: string,
  data: string | Buffer,
  opts: WriteOptions = {},
): Promise<PathResult<WrittenFile>> {
  assertWritable(c, 'write');
  const lexical = checkLexical(c, input);
  if (!lexical.ok) return lexical;
  const shown = quote(input);
  if (lexical.value.segments.length === 0) {
    return refuse('root', `path ${shown} is the root folder: it cannot be written`);
  }
  if (lexical.value.folder === true) {
    return refuse('is-directory', `path ${shown} names a folder: a file cannot be written there`);
  }
  const walked = await walk(c, lexical.value.segments, shown, {
    last: 'entry',
    create: opts.createParents ?? false,
  });
  if (!walked.ok) return walked;
  const { dir, name, stat: existing, segments } = walked.value;
  try {
    if (name === undefined) return refuse('is-directory', `path ${shown} is a folder, not a file`);
    if (existing !== undefined) {
      const kind = fileKind(existing, shown);
      if (!kind.ok) return kind;
    }
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const replaced = await replace(dir, name, existing, bytes, shown);
    if (!replaced.ok) return replaced;
    return ok({
      rel: lexical.value.rel,
      abs: absOf(c, segments),
      bytes: bytes.length,
      created: existing === undefined,
    });
  } finally {
    await dir.close();
  }
}

/**
 * Writes a temporary file beside `name` and renames it over `name`. The
 * temporary file keeps the old file's permission bits (and, where allowed, its
 * owner); it is removed again whenever anything fails.
 */
async function replace(
  dir: OpenedDir,
  name: string,
  existing: Stats | undefined,
  data: Buffer,
  shown: string,
): Promise<PathResult<true>> {
  const temp = `.warden-write-${randomBytes(8).toString('hex')}`;
  const opened = await openFile(dir, temp, CREATE_FLAGS, shown);
  if (!opened.ok) return opened;
  const { handle } = opened.value;
  let open = true;
  let placed = false;
  try {
    if (existing !== undefined) {
      await handle.chmod(existing.mode & 0o7777);
      await keepOwner(handle, existing);
    }
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await handle.write(data, written, data.length - written, written);
      written += bytesWritten;
    }
    open = false;
    await handle.close();
    if (!(await dir.stillThere())) return changed(shown);
    await rename(dir.child(temp), dir.child(name));
    placed = true;
    return ok(true);
  } catch (error) {
    return fsProblem(error, shown);
  } finally {
    if (open) await closeQuietly(handle);
    if (!placed) await unlink(dir.child(temp)).catch(() => undefined);
  }
}

/** Gives the new file the old one's owner when that differs and the process may; otherwise it keeps the writer's. */
async function keepOwner(
  handle: { chown(uid: number, gid: number): Promise<void> },
  existing: Stats,
): Promise<void> {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid === undefined || (existing.uid === uid && existing.gid === gid)) return;
  try {
    await handle.chown(existing.uid, existing.gid);
  } catch {
    // Not permitted: the file becomes the writer's, as any rewrite by this user would.
  }
}
