// Warden's `BeforeTool` hook under the real Gemini CLI (0.61.0), offline
// against a fake Gemini API (G2, G22, G37, G39): the model's scripted calls go
// through `warden hook gemini`, and what counts is what Gemini CLI then did —
// the functionResponse it sent back to the model and the files on disk — not
// only what the hook printed. A denied call never runs and the model reads
// Warden's reason; an allowed shell command runs, under Warden's sandbox where
// the host has one; a prompt waits for a connected approver inside the hook
// (Gemini CLI hangs on "ask") and is denied with nobody watching; a Warden
// server that cannot be reached is a deny. Under CI the CLI is required;
// elsewhere a missing CLI skips, saying why.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, GRANTED_RUN, HOOK_CLIENT, exportedAudit, warden } from '../helpers.js';
import type { HookCall } from '../support/agent-cli.js';
import { forEvent, requireCli } from '../support/agent-cli.js';
import { endings } from '../support/audit.js';
import { sandboxForTests, tempDir } from '../support/backends.js';
import type { ScriptedCall } from '../support/fake-gemini.js';
import type { GeminiRun, RunOptions } from '../support/gemini-cli.js';
import { describeRun, locateGemini, runGemini } from '../support/gemini-cli.js';
import type { Served, Spawned } from '../support/processes.js';
import {
  agentToken,
  api,
  approverWatching,
  cliToken,
  freePort,
  killAll,
  serve,
} from '../support/processes.js';
import { hookPolicy } from '../support/policies.js';

const gemini = locateGemini();
const noGemini = requireCli(gemini, 'Gemini CLI');

const { backend, missing: noSandbox } = sandboxForTests('the sandbox rewrites', noGemini === null);

const FS_SERVER = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);

const DENY_MAIN =
  'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace';

let policyFile: string;

beforeAll(() => {
  const root = tempDir('warden-gemini-cli-');
  policyFile = join(root, 'policy.yaml');
  writeFileSync(
    policyFile,
    hookPolicy(`  - id: ask-outside
    action: fileWriteOutsideWorktree
    decision: prompt
`),
  );
});

/** Every hook call's wall time, by the run that made it, printed at the end. */
const hookTimes: { run: string; tool: string; ms: number }[] = [];

afterAll(() => {
  if (hookTimes.length === 0) return;
  const rows = hookTimes.map((t) => `  ${t.ms.toFixed(0).padStart(6)} ms  ${t.run}: ${t.tool}`);
  console.log(
    `hook wall time per call under Gemini CLI (${hookTimes.length} calls):\n${rows.join('\n')}`,
  );
});

interface Answer {
  readonly decision: string;
  readonly reason: string;
  readonly hookSpecificOutput?: { readonly tool_input: Record<string, unknown> };
}

function answers(run: GeminiRun): Answer[] {
  return run.hookCalls.map((call) => JSON.parse(call.stdout) as Answer);
}

/** What the model read back for each scripted call: the output, or the error. */
function seen(run: GeminiRun): { output?: string; error?: string }[] {
  return run.functionResponses.map((r) => ({
    ...(typeof r.response.output === 'string' ? { output: r.response.output } : {}),
    ...(typeof r.response.error === 'string' ? { error: r.response.error } : {}),
  }));
}

/**
 * Runs Gemini CLI with the scripted calls and checks each got a
 * functionResponse and the hook was called `hooked` times (a settings file
 * Gemini CLI rejects drops the hook silently: count the calls).
 */
async function session(
  name: string,
  calls: readonly ScriptedCall[],
  options: Omit<RunOptions, 'bin' | 'calls'>,
  hooked = calls.length,
): Promise<GeminiRun & { completions: HookCall[] }> {
  if ('missing' in gemini) throw new Error(gemini.missing);
  const all = await runGemini({ bin: gemini.bin, calls, ...options });
  // `hookCalls`: the calls' `BeforeTool`; their `AfterTool`, if asked for, are in `completions`.
  const run = {
    ...all,
    hookCalls: forEvent(all.hookCalls, 'BeforeTool'),
    completions: forEvent(all.hookCalls, 'AfterTool'),
  };
  all.hookCalls.forEach((call) => {
    const tool = (JSON.parse(call.stdin) as { tool_name?: string }).tool_name ?? '?';
    hookTimes.push({ run: name, tool, ms: call.ms });
  });
  expect(run.hookCalls, describeRun(run)).toHaveLength(hooked);
  expect(run.functionResponses, describeRun(run)).toHaveLength(calls.length);
  expect(run.exit, describeRun(run)).toBe(0);
  return run;
}

const shell = (command: string): ScriptedCall => ({
  name: 'run_shell_command',
  args: { command, description: 'run it' },
});

const writeFile = (path: string, content: string): ScriptedCall => ({
  name: 'write_file',
  args: { file_path: path, content },
});

/**
 * The hook allowed the shell call and handed Gemini CLI its whole arguments
 * back with only `command` replaced by `warden exec --grant …` for `command`
 * in `cwd`, asking the same Warden (`who`).
 */
function expectSandboxed(run: GeminiRun, index: number, command: string, who: string): void {
  const answer = answers(run)[index];
  expect(answer?.decision, describeRun(run)).toBe('allow');
  expect(answer?.reason).toMatch(/\(runs under Warden's sandbox\)$/);
  const rewritten = answer?.hookSpecificOutput?.tool_input ?? {};
  expect(Object.keys(rewritten).sort()).toEqual(['command', 'description']);
  expect(rewritten.description).toBe('run it');
  expect(rewritten.command).toMatch(GRANTED_RUN);
  expect(rewritten.command).toContain(` ${who}`);
  expect(String(rewritten.command).endsWith(` -- '${command.replaceAll("'", `'\\''`)}'`)).toBe(
    true,
  );
}

interface Entry {
  readonly kind: string;
  readonly source?: string;
  readonly agentId?: string;
  readonly callId?: string;
  readonly tool?: string;
  readonly outcome?: string;
  readonly status?: string;
  readonly id?: string;
  readonly decisionId?: string | null;
  readonly arguments?: { command?: string };
}

describe.skipIf(noGemini !== null)(
  `Gemini CLI ${'version' in gemini ? gemini.version : ''} with the Warden hook`,
  // One CLI session takes 8–15 s on two cores, more on a busy machine: a hang detector.
  { timeout: 180_000 },
  () => {
    describe('standalone (`--policy`, `--data`)', () => {
      it.skipIf(noSandbox !== null)(
        "G2, G37: through the installed hook (the resident runner's client), a push to main is denied with Warden's reason and an allowed command runs under Warden's sandbox",
        async () => {
          const cwd = tempDir('warden-gemini-wt-');
          const data = tempDir();
          try {
            const run = await session(
              'runner',
              [shell('git push origin main'), shell('echo hello > marker.txt')],
              {
                hook: [
                  '/bin/sh',
                  HOOK_CLIENT,
                  process.execPath,
                  'gemini',
                  '--policy',
                  policyFile,
                  '--data',
                  data,
                ],
                cwd,
                completions: true,
              },
            );
            expect(seen(run)[0], describeRun(run)).toEqual({
              error: `Tool execution blocked: ${DENY_MAIN}`,
            });
            expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('hello\n');
            const statuses = exportedAudit<{ kind: string; status?: string }>(data)
              .filter((e) => e.kind === 'call')
              .map((e) => e.status);
            expect(statuses).toEqual(['Denied', 'Staged', 'Ok']);
          } finally {
            warden(['runner', 'stop', '--data', data]);
          }
        },
      );

      it(`G37, G22, G39: a push to main is denied with Warden's reason reaching the model; an allowed command runs${noSandbox === null ? ` under the sandbox (G2, ${backend ?? ''})` : ''}; a command run in a subfolder is judged there (E26); a write outside the worktree needs approval and is denied; each decision is audited under \`gemini-cli\``, async () => {
        const cwd = tempDir('warden-gemini-wt-');
        mkdirSync(join(cwd, 'sub'));
        const outside = tempDir('warden-gemini-out-');
        const data = tempDir();
        const who = `--policy ${policyFile} --data ${data}`;
        const run = await session(
          'standalone',
          [
            shell('touch ran.txt && git push origin main'),
            shell('echo hello > marker.txt'),
            writeFile(join(outside, 'notes.txt'), 'outside\n'),
            writeFile(join(cwd, 'notes.txt'), 'inside\n'),
            // Run in a subfolder: judged, and run sandboxed, as `cd <folder> && …` (E26).
            {
              name: 'run_shell_command',
              args: { command: 'echo sub > here.txt', dir_path: 'sub' },
            },
          ],
          {
            hook: [process.execPath, BIN, 'hook', 'gemini', '--policy', policyFile, '--data', data],
            cwd,
            // Gemini CLI's own check keeps its file tools inside these folders, before any hook.
            include: [outside],
            completions: true,
          },
        );
        const model = seen(run);
        expect(model[0], describeRun(run)).toEqual({
          error: `Tool execution blocked: ${DENY_MAIN}`,
        });
        expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);

        expect(model[1]?.error, describeRun(run)).toBeUndefined();
        expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('hello\n');
        if (noSandbox === null) {
          expectSandboxed(run, 1, 'echo hello > marker.txt', who);
          // All the model learns of the rewrite is that it happened.
          expect(model[1]?.output).toContain(
            '[System] Tool input parameters were modified by a hook before execution.',
          );
        } else expect(answers(run)[1]).toMatchObject({ decision: 'allow' });

        expect(model[2], describeRun(run)).toEqual({
          error:
            'Tool execution blocked: Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected, so it is denied (fail-closed)',
        });
        expect(existsSync(join(outside, 'notes.txt'))).toBe(false);
        expect(answers(run)[3]).toEqual({
          decision: 'allow',
          reason: 'Warden: `write_file` writes inside the worktree (not gated)',
        });
        expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('inside\n');
        expect(model[4]?.error, describeRun(run)).toBeUndefined();
        expect(readFileSync(join(cwd, 'sub', 'here.txt'), 'utf8')).toBe('sub\n');
        const inSub = `cd '${join(cwd, 'sub')}' && echo sub > here.txt`;
        if (noSandbox === null) {
          const { command, ...rest } = answers(run)[4]?.hookSpecificOutput?.tool_input ?? {};
          expect(rest).toEqual({ dir_path: 'sub' });
          expect(String(command).endsWith(` -- '${inSub.replaceAll("'", `'\\''`)}'`)).toBe(true);
        }
        // Never "ask": Gemini CLI would hang on it.
        expect(answers(run).every((a) => a.decision === 'allow' || a.decision === 'deny')).toBe(
          true,
        );

        const entries = exportedAudit<Entry>(data);
        const decisions = entries.filter((e) => e.kind === 'decision');
        expect(
          decisions.map((e) => [e.tool, e.outcome]),
          JSON.stringify(entries),
        ).toEqual([
          ['run_shell_command', 'deny'],
          ['run_shell_command', 'allow'],
          ['write_file', 'deny'],
          ['run_shell_command', 'allow'],
        ]);
        // Judged in the folder it ran in.
        expect(JSON.stringify(decisions[3])).toContain(`"facet":"command:cd ${join(cwd, 'sub')}"`);
        for (const e of decisions) {
          expect(e).toMatchObject({ source: 'gemini-cli', agentId: 'gemini-cli' });
          expect(e.callId).toMatch(/^gemini:[0-9a-f-]{36}:\d{4}-\d\d-\d\dT[\d:.]+Z:[0-9a-f]{16}$/);
        }
        expect(new Set(decisions.map((e) => e.callId)).size).toBe(4);
        if (noSandbox === null)
          // The sandboxed run is recorded by `warden exec` under the decision's grant.
          expect(
            entries.find(
              (e) =>
                e.kind === 'call' &&
                e.status !== 'Staged' &&
                e.arguments?.command === 'echo hello > marker.txt',
            ),
            JSON.stringify(entries),
          ).toMatchObject({ status: 'Ok' });
        // I1: every call is accounted for: a denied one did not run, an allowed one ended
        // `Ok` (reported by `AfterTool`, or by `warden exec` when it ran sandboxed), and the
        // write inside the worktree ran without a decision by design.
        expect(run.completions.every((c) => c.exit === 0)).toBe(true);
        const { decided, undecided } = endings(entries);
        expect(decided, JSON.stringify(entries)).toEqual([
          ['deny', ['Denied']],
          ['allow', ['Ok']],
          ['deny', ['Denied']],
          ['allow', ['Ok']],
        ]);
        expect(undecided, JSON.stringify(entries)).toEqual([
          expect.objectContaining({
            tool: 'write_file',
            status: 'Ok',
            arguments: expect.objectContaining({
              event: 'AfterTool',
              ungated: '`write_file` writes inside the worktree (not gated)',
            }),
          }),
        ]);
      });
    });

    it('I1: with `--sandbox off` each `AfterTool` finds its decision, though Gemini CLI names no call: the same command twice is two decisions, each with its own completion, and a failing one is an `Error` with its exit code', async () => {
      const cwd = tempDir('warden-gemini-wt-');
      const data = tempDir();
      const run = await session(
        'completions',
        [shell('echo again'), shell('echo again'), shell('echo failing; exit 3')],
        {
          hook: [
            process.execPath,
            BIN,
            'hook',
            'gemini',
            '--policy',
            policyFile,
            '--data',
            data,
            '--sandbox',
            'off',
          ],
          cwd,
          completions: true,
        },
      );
      expect(run.completions.map((c) => [c.exit, c.stdout.trim()])).toEqual([
        [0, '{}'],
        [0, '{}'],
        [0, '{}'],
      ]);
      const entries = exportedAudit<Entry>(data);
      const { decided, undecided } = endings(entries);
      expect(decided, JSON.stringify(entries)).toEqual([
        ['allow', ['Ok']],
        ['allow', ['Ok']],
        ['allow', ['Error']],
      ]);
      expect(undecided).toEqual([]);
      expect(entries.find((e) => e.status === 'Error')).toMatchObject({
        error: 'exited with code 3',
        arguments: { event: 'AfterTool', exitCode: 3 },
      });
    });

    it("G1, G5, contracts §7: an MCP server Gemini CLI starts itself is decided by the gateway configuration's mapping: a write outside the worktree is denied, a mapped read runs", async () => {
      const cwd = tempDir('warden-gemini-wt-');
      const outside = tempDir('warden-gemini-out-');
      writeFileSync(join(cwd, 'hello.txt'), 'hello from the worktree\n');
      const data = tempDir();
      const config = join(tempDir(), 'gateway.yaml');
      writeFileSync(
        config,
        `agent: gemini-cli
workspace: acme
servers:
  fs: { command: node, args: [${JSON.stringify(FS_SERVER)}] }
tools:
  fs__write_file: { actions: [fileWriteOutsideWorktree], args: { paths: [path] } }
  fs__read_text_file: { readOnly: true }
`,
      );
      const run = await session(
        'mcp',
        [
          { name: 'mcp_fs_write_file', args: { path: join(outside, 'x.txt'), content: 'x' } },
          { name: 'mcp_fs_read_text_file', args: { path: join(cwd, 'hello.txt') } },
        ],
        {
          hook: [
            ...[process.execPath, BIN, 'hook', 'gemini'],
            ...['--policy', policyFile, '--data', data, '--gateway-config', config],
          ],
          cwd,
          mcpServers: { fs: { command: process.execPath, args: [FS_SERVER, cwd, outside] } },
        },
      );
      // Gemini CLI names the server and tool in \`mcp_context\`, which agrees with the tool's name.
      expect(JSON.parse(run.hookCalls[0]?.stdin ?? '{}')).toMatchObject({
        tool_name: 'mcp_fs_write_file',
        mcp_context: { server_name: 'fs', tool_name: 'write_file' },
      });
      expect(seen(run)[0], describeRun(run)).toEqual({
        error:
          'Tool execution blocked: Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected, so it is denied (fail-closed)',
      });
      expect(existsSync(join(outside, 'x.txt'))).toBe(false);
      expect(answers(run)[1]).toEqual({
        decision: 'allow',
        reason: `Warden: \`mcp_fs_read_text_file\` only reads (\`fs__read_text_file\` is \`readOnly\` in \`${config}\`): not gated`,
      });
      expect(JSON.stringify(run.functionResponses[1]), describeRun(run)).toContain(
        'hello from the worktree',
      );
      const decisions = exportedAudit<Entry>(data).filter((e) => e.kind === 'decision');
      expect(decisions).toMatchObject([
        { tool: 'mcp_fs_write_file', outcome: 'deny', source: 'gemini-cli' },
      ]);
    });

    describe('connected (`warden serve`, WARDEN_TOKEN)', () => {
      let served: Served;
      let agent: string;
      let viewer: string;
      let approver: string;
      const spawned: Spawned[] = [];
      beforeAll(async () => {
        const data = tempDir();
        const applied = warden(['policy', 'apply', policyFile, '--data', data]);
        expect(applied.code, applied.stderr).toBe(0);
        agent = agentToken(data, 'gemini-cli', 'acme', 'gemini');
        viewer = cliToken(['--data', data, '--role', 'viewer', '--name', 'eve']).token;
        approver = cliToken(['--data', data, '--role', 'approver', '--name', 'bob']).token;
        served = await serve(['--data', data]);
        return async () => {
          await killAll(spawned);
          await served.stop('SIGKILL');
        };
      }, 60_000);

      const hook = () => [process.execPath, BIN, 'hook', 'gemini', '--server', served.url];

      it(`G37, G22, G39: the server's deny reaches the model; an allowed command runs${noSandbox === null ? ' under the sandbox (G2)' : ''}; with nobody watching a prompt is denied; the server audits each decision under \`gemini-cli\``, async () => {
        const cwd = tempDir('warden-gemini-wt-');
        const outside = tempDir('warden-gemini-out-');
        const run = await session(
          'connected',
          [
            shell('touch ran.txt && git push origin main'),
            shell('echo hello > marker.txt'),
            writeFile(join(outside, 'notes.txt'), 'outside\n'),
          ],
          {
            hook: hook(),
            cwd,
            include: [outside],
            env: { WARDEN_TOKEN: agent },
            completions: true,
          },
        );
        const model = seen(run);
        expect(model[0], describeRun(run)).toEqual({
          error: `Tool execution blocked: ${DENY_MAIN}`,
        });
        expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
        expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('hello\n');
        if (noSandbox === null)
          expectSandboxed(run, 1, 'echo hello > marker.txt', `--server ${served.url}`);
        expect(model[2]?.error, describeRun(run)).toMatch(
          /^Tool execution blocked: Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected/,
        );
        expect(existsSync(join(outside, 'notes.txt'))).toBe(false);

        // Warden's call ids name Gemini CLI's session: this run's decisions are those.
        const sessionId = (JSON.parse(run.hookCalls[0]?.stdin ?? '{}') as { session_id: string })
          .session_id;
        const decisions = (
          await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=decision')
        ).body.entries as Entry[];
        const ours = decisions.filter((e) => e.callId?.startsWith(`gemini:${sessionId}:`));
        expect(ours.map((e) => [e.tool, e.outcome]).sort(), JSON.stringify(decisions)).toEqual([
          ['run_shell_command', 'allow'],
          ['run_shell_command', 'deny'],
          ['write_file', 'deny'],
        ]);
        expect(ours.every((e) => e.source === 'gemini-cli' && e.agentId === 'gemini-cli')).toBe(
          true,
        );
        // I1: and how each of them ended, on the server.
        const calls = (await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=call'))
          .body.entries as Entry[];
        const { decided } = endings([...ours, ...calls]);
        expect(
          decided.map(([outcome, statuses]) => `${outcome}:${statuses.join(',')}`).sort(),
        ).toEqual(['allow:Ok', 'deny:Denied', 'deny:Denied']);
      });

      it('G22: a write outside the worktree approved by a connected approver runs; the hook waits for the answer, never "ask"', async () => {
        const cwd = tempDir('warden-gemini-wt-');
        const outside = tempDir('warden-gemini-out-');
        const watcher = await approverWatching(served.url, approver, spawned);
        const pending = session('approved', [writeFile(join(outside, 'notes.txt'), 'approved\n')], {
          hook: hook(),
          cwd,
          include: [outside],
          env: { WARDEN_TOKEN: agent },
        });
        const line = await watcher.waitFor(/"event":"approval".*\n/, { timeoutMs: 120_000 });
        const id = /"id":"([0-9A-Z]+)"/.exec(line)?.[1] as string;
        const answered = await api(served.url, approver, 'POST', `/v1/approvals/${id}/answer`, {
          kind: 'once',
        });
        expect(answered.status).toBe(200);
        const run = await pending;
        expect(answers(run)[0], describeRun(run)).toMatchObject({
          decision: 'allow',
          reason: expect.stringContaining('fileWriteOutsideWorktree') as unknown as string,
        });
        expect(seen(run)[0]?.error, describeRun(run)).toBeUndefined();
        expect(readFileSync(join(outside, 'notes.txt'), 'utf8')).toBe('approved\n');
        await watcher.stop();
      });

      it("G22, G37: a prompt an approver sees but nobody answers is denied at the hook's `--timeout`, well inside Gemini CLI's hook timeout (which would run the tool)", async () => {
        const cwd = tempDir('warden-gemini-wt-');
        const outside = tempDir('warden-gemini-out-');
        const watcher = await approverWatching(served.url, approver, spawned);
        const run = await session(
          'unanswered',
          [writeFile(join(outside, 'notes.txt'), 'unanswered\n')],
          {
            hook: [...hook(), '--timeout', '3'],
            cwd,
            include: [outside],
            env: { WARDEN_TOKEN: agent },
          },
        );
        await watcher.waitFor(/"event":"approval"/);
        expect(seen(run)[0], describeRun(run)).toEqual({
          error:
            "Tool execution blocked: Warden: no decision within 3 s (raise the hook's `timeout` and `--timeout` together): denied, fail-closed",
        });
        expect(run.hookCalls[0]?.exit).toBe(0);
        expect(run.hookCalls[0]?.ms).toBeLessThan(30_000);
        expect(existsSync(join(outside, 'notes.txt'))).toBe(false);
        await watcher.stop();
      });

      it('G37: a Warden server that cannot be reached is a deny, and the command does not run', async () => {
        const cwd = tempDir('warden-gemini-wt-');
        const port = await freePort();
        const run = await session('unreachable', [shell('touch ran.txt')], {
          hook: [process.execPath, BIN, 'hook', 'gemini'],
          cwd,
          env: { WARDEN_URL: `http://127.0.0.1:${port}`, WARDEN_TOKEN: agent },
        });
        expect(seen(run)[0], describeRun(run)).toEqual({
          error: `Tool execution blocked: Warden: cannot reach the Warden server at http://127.0.0.1:${port} (ECONNREFUSED): denied, fail-closed`,
        });
        expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
      });
    });
  },
);
