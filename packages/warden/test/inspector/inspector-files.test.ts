// The inspector's file window (I3, I5, I6, A1, A6): `read_file` and
// `list_files` on a real data folder with real links, hard links and a FIFO.
// The path module has its own tests; these prove that the INSPECTOR answers
// through it — every refusal carries the shared confinement's own words for
// the same path — and that nothing outside the allowlist ever comes back.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confinement } from '../../src/paths/index.js';
import { agentFolderConfinement, readConfined } from '../../src/paths/index.js';
import { Inspector } from '../../src/inspector/index.js';
import type { TestInstance } from '../support/inspector-instance.js';
import {
  errorOf,
  makeInstance,
  OTHER_SECRET,
  OUTSIDE,
  SECRET,
  valueOf,
} from '../support/inspector-instance.js';

let t: TestInstance;
let inspector: Inspector;
let a1: Confinement;

beforeAll(async () => {
  t = await makeInstance('files');
  inspector = t.inspector();
  a1 = await agentFolderConfinement(join(t.agents, 'a1'));
});
afterAll(() => t.cleanup());

/** The content between the envelope's markers. */
function inside(value: Record<string, unknown>): string {
  const content = String(value.content);
  const header = value.foreignData as { begin: string; end: string };
  expect(content.startsWith(`${header.begin}\n`)).toBe(true);
  expect(content.endsWith(`\n${header.end}`)).toBe(true);
  return content.slice(header.begin.length + 1, content.length - header.end.length - 1);
}

/** A refusal that is a Cedar sentence and shows nothing from outside the allowlist. */
function expectCleanRefusal(error: string): void {
  expect(error).toMatch(/^[a-z`]/);
  expect(error).not.toMatch(/\.$/);
  for (const leaked of [SECRET, OTHER_SECRET, OUTSIDE, '"apiKey"', 'chat history', 'backup with'])
    expect(error).not.toContain(leaked);
}

/** The inspector refuses `path` with the shared confinement's own words for it (I5). */
async function expectRefusedByTheSharedModule(path: string): Promise<void> {
  const error = errorOf(await inspector.readFile({ agent: 'a1', path }));
  expectCleanRefusal(error);
  const direct = await readConfined(a1, path, { maxBytes: 64 * 1024 });
  expect(direct.ok, `the path module itself reads ${JSON.stringify(path)}`).toBe(false);
  if (!direct.ok) expect(error).toContain(direct.problem.message);
}

describe('read_file reads exactly `Workspace/**`, `Identity.md` and `Soul.md` (I3)', () => {
  it.each([
    ['Workspace/report.md', 'the report'],
    ['Identity.md', '# Identity\n\nI am a1, the coder.\n'],
    ['Soul.md', '# Soul\n\nBe careful.\n'],
    ['Workspace/old.bak_1', 'work output'],
    ['./Workspace/notes/deep.md', 'deep note'],
    ['Workspace/dir-in/deep.md', 'deep note'],
  ])('I3: reads %j inside the envelope', async (path, content) => {
    const value = valueOf(await inspector.readFile({ agent: 'a1', path }));
    expect(inside(value)).toBe(content);
    expect(value.foreignData).toMatchObject({ agent: 'a1', bytes: Buffer.byteLength(content) });
  });

  it('I3: the files beside the allowlist are refused, however harmless their names', async () => {
    for (const path of ['history.log', 'AgentSettings.json.bak_1', 'logs/run.log', 'logs'])
      await expectRefusedByTheSharedModule(path);
  });
});

describe('A1: `AgentSettings.json` is refused, however it is named', () => {
  it.each([
    ['directly', 'AgentSettings.json'],
    ['via `../`', '../AgentSettings.json'],
    ['via `Workspace/../`', 'Workspace/../AgentSettings.json'],
    ['via `./Workspace/../`', './Workspace/../AgentSettings.json'],
    ['via the agents folder', '../a1/AgentSettings.json'],
    ['via a symbolic link in Workspace', 'Workspace/settings-link'],
    ['via a hard link in Workspace', 'Workspace/hard.json'],
    ['via a link to the agent folder', 'Workspace/up/AgentSettings.json'],
  ])('A1: %s (%j)', async (_how, path) => {
    await expectRefusedByTheSharedModule(path);
  });

  it('A1: given as an absolute path, it is refused', async () => {
    await expectRefusedByTheSharedModule(join(t.agents, 'a1', 'AgentSettings.json'));
    await expectRefusedByTheSharedModule(join(t.agents, 'a1', 'Workspace', 'report.md'));
  });
});

// Each escape attempt, through the inspector's `read_file` (A6, I5).
const ESCAPES: readonly (readonly [string, string])[] = [
  ['a Windows absolute path', 'C:\\warden\\agents\\a1\\AgentSettings.json'],
  ['a Windows absolute path with slashes', 'C:/warden/agents/a1/AgentSettings.json'],
  ['a drive-relative path', 'C:AgentSettings.json'],
  ['a UNC path', '\\\\server\\share\\AgentSettings.json'],
  ['a UNC path with slashes', '//server/share/AgentSettings.json'],
  ['a device path', '\\\\?\\C:\\AgentSettings.json'],
  ['a device path with slashes', '//./C:/AgentSettings.json'],
  ['a Windows device name', 'Workspace/CON'],
  ['a Windows device name with an extension', 'Workspace/nul.txt'],
  ['an alternate data stream', 'Workspace/report.md:secret'],
  ['the `::$DATA` stream', 'AgentSettings.json::$DATA'],
  ['the `::$DATA` stream of an allowed file', 'Workspace/report.md::$DATA'],
  ['the prefix trap `Workspace-Backup/`', 'Workspace-Backup/x.md'],
  ['percent-encoded dots', 'Workspace/%2e%2e/AgentSettings.json'],
  ['percent-encoded dots at the start', '%2e%2e/a1/AgentSettings.json'],
  ['a percent-encoded slash', 'Workspace%2freport.md'],
  ['fullwidth dots', 'Workspace/\uFF0E\uFF0E/AgentSettings.json'],
  ['one-dot leaders', 'Workspace/\u2024\u2024/AgentSettings.json'],
  ['a fullwidth slash', 'Workspace\uFF0F..\uFF0FAgentSettings.json'],
  ['backslashes', 'Workspace\\..\\AgentSettings.json'],
  ['a backslash inside Workspace', 'Workspace\\report.md'],
  ['a trailing dot', 'AgentSettings.json.'],
  ['a trailing dot on an allowed name', 'Identity.md.'],
  ['a trailing space', 'Soul.md '],
  ['a trailing dot on the folder', 'Workspace./report.md'],
  ['a trailing space on the folder', 'Workspace /report.md'],
  ['a case alias of Workspace', 'workspace/report.md'],
  ['an upper-case alias of Workspace', 'WORKSPACE/report.md'],
  ['a case alias of Soul.md', 'SOUL.md'],
  ['a case alias of Identity.md', 'identity.md'],
  ['a NUL byte', 'Workspace/report.md\u0000.txt'],
  ['a NUL byte before `..`', 'Workspace/\u0000../AgentSettings.json'],
  ['an escape character', 'Workspace/report\u001b.md'],
  ['a zero-width space', 'Workspace/\u200Breport.md'],
  ['a newline', 'Workspace/report.md\nAgentSettings.json'],
  ['an over-long segment', `Workspace/${'a'.repeat(300)}`],
  ['an over-long path', `Workspace/${'a/'.repeat(600)}x`],
  ['a symbolic link to a file outside', 'Workspace/outside-link'],
  ['a symbolic link to a folder outside', 'Workspace/dir-out/secret.txt'],
  ['a symbolic link to another agent', 'Workspace/other-agent/Workspace/theirs.md'],
  ['a symbolic link to the agent folder', 'Workspace/up/history.log'],
  ['a hard link to a file outside', 'Workspace/hard-out.txt'],
  ['the hidden trash (I6)', 'Workspace/.trash/x'],
  ['the hidden trash in other case (I6)', 'Workspace/.TRASH/x'],
  ['a link into the hidden trash (I6)', 'Workspace/trash-link/x'],
  ['the agent folder itself', '.'],
  ['a folder', 'Workspace/notes'],
];

describe('A6: every escape attempt through `read_file` is refused by the shared module (I5)', () => {
  it.each(ESCAPES)('A6: %s', async (_what, path) => {
    await expectRefusedByTheSharedModule(path);
  });

  it('A6: a path longer than any the schema admits is refused before the disk is asked', async () => {
    const error = errorOf(await inspector.readFile({ agent: 'a1', path: 'a/'.repeat(3000) }));
    expect(error).toMatch(/^invalid arguments for `read_file`: `path`: /);
  });

  it.skipIf(process.platform === 'win32')(
    'I5: a FIFO is refused without hanging: only regular files are read',
    async (ctx) => {
      if (!t.fifo) ctx.skip(); // `mkfifo` is not available here, so no FIFO could be made
      await expectRefusedByTheSharedModule('Workspace/fifo');
    },
  );
});

describe('list_files lists only what may be read (I3, I6)', () => {
  it('I6: `Workspace` is listed without `.trash`; links are shown as links', async () => {
    const value = valueOf(await inspector.listFiles({ agent: 'a1' }));
    expect(value.path).toBe('Workspace');
    const entries = value.entries as { name: string; type: string }[];
    const names = entries.map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining(['report.md', 'notes', 'old.bak_1', 'injected.md']),
    );
    expect(names).not.toContain('.trash');
    expect(entries.find((e) => e.name === 'outside-link')?.type).toBe('symlink');
  });

  it('I3: the agent folder itself is not listed: it holds AgentSettings.json', async () => {
    for (const path of ['.', './', 'Workspace/..'])
      expectCleanRefusal(errorOf(await inspector.listFiles({ agent: 'a1', path })));
  });

  it.each([
    ['I6: the hidden trash', 'Workspace/.trash'],
    ['A6: the prefix trap', 'Workspace-Backup'],
    ['A6: the folder above', '..'],
    ['A6: a link to a folder outside', 'Workspace/dir-out'],
    ['A6: a link to another agent', 'Workspace/other-agent'],
    ['A6: an absolute path', '/'],
    ['I3: a folder beside the allowlist', 'logs'],
  ])('%s is refused (%j)', async (_what, path) => {
    expectCleanRefusal(errorOf(await inspector.listFiles({ agent: 'a1', path })));
  });

  it('I7: a file named after a credential is listed with the name redacted', async () => {
    const answer = await inspector.listFiles({ agent: 'a1' });
    expect(answer.ok && answer.text).not.toContain(SECRET);
    expect(answer.ok && answer.text).toContain('[REDACTED');
  });
});

describe('`allowFileAccess: false` is evidence only (I3, §4)', () => {
  it('§4, I3: refuses list_files and read_file, Identity.md and Soul.md included; read_audit still answers', async () => {
    const evidenceOnly = t.inspector({ allowFileAccess: false });
    for (const path of ['Identity.md', 'Soul.md', 'Workspace/report.md']) {
      const error = errorOf(await evidenceOnly.readFile({ agent: 'a1', path }));
      expect(error).toContain('`allowFileAccess: false`');
      expect(error).not.toContain('I am a1');
    }
    expect(errorOf(await evidenceOnly.listFiles({ agent: 'a1' }))).toContain(
      '`allowFileAccess: false`',
    );
    expect((await evidenceOnly.readAudit({ agent: 'a1', groupBy: 'status' })).ok).toBe(true);
  });
});

describe('the inspector is a window, not a tool (I4)', () => {
  it('I4: it has the six reads and nothing else', () => {
    const methods = Object.getOwnPropertyNames(Inspector.prototype).filter(
      (m) => m !== 'constructor',
    );
    expect(methods.sort()).toEqual(
      [
        'call',
        'listAgents',
        'listFiles',
        'readAudit',
        'readFile',
        'readReceipts',
        'readTasks',
      ].sort(),
    );
  });

  it('I4: an action that would change something does not exist', async () => {
    for (const action of ['write_file', 'delete_file', 'move_file', 'copy_file'])
      expect(
        errorOf(await inspector.call(action, { agent: 'a1', path: 'Workspace/report.md' })),
      ).toMatch(/^no action `/);
  });
});
