// What the read-only inspector may read in an agent folder (I3, I4, I5, I6,
// I7, A1, A6), tested against real files, links, hard links and FIFOs.

import { appendFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Confinement, PathCode } from '../../src/paths/index.js';
import {
  agentFolderConfinement,
  readConfined,
  trashConfined,
  writeConfined,
} from '../../src/paths/index.js';
import { expectCedarStyle, patchFileHandle, refusedAs } from '../support/confine-checks.js';
import {
  agentFolder,
  build,
  confineFolder,
  FIFO,
  hardLink,
  link,
  OUTSIDE,
  SECRET,
  write,
} from '../support/confine-fixtures.js';

const MAX = { maxBytes: 64 * 1024 };
const { agents, agent, outside } = confineFolder('inspector');

let inspector: Confinement;
let fifo: boolean;

beforeAll(async () => {
  build(outside, { 'secret.txt': OUTSIDE });
  fifo = build(agents, {
    ...agentFolder('a1', {
      settings: `{"apiKey":"${SECRET}"}`,
      identity: 'I am a1',
      soul: 'be careful',
      beside: { 'history.log': SECRET, 'Workspace-Backup/x.md': SECRET },
      workspace: {
        'report.md': 'the report',
        'notes/deep.md': 'deep note',
        'old.bak_1': 'work output',
        '.trash/x': 'trashed',
        'settings-link': link('../AgentSettings.json'),
        'outside-link': link(join(outside, 'secret.txt')),
        'dir-out': link(outside),
        'dir-in': link('notes'),
        'report-link': link('report.md'),
        'trash-link': link('.trash'),
        'other-agent': link('../../a2'),
        up: link('..'),
        'dangling-out': link(join(outside, 'missing.txt')),
        'dangling-in': link('missing.md'),
        'loop-a': link('loop-b'),
        'loop-b': link('loop-a'),
        'hard.json': hardLink('../AgentSettings.json'),
        fifo: FIFO,
      },
    }),
    ...agentFolder('a2', { workspace: { 'theirs.md': SECRET } }),
  });
  inspector = await agentFolderConfinement(agent);
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
      'a file link leading out of the agent folder is refused (A6)',
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
    ['a loop of links is refused (I5)', 'Workspace/loop-a', 'symlink-out'],
    [
      'a link to the agent folder cannot reach a file beside the allowlist (I3)',
      'Workspace/up/history.log',
      'symlink-out',
    ],
    [
      'a link to the agent folder cannot probe for missing names (I3)',
      'Workspace/up/nothing-here',
      'symlink-out',
    ],
    [
      'a dangling link out does not tell whether its target exists (I5)',
      'Workspace/dangling-out',
      'symlink-out',
    ],
    [
      'a dangling link inside answers like any link that leads nowhere allowed (I5)',
      'Workspace/dangling-in',
      'symlink-out',
    ],
    ['a hard link to AgentSettings.json is refused (I5)', 'Workspace/hard.json', 'hardlink'],
    ['the prefix trap `Workspace-Backup` is refused (A6)', 'Workspace-Backup/x.md', 'not-allowed'],
    [
      'a link into the hidden trash answers like any link that leads nowhere allowed (I6)',
      'Workspace/trash-link/x',
      'symlink-out',
    ],
    ['the hidden trash is refused for reads (I6)', 'Workspace/.trash/x', 'hidden'],
    ['a missing workspace file is not found', 'Workspace/missing.md', 'not-found'],
    ['a folder is not read as a file', 'Workspace/notes', 'is-directory'],
    ['a path through a file is not found', 'Workspace/report.md/x', 'not-directory'],
    [
      'a file named with a trailing `/` is not a folder (I5)',
      'Workspace/report.md/',
      'not-directory',
    ],
    ['a file named with a trailing `/.` is not a folder (I5)', 'Identity.md/.', 'not-directory'],
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

describe('a file that grows while it is read is reported as read (I7)', () => {
  /** Makes every read of the file append to it first, as a busy writer would. */
  async function readWhileGrowing(name: string, maxBytes: number) {
    const path = join(agent, 'Workspace', name);
    write(path, 'x'.repeat(100));
    const undo = await patchFileHandle(
      path,
      'read',
      (original) =>
        function (this: FileHandle, ...args: Parameters<FileHandle['read']>) {
          appendFileSync(path, 'y'.repeat(1000));
          return original.apply(this, args);
        } as FileHandle['read'],
    );
    try {
      return await readConfined(inspector, `Workspace/${name}`, { maxBytes });
    } finally {
      undo();
    }
  }

  it('size, content and truncated agree when the file grows past the cap', async () => {
    const result = await readWhileGrowing('grow-1.md', 500);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { size, content, truncated } = result.value;
    expect(truncated).toBe(content.length < size);
    expect(content.length).toBe(Math.min(size, 500));
  });

  it('a file that grows under a large cap is read as it was when opened', async () => {
    const result = await readWhileGrowing('grow-2.md', 64 * 1024);
    expect(result.ok && [result.value.size, result.value.content.length]).toEqual([100, 100]);
    expect(result.ok && result.value.truncated).toBe(false);
  });
});

describe('the inspector configuration is read-only (I4)', () => {
  it('says so: its confinement carries the read-only flag', () => {
    expect(inspector.readOnly).toBe(true);
  });

  it('refuses to write through it: a write is a programming error and throws', async () => {
    await expect(writeConfined(inspector, 'Workspace/new.md', 'x')).rejects.toThrow(TypeError);
    await expect(writeConfined(inspector, 'Workspace/report.md', 'x')).rejects.toThrow(TypeError);
    const read = await readConfined(inspector, 'Workspace/report.md', MAX);
    expect(read.ok && read.value.content.toString()).toBe('the report');
  });

  it('refuses to trash through it: a delete is a programming error and throws', async () => {
    const trash = { segments: ['Workspace', '.trash'], stamp: 's1' };
    await expect(trashConfined(inspector, 'Workspace/report.md', trash)).rejects.toThrow(TypeError);
    const read = await readConfined(inspector, 'Workspace/report.md', MAX);
    expect(read.ok).toBe(true);
  });
});
