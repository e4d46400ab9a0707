// Ordinary file-system failures are refusals, not throws (I5): a full disk, a
// busy file, a read-only or foreign file system, a denied permission, a code
// nobody has seen. A failed write keeps the old content; a failed trash
// leaves nothing behind; no message shows a descriptor path.

import { constants, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Confinement, PathResult } from '../../src/paths/index.js';
import {
  listConfined,
  readConfined,
  trashConfined,
  worktreeConfinement,
  writeConfined,
} from '../../src/paths/index.js';
import { patchFileHandle, patchFsp } from '../support/confine-checks.js';
import { build, confineFolder } from '../support/confine-fixtures.js';

type Faulty = 'open' | 'lstat' | 'rename' | 'opendir';
const restores: (() => void)[] = [];

function errno(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, '${path}'`), { code, path });
}

/**
 * Makes `fs/promises`' `name` fail with `code` when one of its path arguments ends in
 * `/<tail>` (any call for `*`; for `open`, `write` matches every open to write).
 */
function fault(name: Faulty, tail: string, code: string): void {
  const matches = (args: unknown[]) =>
    tail === '*' ||
    (tail === 'write' && typeof args[1] === 'number' && (args[1] & constants.O_WRONLY) !== 0) ||
    args.some((arg) => typeof arg === 'string' && arg.endsWith(`/${tail}`));
  restores.push(
    patchFsp(
      name,
      (original) =>
        (...args) =>
          matches(args) ? Promise.reject(errno(code, String(args[0]))) : original(...args),
    ),
  );
}

/** Makes every `FileHandle.write` fail with `code`, until the test ends. */
async function faultWrites(code: string, probe: string): Promise<void> {
  const failing = () => Promise.reject(errno(code, '/proc/self/fd/99'));
  restores.push(await patchFileHandle(probe, 'write', () => failing as FileHandle['write']));
}

const { base: tree } = confineFolder('faults');
let tools: Confinement;

beforeAll(async () => {
  build(tree, { 'victim.md': 'old content', 'deep/x.md': 'x' });
  tools = await worktreeConfinement(tree);
});

afterEach(() => {
  for (const restore of restores.splice(0).reverse()) restore();
});

function expectRefusal(result: PathResult<unknown>, code: string, shown: string): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.problem.code).toBe(code);
  expect(result.problem.message).toContain(`\`${shown}\``);
  expect(result.problem.message).not.toContain('/proc/');
  expect(result.problem.message).not.toContain(tree);
  expect(result.problem.message).toMatch(/^[a-z].*[^.]$/);
}

describe('a file-system failure becomes a refusal naming the path given (I5)', () => {
  const codes: [code: string, refusal: string][] = [
    ['ETXTBSY', 'io'],
    ['EXDEV', 'io'],
    ['EBUSY', 'io'],
    ['EROFS', 'io'],
    ['ENOSPC', 'io'],
    ['EDQUOT', 'io'],
    ['EFBIG', 'io'],
    ['EMLINK', 'io'],
    ['EIO', 'io'],
    ['EMFILE', 'io'],
    ['ENEVERSEEN', 'io'],
    ['EACCES', 'permission'],
    ['EPERM', 'permission'],
  ];
  it.each(codes)('%s on opening a file to read is refused as %s', async (code, refusal) => {
    fault('open', 'victim.md', code);
    expectRefusal(await readConfined(tools, 'victim.md', { maxBytes: 64 }), refusal, 'victim.md');
  });

  it.each(codes)('%s on opening a file to write is refused as %s', async (code, refusal) => {
    fault('open', 'write', code);
    expectRefusal(await writeConfined(tools, 'victim.md', 'new'), refusal, 'victim.md');
    expect(readFileSync(join(tree, 'victim.md'), 'utf8')).toBe('old content');
  });

  it('a failure while walking a folder on the way is refused, not thrown', async () => {
    fault('lstat', 'deep', 'EIO');
    fault('open', 'deep', 'EIO');
    expectRefusal(await readConfined(tools, 'deep/x.md', { maxBytes: 64 }), 'io', 'deep/x.md');
  });

  it('a failure opening a folder to list it is refused, not thrown', async () => {
    fault('opendir', '*', 'EMFILE');
    expectRefusal(await listConfined(tools, 'deep'), 'io', 'deep');
  });
});

describe('a failed write keeps the old content (I5)', () => {
  it('a full disk while writing leaves the old file whole and no temporary file', async () => {
    await faultWrites('ENOSPC', join(tree, 'deep', 'x.md'));
    expectRefusal(await writeConfined(tools, 'victim.md', 'new content'), 'io', 'victim.md');
    expect(readFileSync(join(tree, 'victim.md'), 'utf8')).toBe('old content');
    expect(readdirSync(tree).sort()).toEqual(['deep', 'victim.md']);
  });

  it('a failed rename into place leaves the old file whole and no temporary file', async () => {
    fault('rename', 'victim.md', 'EROFS');
    expectRefusal(await writeConfined(tools, 'victim.md', 'new content'), 'io', 'victim.md');
    expect(readFileSync(join(tree, 'victim.md'), 'utf8')).toBe('old content');
    expect(readdirSync(tree).sort()).toEqual(['deep', 'victim.md']);
  });
});

describe('a failed trash leaves nothing behind (I5, I6)', () => {
  it('a move across file systems is refused, the file stays, and no trash folder is left', async () => {
    fault('rename', 'x.md', 'EXDEV');
    const result = await trashConfined(tools, 'deep/x.md', { segments: ['.trash'], stamp: 's1' });
    expectRefusal(result, 'io', 'deep/x.md');
    expect(readFileSync(join(tree, 'deep', 'x.md'), 'utf8')).toBe('x');
    expect(existsSync(join(tree, '.trash'))).toBe(false);
  });

  it('in an existing trash, only the folders this trash made are removed again', async () => {
    mkdirSync(join(tree, '.trash', 'older'), { recursive: true });
    fault('rename', 'x.md', 'EBUSY');
    const result = await trashConfined(tools, 'deep/x.md', { segments: ['.trash'], stamp: 's2' });
    expectRefusal(result, 'io', 'deep/x.md');
    expect(readdirSync(join(tree, '.trash'))).toEqual(['older']);
    rmSync(join(tree, '.trash'), { recursive: true });
  });
});
