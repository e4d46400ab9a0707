// Landing a transactional run's layer (E44), on the layer module alone: the
// upper folder is filled here the way overlayfs fills it, so these run on any
// Linux host without a namespace. A folder the real root did not have lands
// whole, as the command left it (its files' modes, its links, not its dead
// sockets); a folder that appeared in the real root meanwhile takes the
// layer's entries one by one and keeps its own; a layer on another file
// system is copied in first. What the layer says was written is what lands.

import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Layer } from '../../src/sandbox/layer.js';
import { createLayer, landLayer, readLayer } from '../../src/sandbox/layer.js';
import { tempDir } from '../support/backends.js';

const linux = process.platform === 'linux';
if (!linux) console.warn('[skip] landing a layer is tested on Linux only');

/** A real root holding `files`, and a layer over it whose upper folder `fill` writes. */
async function setUp(
  files: Record<string, string>,
  fill: (upper: string) => void | Promise<void>,
  parent?: string,
): Promise<{ root: string; layer: Layer }> {
  const root = tempDir('warden-landing-root-');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const layer = await createLayer(parent ?? tempDir('warden-landing-layers-'), [root]);
  const base = (layer.roots[0] as { base: string }).base;
  await fill(join(base, 'upper'));
  // No folder of the real root was listed: nothing was deleted in one.
  writeFileSync(join(base, 'listing'), '');
  return { root, layer };
}

/** A Unix socket left at `path` by a process that has ended without closing it. */
function deadSocket(path: string): void {
  const ran = spawnSync(process.execPath, [
    '-e',
    `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.exit(0))`,
  ]);
  expect(ran.status).toBe(0);
  expect(lstatSync(path).isSocket()).toBe(true);
}

const shmDirs: string[] = [];
afterAll(() => {
  for (const dir of shmDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!linux)('E44: landing what a command did', () => {
  it('a folder the real root did not have lands whole: nested folders, modes and links as the command left them, and no dead socket', async () => {
    const { root, layer } = await setUp({ 'README.md': 'kept\n' }, (upper) => {
      mkdirSync(join(upper, 'out', 'deep', 'er'), { recursive: true });
      writeFileSync(join(upper, 'out', 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
      writeFileSync(join(upper, 'out', 'deep', 'er', 'x.txt'), 'x\n', { mode: 0o600 });
      symlinkSync('deep/er/x.txt', join(upper, 'out', 'x-link'));
      deadSocket(join(upper, 'out', 'deep', 'agent.sock'));
    });
    const observed = await readLayer(layer);
    const effects = observed.roots[0];
    expect([...(effects?.made ?? [])].sort()).toEqual(['out', 'out/deep', 'out/deep/er']);
    expect([...(effects?.written ?? [])].sort()).toEqual([
      'out/deep/er/x.txt',
      'out/run.sh',
      'out/x-link',
    ]);
    // One step lands the whole folder.
    expect(effects?.steps.map((s) => `${s.kind} ${s.rel}`)).toEqual(['tree out']);
    await landLayer(layer, observed);
    expect(statSync(join(root, 'out', 'run.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(root, 'out', 'deep', 'er', 'x.txt')).mode & 0o777).toBe(0o600);
    expect(readlinkSync(join(root, 'out', 'x-link'))).toBe('deep/er/x.txt');
    expect(readFileSync(join(root, 'out', 'x-link'), 'utf8')).toBe('x\n');
    expect(readdirSync(join(root, 'out', 'deep'))).toEqual(['er']);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('kept\n');
    // The layer is gone once landed.
    expect(existsSync(layer.dir)).toBe(false);
  });

  it('a new folder that appeared in the real root meanwhile takes the layer’s entries one by one and keeps its own', async () => {
    const { root, layer } = await setUp({}, (upper) => {
      mkdirSync(join(upper, 'out', 'sub'), { recursive: true });
      writeFileSync(join(upper, 'out', 'a.txt'), 'from the command\n');
      writeFileSync(join(upper, 'out', 'sub', 'b.txt'), 'b\n');
    });
    const observed = await readLayer(layer);
    mkdirSync(join(root, 'out'));
    writeFileSync(join(root, 'out', 'a.txt'), 'made meanwhile\n');
    writeFileSync(join(root, 'out', 'other.txt'), 'someone else’s\n');
    await landLayer(layer, observed);
    expect(readFileSync(join(root, 'out', 'a.txt'), 'utf8')).toBe('from the command\n');
    expect(readFileSync(join(root, 'out', 'sub', 'b.txt'), 'utf8')).toBe('b\n');
    expect(readFileSync(join(root, 'out', 'other.txt'), 'utf8')).toBe('someone else’s\n');
    expect(readdirSync(join(root, 'out')).filter((n) => n.startsWith('.warden'))).toEqual([]);
  });

  it('a file rewritten in a folder the real root has replaces it whole, also where a folder stands in its place', async () => {
    const { root, layer } = await setUp(
      { 'src/a.txt': 'old\n', 'src/b.txt': 'untouched\n' },
      (upper) => {
        mkdirSync(join(upper, 'src'));
        writeFileSync(join(upper, 'src', 'a.txt'), 'new\n');
        writeFileSync(join(upper, 'src', 'c.txt'), 'c\n');
      },
    );
    const observed = await readLayer(layer);
    expect([...(observed.roots[0]?.written ?? [])].sort()).toEqual(['src/a.txt', 'src/c.txt']);
    mkdirSync(join(root, 'src', 'c.txt'));
    writeFileSync(join(root, 'src', 'c.txt', 'inside'), 'gone with it\n');
    await landLayer(layer, observed);
    expect(readFileSync(join(root, 'src', 'a.txt'), 'utf8')).toBe('new\n');
    expect(readFileSync(join(root, 'src', 'b.txt'), 'utf8')).toBe('untouched\n');
    expect(lstatSync(join(root, 'src', 'c.txt')).isFile()).toBe(true);
    expect(readdirSync(join(root, 'src')).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it('a layer on another file system is copied in first, new folders too, and leaves no staging folder', async () => {
    const shm = '/dev/shm';
    const other = existsSync(shm) && statSync(shm).dev !== statSync(tempDir('warden-dev-')).dev;
    if (!other) {
      console.warn('[skip] no second file system (/dev/shm) to put the layer on');
      return;
    }
    const { root, layer } = await setUp(
      { 'src/a.txt': 'old\n' },
      (upper) => {
        mkdirSync(join(upper, 'src'));
        writeFileSync(join(upper, 'src', 'a.txt'), 'new\n');
        mkdirSync(join(upper, 'out', 'deep'), { recursive: true });
        writeFileSync(join(upper, 'out', 'deep', 'x'), 'x\n', { mode: 0o750 });
        symlinkSync('deep/x', join(upper, 'out', 'x-link'));
      },
      (() => {
        const dir = mkdtempSync(join(shm, 'warden-landing-'));
        shmDirs.push(dir);
        return dir;
      })(),
    );
    await landLayer(layer, await readLayer(layer));
    expect(readFileSync(join(root, 'src', 'a.txt'), 'utf8')).toBe('new\n');
    expect(readFileSync(join(root, 'out', 'deep', 'x'), 'utf8')).toBe('x\n');
    expect(statSync(join(root, 'out', 'deep', 'x')).mode & 0o777).toBe(0o750);
    expect(readlinkSync(join(root, 'out', 'x-link'))).toBe('deep/x');
    expect(readdirSync(root).sort()).toEqual(['out', 'src']);
  });

  it('a layer holding what is neither a file, a folder, a link nor a socket is not landed at all', async () => {
    const { root, layer } = await setUp({}, (upper) => {
      mkdirSync(join(upper, 'out'));
      writeFileSync(join(upper, 'out', 'a.txt'), 'a\n');
    });
    const fifo = join((layer.roots[0] as { base: string }).base, 'upper', 'out', 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    await expect(readLayer(layer)).rejects.toThrow(/neither a file, a folder nor a link/);
    expect(existsSync(join(root, 'out'))).toBe(false);
  });
});
