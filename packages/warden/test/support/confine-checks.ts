// What the confinement tests share beyond their folders: the code a result was
// refused with, the message style every refusal keeps, and patches that make
// the file system misbehave for every module until they are undone.

import type * as fsPromises from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { expect } from 'vitest';
import type { PathCode, PathResult } from '../../src/paths/index.js';
import { OUTSIDE, SECRET } from './confine-fixtures.js';

/** `ok`, or the code a result was refused with. */
export function refusedAs<T>(result: PathResult<T>): PathCode | 'ok' {
  return result.ok ? 'ok' : result.problem.code;
}

/** A Cedar sentence (lowercase, no trailing period) that shows no secret and no outside file. */
export function expectCedarStyle(message: string): void {
  expect(message).toMatch(/^[a-z]/);
  expect(message).not.toMatch(/\.$/);
  expect(message).not.toContain(SECRET);
  expect(message).not.toContain(OUTSIDE);
}

// The module object behind `node:fs/promises`; `syncBuiltinESMExports` hands a
// change of it to every ESM import as well.
const fsp = createRequire(import.meta.url)('node:fs/promises') as typeof fsPromises;
type FspCall = (...args: unknown[]) => Promise<unknown>;

/** Replaces `fs/promises`' `name` by what `make` builds from the original; returns the undo. */
export function patchFsp(
  name: keyof typeof fsPromises,
  make: (original: FspCall) => FspCall,
): () => void {
  const module = fsp as unknown as Record<string, unknown>;
  const original = module[name];
  module[name] = make(original as FspCall);
  syncBuiltinESMExports();
  return () => {
    module[name] = original;
    syncBuiltinESMExports();
  };
}

/**
 * Replaces the `FileHandle` method `name` of every handle (their shared
 * prototype, found by opening `probe`) by what `make` builds; returns the undo.
 */
export async function patchFileHandle<K extends 'read' | 'write'>(
  probe: string,
  name: K,
  make: (original: FileHandle[K]) => FileHandle[K],
): Promise<() => void> {
  const handle = await fsp.open(probe, 'r');
  const proto = Object.getPrototypeOf(handle) as Pick<FileHandle, K>;
  await handle.close();
  const original = proto[name];
  proto[name] = make(original);
  return () => {
    proto[name] = original;
  };
}
