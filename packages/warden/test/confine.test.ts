// The one shared path confinement (I5): what the inspector may read in an
// agent folder (I3, I6, A1, A6) and what the file tools may touch in a
// worktree, tested against real folders, links, hard links and FIFOs.

import { spawnSync } from 'node:child_process';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confinement, PathCode, PathResult } from '../src/paths/index.js';
import {
  agentFolderConfinement,
  allowAgentFolder,
  checkLexical,
  confinement,
  listConfined,
  readConfined,
  trashConfined,
  worktreeConfinement,
  writeConfined,
} from '../src/paths/index.js';

const SECRET = 'SECRET-API-KEY-4711';
const OUTSIDE = 'OUTSIDE-CONTENT-0815';
const MAX = { maxBytes: 64 * 1024 };

let base: string;
let agent: string;
let outside: string;
let inspector: Confinement;
let fifo: boolean;

function write(path: string, content: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

function mkfifo(path: string): boolean {
  const made = spawnSync('mkfifo', [path]);
  return made.status === 0;
}

/** `<base>/agents/a1/{AgentSettings.json,Identity.md,Soul.md,Workspace/…}` plus `outside/`. */
function buildAgentFolder(): void {
  base = mkdtempSync(join(tmpdir(), 'warden-confine-'));
  agent = join(base, 'agents', 'a1');
  outside = join(base, 'outside');
  write(join(outside, 'secret.txt'), OUTSIDE);
  write(join(outside, 'f.md'), OUTSIDE);
  write(join(agent, 'AgentSettings.json'), `{"apiKey":"${SECRET}"}`);
  write(join(agent, 'Identity.md'), 'I am a1');
  write(join(agent, 'Soul.md'), 'be careful');
  write(join(agent, 'history.log'), SECRET);
  write(join(agent, 'Workspace', 'report.md'), 'the report');
  write(join(agent, 'Workspace', 'notes', 'deep.md'), 'deep note');
  write(join(agent, 'Workspace', 'old.bak_1'), 'work output');
  write(join(agent, 'Workspace', '.trash', 'x'), 'trashed');
  write(join(agent, 'Workspace-Backup', 'x.md'), SECRET);
  write(join(base, 'agents', 'a2', 'Workspace', 'theirs.md'), SECRET);
  const ws = join(agent, 'Workspace');
  symlinkSync('../AgentSettings.json', join(ws, 'settings-link'));
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'outside-link'));
  symlinkSync(outside, join(ws, 'dir-out'));
  symlinkSync('notes', join(ws, 'dir-in'));
  symlinkSync('report.md', join(ws, 'report-link'));
  symlinkSync('.trash', join(ws, 'trash-link'));
  symlinkSync('../../a2', join(ws, 'other-agent'));
  symlinkSync('..', join(ws, 'up'));
  symlinkSync(join(outside, 'missing.txt'), join(ws, 'dangling-out'));
  symlinkSync('missing.md', join(ws, 'dangling-in'));
  symlinkSync('loop-b', join(ws, 'loop-a'));
  symlinkSync('loop-a', join(ws, 'loop-b'));
  linkSync(join(agent, 'AgentSettings.json'), join(ws, 'hard.json'));
  fifo = mkfifo(join(ws, 'fifo'));
}

beforeAll(async () => {
  buildAgentFolder();
  inspector = await agentFolderConfinement(agent);
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

function refusedAs<T>(result: PathResult<T>): PathCode | 'ok' {
  return result.ok ? 'ok' : result.problem.code;
}

function expectCedarStyle(message: string): void {
  expect(message).toMatch(/^[a-z]/);
  expect(message).not.toMatch(/\.$/);
  expect(message).not.toContain(SECRET);
  expect(message).not.toContain(OUTSIDE);
}

describe('the lexical check refuses hostile paths before touching the disk (I5)', () => {
  const cases: [label: string, input: string, code: PathCode][] = [
    [
      'a `..` detour through Workspace is refused (A1, A6)',
      'Workspace/../AgentSettings.json',
      'traversal',
    ],
    ['a leading `..` is refused (A6)', '../AgentSettings.json', 'traversal'],
    ['a `..` after a `.` is refused, not resolved', 'a/./../../x', 'traversal'],
    ['a `..` that would stay inside is still refused', 'Workspace/notes/../report.md', 'traversal'],
    ['an absolute POSIX path is refused (A1)', '/etc/passwd', 'absolute'],
    ['an absolute Windows path with a backslash is refused', 'C:\\x', 'drive'],
    ['an absolute Windows path with a slash is refused', 'C:/x', 'drive'],
    ['a drive-relative path is refused', 'C:x', 'drive'],
    ['a root-relative Windows path is refused', '\\x', 'absolute'],
    ['a UNC path with backslashes is refused', '\\\\server\\share', 'unc'],
    ['a UNC path with slashes is refused', '//server/share', 'unc'],
    ['a Win32 file namespace path is refused', '\\\\?\\C:\\x', 'device'],
    ['a device namespace pipe is refused', '\\\\.\\pipe\\x', 'device'],
    ['a device namespace path with slashes is refused', '//./x', 'device'],
    ['a Windows device name is refused in any folder', 'Workspace/CON', 'device'],
    ['a Windows device name with an extension is refused', 'Workspace/nul.txt', 'device'],
    ['an alternate data stream is refused', 'Workspace/file:stream', 'stream'],
    ['the default data stream is refused', 'Workspace/file::$DATA', 'stream'],
    [
      'the prefix trap `Workspace-Backup` is not `Workspace` (A6)',
      'Workspace-Backup/x.md',
      'not-allowed',
    ],
    ['a file beside the allowlist is refused (I3)', 'AgentSettings.json', 'not-allowed'],
    ['a file added tomorrow is refused: it is an allowlist (I3)', 'history.log', 'not-allowed'],
    ['the agent folder itself cannot be listed or read', '.', 'not-allowed'],
    ['an encoded dot is refused, not decoded', 'Workspace/%2e%2e/AgentSettings.json', 'percent'],
    ['any `%` is refused', 'Workspace/100%.md', 'percent'],
    ['a fullwidth dot is refused', 'Workspace/\uFF0E\uFF0E/AgentSettings.json', 'lookalike-dot'],
    ['a one dot leader is refused', 'Workspace/\u2024\u2024/x', 'lookalike-dot'],
    ['a small full stop is refused', 'Workspace/a\uFE52md', 'lookalike-dot'],
    ['an ideographic full stop is refused', 'Workspace/a\u3002md', 'lookalike-dot'],
    ['a halfwidth ideographic full stop is refused', 'Workspace/a\uFF61md', 'lookalike-dot'],
    ['a two dot leader is refused', 'Workspace/\u2025/x', 'lookalike-dot'],
    ['a combining mark on a dot is refused', 'Workspace/a.\u0301b', 'lookalike-dot'],
    ['a division slash is refused', 'Workspace\u2215x', 'lookalike-separator'],
    ['a fullwidth solidus is refused', 'Workspace\uFF0Fx', 'lookalike-separator'],
    ['a fullwidth reverse solidus is refused', 'Workspace\uFF3Cx', 'lookalike-separator'],
    ['a fraction slash is refused', 'Workspace\u2044x', 'lookalike-separator'],
    ['a yen sign, a best-fit backslash, is refused', 'Workspace\u00A5x', 'lookalike-separator'],
    ['a fullwidth colon is refused', 'Workspace/a\uFF1Astream', 'lookalike'],
    ['a fullwidth percent is refused', 'Workspace/\uFF052e', 'lookalike'],
    ['a no-break space is refused', 'Workspace/a\u00A0b', 'lookalike'],
    ['a backslash is refused', 'Workspace\\report.md', 'backslash'],
    ['a trailing dot is refused', 'Identity.md.', 'trailing'],
    ['a trailing space is refused', 'Soul.md ', 'trailing'],
    ['a trailing dot inside the path is refused', 'Workspace./report.md', 'trailing'],
    ['three dots are refused', 'Workspace/.../x', 'trailing'],
    ['a lowercase allowlisted file is a case alias', 'identity.md', 'case-alias'],
    ['an uppercase Workspace is a case alias', 'WORKSPACE/x', 'case-alias'],
    ['a lowercase Workspace is a case alias', 'workspace/x', 'case-alias'],
    ['a fullwidth letter in a known name is an alias', '\uFF37orkspace/x', 'case-alias'],
    ['the Kelvin sign is not a k', 'Wor\u212Aspace/x', 'case-alias'],
    ['a NUL byte is refused', 'Workspace/report.md\u0000.txt', 'control'],
    ['a newline is refused', 'Workspace/a\nb', 'control'],
    ['a tab is refused', 'Workspace/a\tb', 'control'],
    ['DEL is refused', 'Workspace/a\u007Fb', 'control'],
    ['a C1 control is refused', 'Workspace/a\u0085b', 'control'],
    ['a right-to-left override is refused', 'Workspace/evil\u202Edm.exe', 'control'],
    ['a zero-width space is refused', 'Work\u200Bspace/x', 'control'],
    ['a byte order mark is refused', '\uFEFFWorkspace/x', 'control'],
    ['a lone surrogate is refused', 'Workspace/\uD800', 'control'],
    ['an empty path is refused', '', 'empty'],
    ['an empty segment is refused, not collapsed', 'Workspace//report.md', 'empty-segment'],
    ['a path over 1024 bytes is refused', `Workspace/${'a/'.repeat(520)}x`, 'too-long'],
    ['a segment over 255 bytes is refused', `Workspace/${'a'.repeat(256)}`, 'too-long'],
    ['the hidden trash is refused (I6)', 'Workspace/.trash/x', 'hidden'],
    ['the hidden trash itself is refused (I6)', 'Workspace/.trash', 'hidden'],
    ['case never unhides the trash (I6)', 'Workspace/.TRASH/x', 'hidden'],
  ];
  it.each(cases)('%s: %j', (_label, input, code) => {
    const result = checkLexical(inspector, input);
    expect(refusedAs(result)).toBe(code);
    if (!result.ok) expectCedarStyle(result.problem.message);
  });

  it('a `..` refusal reads as a Cedar sentence with the input in backticks', () => {
    const result = checkLexical(inspector, '../AgentSettings.json');
    expect(result).toEqual({
      ok: false,
      problem: {
        code: 'traversal',
        message: 'path `../AgentSettings.json` climbs out of the root: `..` is not allowed',
      },
    });
  });

  it('a refusal message shows invisible characters as code points, never raw', () => {
    const result = checkLexical(inspector, 'Workspace/evil\u202Etxt');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem.message).toContain('U+202E');
      expect(result.problem.message).not.toContain('\u202E');
    }
  });

  it('a non-string path is refused as a result, not a throw', () => {
    expect(refusedAs(checkLexical(inspector, 42 as unknown as string))).toBe('not-text');
  });
});

describe('the lexical check accepts ordinary paths and normalises them', () => {
  const cases: [label: string, input: string, rel: string][] = [
    ['a workspace file is accepted as given', 'Workspace/report.md', 'Workspace/report.md'],
    ['a leading `./` is dropped', './Workspace/report.md', 'Workspace/report.md'],
    ['an inner `.` segment is dropped', 'Workspace/./report.md', 'Workspace/report.md'],
    ['one trailing slash is dropped', 'Workspace/', 'Workspace'],
    [
      'a `.bak_` file inside Workspace is work output (I5)',
      'Workspace/old.bak_1',
      'Workspace/old.bak_1',
    ],
    ['a dotfile inside Workspace is accepted', 'Workspace/.env', 'Workspace/.env'],
    ['letters of any script are accepted', 'Workspace/März-報告.md', 'Workspace/März-報告.md'],
    ['Identity.md is accepted (I3)', 'Identity.md', 'Identity.md'],
    ['Soul.md is accepted (I3)', 'Soul.md', 'Soul.md'],
  ];
  it.each(cases)('%s: %j', (_label, input, rel) => {
    const result = checkLexical(inspector, input);
    expect(result.ok && result.value.rel).toBe(rel);
  });

  it('a worktree confinement without an allowlist accepts its root as `.`', async () => {
    const worktree = await confinement({ root: agent, hidden: [['.trash']] });
    expect(checkLexical(worktree, '.')).toEqual({ ok: true, value: { rel: '.', segments: [] } });
    expect(refusedAs(checkLexical(worktree, '.trash/x'))).toBe('hidden');
  });
});

describe('the inspector reads only the allowlist of an agent folder (I3, I5, A1, A6)', () => {
  it('reads a workspace file, Identity.md and Soul.md', async () => {
    for (const [path, content] of [
      ['Workspace/report.md', 'the report'],
      ['Identity.md', 'I am a1'],
      ['Soul.md', 'be careful'],
      ['Workspace/old.bak_1', 'work output'],
    ] as const) {
      const result = await readConfined(inspector, path, MAX);
      expect(result.ok && result.value.content.toString()).toBe(content);
    }
  });

  it('reports the normalised path, the real path and the size of what it read', async () => {
    const result = await readConfined(inspector, './Workspace/report.md', MAX);
    expect(result.ok && result.value).toMatchObject({
      rel: 'Workspace/report.md',
      abs: join(inspector.root, 'Workspace', 'report.md'),
      size: 10,
      truncated: false,
    });
  });

  it('caps a read at maxBytes and says it did (I7)', async () => {
    const result = await readConfined(inspector, 'Workspace/report.md', { maxBytes: 4 });
    expect(result.ok && [result.value.content.toString(), result.value.truncated]).toEqual([
      'the ',
      true,
    ]);
  });

  it('refuses AgentSettings.json directly, via `..` and given absolute (A1)', async () => {
    for (const path of [
      'AgentSettings.json',
      'Workspace/../AgentSettings.json',
      join(agent, 'AgentSettings.json'),
      '../a1/AgentSettings.json',
    ]) {
      const result = await readConfined(inspector, path, MAX);
      expect(result.ok, path).toBe(false);
      if (!result.ok) expectCedarStyle(result.problem.message);
    }
  });

  const refusals: [label: string, path: string, code: PathCode][] = [
    [
      'a link inside Workspace to `../AgentSettings.json` is refused after resolution (A1)',
      'Workspace/settings-link',
      'symlink-out',
    ],
    [
      'a file link leading out of the agent folder is refused',
      'Workspace/outside-link',
      'symlink-out',
    ],
    [
      'a folder link leading out is refused for reads beneath it (A6)',
      'Workspace/dir-out/secret.txt',
      'symlink-out',
    ],
    [
      'a link to another agent is refused (A6)',
      'Workspace/other-agent/Workspace/theirs.md',
      'symlink-out',
    ],
    ['a loop of links is refused', 'Workspace/loop-a', 'symlink-out'],
    [
      'a link to the agent folder cannot reach a file beside the allowlist',
      'Workspace/up/history.log',
      'symlink-out',
    ],
    [
      'a link to the agent folder cannot probe for missing names',
      'Workspace/up/nothing-here',
      'symlink-out',
    ],
    [
      'a dangling link out does not tell whether its target exists',
      'Workspace/dangling-out',
      'symlink-out',
    ],
    ['a dangling link to an allowed place is not found', 'Workspace/dangling-in', 'not-found'],
    ['a hard link to AgentSettings.json is refused (I5)', 'Workspace/hard.json', 'hardlink'],
    ['the prefix trap `Workspace-Backup` is refused (A6)', 'Workspace-Backup/x.md', 'not-allowed'],
    ['a link into the hidden trash is refused as hidden (I6)', 'Workspace/trash-link/x', 'hidden'],
    ['the hidden trash is refused for reads (I6)', 'Workspace/.trash/x', 'hidden'],
    ['a missing workspace file is not found', 'Workspace/missing.md', 'not-found'],
    ['a folder is not read as a file', 'Workspace/notes', 'is-directory'],
    ['a path through a file is not found', 'Workspace/report.md/x', 'not-directory'],
    ['a case alias is refused before the disk is asked', 'soul.md', 'case-alias'],
  ];
  it.each(refusals)('%s: %j', async (_label, path, code) => {
    const result = await readConfined(inspector, path, MAX);
    expect(refusedAs(result)).toBe(code);
    if (!result.ok) expectCedarStyle(result.problem.message);
  });

  it('follows links that stay inside the allowlist', async () => {
    const viaDir = await readConfined(inspector, 'Workspace/dir-in/deep.md', MAX);
    expect(viaDir.ok && viaDir.value.content.toString()).toBe('deep note');
    const viaFile = await readConfined(inspector, 'Workspace/report-link', MAX);
    expect(viaFile.ok && viaFile.value.abs).toBe(join(inspector.root, 'Workspace', 'report.md'));
  });

  it('answers the hidden trash the same whether or not the target exists (I6)', async () => {
    const present = await readConfined(inspector, 'Workspace/.trash/x', MAX);
    const absent = await readConfined(inspector, 'Workspace/.trash/y', MAX);
    expect(present.ok || absent.ok).toBe(false);
    if (!present.ok && !absent.ok) {
      expect(present.problem.code).toBe(absent.problem.code);
      expect(present.problem.message.replace('/x`', '/y`')).toBe(absent.problem.message);
    }
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a FIFO without hanging: only regular files are read (I5)',
    async (ctx) => {
      if (!fifo) ctx.skip(); // `mkfifo` is not available here, so no FIFO could be made
      const result = await readConfined(inspector, 'Workspace/fifo', MAX);
      expect(refusedAs(result)).toBe('not-regular');
    },
  );
});

describe('the inspector lists Workspace without the trash and without following links (I6)', () => {
  it('lists files, folders and links, and omits `.trash`', async () => {
    const result = await listConfined(inspector, 'Workspace');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const byName = Object.fromEntries(result.value.entries.map((e) => [e.name, e]));
    expect(byName['.trash']).toBeUndefined();
    expect(byName['report.md']).toEqual({ name: 'report.md', type: 'file', size: 10 });
    expect(byName['notes']?.type).toBe('directory');
    expect(byName['settings-link']).toEqual({ name: 'settings-link', type: 'symlink', size: 0 });
    expect(byName['dir-out']?.type).toBe('symlink');
    if (fifo) expect(byName['fifo']?.type).toBe('other');
    const names = result.value.entries.map((e) => e.name);
    expect(names).toEqual([...names].sort());
  });

  it('refuses to list the hidden trash, directly or through a link (I6)', async () => {
    for (const path of ['Workspace/.trash', 'Workspace/trash-link', 'Workspace/.Trash']) {
      expect(refusedAs(await listConfined(inspector, path)), path).toBe('hidden');
    }
  });

  it('refuses to list a folder link leading out, or another agent (A6)', async () => {
    expect(refusedAs(await listConfined(inspector, 'Workspace/dir-out'))).toBe('symlink-out');
    expect(refusedAs(await listConfined(inspector, 'Workspace/other-agent'))).toBe('symlink-out');
  });

  it('lists a folder link that stays inside', async () => {
    const result = await listConfined(inspector, 'Workspace/dir-in');
    expect(result.ok && result.value.entries.map((e) => e.name)).toEqual(['deep.md']);
  });

  it('refuses to list the agent folder, a sibling folder, or a file', async () => {
    expect(refusedAs(await listConfined(inspector, '.'))).toBe('not-allowed');
    expect(refusedAs(await listConfined(inspector, 'Workspace-Backup'))).toBe('not-allowed');
    expect(refusedAs(await listConfined(inspector, 'Workspace/report.md'))).toBe('not-directory');
  });

  it('leaves out names no path could address, and counts them', async () => {
    const odd = join(agent, 'Workspace', 'odd');
    write(join(odd, 'ok.md'), 'x');
    write(join(odd, 'a%2e.md'), 'x');
    write(join(odd, 'evil\u202Etxt'), 'x');
    const result = await listConfined(inspector, 'Workspace/odd');
    expect(result.ok && result.value).toEqual({
      rel: 'Workspace/odd',
      entries: [{ name: 'ok.md', type: 'file', size: 1 }],
      omitted: 2,
    });
    rmSync(odd, { recursive: true });
  });
});

/** Reads `Workspace/race.md` while it flips between a file and a link to the outside file. */
async function raceFinalLink(): Promise<{ seen: Set<string>; swaps: number }> {
  const ws = join(agent, 'Workspace');
  const target = join(ws, 'race.md');
  write(target, 'inside');
  let swaps = 0;
  let asLink = false;
  const flip = () => {
    const staging = join(ws, `race-staging-${swaps}`);
    if (asLink) writeFileSync(staging, 'inside');
    else symlinkSync(join(outside, 'secret.txt'), staging);
    renameSync(staging, target);
    asLink = !asLink;
    swaps += 1;
  };
  const seen = await readWhile(flip, 'Workspace/race.md');
  rmSync(target, { force: true });
  return { seen, swaps };
}

/** Flips folder `dir` with a link to `outside/` on each call; `restore` puts the folder back. */
function folderFlipper(dir: string): {
  flip: () => void;
  restore: () => void;
  swaps: () => number;
} {
  const parked = `${dir}-parked`;
  let swaps = 0;
  const flip = () => {
    if (lstatSync(dir).isSymbolicLink()) {
      unlinkSync(dir);
      renameSync(parked, dir);
    } else {
      renameSync(dir, parked);
      symlinkSync(outside, dir);
    }
    swaps += 1;
  };
  const restore = () => {
    if (lstatSync(dir).isSymbolicLink()) unlinkSync(dir);
    if (existsSync(parked)) renameSync(parked, dir);
  };
  return { flip, restore, swaps: () => swaps };
}

/** Reads `Workspace/swap/f.md` while `swap` flips between a folder and a link to `outside/`. */
async function raceParentLink(): Promise<{ seen: Set<string>; swaps: number }> {
  const dir = join(agent, 'Workspace', 'swap');
  write(join(dir, 'f.md'), 'inside');
  const flipper = folderFlipper(dir);
  const seen = await readWhile(flipper.flip, 'Workspace/swap/f.md');
  flipper.restore();
  rmSync(dir, { recursive: true, force: true });
  return { seen, swaps: flipper.swaps() };
}

/** Reads `path` 400 times while `flip` runs on every timer tick; collects contents and refusal codes. */
async function readWhile(flip: () => void, path: string): Promise<Set<string>> {
  const timer = setInterval(flip, 0);
  const seen = new Set<string>();
  try {
    for (let i = 0; i < 400; i += 1) {
      const result = await readConfined(inspector, path, MAX);
      seen.add(result.ok ? result.value.content.toString() : result.problem.code);
      if (i % 8 === 0) await new Promise((r) => setImmediate(r));
    }
  } finally {
    clearInterval(timer);
  }
  return seen;
}

function expectNoEscape({ seen, swaps }: { seen: Set<string>; swaps: number }): void {
  expect([...seen].some((s) => s.includes(OUTSIDE))).toBe(false);
  expect(seen.has('inside')).toBe(true);
  expect(swaps).toBeGreaterThan(10);
}

describe('a link swapped in between check and open never leads outside (I5)', () => {
  it('no read returns the outside file while `race.md` flips between file and link', async () => {
    expectNoEscape(await raceFinalLink());
  });

  it('no read returns the outside file while a parent folder flips to a link', async () => {
    expectNoEscape(await raceParentLink());
  });
});

describe('without `/proc`, the device and inode check keeps reads confined (I5)', () => {
  // Elsewhere than Linux there is no `/proc/self/fd`: make its readlink fail
  // and the module falls back to comparing device and inode.
  const fsp = createRequire(import.meta.url)('node:fs/promises') as typeof fsPromises;
  const original = fsp.readlink;
  beforeAll(() => {
    const noProc = (async (path: string, ...rest: never[]) => {
      if (String(path).startsWith('/proc/self/fd/')) {
        throw Object.assign(new Error('no /proc here'), { code: 'ENOENT' });
      }
      return original(path, ...rest);
    }) as typeof original;
    fsp.readlink = noProc;
    syncBuiltinESMExports();
  });
  afterAll(() => {
    fsp.readlink = original;
    syncBuiltinESMExports();
  });

  it('reads, lists and refuses as with `/proc`', async () => {
    const read = await readConfined(inspector, 'Workspace/report.md', MAX);
    expect(read.ok && read.value.content.toString()).toBe('the report');
    const listing = await listConfined(inspector, 'Workspace/dir-in');
    expect(listing.ok && listing.value.entries.map((e) => e.name)).toEqual(['deep.md']);
    expect(refusedAs(await readConfined(inspector, 'Workspace/settings-link', MAX))).toBe(
      'symlink-out',
    );
    expect(refusedAs(await readConfined(inspector, 'Workspace/hard.json', MAX))).toBe('hardlink');
  });

  it('no read returns the outside file while `race.md` flips between file and link', async () => {
    expectNoEscape(await raceFinalLink());
  });

  it('no read returns the outside file while a parent folder flips to a link', async () => {
    expectNoEscape(await raceParentLink());
  });
});

describe('random hostile paths are refused or land inside the allowlist (I5)', () => {
  const alphabet = fc.constantFrom(
    '.',
    '/',
    '\\',
    '%',
    ':',
    'C',
    '\u0000',
    '\uFF0E',
    ' ',
    'a',
    'x',
    'Workspace',
    '..',
    'Identity.md',
    '.trash',
    'AgentSettings.json',
    '-Backup',
  );
  const hostile = fc.array(alphabet, { maxLength: 14 }).map((parts) => parts.join(''));

  function inside(root: string, rel: string): boolean {
    const abs = resolve(root, rel);
    return abs === root || abs.startsWith(root + sep);
  }

  it('the lexical check either refuses or yields a path inside the root and the allowlist', () => {
    fc.assert(
      fc.property(hostile, (input) => {
        const result = checkLexical(inspector, input);
        if (!result.ok) {
          expectCedarStyle(result.problem.message);
          return;
        }
        const { rel, segments } = result.value;
        expect(inside(inspector.root, rel)).toBe(true);
        expect(relative(inspector.root, resolve(inspector.root, rel)).split(sep)).toEqual(
          segments.length === 0 ? [''] : segments,
        );
        expect(allowAgentFolder(segments)).toBe(true);
        expect(segments.some((s) => s === '..' || s === '' || s.toLowerCase() === '.trash')).toBe(
          false,
        );
        expect([...rel].some((ch) => '%:\\\u0000\uFF0E'.includes(ch))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('a read of a random hostile path never returns a secret or an outside file', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (input) => {
        const result = await readConfined(inspector, input, MAX);
        if (!result.ok) {
          expectCedarStyle(result.problem.message);
          return;
        }
        expect(result.value.content.toString()).not.toContain(SECRET);
        expect(result.value.content.toString()).not.toContain(OUTSIDE);
        expect(inside(inspector.root, relative(inspector.root, result.value.abs))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the worktree configuration: file tools write and trash inside their worktree', () => {
  let tree: string;
  let tools: Confinement;
  const trash = (stamp: string) => ({ segments: ['.trash'], stamp });

  beforeAll(async () => {
    tree = join(base, 'worktree');
    write(join(tree, 'src', 'a.ts'), 'export const a = 1;\n');
    write(join(tree, 'docs', 'guide.md'), 'guide');
    symlinkSync(outside, join(tree, 'linkout'));
    symlinkSync('src', join(tree, 'linkin'));
    symlinkSync(join(outside, 'secret.txt'), join(tree, 'file-out'));
    symlinkSync('src/a.ts', join(tree, 'file-in'));
    linkSync(join(outside, 'secret.txt'), join(tree, 'hard.txt'));
    if (fifo) mkfifo(join(tree, 'pipe'));
    tools = await worktreeConfinement(tree);
  });

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

  it('overwrites an existing file completely, truncating after the check', async () => {
    write(join(tree, 'over.txt'), 'a long old content');
    const result = await writeConfined(tools, 'over.txt', Buffer.from('short'));
    expect(result.ok && result.value.created).toBe(false);
    expect(readFileSync(join(tree, 'over.txt'), 'utf8')).toBe('short');
  });

  it('writes through a parent link that stays inside the root', async () => {
    const result = await writeConfined(tools, 'linkin/b.ts', 'b');
    expect(result.ok && result.value.abs).toBe(join(tools.root, 'src', 'b.ts'));
  });

  it('refuses a parent link leading out, and creates nothing outside', async () => {
    const result = await writeConfined(tools, 'linkout/new.txt', 'x', { createParents: true });
    expect(refusedAs(result)).toBe('symlink-out');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    const deeper = await writeConfined(tools, 'linkout/sub/new.txt', 'x', { createParents: true });
    expect(refusedAs(deeper)).toBe('symlink-out');
    expect(existsSync(join(outside, 'sub'))).toBe(false);
  });

  it('no write lands outside while a parent folder flips to a link leading out (I5)', async () => {
    const dir = join(tree, 'wswap');
    write(join(dir, 'f.md'), 'old');
    const flipper = folderFlipper(dir);
    const timer = setInterval(flipper.flip, 0);
    const codes = new Set<string>();
    try {
      for (let i = 0; i < 300; i += 1) {
        const name = i % 2 === 0 ? 'f.md' : `new-${i}.md`;
        const result = await writeConfined(tools, `wswap/${name}`, 'written');
        codes.add(result.ok ? 'ok' : result.problem.code);
        if (i % 8 === 0) await new Promise((r) => setImmediate(r));
      }
    } finally {
      clearInterval(timer);
      flipper.restore();
    }
    expect(readFileSync(join(outside, 'f.md'), 'utf8')).toBe(OUTSIDE);
    expect(readdirSync(outside).filter((n) => n.startsWith('new-'))).toEqual([]);
    expect(codes.has('ok')).toBe(true);
    expect(flipper.swaps()).toBeGreaterThan(10);
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

  it('refuses to write a FIFO, a folder, the root or the hidden trash', async (ctx) => {
    expect(refusedAs(await writeConfined(tools, 'src', 'x'))).toBe('is-directory');
    expect(refusedAs(await writeConfined(tools, '.', 'x'))).toBe('root');
    expect(refusedAs(await writeConfined(tools, '.trash/x', 'x'))).toBe('hidden');
    if (!fifo) ctx.skip(); // `mkfifo` is not available here, so no FIFO could be made
    expect(refusedAs(await writeConfined(tools, 'pipe', 'x'))).toBe('not-regular');
  });

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
    const folder = await trashConfined(tools, 'build', trash('s2'));
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
  });

  it('refuses a trash folder that is a link leading out, and moves nothing', async () => {
    const other = join(base, 'worktree-2');
    write(join(other, 'keep.txt'), 'keep');
    symlinkSync(outside, join(other, '.trash'));
    const tools2 = await worktreeConfinement(other);
    expect(refusedAs(await trashConfined(tools2, 'keep.txt', trash('s8')))).toBe('symlink-out');
    expect(existsSync(join(other, 'keep.txt'))).toBe(true);
    expect(existsSync(join(outside, 's8'))).toBe(false);
  });

  it('refuses to trash the trash even when the trash is not hidden', async () => {
    const open = await confinement({ root: tree });
    expect(refusedAs(await trashConfined(open, '.trash/s2', trash('s7')))).toBe('trash');
  });

  it('throws on a trash place that is not plain segments: that is a bug, not a refusal', async () => {
    await expect(trashConfined(tools, 'src/a.ts', trash('../x'))).rejects.toThrow(RangeError);
  });
});

describe('a confinement is created from a real folder', () => {
  it('resolves the root through links once, at creation', async () => {
    const link = join(base, 'agent-link');
    symlinkSync(agent, link);
    const created = await confinement({ root: link });
    expect(created.root).toBe(inspector.root);
  });

  it('throws for a relative or missing root: a configuration bug', async () => {
    await expect(confinement({ root: 'agents/a1' })).rejects.toThrow(TypeError);
    await expect(confinement({ root: join(base, 'missing') })).rejects.toThrow();
    await expect(confinement({ root: join(agent, 'Soul.md') })).rejects.toThrow(TypeError);
  });
});
