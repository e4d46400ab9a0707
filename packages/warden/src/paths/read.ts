// Reads a file inside a confinement: the file that is read is the file that
// was checked (I5), capped at `maxBytes` (I7), read from the verified
// descriptor only, and never past the size it had when it was opened.

import type { FileHandle } from 'node:fs/promises';
import type { Confinement } from './confinement.js';
import { absOf, closeQuietly, fileKind, openFile, READ_FLAGS } from './descriptor.js';
import { checkLexical } from './lexical.js';
import type { PathResult } from './problem.js';
import { fsProblem, ok, quote, refuse } from './problem.js';
import { walk } from './resolve.js';

export interface ConfinedFile {
  /** The normalised path as given, e.g. `Workspace/report.md`. */
  readonly rel: string;
  /** The real absolute path that was read. */
  readonly abs: string;
  /** The file's size when it was opened (less if it shrank while read). */
  readonly size: number;
  /** The first `min(size, maxBytes)` bytes. */
  readonly content: Buffer;
  /** Whether the file holds more than `content`: exactly when `content.length < size`. */
  readonly truncated: boolean;
}

export async function readConfined(
  c: Confinement,
  input: string,
  opts: { readonly maxBytes: number },
): Promise<PathResult<ConfinedFile>> {
  if (!Number.isSafeInteger(opts.maxBytes) || opts.maxBytes < 0) {
    throw new RangeError(`maxBytes must be a whole number of bytes, not ${opts.maxBytes}`);
  }
  const lexical = checkLexical(c, input);
  if (!lexical.ok) return lexical;
  const shown = quote(input);
  if (lexical.value.segments.length === 0) {
    return refuse('is-directory', `path ${shown} is the root folder, not a file`);
  }
  const walked = await walk(c, lexical.value.segments, shown, { last: 'follow' });
  if (!walked.ok) return walked;
  const { dir, name, stat, segments } = walked.value;
  try {
    if (name === undefined || stat === undefined) {
      return refuse('is-directory', `path ${shown} is a folder, not a file`);
    }
    if (lexical.value.folder === true) {
      return refuse('not-directory', `path ${shown} ends in \`/\`, but it is not a folder`);
    }
    // Refuse FIFOs, devices and hard links before opening anything.
    const kind = fileKind(stat, shown);
    if (!kind.ok) return kind;
    const opened = await openFile(dir, name, READ_FLAGS, shown);
    if (!opened.ok) return opened;
    const { handle, stat: openedStat } = opened.value;
    try {
      const read = await readCapped(handle, openedStat.size, opts.maxBytes, shown);
      if (!read.ok) return read;
      return ok({ rel: lexical.value.rel, abs: absOf(c, segments), ...read.value });
    } finally {
      await closeQuietly(handle);
    }
  } finally {
    await dir.close();
  }
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads at most `maxBytes` — and one byte more, to know the file was cut —
 * but never past `size`, the size at opening: bytes appended meanwhile are
 * not read, and a file that shrank reports the bytes it still had.
 */
async function readCapped(
  handle: FileHandle,
  size: number,
  maxBytes: number,
  shown: string,
): Promise<PathResult<{ size: number; content: Buffer; truncated: boolean }>> {
  const limit = Math.min(size, maxBytes + 1);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    while (total < limit) {
      const want = Math.min(CHUNK_BYTES, limit - total);
      const chunk = Buffer.alloc(want);
      const { bytesRead } = await handle.read(chunk, 0, want, total);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
  } catch (error) {
    return fsProblem(error, shown);
  }
  const all = Buffer.concat(chunks, total);
  const seen = total < limit ? total : size;
  const content = all.subarray(0, Math.min(total, maxBytes));
  return ok({ size: seen, content, truncated: content.length < seen });
}
