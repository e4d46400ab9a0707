// Links are followed one step at a time, every name checked before the disk is
// asked (I5, I6, A6): whatever a link is made to point at, the answer never
// tells what exists beyond the boundary — not in the code, not in the message.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Confinement, PathResult } from '../../src/paths/index.js';
import {
  agentFolderConfinement,
  listConfined,
  readConfined,
  trashConfined,
  worktreeConfinement,
  writeConfined,
} from '../../src/paths/index.js';
import { patchFsp, refusedAs } from '../support/confine-checks.js';
import { agentFolder, build, confineFolder, link } from '../support/confine-fixtures.js';

const MAX = { maxBytes: 1024 };
const { agents, agent, ws, outside, worktree } = confineFolder('links');
let inspector: Confinement;

/** `chain-0` → `chain-1` → … → `chain-40` → `report.md`: 41 links in a row. */
const chain = Object.fromEntries(
  Array.from({ length: 41 }, (_, i) => [
    `chain-${i}`,
    link(i === 40 ? 'report.md' : `chain-${i + 1}`),
  ]),
);

beforeAll(async () => {
  build(outside, { 'secret.txt': 'outside' });
  build(agents, {
    ...agentFolder('a1', {
      settings: '{"apiKey":"k"}',
      workspace: {
        'report.md': 'the report',
        'notes/x.md': 'notes x',
        'notes/sub/deep.md': 'deep',
        'x.md': 'workspace x',
        '.trash/2024-01-01/x': 'trashed',
        'trash-x': link('.trash/2024-01-01/x'),
        'trash-y': link('.trash/2024-01-01/y'),
        'detour-present': link('.trash/2024-01-01/../../report.md'),
        'detour-absent': link('.trash/nope/../../report.md'),
        up: link('..'),
        'through-settings': link('../AgentSettings.json/x'),
        'through-nothing': link('../AgentSettings.nope/x'),
        'through-outside-file': link(join(outside, 'secret.txt', 'x')),
        'through-outside-nothing': link(join(outside, 'nope', 'x')),
        'list-present': link('.trash/2024-01-01/..'),
        'list-absent': link('.trash/nope/..'),
        'missing-inside': link('missing-dir/x'),
        'missing-outside': link(join(outside, 'missing.txt')),
        'absolute-in': link(join(ws, 'report.md')),
        'deep-link': link('notes/sub'),
        'kernel-dots': link('deep-link/../x.md'),
        climb: link('../../../../../../../../x'),
        ...chain,
      },
    }),
  });
  inspector = await agentFolderConfinement(agent);
});

/** Both refused, with the same code and the same message but for the path itself. */
function expectSameAnswer(a: PathResult<unknown>, b: PathResult<unknown>, pa: string, pb: string) {
  expect(a.ok, pa).toBe(false);
  expect(b.ok, pb).toBe(false);
  if (a.ok || b.ok) return;
  expect(a.problem.code).toBe(b.problem.code);
  expect(a.problem.message.replace(pa, pb)).toBe(b.problem.message);
}

describe('a link never tells whether a hidden or refused target exists (I5, I6, A6)', () => {
  const readPairs: [label: string, present: string, absent: string][] = [
    ['a link into the trash (I6)', 'trash-x', 'trash-y'],
    ['a link through a hidden folder and back out of it (I6)', 'detour-present', 'detour-absent'],
    ['a link to the agent folder (I3)', 'up/AgentSettings.json', 'up/AgentSettings.json.bak_1'],
    ['a link through a refused file (I3)', 'through-settings', 'through-nothing'],
    ['a link through a file outside (A6)', 'through-outside-file', 'through-outside-nothing'],
    [
      'a link to nowhere inside and one to nowhere outside (A6)',
      'missing-inside',
      'missing-outside',
    ],
  ];
  it.each(readPairs)('%s: reads answer alike', async (_label, present, absent) => {
    const pa = `Workspace/${present}`;
    const pb = `Workspace/${absent}`;
    const a = await readConfined(inspector, pa, MAX);
    const b = await readConfined(inspector, pb, MAX);
    expectSameAnswer(a, b, pa, pb);
    if (!a.ok) expect(a.problem.code).toBe('symlink-out');
  });

  it('a link through a hidden folder is refused even where the kernel would land inside (I6)', async () => {
    const result = await readConfined(inspector, 'Workspace/detour-present', MAX);
    expect(result.ok).toBe(false);
  });

  it('a listing through a hidden folder answers alike whether it exists or not (I6)', async () => {
    const pa = 'Workspace/list-present';
    const pb = 'Workspace/list-absent';
    expectSameAnswer(await listConfined(inspector, pa), await listConfined(inspector, pb), pa, pb);
  });

  it('the walk never asks the disk about a hidden name, nor lets the kernel resolve a link (I6)', async () => {
    const names = ['lstat', 'stat', 'open', 'opendir', 'readlink', 'realpath'] as const;
    const asked: string[] = [];
    const undo = names.map((name) =>
      patchFsp(name, (original) => (path, ...rest) => {
        asked.push(`${name} ${String(path)}`);
        return original(path, ...rest);
      }),
    );
    try {
      for (const path of ['trash-x', 'detour-present', 'list-present']) {
        await readConfined(inspector, `Workspace/${path}`, MAX);
        await listConfined(inspector, `Workspace/${path}`);
      }
    } finally {
      for (const restore of undo) restore();
    }
    expect(asked.filter((call) => call.includes('.trash') || call.startsWith('realpath'))).toEqual(
      [],
    );
  });
});

describe('an agent cannot probe host files through a link to `/` in its worktree (I5, A6)', () => {
  let tools: Confinement;
  beforeAll(async () => {
    build(worktree, { esc: link('/') });
    tools = await worktreeConfinement(worktree);
  });

  const outsideRel = () => outside.slice(1);
  const pairs: [present: () => string, absent: () => string][] = [
    [() => 'esc/etc/passwd', () => 'esc/etc/passwdX'],
    [() => `esc/${outsideRel()}/secret.txt`, () => `esc/${outsideRel()}/secretX.txt`],
    [() => `esc/${outsideRel()}`, () => `esc/${outsideRel()}X`],
  ];
  it.each(pairs)('read, list, write and trash answer alike for %s', async (present, absent) => {
    const [pa, pb] = [present(), absent()];
    const trash = { segments: ['.trash'], stamp: 's1' };
    expectSameAnswer(
      await readConfined(tools, pa, MAX),
      await readConfined(tools, pb, MAX),
      pa,
      pb,
    );
    expectSameAnswer(await listConfined(tools, pa), await listConfined(tools, pb), pa, pb);
    expectSameAnswer(
      await writeConfined(tools, `${pa}/new`, 'x'),
      await writeConfined(tools, `${pb}/new`, 'x'),
      pa,
      pb,
    );
    expectSameAnswer(
      await trashConfined(tools, pa, trash),
      await trashConfined(tools, pb, trash),
      pa,
      pb,
    );
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside');
  });
});

describe('a link that stays inside reads what the kernel reads (I5)', () => {
  it('follows a link with an absolute target inside the root', async () => {
    const result = await readConfined(inspector, 'Workspace/absolute-in', MAX);
    expect(result.ok && result.value.content.toString()).toBe('the report');
  });

  it('steps `..` back from the real folder a link led to, as the kernel does', async () => {
    const result = await readConfined(inspector, 'Workspace/kernel-dots', MAX);
    expect(readFileSync(join(ws, 'kernel-dots'), 'utf8')).toBe('notes x');
    expect(result.ok && [result.value.content.toString(), result.value.abs]).toEqual([
      'notes x',
      join(inspector.root, 'Workspace', 'notes', 'x.md'),
    ]);
  });

  it('follows a chain of 40 links, and refuses a 41st like a loop (I5)', async () => {
    const forty = await readConfined(inspector, 'Workspace/chain-1', MAX);
    expect(forty.ok && forty.value.content.toString()).toBe('the report');
    const fortyOne = await readConfined(inspector, 'Workspace/chain-0', MAX);
    expect(refusedAs(fortyOne)).toBe('symlink-out');
  });

  it('refuses a link that climbs above the root before it asks the disk', async () => {
    const result = await readConfined(inspector, 'Workspace/climb', MAX);
    expect(refusedAs(result)).toBe('symlink-out');
  });

  it('a link refusal names the path given, never where the link points', async () => {
    const result = await readConfined(inspector, 'Workspace/through-outside-file', MAX);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.message).toContain('`Workspace/through-outside-file`');
    expect(result.problem.message).not.toContain(outside);
    expect(result.problem.message).not.toContain('secret');
  });
});
