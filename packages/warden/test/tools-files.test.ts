// The built-in file tools on a real worktree (G5, G14c, E10, I5, I6): reads
// and writes inside are recorded without a decision, a write outside passes
// the gate with its real path, a delete is a recoverable move into `.trash`,
// and every escape is refused or gated — never silently done.

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  opendirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_ENTRIES, quote } from '../src/paths/index.js';
import type { ListFilesResult } from '../src/tools/builtin/index.js';
import { registerBuiltins } from '../src/tools/builtin/index.js';
import type { ToolRegistry } from '../src/tools/registry.js';
import type { AuditEntry } from '../src/store/types.js';
import { auditLog, openTestWarden } from './support/warden.js';
import type { TestWarden } from './support/warden.js';

const BASE = { version: 1, workspace: 'acme' };
const NO_OUTSIDE_WRITES = {
  ...BASE,
  rules: [{ id: 'no-outside-writes', action: 'fileWriteOutsideWorktree', decision: 'deny' }],
};
const SMALL_DELETES = {
  ...BASE,
  rules: [{ id: 'small-deletes', action: 'fileDelete', decision: 'allow', when: { maxCount: 3 } }],
};

let t: TestWarden;
let worktree: string;
let outside: string;
let tools: ToolRegistry;

async function open(policy: object): Promise<void> {
  t = await openTestWarden(policy);
  tools = registerBuiltins(
    t.warden.tools({ workspace: 'acme', agent: 'coder-1', source: 'builtin', worktree }),
  );
}

async function entriesFor(callId: string): Promise<AuditEntry[]> {
  return (await auditLog(t.warden.store)).filter((e) => e.callId === callId);
}

/** `count` files `0` … `count - 1` in a new folder `folder` of the worktree. */
function manyFiles(folder: string, count: number): void {
  mkdirSync(join(worktree, folder), { recursive: true });
  for (let i = 0; i < count; i += 1) writeFileSync(join(worktree, folder, String(i)), '');
}

/** The name a folder's stream yields last: the one a capped listing leaves out. */
function lastStreamed(folder: string): string {
  const dir = opendirSync(join(worktree, folder));
  let last = '';
  for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) last = entry.name;
  dir.closeSync();
  return last;
}

/** A call's error with the given path's quotation made neutral, to compare two refusals' words. */
function wording(error: string, ...paths: string[]): string {
  return paths.reduce((text, path) => text.replaceAll(path, '<path>'), error);
}

beforeEach(() => {
  worktree = realpathSync(mkdtempSync(join(tmpdir(), 'warden-wt-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'warden-out-')));
});
afterEach(async () => {
  await t.cleanup();
  rmSync(worktree, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('reads', () => {
  beforeEach(() => open({ ...BASE, rules: [] }));

  it('read_file reads a file inside the worktree, recorded without a decision (G5)', async () => {
    writeFileSync(join(worktree, 'notes.md'), 'hello');
    const result = await tools.call('read_file', { path: 'notes.md' }, { callId: 'c-read' });
    expect(result).toMatchObject({ ok: true, decision: null, value: { content: 'hello' } });
    const entries = await entriesFor('c-read');
    expect(entries).toMatchObject([{ kind: 'call', status: 'Ok', decisionId: null }]);
  });

  it('read_file cuts a file at 256 KiB and says so (I7)', async () => {
    writeFileSync(join(worktree, 'big.txt'), 'a'.repeat(300 * 1024));
    const result = await tools.call('read_file', { path: 'big.txt' });
    expect(result.ok && result.value).toMatchObject({ truncated: true, size: 300 * 1024 });
    const value = result.ok ? (result.value as { content: string; note: string }) : null;
    expect(value?.content.length).toBe(256 * 1024);
    expect(value?.note).toContain('cap');
  });

  it('list_files lists the worktree and leaves `.trash` out (I6)', async () => {
    writeFileSync(join(worktree, 'a.txt'), 'a');
    mkdirSync(join(worktree, 'src'));
    mkdirSync(join(worktree, '.trash'));
    const result = await tools.call('list_files', {});
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
    writeFileSync(join(worktree, 'big', 'odd%name'), '');
    const result = await tools.call<ListFilesResult>('list_files', { path: 'big' });
    const value = result.ok ? result.value : undefined;
    expect(value).toMatchObject({ truncated: true, omitted: 1 });
    expect(value?.entries).toHaveLength(DEFAULT_MAX_ENTRIES);
    expect(value?.note).toContain('the listing is partial');
    expect(value?.note).toContain('1 entry is left out');
  });

  it('list_files says nothing is missing from a whole listing (I7)', async () => {
    writeFileSync(join(worktree, 'a.txt'), 'a');
    const result = await tools.call<ListFilesResult>('list_files', {});
    expect(result.ok && result.value).toEqual({
      path: '.',
      entries: [{ name: 'a.txt', type: 'file', size: 1 }],
      omitted: 0,
      truncated: false,
    });
  });

  it('refuses reads that escape the worktree or enter `.trash`, as `Denied` (I5, I6)', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(worktree, '.trash'));
    writeFileSync(join(worktree, '.trash', 'old.txt'), 'old');
    symlinkSync(outside, join(worktree, 'link'));
    for (const path of [
      '../secret.txt',
      join(outside, 'secret.txt'),
      'link/secret.txt',
      '.trash/old.txt',
      '.TRASH/old.txt',
      '%2e%2e/secret.txt',
    ]) {
      const result = await tools.call('read_file', { path });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied' });
    }
    expect(await tools.call('list_files', { path: '.trash' })).toMatchObject({ status: 'Denied' });
    expect(await tools.call('list_files', { path: 'link' })).toMatchObject({ status: 'Denied' });
  });
});

describe('writes', () => {
  it('writes inside the worktree without a decision: such writes are not gated (G14c)', async () => {
    await open(NO_OUTSIDE_WRITES);
    const result = await tools.call(
      'write_file',
      { path: 'src/new.ts', content: 'x', createParents: true },
      { callId: 'c-inside' },
    );
    expect(result).toMatchObject({ ok: true, decision: null, value: { insideWorktree: true } });
    expect(readFileSync(join(worktree, 'src', 'new.ts'), 'utf8')).toBe('x');
    expect(await entriesFor('c-inside')).toMatchObject([
      { kind: 'call', status: 'Ok', decisionId: null, tool: 'write_file' },
    ]);
  });

  it('treats an absolute path into the worktree as its relative form (E10)', async () => {
    await open(NO_OUTSIDE_WRITES);
    const result = await tools.call('write_file', {
      path: join(worktree, 'abs.txt'),
      content: 'y',
    });
    expect(result).toMatchObject({ ok: true, decision: null, value: { path: 'abs.txt' } });
    expect(readFileSync(join(worktree, 'abs.txt'), 'utf8')).toBe('y');
  });

  it('gates a write outside the worktree: a deny on fileWriteOutsideWorktree stops it (G14c)', async () => {
    await open(NO_OUTSIDE_WRITES);
    const target = join(outside, 'x.txt');
    const result = await tools.call(
      'write_file',
      { path: target, content: 'x' },
      { callId: 'c-out' },
    );
    expect(result).toMatchObject({
      ok: false,
      status: 'Denied',
      decision: { outcome: 'deny', rule: 'no-outside-writes' },
    });
    expect(existsSync(target)).toBe(false);
    const [decision, call] = await entriesFor('c-out');
    expect(decision).toMatchObject({
      kind: 'decision',
      outcome: 'deny',
      request: { actions: ['fileWriteOutsideWorktree'], args: { paths: [target] } },
    });
    expect(call).toMatchObject({ kind: 'call', status: 'Denied' });
  });

  it('gates a folder link inside the worktree that leads out as outside, with its real path (E10, I5)', async () => {
    await open(NO_OUTSIDE_WRITES);
    symlinkSync(outside, join(worktree, 'link'));
    const result = await tools.call(
      'write_file',
      { path: 'link/x.txt', content: 'x' },
      { callId: 'c-link' },
    );
    expect(result).toMatchObject({ status: 'Denied', decision: { rule: 'no-outside-writes' } });
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
    const [decision] = await entriesFor('c-link');
    expect(decision).toMatchObject({ request: { args: { paths: [join(outside, 'x.txt')] } } });
  });

  it('writes an allowed outside write to its real path, and only into a folder that exists', async () => {
    await open({ ...BASE, rules: [] }); // fileWriteOutsideWorktree defaults to allow
    symlinkSync(outside, join(worktree, 'link'));
    const result = await tools.call('write_file', { path: 'link/x.txt', content: 'x' });
    expect(result).toMatchObject({
      ok: true,
      decision: { outcome: 'allow' },
      value: { path: join(outside, 'x.txt'), insideWorktree: false },
    });
    expect(readFileSync(join(outside, 'x.txt'), 'utf8')).toBe('x');
    const deeper = join(outside, 'missing', 'x.txt');
    const refused = await tools.call('write_file', {
      path: deeper,
      content: 'x',
      createParents: true,
    });
    expect(refused).toMatchObject({ ok: false, status: 'Denied' });
    expect(existsSync(join(outside, 'missing'))).toBe(false);
  });

  it('gates a write through a link out in one form, whatever exists beyond the link (I5, G14c)', async () => {
    await open(NO_OUTSIDE_WRITES);
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, join(worktree, 'esc'));
    symlinkSync(join(outside, 'gone'), join(worktree, 'dangling'));
    const writes = [
      ['esc/secret.txt/x/y.txt', join(outside, 'secret.txt', 'x', 'y.txt')], // a file in the way
      ['esc/missing/x/y.txt', join(outside, 'missing', 'x', 'y.txt')], // nothing there
      ['dangling/y.txt', join(outside, 'gone', 'y.txt')], // a link to nothing
    ];
    const said = new Set<string>();
    for (const [path = '', lands = ''] of writes) {
      const result = await tools.call('write_file', { path, content: 'x' }, { callId: path });
      expect(result, path).toMatchObject({
        status: 'Denied',
        decision: { rule: 'no-outside-writes' },
      });
      said.add(wording(result.ok ? '' : result.error, quote(path), lands));
      const [decision] = await entriesFor(path);
      expect(decision, path).toMatchObject({ request: { args: { paths: [lands] } } });
    }
    expect(said.size).toBe(1);
  });

  it('follows links that stay inside to the one that leads out, and gates the place its text names (I5, E10)', async () => {
    await open(NO_OUTSIDE_WRITES);
    mkdirSync(join(worktree, 'build'));
    symlinkSync('build', join(worktree, 'alias'));
    symlinkSync(`../../${basename(outside)}`, join(worktree, 'build', 'up'));
    symlinkSync('alias/up', join(worktree, 'chain'));
    const result = await tools.call(
      'write_file',
      { path: 'chain/x.txt', content: 'x' },
      { callId: 'c-chain' },
    );
    expect(result).toMatchObject({ status: 'Denied', decision: { rule: 'no-outside-writes' } });
    const [decision] = await entriesFor('c-chain');
    expect(decision).toMatchObject({ request: { args: { paths: [join(outside, 'x.txt')] } } });
    const inside = await tools.call('write_file', { path: 'alias/y.txt', content: 'y' });
    expect(inside).toMatchObject({ ok: true, decision: null, value: { insideWorktree: true } });
    expect(readFileSync(join(worktree, 'build', 'y.txt'), 'utf8')).toBe('y');
  });

  it('refuses an allowed write through a link out in one sentence, whatever exists beyond it (I5)', async () => {
    await open({ ...BASE, rules: [] }); // fileWriteOutsideWorktree defaults to allow
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, join(worktree, 'esc'));
    symlinkSync(join(outside, 'gone'), join(worktree, 'dangling'));
    const writes = [
      ['esc/secret.txt/y.txt', join(outside, 'secret.txt')],
      ['esc/missing/y.txt', join(outside, 'missing')],
      ['dangling/y.txt', join(outside, 'gone')],
    ];
    const said = new Set<string>();
    for (const [path = '', folder = ''] of writes) {
      const result = await tools.call('write_file', { path, content: 'x', createParents: true });
      expect(result, path).toMatchObject({ status: 'Denied', decision: { outcome: 'allow' } });
      said.add(wording(result.ok ? '' : result.error, quote(folder)));
    }
    expect(said.size).toBe(1);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses `write_file` of a path ending in `/`: a file cannot be named that way', async () => {
    await open({ ...BASE, rules: [] });
    for (const path of ['notes/', 'src/notes/', `${outside}/notes/`, `${worktree}/notes/`]) {
      const result = await tools.call('write_file', { path, content: 'x', createParents: true });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied', decision: null });
    }
    expect(readdirSync(worktree)).toEqual([]);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses escapes before anything is written: `..`, `.trash`, encoded dots, links (I5)', async () => {
    await open({ ...BASE, rules: [] });
    mkdirSync(join(worktree, '.trash'));
    writeFileSync(join(outside, 'target.txt'), 'keep');
    symlinkSync(join(outside, 'target.txt'), join(worktree, 'file-link'));
    for (const path of [
      '../x.txt',
      'a/../../x.txt',
      '.trash/x.txt',
      join(worktree, '.trash', 'x.txt'),
      '%2e%2e/x.txt',
      `${outside}/../x.txt`,
      'file-link',
    ]) {
      const result = await tools.call('write_file', { path, content: 'x' });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied' });
    }
    expect(existsSync(join(worktree, '.trash', 'x.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'target.txt'), 'utf8')).toBe('keep');
  });
});

describe('deletes', () => {
  beforeEach(() => open(SMALL_DELETES));

  it('moves a deleted file into `.trash`, where it can be recovered (G14c)', async () => {
    writeFileSync(join(worktree, 'old.txt'), 'keep me');
    const result = await tools.call('delete_file', { path: 'old.txt' }, { callId: 'c-del' });
    expect(result).toMatchObject({ ok: true, decision: { outcome: 'allow' } });
    const trashedAs = result.ok ? (result.value as { trashedAs: string }).trashedAs : '';
    expect(trashedAs).toMatch(/^\.trash\/[^/]+\/old\.txt$/);
    expect(existsSync(join(worktree, 'old.txt'))).toBe(false);
    expect(readFileSync(join(worktree, trashedAs), 'utf8')).toBe('keep me');
    const [decision] = await entriesFor('c-del');
    expect(decision).toMatchObject({
      request: { actions: ['fileDelete'], args: { paths: ['old.txt'], count: 1 } },
    });
  });

  it('counts the files of a folder, without following links, so a cap applies (G17)', async () => {
    mkdirSync(join(worktree, 'build', 'nested'), { recursive: true });
    for (const name of ['a', 'b', 'nested/c']) writeFileSync(join(worktree, 'build', name), name);
    mkdirSync(join(outside, 'many'));
    for (const name of ['1', '2', '3', '4']) writeFileSync(join(outside, 'many', name), name);
    symlinkSync(join(outside, 'many'), join(worktree, 'build', 'link'));
    const result = await tools.call('delete_file', { path: 'build' }, { callId: 'c-build' });
    // four entries (three files and one link) exceed `maxCount: 3`: the default prompt, no approver
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: { decision: 'prompt' } });
    expect(existsSync(join(worktree, 'build', 'a'))).toBe(true);
    const [decision] = await entriesFor('c-build');
    expect(decision).toMatchObject({ request: { args: { paths: ['build'], count: 4 } } });
  });

  it('counts every file of a folder larger than one listing, so a `maxCount` cap still applies (G17)', async () => {
    await t.cleanup();
    await open({
      ...BASE,
      rules: [{ id: 'deletes', action: 'fileDelete', decision: 'allow', when: { maxCount: 1000 } }],
    });
    manyFiles('build', DEFAULT_MAX_ENTRIES + 1);
    const result = await tools.call('delete_file', { path: 'build' }, { callId: 'c-many' });
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: { decision: 'prompt' } });
    expect(existsSync(join(worktree, 'build', '0'))).toBe(true);
    const [decision] = await entriesFor('c-many');
    expect(decision).toMatchObject({ request: { args: { count: DEFAULT_MAX_ENTRIES + 1 } } });
  });

  it('leaves the count absent when a folder holds a name it cannot look into, so the cap escalates (G17, G18)', async () => {
    mkdirSync(join(worktree, 'build', 'odd%name'), { recursive: true });
    writeFileSync(join(worktree, 'build', 'a'), 'a');
    for (const name of ['1', '2', '3', '4']) {
      writeFileSync(join(worktree, 'build', 'odd%name', name), name);
    }
    const result = await tools.call('delete_file', { path: 'build' }, { callId: 'c-odd' });
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: { decision: 'prompt' } });
    expect(existsSync(join(worktree, 'build', 'odd%name', '1'))).toBe(true);
    const [decision] = await entriesFor('c-odd');
    expect(decision).toMatchObject({ request: { args: { paths: ['build'] } } });
    expect(decision).not.toHaveProperty('request.args.count');
  });

  it('finds the entry to delete in a folder larger than one listing (G14c)', async () => {
    manyFiles('big', DEFAULT_MAX_ENTRIES + 1);
    const name = lastStreamed('big');
    const result = await tools.call('delete_file', { path: `big/${name}` });
    expect(result).toMatchObject({ ok: true, decision: { outcome: 'allow' } });
    expect(existsSync(join(worktree, 'big', name))).toBe(false);
  });

  it('names both the path given and the real place when a folder link on the way stays inside (G16)', async () => {
    mkdirSync(join(worktree, 'build'));
    writeFileSync(join(worktree, 'build', 'a'), 'a');
    symlinkSync('build', join(worktree, 'alias'));
    const result = await tools.call('delete_file', { path: 'alias/a' }, { callId: 'c-alias' });
    expect(result).toMatchObject({ ok: true, decision: { outcome: 'allow' } });
    const [decision] = await entriesFor('c-alias');
    expect(decision).toMatchObject({
      request: { args: { paths: ['alias/a', 'build/a'], count: 1 } },
    });
  });

  it('quotes the path it refuses with `quote()`, so a backtick in it cannot end the quotation (STYLE 8)', async () => {
    const result = await tools.call('delete_file', { path: 'no`such.txt' });
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: null });
    expect(result.ok ? '' : result.error).toContain('path `no\\`such.txt` does not exist');
  });

  it('refuses to delete the trash, the root, or anything through a link leading out (I5)', async () => {
    mkdirSync(join(worktree, '.trash', 'x'), { recursive: true });
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    symlinkSync(outside, join(worktree, 'link'));
    for (const path of ['.trash', '.trash/x', '.', '../keep.txt', 'link/keep.txt', 'missing']) {
      const result = await tools.call('delete_file', { path });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied', decision: null });
    }
    expect(existsSync(join(outside, 'keep.txt'))).toBe(true);
  });
});
