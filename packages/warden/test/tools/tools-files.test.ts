// The built-in file tools' reads and deletes on a real worktree (G5, G14c, G17,
// I5, I6): reads are recorded without a decision, a delete is a recoverable
// move into `.trash` gated with what it counts, and every escape is refused.

import {
  existsSync,
  mkdirSync,
  opendirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_ENTRIES } from '../../src/paths/index.js';
import type { ListFilesResult } from '../../src/tools/builtin/index.js';
import { useBuiltins } from '../support/tools-fixture.js';

const BASE = { version: 1, workspace: 'acme' };
const SMALL_DELETES = {
  ...BASE,
  rules: [{ id: 'small-deletes', action: 'fileDelete', decision: 'allow', when: { maxCount: 3 } }],
};

const fx = useBuiltins();
const { open, entriesFor } = fx;
let outside: string;

beforeEach(() => {
  outside = fx.folder('warden-out-');
});

/** `count` files `0` … `count - 1` in a new folder `folder` of the worktree. */
function manyFiles(folder: string, count: number): void {
  mkdirSync(join(fx.worktree, folder), { recursive: true });
  for (let i = 0; i < count; i += 1) writeFileSync(join(fx.worktree, folder, String(i)), '');
}

/** The name a folder's stream yields last: the one a capped listing leaves out. */
function lastStreamed(folder: string): string {
  const dir = opendirSync(join(fx.worktree, folder));
  let last = '';
  for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) last = entry.name;
  dir.closeSync();
  return last;
}

describe('reads', () => {
  beforeEach(() => open({ ...BASE, rules: [] }));

  it('read_file reads a file inside the worktree, recorded without a decision (G5)', async () => {
    writeFileSync(join(fx.worktree, 'notes.md'), 'hello');
    const result = await fx.tools.call('read_file', { path: 'notes.md' }, { callId: 'c-read' });
    expect(result).toMatchObject({ ok: true, decision: null, value: { content: 'hello' } });
    const entries = await entriesFor('c-read');
    expect(entries).toMatchObject([{ kind: 'call', status: 'Ok', decisionId: null }]);
  });

  it('read_file cuts a file at 256 KiB and says so (I7)', async () => {
    writeFileSync(join(fx.worktree, 'big.txt'), 'a'.repeat(300 * 1024));
    const result = await fx.tools.call('read_file', { path: 'big.txt' });
    expect(result.ok && result.value).toMatchObject({ truncated: true, size: 300 * 1024 });
    const value = result.ok ? (result.value as { content: string; note: string }) : null;
    expect(value?.content.length).toBe(256 * 1024);
    expect(value?.note).toContain('cap');
  });

  it('list_files lists the worktree and leaves `.trash` out (I6)', async () => {
    writeFileSync(join(fx.worktree, 'a.txt'), 'a');
    mkdirSync(join(fx.worktree, 'src'));
    mkdirSync(join(fx.worktree, '.trash'));
    const result = await fx.tools.call('list_files', {});
    expect(result.ok && result.value).toMatchObject({
      path: '.',
      entries: [
        { name: 'a.txt', type: 'file', size: 1 },
        { name: 'src', type: 'directory' },
      ],
    });
  });

  it('list_files says a listing is partial when the folder holds more than the cap (I7)', async () => {
    manyFiles('big', DEFAULT_MAX_ENTRIES + 1);
    writeFileSync(join(fx.worktree, 'big', 'odd%name'), '');
    const result = await fx.tools.call<ListFilesResult>('list_files', { path: 'big' });
    const value = result.ok ? result.value : undefined;
    expect(value).toMatchObject({ truncated: true, omitted: 1 });
    expect(value?.entries).toHaveLength(DEFAULT_MAX_ENTRIES);
    expect(value?.note).toContain('the listing is partial');
    expect(value?.note).toContain('1 entry is left out');
  });

  it('list_files says nothing is missing from a whole listing (I7)', async () => {
    writeFileSync(join(fx.worktree, 'a.txt'), 'a');
    const result = await fx.tools.call<ListFilesResult>('list_files', {});
    expect(result.ok && result.value).toEqual({
      path: '.',
      entries: [{ name: 'a.txt', type: 'file', size: 1 }],
      omitted: 0,
      truncated: false,
    });
  });

  it('refuses reads that escape the worktree or enter `.trash`, as `Denied` (I5, I6)', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(fx.worktree, '.trash'));
    writeFileSync(join(fx.worktree, '.trash', 'old.txt'), 'old');
    symlinkSync(outside, join(fx.worktree, 'link'));
    for (const path of [
      '../secret.txt',
      join(outside, 'secret.txt'),
      'link/secret.txt',
      '.trash/old.txt',
      '.TRASH/old.txt',
      '%2e%2e/secret.txt',
    ]) {
      const result = await fx.tools.call('read_file', { path });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied' });
    }
    expect(await fx.tools.call('list_files', { path: '.trash' })).toMatchObject({
      status: 'Denied',
    });
    expect(await fx.tools.call('list_files', { path: 'link' })).toMatchObject({ status: 'Denied' });
  });
});

describe('deletes', () => {
  beforeEach(() => open(SMALL_DELETES));

  it('moves a deleted file into `.trash`, where it can be recovered (G14c)', async () => {
    writeFileSync(join(fx.worktree, 'old.txt'), 'keep me');
    const result = await fx.tools.call('delete_file', { path: 'old.txt' }, { callId: 'c-del' });
    expect(result).toMatchObject({ ok: true, decision: { outcome: 'allow' } });
    const trashedAs = result.ok ? (result.value as { trashedAs: string }).trashedAs : '';
    expect(trashedAs).toMatch(/^\.trash\/[^/]+\/old\.txt$/);
    expect(existsSync(join(fx.worktree, 'old.txt'))).toBe(false);
    expect(readFileSync(join(fx.worktree, trashedAs), 'utf8')).toBe('keep me');
    const [decision] = await entriesFor('c-del');
    expect(decision).toMatchObject({
      request: { actions: ['fileDelete'], args: { paths: ['old.txt'], count: 1 } },
    });
  });

  it('counts the files of a folder, without following links, so a cap applies (G17)', async () => {
    mkdirSync(join(fx.worktree, 'build', 'nested'), { recursive: true });
    for (const name of ['a', 'b', 'nested/c'])
      writeFileSync(join(fx.worktree, 'build', name), name);
    mkdirSync(join(outside, 'many'));
    for (const name of ['1', '2', '3', '4']) writeFileSync(join(outside, 'many', name), name);
    symlinkSync(join(outside, 'many'), join(fx.worktree, 'build', 'link'));
    const result = await fx.tools.call('delete_file', { path: 'build' }, { callId: 'c-build' });
    // four entries (three files and one link) exceed `maxCount: 3`: the default prompt, no approver
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: { decision: 'prompt' } });
    expect(existsSync(join(fx.worktree, 'build', 'a'))).toBe(true);
    const [decision] = await entriesFor('c-build');
    expect(decision).toMatchObject({ request: { args: { paths: ['build'], count: 4 } } });
  });

  it('counts every file of a folder larger than one listing, so a `maxCount` cap still applies (G17)', async () => {
    await fx.t.cleanup();
    await open({
      ...BASE,
      rules: [{ id: 'deletes', action: 'fileDelete', decision: 'allow', when: { maxCount: 1000 } }],
    });
    manyFiles('build', DEFAULT_MAX_ENTRIES + 1);
    const result = await fx.tools.call('delete_file', { path: 'build' }, { callId: 'c-many' });
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: { decision: 'prompt' } });
    expect(existsSync(join(fx.worktree, 'build', '0'))).toBe(true);
    const [decision] = await entriesFor('c-many');
    expect(decision).toMatchObject({ request: { args: { count: DEFAULT_MAX_ENTRIES + 1 } } });
  });

  it('leaves the count absent when a folder holds a name it cannot look into, so the cap escalates (G17, G18)', async () => {
    mkdirSync(join(fx.worktree, 'build', 'odd%name'), { recursive: true });
    writeFileSync(join(fx.worktree, 'build', 'a'), 'a');
    for (const name of ['1', '2', '3', '4']) {
      writeFileSync(join(fx.worktree, 'build', 'odd%name', name), name);
    }
    const result = await fx.tools.call('delete_file', { path: 'build' }, { callId: 'c-odd' });
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: { decision: 'prompt' } });
    expect(existsSync(join(fx.worktree, 'build', 'odd%name', '1'))).toBe(true);
    const [decision] = await entriesFor('c-odd');
    expect(decision).toMatchObject({ request: { args: { paths: ['build'] } } });
    expect(decision).not.toHaveProperty('request.args.count');
  });

  it('finds the entry to delete in a folder larger than one listing (G14c)', async () => {
    manyFiles('big', DEFAULT_MAX_ENTRIES + 1);
    const name = lastStreamed('big');
    const result = await fx.tools.call('delete_file', { path: `big/${name}` });
    expect(result).toMatchObject({ ok: true, decision: { outcome: 'allow' } });
    expect(existsSync(join(fx.worktree, 'big', name))).toBe(false);
  });

  it('names both the path given and the real place when a folder link on the way stays inside (G16)', async () => {
    mkdirSync(join(fx.worktree, 'build'));
    writeFileSync(join(fx.worktree, 'build', 'a'), 'a');
    symlinkSync('build', join(fx.worktree, 'alias'));
    const result = await fx.tools.call('delete_file', { path: 'alias/a' }, { callId: 'c-alias' });
    expect(result).toMatchObject({ ok: true, decision: { outcome: 'allow' } });
    const [decision] = await entriesFor('c-alias');
    expect(decision).toMatchObject({
      request: { args: { paths: ['alias/a', 'build/a'], count: 1 } },
    });
  });

  it('quotes the path it refuses with `quote()`, so a backtick in it cannot end the quotation (STYLE 8)', async () => {
    const result = await fx.tools.call('delete_file', { path: 'no`such.txt' });
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: null });
    expect(result.ok ? '' : result.error).toContain('path `no\\`such.txt` does not exist');
  });

  it('refuses to delete the trash, the root, or anything through a link leading out (I5)', async () => {
    mkdirSync(join(fx.worktree, '.trash', 'x'), { recursive: true });
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    symlinkSync(outside, join(fx.worktree, 'link'));
    for (const path of ['.trash', '.trash/x', '.', '../keep.txt', 'link/keep.txt', 'missing']) {
      const result = await fx.tools.call('delete_file', { path });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied', decision: null });
    }
    expect(existsSync(join(outside, 'keep.txt'))).toBe(true);
  });
});
