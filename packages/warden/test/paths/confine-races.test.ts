// The file used is the file checked (I5): links swapped in between the check
// and the open never lead a read or a write outside, with `/proc/self/fd` and
// without it.

import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confinement } from '../../src/paths/index.js';
import {
  agentFolderConfinement,
  listConfined,
  readConfined,
  worktreeConfinement,
  writeConfined,
} from '../../src/paths/index.js';
import { patchFsp, refusedAs } from '../support/confine-checks.js';
import {
  agentFolder,
  build,
  confineFolder,
  hardLink,
  link,
  OUTSIDE,
  write,
} from '../support/confine-fixtures.js';

const MAX = { maxBytes: 64 * 1024 };
const { agents, agent, outside, worktree } = confineFolder('races');
let inspector: Confinement;

beforeAll(async () => {
  build(outside, { 'secret.txt': OUTSIDE, 'f.md': OUTSIDE });
  build(agents, {
    ...agentFolder('a1', {
      settings: '{}',
      workspace: {
        'report.md': 'the report',
        'notes/deep.md': 'deep note',
        'dir-in': link('notes'),
        'settings-link': link('../AgentSettings.json'),
        'hard.json': hardLink('../AgentSettings.json'),
      },
    }),
  });
  inspector = await agentFolderConfinement(agent);
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

/**
 * Runs `flip` on about every other timer tick: races all the time, yet leaves
 * calm spells even on a loaded machine, where every tick would flip, so that
 * some reads also succeed.
 */
function flipping(flip: () => void): NodeJS.Timeout {
  return setInterval(() => {
    if (Math.random() < 0.5) flip();
  }, 0);
}

/** Reads `path` 400 times while `flip` runs; collects contents and refusal codes. */
async function readWhile(flip: () => void, path: string): Promise<Set<string>> {
  const timer = flipping(flip);
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
  expect(seen.has('inside'), `seen: ${[...seen].join(', ')}`).toBe(true);
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

describe('a folder swapped for a link never takes a write outside (I5)', () => {
  it('no write lands outside while a parent folder flips to a link leading out', async () => {
    const dir = join(worktree, 'wswap');
    write(join(dir, 'f.md'), 'old');
    const tools = await worktreeConfinement(worktree);
    const flipper = folderFlipper(dir);
    const timer = flipping(flipper.flip);
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
    expect(readdirSync(outside).filter((n) => n !== 'secret.txt' && n !== 'f.md')).toEqual([]);
    expect(codes.has('ok')).toBe(true);
    expect(flipper.swaps()).toBeGreaterThan(10);
  });
});

describe('without `/proc`, the device and inode check keeps reads confined (I5)', () => {
  // Elsewhere than Linux there is no `/proc/self/fd`: make its readlink fail
  // and the module falls back to comparing device and inode.
  let undo: () => void;
  beforeAll(() => {
    undo = patchFsp('readlink', (original) => async (path, ...rest) => {
      if (String(path).startsWith('/proc/self/fd/')) {
        throw Object.assign(new Error('no /proc here'), { code: 'ENOENT' });
      }
      return original(path, ...rest);
    });
  });
  afterAll(() => {
    undo();
  });

  it('reads, lists and refuses as with `/proc`', async () => {
    const read = await readConfined(inspector, 'Workspace/report.md', MAX);
    expect(read.ok && read.value.content.toString()).toBe('the report');
    const listing = await listConfined(inspector, 'Workspace/dir-in');
    expect(listing.ok && listing.value.entries.map((e) => e.name)).toEqual(['deep.md']);
    const settings = await readConfined(inspector, 'Workspace/settings-link', MAX);
    expect(refusedAs(settings)).toBe('symlink-out');
    const hard = await readConfined(inspector, 'Workspace/hard.json', MAX);
    expect(refusedAs(hard)).toBe('hardlink');
  });

  it('no read returns the outside file while `race.md` flips between file and link', async () => {
    expectNoEscape(await raceFinalLink());
  });

  it('no read returns the outside file while a parent folder flips to a link', async () => {
    expectNoEscape(await raceParentLink());
  });
});
