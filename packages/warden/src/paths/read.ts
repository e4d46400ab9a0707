// Reads a file inside a confinement: the file that is read is the file that
// was checked (I5), capped at `maxBytes` (I7), and read from the verified
// descriptor only.

import type { FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Confinement } from './confinement.js';
import { fileKind, openDir, openFile, READ_FLAGS } from './descriptor.js';
import { checkLexical } from './lexical.js';
import type { PathResult } from './problem.js';
import { ok, quote, refuse } from './problem.js';
import { recheck, walk } from './resolve.js';

export interface ConfinedFile {
  /** The normalised path as given, e.g. `Workspace/report.md`. */
  readonly rel: string;
  /** The real absolute path that was read. */
  readonly abs: string;
  /** The file's size when it was opened. */
  readonly size: number;
  /** At most `maxBytes` bytes. */
  readonly content: Buffer;
  /** Whether the file holds more than `content`. */
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
  const walked = await walk(c, lexical.value.segments, shown);
  if (!walked.ok) return walked;
  const { abs, segments, stat, viaLink } = walked.value;
  const rechecked = recheck(c, segments, viaLink, shown);
  if (!rechecked.ok) return rechecked;
  // Refuse FIFOs, devices and hard links before opening anything.
  const kind = fileKind(stat, shown);
  if (!kind.ok) return kind;

  const dir = await openDir(c, dirname(abs), shown);
  if (!dir.ok) return dir;
  try {
    const opened = await openFile(c, dir.value, basename(abs), READ_FLAGS, shown);
    if (!opened.ok) return opened;
    const { handle, stat: openedStat } = opened.value;
    try {
      const { content, truncated } = await readCapped(handle, opts.maxBytes);
      return ok({ rel: lexical.value.rel, abs, size: openedStat.size, content, truncated });
    } finally {
      await handle.close();
    }
  } finally {
    await dir.value.close();
  }
}

const CHUNK_BYTES = 64 * 1024;

/** Reads up to `maxBytes` from the descriptor, and one byte more to tell whether the file was cut. */
async function readCapped(
  handle: FileHandle,
  maxBytes: number,
): Promise<{ content: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const want = Math.min(CHUNK_BYTES, maxBytes + 1 - total);
    const chunk = Buffer.alloc(want);
    const { bytesRead } = await handle.read(chunk, 0, want, total);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  const all = Buffer.concat(chunks, total);
  return { content: all.subarray(0, Math.min(total, maxBytes)), truncated: total > maxBytes };
}
