// Writes a file inside a confinement for an agent's own file tools: never
// through a link, never into a file with other names, parents created only
// inside the root, and the descriptor verified before a byte changes.

import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Confinement } from './confinement.js';
import type { OpenedFile } from './descriptor.js';
import { CREATE_FLAGS, fileKind, openDir, openFile, WRITE_FLAGS } from './descriptor.js';
import { checkLexical } from './lexical.js';
import type { PathResult } from './problem.js';
import { fsProblem, ok, quote, refuse } from './problem.js';
import { recheck, walk } from './resolve.js';

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

export async function writeConfined(
  c: Confinement,
  input: string,
  data: string | Buffer,
  opts: WriteOptions = {},
): Promise<PathResult<WrittenFile>> {
  const lexical = checkLexical(c, input);
  if (!lexical.ok) return lexical;
  const shown = quote(input);
  const name = lexical.value.segments.at(-1);
  if (name === undefined)
    return refuse('root', `path ${shown} is the root folder: it cannot be written`);

  const parent = await walk(c, lexical.value.segments.slice(0, -1), shown, {
    create: opts.createParents ?? false,
  });
  if (!parent.ok) return parent;
  if (!parent.value.stat.isDirectory()) {
    return refuse('not-directory', `path ${shown} does not exist: its parent is not a folder`);
  }
  const segments = [...parent.value.segments, name];
  const rechecked = recheck(c, segments, parent.value.viaLink, shown);
  if (!rechecked.ok) return rechecked;

  const dir = await openDir(c, parent.value.abs, shown);
  if (!dir.ok) return dir;
  try {
    let existing: Stats | undefined;
    try {
      existing = await lstat(dir.value.child(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return fsProblem(error, shown);
    }
    if (existing !== undefined) {
      const kind = fileKind(existing, shown);
      if (!kind.ok) return kind;
    }
    let created = existing === undefined;
    let opened = await openFile(c, dir.value, name, created ? CREATE_FLAGS : WRITE_FLAGS, shown);
    if (!opened.ok && created && opened.problem.code === 'exists') {
      created = false;
      opened = await openFile(c, dir.value, name, WRITE_FLAGS, shown);
    }
    if (!opened.ok) return opened;
    const bytes = await writeAll(opened.value, typeof data === 'string' ? Buffer.from(data) : data);
    return ok({ rel: lexical.value.rel, abs: join(parent.value.abs, name), bytes, created });
  } finally {
    await dir.value.close();
  }
}

/** Truncates only now that the descriptor is verified, then writes everything. */
async function writeAll({ handle }: OpenedFile, data: Buffer): Promise<number> {
  try {
    await handle.truncate(0);
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await handle.write(data, written, data.length - written, written);
      written += bytesWritten;
    }
    return written;
  } finally {
    await handle.close();
  }
}
