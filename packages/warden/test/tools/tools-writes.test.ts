// `write_file` on a real worktree (G14c, E10, I5): a write inside is recorded
// without a decision, a write outside passes the gate with its real path, and
// every escape is refused or gated — never silently done.

import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { quote } from '../../src/paths/index.js';
import { useBuiltins } from '../support/tools-fixture.js';

const BASE = { version: 1, workspace: 'acme' };
const NO_OUTSIDE_WRITES = {
  ...BASE,
  rules: [{ id: 'no-outside-writes', action: 'fileWriteOutsideWorktree', decision: 'deny' }],
};

const fx = useBuiltins();
const { open, entriesFor } = fx;
let outside: string;

beforeEach(() => {
  outside = fx.folder('warden-out-');
});

/** A call's error with the given path's quotation made neutral, to compare two refusals' words. */
function wording(error: string, ...paths: string[]): string {
  return paths.reduce((text, path) => text.replaceAll(path, '<path>'), error);
}

describe('writes', () => {
  it('writes inside the worktree without a decision: such writes are not gated (G14c)', async () => {
    await open(NO_OUTSIDE_WRITES);
    const result = await fx.tools.call(
      'write_file',
      { path: 'src/new.ts', content: 'x', createParents: true },
      { callId: 'c-inside' },
    );
    expect(result).toMatchObject({ ok: true, decision: null, value: { insideWorktree: true } });
    expect(readFileSync(join(fx.worktree, 'src', 'new.ts'), 'utf8')).toBe('x');
    expect(await entriesFor('c-inside')).toMatchObject([
      { kind: 'call', status: 'Ok', decisionId: null, tool: 'write_file' },
    ]);
  });

  it('treats an absolute path into the worktree as its relative form (E10)', async () => {
    await open(NO_OUTSIDE_WRITES);
    const result = await fx.tools.call('write_file', {
      path: join(fx.worktree, 'abs.txt'),
      content: 'y',
    });
    expect(result).toMatchObject({ ok: true, decision: null, value: { path: 'abs.txt' } });
    expect(readFileSync(join(fx.worktree, 'abs.txt'), 'utf8')).toBe('y');
  });

  it('gates a write outside the worktree: a deny on fileWriteOutsideWorktree stops it (G14c)', async () => {
    await open(NO_OUTSIDE_WRITES);
    const target = join(outside, 'x.txt');
    const result = await fx.tools.call(
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
    symlinkSync(outside, join(fx.worktree, 'link'));
    const result = await fx.tools.call(
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
    symlinkSync(outside, join(fx.worktree, 'link'));
    const result = await fx.tools.call('write_file', { path: 'link/x.txt', content: 'x' });
    expect(result).toMatchObject({
      ok: true,
      decision: { outcome: 'allow' },
      value: { path: join(outside, 'x.txt'), insideWorktree: false },
    });
    expect(readFileSync(join(outside, 'x.txt'), 'utf8')).toBe('x');
    const deeper = join(outside, 'missing', 'x.txt');
    const refused = await fx.tools.call('write_file', {
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
    symlinkSync(outside, join(fx.worktree, 'esc'));
    symlinkSync(join(outside, 'gone'), join(fx.worktree, 'dangling'));
    const writes = [
      ['esc/secret.txt/x/y.txt', join(outside, 'secret.txt', 'x', 'y.txt')], // a file in the way
      ['esc/missing/x/y.txt', join(outside, 'missing', 'x', 'y.txt')], // nothing there
      ['dangling/y.txt', join(outside, 'gone', 'y.txt')], // a link to nothing
    ];
    const said = new Set<string>();
    for (const [path = '', lands = ''] of writes) {
      const result = await fx.tools.call('write_file', { path, content: 'x' }, { callId: path });
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
    mkdirSync(join(fx.worktree, 'build'));
    symlinkSync('build', join(fx.worktree, 'alias'));
    symlinkSync(`../../${basename(outside)}`, join(fx.worktree, 'build', 'up'));
    symlinkSync('alias/up', join(fx.worktree, 'chain'));
    const result = await fx.tools.call(
      'write_file',
      { path: 'chain/x.txt', content: 'x' },
      { callId: 'c-chain' },
    );
    expect(result).toMatchObject({ status: 'Denied', decision: { rule: 'no-outside-writes' } });
    const [decision] = await entriesFor('c-chain');
    expect(decision).toMatchObject({ request: { args: { paths: [join(outside, 'x.txt')] } } });
    const inside = await fx.tools.call('write_file', { path: 'alias/y.txt', content: 'y' });
    expect(inside).toMatchObject({ ok: true, decision: null, value: { insideWorktree: true } });
    expect(readFileSync(join(fx.worktree, 'build', 'y.txt'), 'utf8')).toBe('y');
  });

  it('refuses an allowed write through a link out in one sentence, whatever exists beyond it (I5)', async () => {
    await open({ ...BASE, rules: [] }); // fileWriteOutsideWorktree defaults to allow
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, join(fx.worktree, 'esc'));
    symlinkSync(join(outside, 'gone'), join(fx.worktree, 'dangling'));
    const writes = [
      ['esc/secret.txt/y.txt', join(outside, 'secret.txt')],
      ['esc/missing/y.txt', join(outside, 'missing')],
      ['dangling/y.txt', join(outside, 'gone')],
    ];
    const said = new Set<string>();
    for (const [path = '', folder = ''] of writes) {
      const result = await fx.tools.call('write_file', { path, content: 'x', createParents: true });
      expect(result, path).toMatchObject({ status: 'Denied', decision: { outcome: 'allow' } });
      said.add(wording(result.ok ? '' : result.error, quote(folder)));
    }
    expect(said.size).toBe(1);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('refuses `write_file` of a path ending in `/`: a file cannot be named that way', async () => {
    await open({ ...BASE, rules: [] });
    for (const path of ['notes/', 'src/notes/', `${outside}/notes/`, `${fx.worktree}/notes/`]) {
      const result = await fx.tools.call('write_file', { path, content: 'x', createParents: true });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied', decision: null });
    }
    expect(readdirSync(fx.worktree)).toEqual([]);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('refuses escapes before anything is written: `..`, `.trash`, encoded dots, links (I5)', async () => {
    await open({ ...BASE, rules: [] });
    mkdirSync(join(fx.worktree, '.trash'));
    writeFileSync(join(outside, 'target.txt'), 'keep');
    symlinkSync(join(outside, 'target.txt'), join(fx.worktree, 'file-link'));
    for (const path of [
      '../x.txt',
      'a/../../x.txt',
      '.trash/x.txt',
      join(fx.worktree, '.trash', 'x.txt'),
      '%2e%2e/x.txt',
      `${outside}/../x.txt`,
      'file-link',
    ]) {
      const result = await fx.tools.call('write_file', { path, content: 'x' });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied' });
    }
    expect(existsSync(join(fx.worktree, '.trash', 'x.txt'))).toBe(false);
    expect(readFileSync(join(outside, 'target.txt'), 'utf8')).toBe('keep');
  });
});
