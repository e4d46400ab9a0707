// Listings inside the one path confinement: the trash and disallowed names are
// left out (I6), links are shown as links and never followed, names no path
// could address are counted, and a listing is capped and says so (I7).

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confinement } from '../../src/paths/index.js';
import { agentFolderConfinement, listConfined } from '../../src/paths/index.js';
import { refusedAs } from '../support/confine-checks.js';
import {
  agentFolder,
  build,
  confineFolder,
  FIFO,
  link,
  write,
} from '../support/confine-fixtures.js';

const { agents, agent, outside } = confineFolder('list');
let inspector: Confinement;
let fifo: boolean;

beforeAll(async () => {
  build(outside, { 'secret.txt': 'outside' });
  fifo = build(agents, {
    ...agentFolder('a1', {
      settings: '{}',
      beside: { 'Workspace-Backup/x.md': 'backup' },
      workspace: {
        'report.md': 'the report',
        'notes/deep.md': 'deep note',
        '.trash/x': 'trashed',
        'settings-link': link('../AgentSettings.json'),
        'dir-out': link(outside),
        'dir-in': link('notes'),
        'report-link': link('report.md'),
        'trash-link': link('.trash'),
        'other-agent': link('../../a2'),
        fifo: FIFO,
      },
    }),
    ...agentFolder('a2', { workspace: { 'theirs.md': 'theirs' } }),
  });
  inspector = await agentFolderConfinement(agent);
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
    expect(result.value.truncated).toBe(false);
  });

  it('refuses to list the hidden trash directly, in any case (I6)', async () => {
    for (const path of ['Workspace/.trash', 'Workspace/.Trash']) {
      expect(refusedAs(await listConfined(inspector, path)), path).toBe('hidden');
    }
  });

  it('refuses to list the hidden trash through a link, as any link leading nowhere allowed (I6)', async () => {
    expect(refusedAs(await listConfined(inspector, 'Workspace/trash-link'))).toBe('symlink-out');
  });

  it('refuses to list a folder link leading out, or another agent (A6)', async () => {
    expect(refusedAs(await listConfined(inspector, 'Workspace/dir-out'))).toBe('symlink-out');
    expect(refusedAs(await listConfined(inspector, 'Workspace/other-agent'))).toBe('symlink-out');
  });

  it('lists a folder link that stays inside', async () => {
    const result = await listConfined(inspector, 'Workspace/dir-in');
    expect(result.ok && result.value.entries.map((e) => e.name)).toEqual(['deep.md']);
  });

  it('refuses to list the agent folder, a sibling folder, or a file (I3)', async () => {
    expect(refusedAs(await listConfined(inspector, '.'))).toBe('not-allowed');
    expect(refusedAs(await listConfined(inspector, 'Workspace-Backup'))).toBe('not-allowed');
    expect(refusedAs(await listConfined(inspector, 'Workspace/report.md'))).toBe('not-directory');
    expect(refusedAs(await listConfined(inspector, 'Workspace/report-link'))).toBe('not-directory');
  });

  it('leaves out names no path could address, and counts them', async () => {
    const odd = join(agent, 'Workspace', 'odd');
    write(join(odd, 'ok.md'), 'x');
    write(join(odd, 'a%2e.md'), 'x');
    write(join(odd, 'evil\u202Etxt'), 'x');
    write(join(odd, 'filler\u3164'), 'x');
    const result = await listConfined(inspector, 'Workspace/odd');
    expect(result.ok && result.value).toEqual({
      rel: 'Workspace/odd',
      entries: [{ name: 'ok.md', type: 'file', size: 1 }],
      omitted: 3,
      truncated: false,
    });
    rmSync(odd, { recursive: true });
  });
});

describe('a listing is capped, so a huge folder cannot flood a response (I7)', () => {
  let big: string;
  beforeAll(() => {
    big = join(agent, 'Workspace', 'big');
    mkdirSync(big);
    for (let i = 0; i < 1500; i += 1) writeFileSync(join(big, `f${i}`), '');
  });
  afterAll(() => {
    rmSync(big, { recursive: true, force: true });
  });

  it('lists at most 1000 entries by default and says it was cut', async () => {
    const result = await listConfined(inspector, 'Workspace/big');
    expect(result.ok && [result.value.entries.length, result.value.truncated]).toEqual([
      1000,
      true,
    ]);
  });

  it('takes a smaller cap, and the entries it keeps are sorted and distinct', async () => {
    const result = await listConfined(inspector, 'Workspace/big', { maxEntries: 10 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const names = result.value.entries.map((e) => e.name);
    expect(names).toHaveLength(10);
    expect(new Set(names).size).toBe(10);
    expect(names).toEqual([...names].sort());
    expect(result.value.truncated).toBe(true);
  });

  it('a folder of exactly the cap is not cut', async () => {
    const result = await listConfined(inspector, 'Workspace/big', { maxEntries: 1500 });
    expect(result.ok && [result.value.entries.length, result.value.truncated]).toEqual([
      1500,
      false,
    ]);
  });

  it('a cap of 0 checks the folder without reading its entries', async () => {
    const result = await listConfined(inspector, 'Workspace/big', { maxEntries: 0 });
    expect(result.ok && [result.value.entries, result.value.truncated]).toEqual([[], true]);
  });

  it('throws for a cap that is not a whole number: that is a bug, not a refusal', async () => {
    await expect(listConfined(inspector, 'Workspace', { maxEntries: -1 })).rejects.toThrow(
      RangeError,
    );
  });
});
