// How a call a hook let through ended (contracts §6, §8; I1): Claude Code's
// `PostToolUse`/`PostToolUseFailure`, Codex's `PostToolUse` and Gemini CLI's
// `AfterTool`, read from inputs captured with the real CLIs (Claude Code
// 2.1.197, Codex 0.171.0, Gemini CLI 0.61.0), recorded against the decision
// that allowed the call — standalone into the data folder and connected
// through `POST /v1/audit` — and a completion no allowing decision covers
// recorded as such: ungated by design, no decision at all, or a call that
// ran although its decision denied it.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCode, readClaudeCompletion } from '../../src/hook/claude-code.js';
import { codex, readCodexCompletion } from '../../src/hook/codex.js';
import { gemini, makeCallId, readAfterTool, readBeforeTool } from '../../src/hook/gemini.js';
import type { HookOptions } from '../../src/hook/run.js';
import { answerHook } from '../../src/hook/run.js';
import { sizeOf } from '../../src/hook/completion.js';
import type { HookInput, HookRuntime } from '../../src/hook/runtime.js';
import { FIXTURES, exportedAudit } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import type { TestServer } from '../support/server.js';
import { openTestServer } from '../support/server.js';
import { hookPolicy } from '../support/policies.js';

const POLICY = hookPolicy();

let root: string;
let worktree: string;
let policyFile: string;
let transcript: string;

beforeAll(() => {
  root = tempDir('warden-completions-');
  worktree = join(root, 'api');
  mkdirSync(worktree);
  policyFile = join(root, 'policy.yaml');
  writeFileSync(policyFile, POLICY);
  transcript = join(root, 'rollout.jsonl');
  writeFileSync(
    transcript,
    readFileSync(join(FIXTURES, 'codex', 'transcript-bash-exit-3.jsonl'), 'utf8'),
  );
});

/** A captured input with the worktree and the transcript filled in, as an object. */
function captured(file: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  const text = readFileSync(join(FIXTURES, file), 'utf8')
    .replaceAll('WORKTREE', worktree)
    .replaceAll('TRANSCRIPT', transcript);
  return { ...(JSON.parse(text) as Record<string, unknown>), ...changes };
}

type AnyRuntime = HookRuntime<HookInput, object>;
const runtimes = {
  claude: claudeCode as unknown as AnyRuntime,
  codex: codex as unknown as AnyRuntime,
  gemini: gemini as unknown as AnyRuntime,
};

interface Entry {
  readonly kind: string;
  readonly id: string;
  readonly callId?: string;
  readonly decisionId?: string | null;
  readonly outcome?: string;
  readonly tool?: string;
  readonly status?: string;
  readonly durationMs?: number | null;
  readonly error?: string;
  readonly source?: string;
  readonly agentId?: string;
  readonly arguments?: Record<string, unknown> | null;
}

describe('reading completions captured with the real CLIs', () => {
  it('Claude Code `PostToolUse` of `Bash`: ran, exit 0, its output size and its own duration', () => {
    const read = readClaudeCompletion(captured('claude-code/posttooluse-bash.json'));
    expect(read).toMatchObject({
      event: 'PostToolUse',
      toolName: 'Bash',
      match: { callId: 'toolu_01Scripted00000000000001' },
      status: 'Ok',
      exitCode: 0,
      outputBytes: 5,
      durationMs: 33,
    });
  });

  it('Claude Code `PostToolUseFailure` of `Bash`: an error with the exit code its text states', () => {
    const read = readClaudeCompletion(captured('claude-code/posttoolusefailure-bash.json'));
    expect(read).toMatchObject({
      event: 'PostToolUseFailure',
      status: 'Error',
      exitCode: 3,
      error: 'Exit code 3 hello',
      durationMs: 10,
    });
  });

  it('Claude Code `PostToolUseFailure` of another tool: an error without an exit code; an interrupt says so', () => {
    const read = readClaudeCompletion(captured('claude-code/posttoolusefailure-read.json'));
    expect(read).toMatchObject({
      status: 'Error',
      error: expect.stringMatching(/^File does not exist/),
    });
    expect(read).not.toHaveProperty('exitCode');
    const interrupted = readClaudeCompletion(
      captured('claude-code/posttoolusefailure-bash.json', { is_interrupt: true }),
    );
    expect(interrupted).toMatchObject({ status: 'Error', error: 'interrupted by the user' });
  });

  it('Claude Code: a completion without `tool_use_id`, or of another event, is not read', () => {
    const rest = captured('claude-code/posttooluse-bash.json');
    delete rest.tool_use_id;
    expect(readClaudeCompletion(rest)).toEqual([
      '`tool_use_id` is missing: Claude Code names every call it reports',
    ]);
    expect(
      readClaudeCompletion(
        captured('claude-code/posttooluse-bash.json', { hook_event_name: 'Stop' }),
      ),
    ).toEqual([expect.stringMatching(/`PostToolUse`, `PostToolUseFailure` only/)]);
  });

  it('Codex `PostToolUse` of a shell command: the exit code and duration from the transcript', () => {
    const read = readCodexCompletion(captured('codex/posttooluse-bash-exit-3.json'));
    expect(read).toMatchObject({
      event: 'PostToolUse',
      match: { callId: 'call_fakeharness_0001' },
      status: 'Error',
      exitCode: 3,
      error: 'exited with code 3',
      outputBytes: 6,
    });
    expect((read as { durationMs?: number }).durationMs).toBeGreaterThanOrEqual(0);
  });

  it('Codex: without a readable transcript a shell command has no exit code, and is not called failed', () => {
    const read = readCodexCompletion(
      captured('codex/posttooluse-bash-exit-3.json', { transcript_path: join(root, 'gone.jsonl') }),
    );
    expect(read).toMatchObject({ status: 'Ok', outputBytes: 6 });
    expect(read).not.toHaveProperty('exitCode');
  });

  it('Codex `PostToolUse` of `apply_patch`: the exit code its output states', () => {
    const read = readCodexCompletion(captured('codex/posttooluse-apply_patch-add-file.json'));
    expect(read).toMatchObject({ toolName: 'apply_patch', status: 'Ok', exitCode: 0 });
  });

  it('Gemini CLI `AfterTool`: the exit code `llmContent` states; the call found by session, tool and arguments', () => {
    const after = captured('gemini-cli/aftertool-run_shell_command-exit-3.json');
    const read = readAfterTool(after);
    expect(read).toMatchObject({ status: 'Error', exitCode: 3, error: 'exited with code 3' });
    // The id the `BeforeTool` of the same call was given starts and ends as the match says.
    const before = readBeforeTool({
      ...after,
      hook_event_name: 'BeforeTool',
      timestamp: '2026-12-03T11:35:53.700Z',
    });
    if (Array.isArray(before)) throw new Error(before.join('; '));
    const id = makeCallId(before);
    const match = (read as { match: { callIdPrefix: string; callIdSuffix: string } }).match;
    expect(id.startsWith(match.callIdPrefix) && id.endsWith(match.callIdSuffix)).toBe(true);
    const written = readAfterTool(captured('gemini-cli/aftertool-write_file.json'));
    expect(written).toMatchObject({ status: 'Ok', toolName: 'write_file' });
    expect(written).not.toHaveProperty('exitCode');
    const failed = readAfterTool({
      ...after,
      tool_response: { llmContent: 'no', error: { message: 'Permission denied', type: 'x' } },
    });
    expect(failed).toMatchObject({ status: 'Error', error: 'Permission denied' });
  });
});

describe('property: whatever a completion input holds, it is read into one shape or refused', () => {
  it('G37: any tool response, error, duration or id is an `Ok`/`Error` completion with a byte count, or a list of problems; never a throw', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    // Mostly well-formed, with any field now and then replaced by anything.
    const or = <T>(valid: fc.Arbitrary<T>) =>
      fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: json });
    const input = fc.record(
      {
        hook_event_name: or(fc.constantFrom('PostToolUse', 'PostToolUseFailure', 'AfterTool')),
        cwd: or(fc.constant('/srv/api')),
        tool_name: or(fc.constantFrom('Bash', 'run_shell_command', 'apply_patch', 'Write')),
        tool_input: or(fc.dictionary(fc.constantFrom('command', 'file_path'), json)),
        tool_use_id: or(fc.string({ minLength: 1 })),
        session_id: or(fc.string()),
        transcript_path: or(fc.constant('/nonexistent/t.jsonl')),
        tool_response: fc.oneof(
          json,
          fc.record({ llmContent: fc.oneof(fc.string(), json), error: json }),
          fc.string().map((t) => `Exit code: ${t}`),
          fc.integer().map((n) => `Process exited with code ${n}`),
        ),
        error: or(fc.string()),
        is_interrupt: json,
        duration_ms: fc.oneof(fc.double(), json),
      },
      { requiredKeys: ['hook_event_name', 'cwd', 'tool_name', 'tool_input'] },
    );
    let read = 0;
    fc.assert(
      fc.property(fc.oneof(input, json), (raw) => {
        for (const readOne of [readClaudeCompletion, readCodexCompletion, readAfterTool]) {
          const got = readOne(raw);
          if (Array.isArray(got)) {
            expect(got.length).toBeGreaterThan(0);
            continue;
          }
          read += 1;
          expect(['Ok', 'Error']).toContain(got.status);
          expect(Number.isInteger(got.outputBytes) && got.outputBytes >= 0).toBe(true);
          if (got.exitCode !== undefined) expect(Number.isInteger(got.exitCode)).toBe(true);
          if (got.durationMs !== undefined)
            expect(Number.isInteger(got.durationMs) && got.durationMs >= 0).toBe(true);
          if (got.error !== undefined) expect(got.error.length).toBeLessThanOrEqual(301);
          expect(got.status === 'Error' || got.error === undefined).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
    // The well-formed ones were many, not a lucky few.
    expect(read).toBeGreaterThan(20);
  });
});

/** Answers one hook input standalone on the policy file, recording into `data`. */
async function standalone(
  runtime: AnyRuntime,
  data: string,
  input: Record<string, unknown>,
  options: Partial<HookOptions> = {},
): Promise<Record<string, unknown>> {
  return (await answerHook(
    {
      stdin: () => Promise.resolve(JSON.stringify(input)),
      out: () => undefined,
      env: {},
      cwd: () => worktree,
    },
    { policy: policyFile, data, sandbox: 'off', ...options },
    runtime,
  )) as Record<string, unknown>;
}

/** How each call ended (the entry `warden exec` makes when a run starts is left out). */
const calls = (data: string) =>
  exportedAudit<Entry>(data).filter((e) => e.kind === 'call' && e.status !== 'Staged');
/** The decisions, each by its id (a decision's first entry carries it as `id`). */
const decisions = (data: string) =>
  exportedAudit<Entry>(data)
    .filter((e) => e.kind === 'decision')
    .map((e) => ({ ...e, decisionId: e.decisionId ?? e.id }));

describe('standalone: completions recorded into the data folder', () => {
  it('I1: a Claude Code call is recorded with its decision, its status, duration and output size', async () => {
    const data = join(root, 'cc-data');
    const pre = captured('claude-code/posttoolusefailure-bash.json', {
      hook_event_name: 'PreToolUse',
    });
    const answer = await standalone(runtimes.claude, data, pre);
    expect(answer).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } });
    const done = await standalone(
      runtimes.claude,
      data,
      captured('claude-code/posttoolusefailure-bash.json'),
    );
    expect(done).toEqual({});
    const [decision] = decisions(data);
    expect(calls(data)).toEqual([
      expect.objectContaining({
        callId: 'toolu_01Scripted00000000000002',
        decisionId: decision?.decisionId,
        source: 'claude-code',
        agentId: 'claude-code',
        tool: 'Bash',
        status: 'Error',
        durationMs: 10,
        error: 'Exit code 3 hello',
        arguments: { event: 'PostToolUseFailure', outputBytes: 17, exitCode: 3 },
      }),
    ]);
    // The runtime sending the same completion again adds nothing.
    await standalone(runtimes.claude, data, captured('claude-code/posttoolusefailure-bash.json'));
    expect(calls(data)).toHaveLength(1);
  });

  it('I1: two Gemini CLI calls of the same command each get their own completion, in order', async () => {
    const data = join(root, 'gemini-data');
    const after = captured('gemini-cli/aftertool-run_shell_command-exit-3.json');
    const before = (timestamp: string) => ({
      ...after,
      hook_event_name: 'BeforeTool',
      timestamp,
      tool_response: undefined,
    });
    for (const [i, at] of ['2026-12-03T11:35:50.000Z', '2026-12-03T11:35:52.000Z'].entries()) {
      const allowed = await standalone(runtimes.gemini, data, before(at));
      expect(allowed).toMatchObject({ decision: 'allow' });
      expect(await standalone(runtimes.gemini, data, after)).toEqual({});
      expect(calls(data)).toHaveLength(i + 1);
    }
    const ids = decisions(data).map((d) => d.decisionId);
    const recorded = calls(data);
    expect(new Set(recorded.map((c) => c.decisionId))).toEqual(new Set(ids));
    expect(recorded.every((c) => c.status === 'Error' && c.arguments?.exitCode === 3)).toBe(true);
    // Gemini CLI measures nothing: the duration is the time since the decision.
    expect(recorded.every((c) => typeof c.durationMs === 'number')).toBe(true);
  });

  it('I1: a Codex call is recorded with the exit code and duration from its transcript', async () => {
    const data = join(root, 'codex-data');
    const post = captured('codex/posttooluse-bash-exit-3.json');
    const pre = { ...post, hook_event_name: 'PreToolUse', tool_response: undefined };
    expect(await standalone(runtimes.codex, data, pre)).toEqual({});
    expect(await standalone(runtimes.codex, data, post)).toEqual({});
    expect(calls(data)).toEqual([
      expect.objectContaining({
        callId: 'call_fakeharness_0001',
        decisionId: decisions(data)[0]?.decisionId,
        source: 'codex',
        status: 'Error',
        error: 'exited with code 3',
        arguments: { event: 'PostToolUse', outputBytes: 6, exitCode: 3 },
      }),
    ]);
  });

  it('a call the hook let run without a decision (a read, a write inside the worktree) is recorded as ungated', async () => {
    const data = join(root, 'ungated-data');
    await standalone(runtimes.claude, data, captured('claude-code/posttooluse-write.json'));
    const [entry] = calls(data);
    expect(entry).toMatchObject({
      decisionId: null,
      tool: 'Write',
      status: 'Ok',
      arguments: {
        event: 'PostToolUse',
        ungated: '`Write` writes inside the worktree (not gated)',
        input: { file_path: join(worktree, 'n.txt'), content: 'hi\n' },
      },
    });
  });

  it('a completion with no decision at all is recorded as such, with what ran', async () => {
    const data = join(root, 'gap-data');
    await standalone(runtimes.codex, data, captured('codex/posttooluse-bash-exit-3.json'));
    expect(calls(data)).toEqual([
      expect.objectContaining({
        decisionId: null,
        callId: 'call_fakeharness_0001',
        arguments: expect.objectContaining({
          uncovered: 'no decision of this agent covers it',
          input: { command: 'echo hello; exit 3' },
        }),
      }),
    ]);
  });

  it('a call that ran although its decision denied it (a hook that failed open) is recorded as such', async () => {
    const data = join(root, 'denied-data');
    const push = (event: string) =>
      captured('claude-code/posttooluse-bash.json', {
        hook_event_name: event,
        tool_input: { command: 'git push origin main' },
        tool_use_id: 'toolu_push',
      });
    const pre = await standalone(runtimes.claude, data, push('PreToolUse'));
    expect(pre).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    await standalone(runtimes.claude, data, push('PostToolUse'));
    const ran = calls(data).filter((c) => c.status !== 'Denied');
    const [decision] = decisions(data);
    expect(ran).toEqual([
      expect.objectContaining({
        decisionId: null,
        status: 'Ok',
        arguments: expect.objectContaining({
          uncovered: `it ran although its decision \`${decision?.decisionId}\` was deny`,
          decisionOutcome: 'deny',
          deciding: decision?.decisionId,
        }),
      }),
    ]);
  });

  it("not recorded twice: a tool of Warden's gateway (the gateway records it) and a command run by `warden exec`", async () => {
    const data = join(root, 'elsewhere-data');
    await standalone(
      runtimes.claude,
      data,
      captured('claude-code/posttooluse-write.json', {
        tool_name: 'mcp__warden__write_note',
        tool_input: { path: 'x' },
      }),
    );
    const { runnerCommand } = await import('../../src/hook/sandboxed.js');
    await standalone(
      runtimes.claude,
      data,
      captured('claude-code/posttooluse-bash.json', {
        tool_input: {
          command: runnerCommand('g', worktree, 'echo hello', { server: 'http://127.0.0.1:1' }),
        },
      }),
    );
    // Nothing was recorded: the data folder was never even opened.
    expect(existsSync(join(data, 'warden.db'))).toBe(false);
  });

  it('a completion that cannot be recorded lets the runtime go on, and says so', async () => {
    const lines: string[] = [];
    const answer = await answerHook(
      {
        stdin: () => Promise.resolve(JSON.stringify(captured('claude-code/posttooluse-bash.json'))),
        out: () => undefined,
        err: (text) => lines.push(text),
        env: {},
        cwd: () => worktree,
      },
      { server: 'http://127.0.0.1:9', token: 't', sandbox: 'off' },
      runtimes.claude,
    );
    expect(answer).toEqual({
      systemMessage: expect.stringMatching(
        /^Warden: how `Bash` ended is not recorded: .*127\.0\.0\.1:9/,
      ),
    });
    expect(lines.join('')).toMatch(/not recorded/);
    // Codex and Gemini CLI show no message: the answer lets them go on, standard error says why.
    for (const [runtime, file] of [
      [runtimes.codex, 'codex/posttooluse-bash-exit-3.json'],
      [runtimes.gemini, 'gemini-cli/aftertool-write_file.json'],
    ] as const) {
      const quiet = await answerHook(
        {
          stdin: () => Promise.resolve(JSON.stringify(captured(file))),
          out: () => undefined,
          env: {},
          cwd: () => worktree,
        },
        { server: 'http://127.0.0.1:9', token: 't' },
        runtime,
      );
      expect(quiet).toEqual({});
    }
  });
});

describe('the size of what a call returned', () => {
  it('counts the bytes of its JSON without recursion, as JSON.stringify would print it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        if (typeof value === 'string' || value === null) return;
        expect(sizeOf(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
    expect(sizeOf('héllo')).toBe(6);
  });
});

describe('adversarial completion inputs: refused before anything is opened or recorded', () => {
  /** The hook's answer to raw standard input, standalone into `data`. */
  const answerRaw = async (data: string, stdin: () => Promise<string>) =>
    (await answerHook(
      { stdin, out: () => undefined, env: {}, cwd: () => worktree },
      { policy: policyFile, data, sandbox: 'off' },
      runtimes.claude,
    )) as {
      hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
    };

  it('G37: invalid Unicode (a lone surrogate) in a completion is refused with a sentence, and nothing is recorded', async () => {
    const data = join(root, 'surrogate-data');
    const text = JSON.stringify(captured('claude-code/posttooluse-bash.json')).replace(
      '"hello"',
      '"hel\\ud800lo"',
    );
    const answer = await answerRaw(data, () => Promise.resolve(text));
    expect(answer.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(answer.hookSpecificOutput?.permissionDecisionReason).toMatch(
      /surrogate|broken|Unicode/i,
    );
    expect(existsSync(join(data, 'warden.db'))).toBe(false);
  });

  it('G37: a completion nested thousands deep is measured, not walked; one larger than the hook reads is refused; never a throw', async () => {
    const data = join(root, 'giant-data');
    // Written as text: JSON.stringify itself could not build it.
    const deep = JSON.stringify(captured('claude-code/posttooluse-write.json')).replace(
      /"tool_response":\{[^}]*\}/,
      `"tool_response":${'['.repeat(5000)}${']'.repeat(5000)}`,
    );
    expect(deep).toContain('[[[[');
    // Only its size is kept: it is read, measured and recorded, not walked.
    const nested = await answerRaw(data, () => Promise.resolve(deep));
    expect(nested).toEqual({});
    expect(calls(data)).toEqual([
      expect.objectContaining({ arguments: expect.objectContaining({ outputBytes: 10000 }) }),
    ]);
    const refused = join(root, 'giant-refused-data');
    const giant = await answerRaw(refused, () =>
      Promise.reject(new Error('the input is larger than 4 MiB')),
    );
    expect(giant.hookSpecificOutput?.permissionDecisionReason).toMatch(/larger than 4 MiB/);
    expect(existsSync(join(refused, 'warden.db'))).toBe(false);
  });

  it('a disguised completion cannot claim a decision: one for a call id no decision has is recorded as uncovered, not matched', async () => {
    const data = join(root, 'disguise-data');
    const pre = captured('claude-code/posttooluse-bash.json', {
      hook_event_name: 'PreToolUse',
      tool_use_id: 'toolu_real',
    });
    await standalone(runtimes.claude, data, pre);
    await standalone(
      runtimes.claude,
      data,
      captured('claude-code/posttooluse-bash.json', { tool_use_id: 'toolu_real ' }),
    );
    expect(calls(data)).toEqual([
      expect.objectContaining({
        decisionId: null,
        arguments: expect.objectContaining({ uncovered: 'no decision of this agent covers it' }),
      }),
    ]);
  });
});

describe('connected: `POST /v1/audit` with `completes`', () => {
  let h: TestServer;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    h = await openTestServer({
      version: 1,
      workspace: 'acme',
      rules: [{ id: 'spawn', action: 'processSpawn', decision: 'allow' }],
    });
    server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: h.app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
        resolve(started as Server),
      ) as Server;
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await h.cleanup();
  });

  const connected = (runtime: AnyRuntime, input: Record<string, unknown>) =>
    answerHook(
      {
        stdin: () => Promise.resolve(JSON.stringify(input)),
        out: () => undefined,
        env: {},
        cwd: () => worktree,
      },
      { server: url, token: h.tokens.agent, sandbox: 'off' },
      runtime,
    );

  it('I1: the hook reports the completion, the server finds the decision by the call id, the token names the agent', async () => {
    const post = captured('claude-code/posttooluse-bash.json', { tool_use_id: 'toolu_conn' });
    const pre = { ...post, hook_event_name: 'PreToolUse', tool_response: undefined };
    expect(await connected(runtimes.claude, pre)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'allow' },
    });
    expect(await connected(runtimes.claude, post)).toEqual({});
    // Sent again: the server answers 409 and the hook goes on quietly.
    expect(await connected(runtimes.claude, post)).toEqual({});
    const entries = await h.t.warden.store.audit.query({ callId: 'toolu_conn' });
    const decision = entries.find((e) => e.kind === 'decision');
    expect(decision).toBeDefined();
    const ended = entries.filter((e) => e.kind === 'call');
    expect(ended).toEqual([
      expect.objectContaining({
        decisionId: decision?.id,
        agentId: 'coder-1',
        source: 'claude-code',
        status: 'Ok',
        durationMs: 33,
        arguments: { event: 'PostToolUse', outputBytes: 5, exitCode: 0 },
      }),
    ]);
  });

  it('contracts §8: a completion is refused with a sentence when it names its call twice or is not one', async () => {
    const base = { tool: 'Bash', status: 'Ok', completes: { callId: 'x' } };
    for (const [body, path] of [
      [{ ...base, auditId: 'a' }, 'completes'],
      [{ ...base, status: 'NotFound' }, 'status'],
      [{ ...base, arguments: [1] }, 'arguments'],
      [{ tool: 'Bash', status: 'Ok', input: {} }, 'input'],
      [{ tool: 'Bash', status: 'Ok', ungated: 'x' }, 'ungated'],
    ] as const) {
      const r = await h.call('POST', '/v1/audit', h.tokens.agent, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors, JSON.stringify(body)).toEqual([{ path, message: expect.any(String) }]);
    }
  });
});
