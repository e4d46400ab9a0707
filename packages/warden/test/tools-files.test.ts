// The built-in file tools on a real worktree (G5, G14c, E10, I5, I6): reads
// and writes inside are recorded without a decision, a write outside passes
// the gate with its real path, a delete is a recoverable move into `.trash`,
// and every escape is refused or gated — never silently done.

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
