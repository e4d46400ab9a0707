// `warden hook gemini` (contracts §4, G14b, G14c, G22, G37): Gemini CLI's
// `BeforeTool` inputs, as captured from Gemini CLI 0.61.0, in; Gemini CLI's
// answer out — `{"decision":"allow"|"deny","reason":…}`, an allowed shell
// command rewritten whole in `hookSpecificOutput.tool_input`, never "ask"
// (Gemini CLI hangs on it) — standalone on a policy file and connected to a
// real `warden serve`; and every way the hook could fail ends as a deny,
// because Gemini CLI runs the tool when a hook fails.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BeforeTool, GeminiAnswer } from '../../src/hook/gemini.js';
import {
  callDigest,
  gemini,
  geminiMcpName,
  hookAnswer,
  makeCallId,
  mcpCall,
  planCall,
  readBeforeTool,
} from '../../src/hook/gemini.js';
import type { HookIo, HookOptions } from '../../src/hook/run.js';
import { answerHook, runHook } from '../../src/hook/run.js';
import { BIN, FIXTURES, GRANTED_RUN, exportedAudit, warden } from '../helpers.js';
import { sandboxForTests, tempDir } from '../support/backends.js';
import type { Served, Spawned } from '../support/processes.js';
import {
  agentToken,
  approverWatching,
  cliToken,
  freePort,
  killAll,
  serve,
} from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
rules:
  - id: protect-main
    action: gitPush
    decision: deny
    when: { refs: [main] }
  - id: feature-branches
    action: gitPush
    decision: allow
    when: { refs: ['feature/**'] }
  - id: ask-outside
    action: fileWriteOutsideWorktree
    decision: prompt
  - id: no-prod
    action: networkEgress
    decision: deny
    when: { hosts: ['*.prod.internal'] }
`;

const DENY_MAIN =
  'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace';

/** The MCP server the captured input calls, mapped as the gateway would map it (contracts §7). */
const GATEWAY_CONFIG = `agent: gemini-cli
workspace: acme
servers:
  fake: { command: node, args: [fake-mcp.mjs] }
  github: { url: "https://api.githubcopilot.com/mcp/" }
tools:
  fake__write_note: { actions: [fileWriteOutsideWorktree], args: { paths: [path] } }
  github__push_files: { actions: [gitPush], args: { refs: [branch] } }
  "github__{get,list,search}_*": { readOnly: true }
`;

const { missing: noSandbox } = sandboxForTests('the sandbox rewrites', false);

let root: string;
let worktree: string;
let policyFile: string;
let gatewayConfig: string;
beforeAll(() => {
  root = tempDir('warden-gemini-hook-');
  worktree = join(root, 'api');
  mkdirSync(join(worktree, 'src'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  symlinkSync(join(root, 'elsewhere'), join(worktree, 'out'));
  policyFile = join(root, 'policy.yaml');
  writeFileSync(policyFile, POLICY);
  gatewayConfig = join(root, 'gateway.yaml');
  writeFileSync(gatewayConfig, GATEWAY_CONFIG);
});

/** A captured input with the machine's paths replaced by this test's. */
function captured(name: string, cwd = worktree): string {
  return readFileSync(join(FIXTURES, 'gemini-cli', name), 'utf8')
    .replaceAll('WORKTREE', cwd)
    .replaceAll('GEMINI_HOME', join(root, 'home'));
}

function capturedInput(name: string, cwd = worktree): BeforeTool {
  const read = readBeforeTool(JSON.parse(captured(name, cwd)));
  if (Array.isArray(read)) throw new Error(read.join('; '));
  return read;
}

/** A `BeforeTool` input as Gemini CLI 0.61.0 sends it. */
function beforeTool(
  tool: string,
  toolInput: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    session_id: 'c9110e09-c137-4ff3-8f46-f4bcc189603c',
    transcript_path: join(root, 'home', 'session.jsonl'),
    cwd: worktree,
    hook_event_name: 'BeforeTool',
    timestamp: '2026-12-01T22:12:29.454Z',
    tool_name: tool,
    tool_input: toolInput,
    ...extra,
  };
}

function input(tool: string, toolInput: Record<string, unknown>, extra = {}): BeforeTool {
  const read = readBeforeTool(beforeTool(tool, toolInput, extra));
  if (Array.isArray(read)) throw new Error(read.join('; '));
  return read;
}

/**
 * The environment the hook sees: no Warden server unless given, and the
 * session's project as Gemini CLI names it (GEMINI_PROJECT_DIR), the worktree
 * calls are bound to.
 */
function hookEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const unset = new Set(['WARDEN_URL', 'WARDEN_TOKEN', 'WARDEN_MANAGED_POLICY']);
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !unset.has(key))),
    WARDEN_LOG_LEVEL: 'silent',
    GEMINI_PROJECT_DIR: worktree,
    ...extra,
  };
}

/** `answerHook` in this process with the Gemini CLI runtime. */
function answer(
  text: string,
  options: HookOptions,
  env: Record<string, string> = {},
): Promise<GeminiAnswer> {
  const io: HookIo = {
    stdin: () => Promise.resolve(text),
    out: () => undefined,
    env: hookEnv(env),
  };
  return answerHook(io, options, gemini);
}

const deny = (reason: string) => ({ decision: 'deny', reason });
const allow = (reason: string) => ({ decision: 'allow', reason });

describe('the reader: Gemini CLI 0.61.0 `BeforeTool` input, field by field', () => {
  it('reads every captured input, and makes a call id Gemini CLI does not send', () => {
    for (const name of [
      'run_shell_command-git-push.json',
      'write_file.json',
      'replace.json',
      'mcp_fake_write_note.json',
    ]) {
      const read = gemini.read(JSON.parse(captured(name)));
      expect(Array.isArray(read), name).toBe(false);
      const hook = read as Exclude<typeof read, string[]>;
      expect(hook.cwd).toBe(worktree);
      expect(hook.sessionId).toBe('c9110e09-c137-4ff3-8f46-f4bcc189603c');
      expect(hook.callId).toMatch(
        /^gemini:c9110e09-c137-4ff3-8f46-f4bcc189603c:2026-12-01T22:12:\d\d\.\d{3}Z:[0-9a-f]{16}$/,
      );
    }
    const push = capturedInput('run_shell_command-git-push.json');
    expect(push.tool_input).toEqual({ command: 'git push origin main', description: 'push' });
  });

  it('the call id is the same for the same call, whatever the key order, and differs for another', () => {
    const a = input('run_shell_command', { command: 'ls', description: 'list' });
    const b = input('run_shell_command', { description: 'list', command: 'ls' });
    expect(makeCallId(a)).toBe(makeCallId(b));
    expect(makeCallId(a)).toBe(
      `gemini:${a.session_id}:${a.timestamp}:${callDigest('run_shell_command', { command: 'ls', description: 'list' })}`,
    );
    expect(makeCallId(input('run_shell_command', { command: 'ls -a' }))).not.toBe(makeCallId(a));
    expect(
      makeCallId(input('run_shell_command', { command: 'ls' }, { timestamp: 'later' })),
    ).not.toBe(makeCallId(input('run_shell_command', { command: 'ls' })));
    // Without a session or a timestamp the id still says what it is.
    const bare = readBeforeTool({
      hook_event_name: 'BeforeTool',
      cwd: worktree,
      tool_name: 'glob',
      tool_input: {},
    }) as BeforeTool;
    expect(makeCallId(bare, () => new Date(0))).toMatch(
      /^gemini:no-session:1970-01-01T00:00:00\.000Z:[0-9a-f]{16}$/,
    );
  });

  it('arguments nested too deeply to print still get a call id, so the call is still decided', async () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as unknown;
    const read = input('run_shell_command', { command: 'git push origin main', x: deep });
    expect(makeCallId(read)).toMatch(/:[0-9a-f]{16}$/);
    expect(makeCallId(read)).not.toBe(makeCallId(read));
    const text = JSON.stringify(beforeTool('run_shell_command', { command: 'ls' })).replace(
      '"command":"ls"',
      `"command":"git push origin main","x":${'['.repeat(200_000)}${']'.repeat(200_000)}`,
    );
    expect(await answer(text, { policy: policyFile, data: tempDir(), sandbox: 'off' })).toEqual(
      deny(DENY_MAIN),
    );
  });

  it('lists every problem with missing fields and wrong types', () => {
    expect(readBeforeTool(null)).toEqual(['the input is not a JSON object']);
    expect(readBeforeTool([])).toEqual(['the input is not a JSON object']);
    expect(readBeforeTool('BeforeTool')).toEqual(['the input is not a JSON object']);
    expect(readBeforeTool({})).toHaveLength(4);
    const problems = readBeforeTool({
      hook_event_name: 'AfterTool',
      cwd: 'relative/dir',
      tool_name: 7,
      tool_input: ['command'],
      session_id: 3,
      timestamp: {},
      transcript_path: false,
    }) as string[];
    expect(problems).toHaveLength(7);
    expect(problems[0]).toContain('install it under `BeforeTool`');
    expect(readBeforeTool(beforeTool('x', {}, { mcp_context: 'fake' }))).toEqual([
      '`mcp_context` is not an object',
    ]);
    expect(
      readBeforeTool(beforeTool('x', {}, { mcp_context: { server_name: 5, tool_name: '' } })),
    ).toEqual([
      '`mcp_context.server_name` is not a non-empty string',
      '`mcp_context.tool_name` is not a non-empty string',
    ]);
    // Fields Warden does not read pass unread.
    expect(Array.isArray(readBeforeTool(beforeTool('x', {}, { original_request_name: 1 })))).toBe(
      false,
    );
  });

  it('trusts `mcp_context` only where it names the tool called (as Gemini CLI names MCP tools)', () => {
    const note = capturedInput('mcp_fake_write_note.json');
    expect(mcpCall(note)).toEqual({ server: 'fake', name: 'write_note' });
    expect(geminiMcpName('my server', 'a/b')).toBe('mcp_my_server_a_b');
    expect(geminiMcpName('mcp_gh', 'list')).toBe('mcp_gh_list');
    const long = geminiMcpName('s'.repeat(40), 't'.repeat(40));
    expect(long).toBe(`mcp_${'s'.repeat(26)}...${'t'.repeat(30)}`);
    // A server name with `_` is only known from `mcp_context`.
    expect(
      mcpCall(
        input(
          'mcp_git_hub_push',
          {},
          { mcp_context: { server_name: 'git_hub', tool_name: 'push' } },
        ),
      ),
    ).toEqual({ server: 'git_hub', name: 'push' });
    expect(mcpCall(input('mcp_git_hub_push', {}))).toEqual({ server: 'git', name: 'hub_push' });
    // Disagreeing: another tool, or another server, than the one called.
    for (const context of [
      { server_name: 'fake', tool_name: 'read_note' },
      { server_name: 'warden', tool_name: 'write_note' },
    ])
      expect(mcpCall(input('mcp_fake_write_note', {}, { mcp_context: context }))).toEqual(
        expect.stringContaining('which is not the tool called: denied'),
      );
    expect(mcpCall(input('mcp_nounderscore', {}))).toEqual(
      expect.stringContaining('not an MCP tool name'),
    );
  });
});

describe('G14b/G14c: what a Gemini CLI tool call asks of the gate', () => {
  it('G14b: `run_shell_command` goes to the shell classifier with the worktree, to run sandboxed once allowed (G2)', async () => {
    const push = capturedInput('run_shell_command-git-push.json');
    expect(await planCall(push, worktree, 'warden', undefined, 'id-1')).toEqual({
      kind: 'gate',
      worktree,
      ask: {
        tool: 'run_shell_command',
        command: 'git push origin main',
        arguments: { command: 'git push origin main', description: 'push' },
        callId: 'id-1',
      },
      shell: {
        input: { command: 'git push origin main', description: 'push' },
        command: 'git push origin main',
      },
    });
  });

  it('G14b, E26: a shell command run in another folder (`dir_path`) is judged as `cd <folder> && …`; outside the worktree it is also a write there (G14c), and runs sandboxed in the worktree', async () => {
    const elsewhere = join(root, 'elsewhere');
    const plan = await planCall(
      input('run_shell_command', { command: 'echo x > passwd', dir_path: elsewhere }),
      worktree,
    );
    expect(plan).toMatchObject({
      kind: 'gate',
      worktree,
      ask: {
        command: `cd '${elsewhere}' && echo x > passwd`,
        actions: ['processSpawn', 'fileWriteOutsideWorktree'],
      },
      shell: {
        input: { command: 'echo x > passwd', dir_path: elsewhere },
        command: 'echo x > passwd',
        elsewhere,
      },
    });
    // Relative to the worktree; the worktree itself needs no `cd`.
    expect(
      await planCall(input('run_shell_command', { command: 'ls', dir_path: 'src' }), worktree),
    ).toMatchObject({ ask: { command: `cd '${join(worktree, 'src')}' && ls` } });
    expect(
      await planCall(
        input('run_shell_command', { command: 'ls', dir_path: `${worktree}/` }),
        worktree,
      ),
    ).toMatchObject({ ask: { command: 'ls' } });
    // Two folders, or one that is not a string, cannot be judged.
    expect(
      await planCall(
        input('run_shell_command', { command: 'ls', dir_path: 'src', directory: '/etc' }),
        worktree,
      ),
    ).toMatchObject({ kind: 'refuse', reason: expect.stringContaining('two different folders') });
    expect(
      await planCall(input('run_shell_command', { command: 'ls', dir_path: ['/etc'] }), worktree),
    ).toMatchObject({ kind: 'refuse' });
    expect(await planCall(input('run_shell_command', { command: '' }), worktree)).toMatchObject({
      kind: 'refuse',
      reason: '`run_shell_command` without a `command`',
    });
  });

  it('G14c: `write_file` and `replace` inside the worktree are not gated; outside, through `..` or a link, they are', async () => {
    expect(await planCall(capturedInput('write_file.json'), worktree)).toEqual({
      kind: 'ungated',
      reason: '`write_file` writes inside the worktree (not gated)',
    });
    expect(await planCall(capturedInput('replace.json'), worktree)).toEqual({
      kind: 'ungated',
      reason: '`replace` writes inside the worktree (not gated)',
    });
    expect(
      await planCall(
        input('write_file', { file_path: `${worktree}/../elsewhere/x.env`, content: '' }),
        worktree,
      ),
    ).toMatchObject({
      kind: 'gate',
      ask: {
        actions: ['fileWriteOutsideWorktree'],
        args: { paths: [join(root, 'elsewhere', 'x.env')] },
      },
    });
    expect(
      await planCall(input('replace', { file_path: join(worktree, 'out', 'x.env') }), worktree),
    ).toMatchObject({ kind: 'gate', ask: { actions: ['fileWriteOutsideWorktree'] } });
    expect(await planCall(input('write_file', { content: 'x' }), worktree)).toEqual({
      kind: 'refuse',
      reason: '`write_file` without a `file_path`',
    });
  });

  it('records a long content argument by its start and size, so a large write is still decided', async () => {
    const content = 'x'.repeat(3 * 1024 * 1024);
    const plan = await planCall(
      input('write_file', { file_path: '/etc/big.txt', content }),
      worktree,
    );
    const recorded = (plan as { ask: { arguments: { content: string } } }).ask.arguments;
    expect(recorded.content.length).toBeLessThan(5000);
    expect(recorded.content).toMatch(/… \(3145728 bytes in all\)$/);
  });

  it('E12, E8: `web_fetch` is network egress to the URLs its prompt names; `google_web_search` reaches unknown hosts', async () => {
    expect(
      await planCall(
        input('web_fetch', {
          prompt: 'Summarize https://api.github.com/x and http://docs.rs/y please',
        }),
        worktree,
      ),
    ).toMatchObject({
      kind: 'gate',
      ask: {
        actions: ['networkEgress'],
        args: { hosts: ['https://api.github.com/x', 'http://docs.rs/y'] },
      },
    });
    // A GitHub page is fetched raw, from another host.
    expect(
      await planCall(
        input('web_fetch', { prompt: 'read https://github.com/a/b/blob/main/x.md' }),
        worktree,
      ),
    ).toMatchObject({
      ask: {
        args: {
          hosts: [
            'https://github.com/a/b/blob/main/x.md',
            'https://raw.githubusercontent.com/a/b/blob/main/x.md',
          ],
        },
      },
    });
    expect(
      await planCall(input('web_fetch', { url: 'https://db.prod.internal/' }), worktree),
    ).toMatchObject({
      ask: { args: { hosts: ['https://db.prod.internal/'] } },
    });
    // No URL, a URL it cannot read or one of another scheme: the hosts are unknown (G18).
    for (const prompt of ['summarize the docs', 'get ftp://x.example/f', 'see http://[::1']) {
      const plan = await planCall(input('web_fetch', { prompt }), worktree);
      expect(plan, prompt).toMatchObject({ kind: 'gate', ask: { actions: ['networkEgress'] } });
      expect((plan as { ask: { args?: unknown } }).ask.args, prompt).toBeUndefined();
    }
    const search = await planCall(input('google_web_search', { query: 'q' }), worktree);
    expect(search).toMatchObject({ kind: 'gate', ask: { actions: ['networkEgress'] } });
    expect((search as { ask: { args?: unknown } }).ask.args).toBeUndefined();
  });

  it('reads pass with a reason; an unknown tool, and MCP tools without a mapping, are refused', async () => {
    for (const tool of [
      'read_file',
      'read_many_files',
      'list_directory',
      'glob',
      'grep_search',
      'write_todos',
      'invoke_agent',
      'activate_skill',
    ])
      expect(await planCall(input(tool, {}), worktree)).toMatchObject({
        kind: 'ungated',
        reason: expect.stringMatching(new RegExp(`^\`${tool}\` \\w`)),
      });
    expect(await planCall(input('teleport', {}), worktree)).toEqual({
      kind: 'refuse',
      reason:
        '`teleport` is a Gemini CLI tool Warden does not know, so it cannot tell what it does: denied',
    });
    expect(await planCall(input('discovered_tool_deploy', {}), worktree)).toMatchObject({
      kind: 'refuse',
    });
    expect(await planCall(capturedInput('mcp_fake_write_note.json'), worktree)).toMatchObject({
      kind: 'refuse',
      reason: expect.stringContaining('no mapping to action classes'),
    });
  });

  it("G1: Warden's own gateway keeps its tools; another MCP tool is decided by the gateway configuration's mapping", async () => {
    const viaGateway = input(
      'mcp_warden_fs__write_file',
      { path: 'x' },
      { mcp_context: { server_name: 'warden', tool_name: 'fs__write_file' } },
    );
    expect(await planCall(viaGateway, worktree)).toEqual({
      kind: 'ungated',
      reason: "`mcp_warden_fs__write_file` goes through Warden's MCP gateway, which decides it",
      gateway: true,
    });
    expect(await planCall(input('mcp_wdn_x', {}), worktree, 'wdn')).toMatchObject({
      kind: 'ungated',
    });
    // A call that only claims to be the gateway's is not let through.
    expect(
      await planCall(
        input(
          'mcp_fake_write_note',
          {},
          { mcp_context: { server_name: 'warden', tool_name: 'write_note' } },
        ),
        worktree,
      ),
    ).toMatchObject({ kind: 'refuse' });
    expect(
      await planCall(
        capturedInput('mcp_fake_write_note.json'),
        worktree,
        'warden',
        gatewayConfig,
        'id-2',
      ),
    ).toEqual({
      kind: 'gate',
      worktree,
      ask: {
        tool: 'mcp_fake_write_note',
        arguments: { path: 'mcp-note.txt', text: 'from mcp' },
        callId: 'id-2',
        actions: ['fileWriteOutsideWorktree'],
        // Relative to the worktree, as the gateway hands it on (E10).
        args: { paths: ['mcp-note.txt'] },
      },
    });
  });

  it('names the files a call reads or writes, for the data folder guard', () => {
    const paths = (tool: string, args: Record<string, unknown>) =>
      gemini.namedPaths(gemini.read(beforeTool(tool, args)) as never);
    expect(paths('read_file', { file_path: '.warden/audit.db' })).toEqual([
      join(worktree, '.warden', 'audit.db'),
    ]);
    expect(paths('list_directory', { dir_path: '/srv' })).toEqual(['/srv']);
    expect(paths('read_many_files', { include: ['a.ts', 7, 'b/**'] })).toEqual([
      join(worktree, 'a.ts'),
      join(worktree, 'b', '**'),
    ]);
    expect(paths('run_shell_command', { command: 'ls', dir_path: 'src' })).toEqual([
      join(worktree, 'src'),
    ]);
    expect(paths('mcp_fake_write_note', { path: 'x' })).toEqual([]);
  });
});

describe("Gemini CLI's answers: allow or deny, never ask", () => {
  it('deny and allow carry the reason; a rewrite replaces the whole arguments', () => {
    expect(hookAnswer('deny', 'R')).toEqual({ decision: 'deny', reason: 'R' });
    expect(hookAnswer('allow', 'R')).toEqual({ decision: 'allow', reason: 'R' });
    expect(gemini.allow('R', { command: 'c', description: 'd', dir_path: 'x' })).toEqual({
      decision: 'allow',
      reason: 'R',
      hookSpecificOutput: { tool_input: { command: 'c', description: 'd', dir_path: 'x' } },
    });
    expect(gemini.deny('R')).toEqual({ decision: 'deny', reason: 'R' });
  });

  it('G37: whatever JSON comes in, the hook prints allow or deny JSON, never "ask", and never throws', async () => {
    const data = tempDir();
    const json = fc.jsonValue({ maxDepth: 3 });
    const toolInput = fc.dictionary(
      fc.constantFrom(
        'command',
        'file_path',
        'dir_path',
        'directory',
        'prompt',
        'url',
        'path',
        'include',
        'x',
      ),
      fc.oneof(
        json,
        fc.constantFrom('git push origin main', '/etc/x', 'src/a.ts', 'https://h.example/'),
      ),
    );
    const call = fc.record(
      {
        hook_event_name: fc.constantFrom('BeforeTool', 'AfterTool', 7),
        cwd: fc.constantFrom(worktree, 'relative', '/', 3),
        tool_name: fc.constantFrom(
          'run_shell_command',
          'write_file',
          'replace',
          'web_fetch',
          'google_web_search',
          'read_file',
          'mcp_fake_write_note',
          'mcp_warden_x',
          'mcp_',
          '',
          'unknown',
        ),
        tool_input: fc.oneof(toolInput, json),
        session_id: fc.oneof(fc.string(), json),
        timestamp: fc.string(),
        mcp_context: fc.oneof(
          fc.record({ server_name: fc.constantFrom('fake', 'warden', ''), tool_name: fc.string() }),
          json,
        ),
      },
      { requiredKeys: ['hook_event_name', 'cwd', 'tool_name', 'tool_input'] },
    );
    const checkOne = async (value: unknown) => {
      let printed = '';
      const io: HookIo = {
        stdin: () => Promise.resolve(JSON.stringify(value) ?? ''),
        out: (text) => {
          printed += text;
        },
        env: hookEnv(),
      };
      const code = await runHook(
        io,
        { policy: policyFile, data, gatewayConfig, sandbox: 'off' },
        gemini,
      );
      expect(code).toBe(0);
      const parsed = JSON.parse(printed) as Record<string, unknown>;
      expect(printed).not.toContain('"ask"');
      // A well-formed completion (`AfterTool`) is answered with nothing to object to.
      if (Object.keys(parsed).length === 0) {
        expect((value as { hook_event_name?: unknown }).hook_event_name).toBe('AfterTool');
        return;
      }
      expect(['allow', 'deny']).toContain(parsed.decision);
      expect(typeof parsed.reason).toBe('string');
    };
    await fc.assert(fc.asyncProperty(fc.oneof(call, json), checkOne), { numRuns: 120 });
  }, 120_000);
});

describe('standalone (`--policy`): the policy file decides, prompts are denied (G22)', () => {
  const standalone = (data = tempDir()): HookOptions => ({
    policy: policyFile,
    data,
    sandbox: 'off',
  });

  it('G37, G22: answers the captured inputs with the exact JSON, and audits each gated call under `gemini-cli` with its call id (G39)', async () => {
    const data = tempDir();
    expect(await answer(captured('run_shell_command-git-push.json'), standalone(data))).toEqual(
      deny(DENY_MAIN),
    );
    expect(await answer(captured('write_file.json'), standalone(data))).toEqual(
      allow('Warden: `write_file` writes inside the worktree (not gated)'),
    );
    expect(await answer(captured('replace.json'), standalone(data))).toEqual(
      allow('Warden: `replace` writes inside the worktree (not gated)'),
    );
    const outside = join(root, 'elsewhere', 'notes.txt');
    expect(
      await answer(
        captured('write_file.json').replace(join(worktree, 'notes.txt'), outside),
        standalone(data),
      ),
    ).toEqual(
      deny(
        'Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected, so it is denied (fail-closed)',
      ),
    );
    expect(await answer(captured('mcp_fake_write_note.json'), standalone(data))).toEqual(
      deny(
        'Warden: `mcp_fake_write_note` is an MCP tool with no mapping to action classes: give Gemini CLI this server through `warden gateway`, where each tool is mapped, or map its tools in a gateway configuration given to the hook with `--gateway-config FILE`',
      ),
    );
    expect(
      await answer(captured('mcp_fake_write_note.json'), { ...standalone(data), gatewayConfig }),
    ).toMatchObject(
      deny(
        expect.stringContaining(
          '`fileWriteOutsideWorktree` by rule `ask-outside`',
        ) as unknown as string,
      ),
    );
    const decisions = exportedAudit<{
      kind: string;
      source?: string;
      agentId?: string;
      callId?: string;
      tool?: string;
      outcome?: string;
    }>(data).filter((e) => e.kind === 'decision');
    expect(decisions.map((e) => [e.tool, e.outcome])).toEqual([
      ['run_shell_command', 'deny'],
      ['write_file', 'deny'],
      ['mcp_fake_write_note', 'deny'],
    ]);
    expect(decisions.every((e) => e.source === 'gemini-cli' && e.agentId === 'gemini-cli')).toBe(
      true,
    );
    const push = capturedInput('run_shell_command-git-push.json');
    expect(decisions[0]?.callId).toBe(makeCallId(push));
  });

  it('G14b: an allowed command is allowed with its reason; a read in the data folder is denied', async () => {
    const data = join(worktree, '.warden');
    const feature = JSON.stringify(
      beforeTool('run_shell_command', { command: 'git push origin feature/x' }),
    );
    expect(await answer(feature, standalone(data))).toEqual(
      allow(
        'Warden: allowed: `processSpawn`: allow by the built-in default `default:processSpawn`; `gitPush`: refs [feature/x] lie within refs [feature/**] of rule `feature-branches` in workspace',
      ),
    );
    expect(
      await answer(
        JSON.stringify(beforeTool('read_file', { file_path: '.warden/audit.db' })),
        standalone(data),
      ),
    ).toEqual(
      deny(
        `Warden: \`read_file\` reaches \`${join(data, 'audit.db')}\` in Warden's data folder, which no agent may read or change`,
      ),
    );
    expect(
      await answer(
        JSON.stringify(beforeTool('web_fetch', { prompt: 'get https://db.prod.internal/x' })),
        standalone(data),
      ),
    ).toMatchObject(deny(expect.stringContaining('rule `no-prod`') as unknown as string));
  });

  it.skipIf(noSandbox !== null)(
    "G2: an allowed command is rewritten to run under Warden's sandbox, its whole arguments handed back with only `command` replaced",
    async () => {
      const data = tempDir();
      const args = { command: 'git push origin feature/x', description: 'push', dir_path: 'src' };
      const got = await answer(JSON.stringify(beforeTool('run_shell_command', args)), {
        policy: policyFile,
        data,
      });
      expect(got).toMatchObject({
        decision: 'allow',
        reason: expect.stringMatching(
          /rule `feature-branches`.*\(runs under Warden's sandbox\)$/,
        ) as unknown as string,
      });
      const rewritten = (got as { hookSpecificOutput: { tool_input: Record<string, unknown> } })
        .hookSpecificOutput.tool_input;
      const { command, ...rest } = rewritten;
      expect(rest).toEqual({ description: 'push', dir_path: 'src' });
      expect(command).toMatch(GRANTED_RUN);
      expect(command).toContain(`--policy ${policyFile} --data ${data} -- `);
      expect(command).toMatch(/ -- 'cd '\\''.*\/src'\\'' && git push origin feature\/x'$/);
    },
  );

  it('G37: invalid Unicode, input that is not JSON, not a `BeforeTool` call, and no policy are denies that say why', async () => {
    const cases: [string, HookOptions, string][] = [
      [
        '',
        standalone(),
        'no input: the hook reads Gemini CLI’s `BeforeTool` JSON on standard input',
      ],
      ['{"tool_name":', standalone(), 'the input is not JSON'],
      [
        JSON.stringify({ ...beforeTool('glob', {}), hook_event_name: 'BeforeModel' }),
        standalone(),
        'the input is not a `BeforeTool` call: `hook_event_name` is "BeforeModel"',
      ],
      [
        captured('run_shell_command-git-push.json').replace('git push', 'git push \\ud800'),
        standalone(),
        'holds text that is not valid Unicode (a lone surrogate)',
      ],
      [captured('run_shell_command-git-push.json'), { data: tempDir() }, 'the hook has no policy'],
      [
        captured('run_shell_command-git-push.json'),
        { policy: policyFile, timeout: 'soon' },
        '`--timeout soon`',
      ],
    ];
    for (const [text, options, says] of cases)
      expect(await answer(text, options), says).toEqual(
        deny(expect.stringContaining(says) as unknown as string),
      );
  });
});

describe('the `warden hook gemini` command (G37)', () => {
  const run = (args: string[], input: string | Buffer) =>
    spawnSync(process.execPath, [BIN, 'hook', ...args], {
      input,
      encoding: 'utf8',
      env: hookEnv(),
    });

  it('answers as `gemini` and `gemini-cli`, with exit 0 and one line of JSON', () => {
    for (const name of ['gemini', 'gemini-cli']) {
      const ran = run(
        [name, '--policy', policyFile, '--data', tempDir()],
        captured('run_shell_command-git-push.json'),
      );
      expect(ran.status, ran.stderr).toBe(0);
      expect(ran.stdout).toBe(`${JSON.stringify(deny(DENY_MAIN))}\n`);
    }
  });

  it('input past 4 MiB and bytes that are not UTF-8 are denied with exit 0', () => {
    const huge = JSON.stringify(
      beforeTool('write_file', { file_path: '/etc/x', content: 'x'.repeat(5 * 1024 * 1024) }),
    );
    const big = run(['gemini', '--policy', policyFile, '--data', tempDir()], huge);
    expect(big.status).toBe(0);
    expect(JSON.parse(big.stdout)).toEqual(
      deny('Warden: cannot read the input: the input is larger than 4 MiB'),
    );
    // Bytes that are not UTF-8 are refused at the edge, never read as U+FFFD: the call is denied.
    const [before, after] = captured('run_shell_command-git-push.json').split('"push"');
    const bytes = Buffer.concat([
      Buffer.from(`${before}"`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`"${after}`),
    ]);
    const odd = run(['gemini', '--policy', policyFile, '--data', tempDir()], bytes);
    expect(odd.status).toBe(0);
    expect(JSON.parse(odd.stdout)).toEqual(
      deny('Warden: cannot read the input: the input is not UTF-8 text'),
    );
  });

  it('bad arguments exit 2 with the reason on standard error, which Gemini CLI reads as a deny', () => {
    const ran = run(['gemini', '--no-such-flag'], captured('run_shell_command-git-push.json'));
    expect(ran.status).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/^Warden: bad hook arguments: .*denied, fail-closed\n$/);
  });
});

describe('connected: a real `warden serve` decides, approvers answer prompts (G22)', () => {
  let server: Served;
  let agent: string;
  let approver: string;
  const spawned: Spawned[] = [];

  beforeAll(async () => {
    const data = tempDir();
    expect(warden(['policy', 'apply', policyFile, '--data', data]).code).toBe(0);
    agent = agentToken(data, 'gemini-cli', 'acme', 'gemini');
    approver = cliToken(['--data', data, '--role', 'approver', '--name', 'bob']).token;
    server = await serve(['--data', data]);
    return async () => {
      await killAll(spawned);
      await server.stop('SIGKILL');
    };
  }, 60_000);

  const env = () => ({ WARDEN_URL: server.url, WARDEN_TOKEN: agent });
  const outside = () =>
    captured('write_file.json').replace(
      join(worktree, 'notes.txt'),
      join(root, 'elsewhere', 'n.txt'),
    );

  it('G37: the server decides, and an unreachable one is a deny', async () => {
    expect(
      await answer(captured('run_shell_command-git-push.json'), { sandbox: 'off' }, env()),
    ).toEqual(deny(DENY_MAIN));
    const port = await freePort();
    expect(
      await answer(
        captured('run_shell_command-git-push.json'),
        {},
        {
          WARDEN_URL: `http://127.0.0.1:${port}`,
          WARDEN_TOKEN: agent,
        },
      ),
    ).toEqual(
      deny(
        `Warden: cannot reach the Warden server at http://127.0.0.1:${port} (ECONNREFUSED): denied, fail-closed`,
      ),
    );
  });

  it('G37: a server that accepts the call and never answers is a deny at `--timeout`', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      expect(
        await answer(
          captured('run_shell_command-git-push.json'),
          { timeout: '1' },
          { WARDEN_URL: `http://127.0.0.1:${port}`, WARDEN_TOKEN: agent },
        ),
      ).toEqual(
        deny(
          "Warden: no decision within 1 s (raise the hook's `timeout` and `--timeout` together): denied, fail-closed",
        ),
      );
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('G22: with nobody watching a prompt is denied at once; a connected approver lets it through, never "ask"', async () => {
    expect(await answer(outside(), {}, env())).toMatchObject(
      deny(expect.stringContaining('no approver is connected') as unknown as string),
    );
    const watcher = await approverWatching(server.url, approver, spawned);
    const pending = answer(outside(), {}, env());
    const line = await watcher.waitFor(/"event":"approval".*\n/);
    const id = /"id":"([0-9A-Z]+)"/.exec(line)?.[1] as string;
    const answered = await fetch(`${server.url}/v1/approvals/${id}/answer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${approver}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'once' }),
    });
    expect(answered.status).toBe(200);
    expect(await pending).toMatchObject(
      allow(expect.stringContaining('fileWriteOutsideWorktree') as unknown as string),
    );
  });
});
