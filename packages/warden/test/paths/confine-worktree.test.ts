// The worktree configuration of the one path confinement (I5): the file tools
// write and trash inside their worktree, never through a link, never beside
// the root, and the trash stays hidden (I6) and out of git.

import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Confinement } from '../../src/paths/index.js';
import {
  confinement,
  listConfined,
  readConfined,
  trashConfined,
  worktreeConfinement,
  writeConfined,
} from '../../src/paths/index.js';
import { refusedAs } from '../support/confine-checks.js';
import {
  build,
  confineFolder,
  FIFO,
  FOLDER,
  hardLink,
  link,
  OUTSIDE,
  write,
} from '../support/confine-fixtures.js';

const MAX = { maxBytes: 1024 };
const trash = (stamp: string) => ({ segments: ['.trash'], stamp });

const { base, outside, worktree: tree } = confineFolder('worktree');
let tools: Confinement;
let fifo: boolean;

beforeAll(async () => {
  build(outside, { 'secret.txt': OUTSIDE });
  fifo = build(tree, {
    'src/a.ts': 'export const a = 1;\n',
    'docs/guide.md': 'guide',
    linkout: link(outside),
    linkin: link('src'),
    'file-out': link(join(outside, 'secret.txt')),
    'file-in': link('src/a.ts'),
    'hard.txt': hardLink(join(outside, 'secret.txt')),
    pipe: FIFO,
  });
  tools = await worktreeConfinement(tree);
});

describe('the file tools write inside their worktree (I5)', () => {
  it('creates parent folders inside the root when asked', async () => {
    const result = await writeConfined(tools, 'src/deep/er/new.ts', 'new', { createParents: true });
    expect(result.ok && result.value).toEqual({
      rel: 'src/deep/er/new.ts',
      abs: join(tools.root, 'src', 'deep', 'er', 'new.ts'),
      bytes: 3,
      created: true,
    });
    expect(readFileSync(join(tree, 'src', 'deep', 'er', 'new.ts'), 'utf8')).toBe('new');
  });

  it('refuses a missing parent folder unless asked to create it', async () => {
    expect(refusedAs(await writeConfined(tools, 'nope/new.ts', 'x'))).toBe('not-found');
    expect(existsSync(join(tree, 'nope'))).toBe(false);
  });

  it('replaces an existing file completely, and leaves no temporary file behind', async () => {
    write(join(tree, 'over', 'over.txt'), 'a long old content');
    const result = await writeConfined(tools, 'over/over.txt', Buffer.from('short'));
    expect(result.ok && result.value.created).toBe(false);
    expect(readFileSync(join(tree, 'over', 'over.txt'), 'utf8')).toBe('short');
    expect(readdirSync(join(tree, 'over'))).toEqual(['over.txt']);
  });

  it('an overwrite keeps the permission bits of the file it replaces', async () => {
    write(join(tree, 'run.sh'), 'echo old');
    chmodSync(join(tree, 'run.sh'), 0o751);
    expect((await writeConfined(tools, 'run.sh', 'echo new')).ok).toBe(true);
    expect(statSync(join(tree, 'run.sh')).mode & 0o777).toBe(0o751);
  });

  it('writes through a parent link that stays inside the root', async () => {
    const result = await writeConfined(tools, 'linkin/b.ts', 'b');
    expect(result.ok && result.value.abs).toBe(join(tools.root, 'src', 'b.ts'));
  });

  it('refuses a parent link leading out, and creates nothing outside (A6)', async () => {
    const result = await writeConfined(tools, 'linkout/new.txt', 'x', { createParents: true });
    expect(refusedAs(result)).toBe('symlink-out');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    const deeper = await writeConfined(tools, 'linkout/sub/new.txt', 'x', { createParents: true });
    expect(refusedAs(deeper)).toBe('symlink-out');
    expect(existsSync(join(outside, 'sub'))).toBe(false);
  });

  it('refuses to write through a final link, leading out or staying in', async () => {
    expect(refusedAs(await writeConfined(tools, 'file-out', 'x'))).toBe('symlink');
    expect(refusedAs(await writeConfined(tools, 'file-in', 'x'))).toBe('symlink');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
  });

  it('refuses to write a file with more than one hard link', async () => {
    expect(refusedAs(await writeConfined(tools, 'hard.txt', 'x'))).toBe('hardlink');
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
  });

  it('refuses to write a FIFO, a folder, the root, the hidden trash or a name ending in `/`', async (ctx) => {
    expect(refusedAs(await writeConfined(tools, 'src', 'x'))).toBe('is-directory');
    expect(refusedAs(await writeConfined(tools, '.', 'x'))).toBe('root');
    expect(refusedAs(await writeConfined(tools, '.trash/x', 'x'))).toBe('hidden');
    expect(refusedAs(await writeConfined(tools, 'slash.md/', 'x'))).toBe('is-directory');
    expect(existsSync(join(tree, 'slash.md'))).toBe(false);
    if (!fifo) ctx.skip(); // `mkfifo` is not available here, so no FIFO could be made
    expect(refusedAs(await writeConfined(tools, 'pipe', 'x'))).toBe('not-regular');
  });
});

describe('the file tools trash inside their worktree, and the trash stays hidden (I6)', () => {
  it('moves a file into `.trash/<stamp>/<path>`, and it is gone from its place', async () => {
    const result = await trashConfined(tools, 'docs/guide.md', trash('20250101T000000Z'));
    expect(result).toEqual({
      ok: true,
      value: { rel: 'docs/guide.md', trashedAs: '.trash/20250101T000000Z/docs/guide.md' },
    });
    expect(existsSync(join(tree, 'docs', 'guide.md'))).toBe(false);
    expect(readFileSync(join(tree, '.trash', '20250101T000000Z', 'docs', 'guide.md'), 'utf8')).toBe(
      'guide',
    );
  });

  it('moves a folder into the trash, and a link as a link', async () => {
    write(join(tree, 'build', 'out.js'), 'x');
    const folder = await trashConfined(tools, 'build/', trash('s2'));
    expect(folder.ok && folder.value.trashedAs).toBe('.trash/s2/build');
    expect(existsSync(join(tree, '.trash', 's2', 'build', 'out.js'))).toBe(true);
    const link = await trashConfined(tools, 'file-out', trash('s3'));
    expect(link.ok).toBe(true);
    expect(lstatSync(join(tree, '.trash', 's3', 'file-out')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
  });

  it('hides the trash from listings and refuses it for reads, writes and trash (I6)', async () => {
    const listing = await listConfined(tools, '.');
    expect(listing.ok && listing.value.entries.map((e) => e.name)).not.toContain('.trash');
    expect(refusedAs(await readConfined(tools, '.trash/s2/build/out.js', MAX))).toBe('hidden');
    expect(refusedAs(await listConfined(tools, '.trash'))).toBe('hidden');
    expect(refusedAs(await trashConfined(tools, '.trash', trash('s4')))).toBe('hidden');
    expect(refusedAs(await trashConfined(tools, '.trash/s2', trash('s4')))).toBe('hidden');
  });

  it('refuses to trash the root, a missing path, a path beyond a link out, or onto a used stamp', async () => {
    expect(refusedAs(await trashConfined(tools, '.', trash('s5')))).toBe('root');
    expect(refusedAs(await trashConfined(tools, 'missing', trash('s5')))).toBe('not-found');
    expect(refusedAs(await trashConfined(tools, 'linkout/secret.txt', trash('s5')))).toBe(
      'symlink-out',
    );
    expect(existsSync(join(outside, 'secret.txt'))).toBe(true);
    write(join(tree, 'twice.txt'), 'x');
    write(join(tree, '.trash', 's6', 'twice.txt'), 'earlier');
    expect(refusedAs(await trashConfined(tools, 'twice.txt', trash('s6')))).toBe('exists');
    expect(existsSync(join(tree, 'twice.txt'))).toBe(true);
    expect(existsSync(join(tree, '.trash', 's5'))).toBe(false);
  });

  it('refuses a file named with a trailing `/`: only a folder is named so', async () => {
    write(join(tree, 'keep-me.md'), 'x');
    expect(refusedAs(await trashConfined(tools, 'keep-me.md/', trash('s10')))).toBe(
      'not-directory',
    );
    expect(existsSync(join(tree, 'keep-me.md'))).toBe(true);
  });

  it('refuses to trash the trash even when the trash is not hidden', async () => {
    const open = await confinement({ root: tree });
    expect(refusedAs(await trashConfined(open, '.trash/s2', trash('s7')))).toBe('trash');
  });

  it('throws on a trash place that is not plain segments: that is a bug, not a refusal', async () => {
    await expect(trashConfined(tools, 'src/a.ts', trash('../x'))).rejects.toThrow(RangeError);
  });
});

describe('the trash is a real folder, never a link (I6)', () => {
  async function treeWith(name: string, trashTarget: string): Promise<[string, Confinement]> {
    const other = join(base, name);
    build(other, { 'keep.txt': 'keep', 'docs/guide.md': 'guide', '.trash': link(trashTarget) });
    return [other, await worktreeConfinement(other)];
  }

  it('refuses a trash folder that is a link leading out, and moves nothing', async () => {
    const [other, c] = await treeWith('worktree-2', outside);
    expect(refusedAs(await trashConfined(c, 'keep.txt', trash('s8')))).toBe('symlink');
    expect(existsSync(join(other, 'keep.txt'))).toBe(true);
    expect(existsSync(join(outside, 's8'))).toBe(false);
  });

  it('refuses a trash folder that is a link to a visible folder, and moves nothing', async () => {
    const [other, c] = await treeWith('worktree-3', 'docs');
    expect(refusedAs(await trashConfined(c, 'keep.txt', trash('s9')))).toBe('symlink');
    expect(existsSync(join(other, 'keep.txt'))).toBe(true);
    expect(readdirSync(join(other, 'docs'))).toEqual(['guide.md']);
  });

  it('refuses a stamp folder that is a link, and moves nothing', async () => {
    const other = join(base, 'worktree-4');
    build(other, { 'keep.txt': 'keep', docs: FOLDER, '.trash/s11': link('../docs') });
    const c = await worktreeConfinement(other);
    expect(refusedAs(await trashConfined(c, 'keep.txt', trash('s11')))).toBe('symlink');
    expect(readdirSync(join(other, 'docs'))).toEqual([]);
  });
});

describe('a new trash keeps itself out of git (I6)', () => {
  it('writes a `.gitignore` of `*` into the trash folder it creates', async () => {
    const other = join(base, 'worktree-5');
    write(join(other, 'a.txt'), 'a');
    const c = await worktreeConfinement(other);
    expect((await trashConfined(c, 'a.txt', trash('s1'))).ok).toBe(true);
    expect(readFileSync(join(other, '.trash', '.gitignore'), 'utf8')).toBe('*\n');
  });

  it.skipIf(spawnSync('git', ['--version']).status !== 0)(
    '`git add -A` stages nothing from the trash',
    async () => {
      const repo = join(base, 'repo');
      write(join(repo, 'gone.txt'), 'gone');
      write(join(repo, 'kept.txt'), 'kept');
      const git = (...args: string[]) =>
        spawnSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).stdout;
      git('init', '-q');
      const c = await worktreeConfinement(repo);
      expect((await trashConfined(c, 'gone.txt', trash('s1'))).ok).toBe(true);
      git('add', '-A');
      expect(git('diff', '--cached', '--name-only').trim().split('\n')).toEqual(['kept.txt']);
    },
  );
});

describe('a confinement is created from a real folder', () => {
  it('resolves the root through links once, at creation', async () => {
    const link = join(base, 'tree-link');
    symlinkSync(tree, link);
    const created = await confinement({ root: link });
    expect(created.root).toBe(tools.root);
  });

  it('throws for a relative or missing root: a configuration bug', async () => {
    await expect(confinement({ root: 'agents/a1' })).rejects.toThrow(TypeError);
    await expect(confinement({ root: join(base, 'missing') })).rejects.toThrow();
    await expect(confinement({ root: join(tree, 'src', 'a.ts') })).rejects.toThrow(TypeError);
  });

  it('a read-only confinement reads, and throws on a write or a trash (I4)', async () => {
    const readOnly = await confinement({ root: tree, readOnly: true });
    expect((await readConfined(readOnly, 'src/a.ts', MAX)).ok).toBe(true);
    await expect(writeConfined(readOnly, 'src/a.ts', 'x')).rejects.toThrow(TypeError);
    await expect(trashConfined(readOnly, 'src/a.ts', trash('s1'))).rejects.toThrow(TypeError);
    expect(readFileSync(join(tree, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(tools.readOnly).toBe(false);
  });
});
