// Warden's `PreToolUse` hook under the real Codex CLI (0.171.0), offline
// against a fake Responses API (G14b, G14c, G22, G37): the model's scripted
// calls go through `warden hook codex`, and what counts is what Codex then
// did — the tool output it sent back to the model and the files on disk —
// not only what the hook printed. Standalone on a policy file and connected
// to a real `warden serve`; a prompt waits for a connected approver inside
// the hook; a server that cannot be reached is a deny. Under CI the CLI is
// required; elsewhere a missing CLI skips.

import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, GRANTED_RUN, HOOK_CLIENT, exportedAudit, warden } from '../helpers.js';
import { sandboxForTests, tempDir } from '../support/backends.js';
import type { HookCall } from '../support/agent-cli.js';
import { forEvent, requireCli } from '../support/agent-cli.js';
import type { CodexRun, RunCodexOptions } from '../support/codex-cli.js';
import { codexScratch, describeCodexRun, locateCodex, runCodex } from '../support/codex-cli.js';
import type { ScriptedCodexCall } from '../support/fake-openai.js';
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

const located = locateCodex();
const noCodex = requireCli(located, 'Codex CLI');

const { missing: noSandbox } = sandboxForTests(
  'the Codex runs under Warden’s sandbox',
  noCodex === null,
);

const DENY_MAIN =
  'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace';

let policyFile: string;

beforeAll(() => {
  const root = tempDir('warden-codex-cli-');
  policyFile = join(root, 'policy.yaml');
  writeFileSync(
    policyFile,
    hookPolicy(`  - id: ask-outside
    action: fileWriteOutsideWorktree
    decision: prompt
  - id: ask-deletes
    action: fileDelete
    decision: prompt
`),
  );
});

const hookTimes: number[] = [];
afterAll(() => {
  if (hookTimes.length === 0) return;
  const sorted = [...hookTimes].sort((a, b) => a - b);
  console.log(
    `codex hook wall time: ${sorted.length} calls, median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
  );
});

const shell = (cmd: string): ScriptedCodexCall => ({ name: 'exec_command', arguments: { cmd } });
const applyPatch = (...body: string[]): ScriptedCodexCall => ({
  custom: 'apply_patch',
  input: ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n'),
});

/** A fresh session folder under /var/tmp, with `files` in it. */
function worktree(files: Record<string, string> = {}): string {
  const dir = codexScratch('warden-codex-wt-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Runs Codex with the scripted calls, and checks the hook saw each call once and Codex answered each. */
async function session(
  calls: readonly ScriptedCodexCall[],
  options: Omit<RunCodexOptions, 'bin' | 'calls'>,
): Promise<CodexRun & { completions: HookCall[] }> {
  if ('missing' in located) throw new Error(located.missing);
  const all = await runCodex({ bin: located.bin, calls, ...options });
  hookTimes.push(...all.hookCalls.map((c) => c.ms));
  // `hookCalls`: the calls' `PreToolUse`; `completions`: their `PostToolUse`, if asked for.
  const run = { ...all, hookCalls: forEvent(all.hookCalls, 'PreToolUse') };
  const completions = forEvent(all.hookCalls, 'PostToolUse');
  expect(run.hookCalls, describeCodexRun(run)).toHaveLength(calls.length);
  expect(run.toolOutputs, describeCodexRun(run)).toHaveLength(calls.length);
  expect(run.exit, describeCodexRun(run)).toBe(0);
  // Every answer is explicit JSON with exit 0: Codex lets a call through on any other.
  for (const call of all.hookCalls) {
    expect(call.exit, describeCodexRun(all)).toBe(0);
    expect(() => JSON.parse(call.stdout) as unknown, describeCodexRun(all)).not.toThrow();
  }
  return { ...run, completions };
}

/** A decision entry with the request it recorded: the worktree and what it asked. */
type WorktreeEntry = Entry & {
  readonly request?: {
    readonly worktree?: string;
    readonly actions?: string[];
    readonly args?: { readonly paths?: string[] };
    readonly command?: string;
  };
};

/** What the model read for a call Codex blocked on Warden's word. */
const blocked = (reason: string, command: string) =>
  `Command blocked by PreToolUse hook: ${reason}. Command: ${command}`;

interface Entry {
  readonly kind: string;
  readonly source?: string;
  readonly outcome?: string;
  readonly callId?: string;
  readonly tool?: string;
  readonly id?: string;
  readonly decisionId?: string | null;
  readonly status?: string;
  readonly arguments?: { command?: string; event?: string; exitCode?: number };
}

describe.skipIf(noCodex !== null)(
  `Codex ${'version' in located ? located.version : ''} with the Warden hook`,
  // One CLI session takes a few seconds, more on a busy machine: this is a hang detector.
  { timeout: 120_000 },
  () => {
    describe('standalone (`--policy`, `--data`)', () => {
      const hook = (data: string, ...extra: string[]) => [
        process.execPath,
        BIN,
        'hook',
        'codex',
        '--policy',
        policyFile,
        '--data',
        data,
        ...extra,
      ];

      it("G37, G14b: a push to main is denied with Warden's reason reaching the model, an allowed command runs, and the audit has both with source `codex`", async () => {
        const cwd = worktree();
        const data = tempDir();
        const push = 'touch ran.txt && git push origin main';
        const run = await session([shell(push), shell('echo hello > marker.txt')], {
          hook: hook(data),
          cwd,
          completions: true,
        });
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toBe(blocked(DENY_MAIN, push));
        expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
        // Allowed, and run as Codex runs it (in its own sandbox): no objection from the hook.
        expect(run.hookCalls[1]?.stdout.trim()).toBe('{}');
        expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('hello\n');
        const decisions = exportedAudit<Entry>(data).filter((e) => e.kind === 'decision');
        expect(decisions.map((e) => [e.source, e.callId, e.outcome])).toEqual([
          ['codex', 'call_scripted_0001', 'deny'],
          ['codex', 'call_scripted_0002', 'allow'],
        ]);
        // I1: and how each call ended: the denied one did not run, the allowed one ran and
        // reported through `PostToolUse`, with the exit code from Codex's transcript.
        expect(run.completions.map((c) => c.exit)).toEqual([0]);
        const calls = exportedAudit<Entry>(data).filter(
          (e) => e.kind === 'call' && e.status !== 'Staged',
        );
        expect(
          calls.map((e) => [
            e.callId,
            e.decisionId,
            e.status,
            e.arguments?.event,
            e.arguments?.exitCode,
          ]),
          JSON.stringify(calls),
        ).toEqual([
          ['call_scripted_0001', decisions[0]?.id, 'Denied', undefined, undefined],
          ['call_scripted_0002', decisions[1]?.id, 'Ok', 'PostToolUse', 0],
        ]);
      });

      it('G14c, G22: a patch writing outside the worktree prompts and, with no approver, is denied; one inside is applied ungated', async () => {
        const cwd = worktree();
        const outside = join(cwd, '..', `${cwd.split('/').at(-1) ?? 'x'}-outside.txt`);
        const data = tempDir();
        const heredoc = (...body: string[]) =>
          shell(
            `apply_patch <<'EOF'\n${['*** Begin Patch', ...body, '*** End Patch'].join('\n')}\nEOF\n`,
          );
        const run = await session(
          [
            applyPatch(`*** Add File: ../${outside.split('/').at(-1) ?? ''}`, '+x'),
            applyPatch('*** Add File: notes.txt', '+hello from patch'),
            // The shell form Codex applies itself: judged as the same patch.
            heredoc(`*** Add File: ../${outside.split('/').at(-1) ?? ''}`, '+x'),
            heredoc('*** Add File: more.txt', '+from a here-document'),
          ],
          { hook: hook(data), cwd },
        );
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toContain(
          'blocked by PreToolUse hook: Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected, so it is denied (fail-closed)',
        );
        expect(existsSync(outside)).toBe(false);
        expect(run.hookCalls[1]?.stdout.trim()).toBe('{}');
        expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('hello from patch\n');
        expect(run.toolOutputs[2]?.text, describeCodexRun(run)).toContain(
          'blocked by PreToolUse hook: Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside`',
        );
        expect(run.hookCalls[3]?.stdout.trim()).toBe('{}');
        expect(readFileSync(join(cwd, 'more.txt'), 'utf8')).toBe('from a here-document\n');
        expect(existsSync(outside)).toBe(false);
        const decisions = exportedAudit<Entry>(data).filter((e) => e.kind === 'decision');
        expect(decisions.map((e) => [e.source, e.tool, e.outcome])).toEqual([
          ['codex', 'apply_patch', 'deny'],
          ['codex', 'Bash', 'deny'],
        ]);
      });

      it('G2: `--sandbox required` denies a shell command Codex would run inside its own sandbox, where Warden’s cannot start', async () => {
        const cwd = worktree();
        const run = await session([shell('echo hello > marker.txt')], {
          hook: hook(tempDir(), '--sandbox', 'required'),
          cwd,
        });
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toBe(
          blocked(
            "Warden: shell commands must run sandboxed (`--sandbox required`), but Codex runs shell commands inside its own sandbox (`workspace-write`), where Warden's cannot start",
            'echo hello > marker.txt',
          ),
        );
        expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
      });

      it.skipIf(noSandbox !== null)(
        'G2: where Codex runs commands unsandboxed (`danger-full-access`), an allowed command is rewritten to run under Warden’s sandbox, and its run is audited',
        async () => {
          const cwd = worktree();
          const data = tempDir();
          const run = await session([shell('echo hello > marker.txt')], {
            hook: hook(data),
            cwd,
            sandbox: 'danger-full-access',
          });
          const answer = JSON.parse(run.hookCalls[0]?.stdout ?? '{}') as {
            hookSpecificOutput?: { permissionDecision: string; updatedInput?: { command: string } };
          };
          expect(answer.hookSpecificOutput?.permissionDecision, describeCodexRun(run)).toBe(
            'allow',
          );
          expect(answer.hookSpecificOutput?.updatedInput?.command).toMatch(GRANTED_RUN);
          expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('hello\n');
          const ran = exportedAudit<Entry>(data).find(
            (e) =>
              e.kind === 'call' &&
              e.status !== 'Staged' &&
              e.arguments?.command === 'echo hello > marker.txt',
          );
          expect(ran, JSON.stringify(exportedAudit(data))).toMatchObject({ status: 'Ok' });
        },
      );
    });

    it.skipIf(noSandbox !== null)(
      "G2, G37: through the installed hook (the resident runner's client), a push to main is denied with Warden's reason and an allowed command runs under Warden's sandbox",
      async () => {
        const cwd = worktree();
        const data = tempDir();
        try {
          const run = await session(
            [shell('git push origin main'), shell('echo hello > marker.txt')],
            {
              hook: [
                '/bin/sh',
                HOOK_CLIENT,
                process.execPath,
                'codex',
                '--policy',
                policyFile,
                '--data',
                data,
              ],
              cwd,
              sandbox: 'danger-full-access',
            },
          );
          expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toContain(DENY_MAIN);
          expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('hello\n');
          const statuses = exportedAudit<Entry>(data)
            .filter((e) => e.kind === 'call')
            .map((e) => e.status);
          expect(statuses).toEqual(['Denied', 'Staged', 'Ok']);
        } finally {
          warden(['runner', 'stop', '--data', data]);
        }
      },
    );

    describe('the model’s `workdir` is where a command acts, never the worktree (G2, E10)', () => {
      /** A command the model runs in `workdir`, which Codex sends the hook as its `cwd`. */
      const shellIn = (cmd: string, workdir: string): ScriptedCodexCall => ({
        name: 'exec_command',
        arguments: { cmd, workdir },
      });

      it('G14c, G22: under `-s danger-full-access`, a command in a `workdir` outside the project is a write there: it prompts and, with no approver, is denied, and writes nothing', async () => {
        const cwd = worktree();
        const outside = codexScratch('warden-codex-outside-');
        const data = tempDir();
        const command = 'echo hi > marker.txt';
        const run = await session([shellIn(command, outside)], {
          hook: [process.execPath, BIN, 'hook', 'codex', '--policy', policyFile, '--data', data],
          cwd,
          sandbox: 'danger-full-access',
        });
        // Codex 0.171 sends the model's `workdir` as the hook's `cwd`, and starts the hook in the session's.
        expect((JSON.parse(run.hookCalls[0]?.stdin ?? '{}') as { cwd?: string }).cwd).toBe(outside);
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toBe(
          blocked(
            'Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside` in workspace; no approver is connected, so it is denied (fail-closed)',
            command,
          ),
        );
        expect(existsSync(join(outside, 'marker.txt'))).toBe(false);
        expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
        // Decided against the project, the model's folder a write outside it.
        const decisions = exportedAudit<WorktreeEntry>(data).filter((e) => e.kind === 'decision');
        expect(decisions.map((e) => [e.outcome, e.request?.worktree, e.request?.command])).toEqual([
          ['deny', realpathSync(cwd), `cd '${outside}' && ${command}`],
        ]);
      });

      it.skipIf(noSandbox !== null)(
        'G2: under `-s danger-full-access`, an allowed command in a `workdir` outside the project runs there under Warden’s sandbox, where only the project is writable, and writes nothing in that folder; one in Warden’s data folder is denied',
        async () => {
          const cwd = worktree();
          const outside = codexScratch('warden-codex-outside-');
          const data = tempDir();
          const spawnOnly = join(tempDir(), 'policy.yaml');
          writeFileSync(spawnOnly, hookPolicy());
          const escape = `echo hi > marker.txt; echo x > ${join(outside, 'abs.txt')}`;
          const run = await session([shellIn(escape, outside), shellIn('ls > listing.txt', data)], {
            hook: [process.execPath, BIN, 'hook', 'codex', '--policy', spawnOnly, '--data', data],
            cwd,
            sandbox: 'danger-full-access',
          });
          const answer = JSON.parse(run.hookCalls[0]?.stdout ?? '{}') as {
            hookSpecificOutput?: {
              permissionDecision: string;
              permissionDecisionReason: string;
              updatedInput?: { command: string };
            };
          };
          expect(answer.hookSpecificOutput?.permissionDecision, describeCodexRun(run)).toBe(
            'allow',
          );
          expect(answer.hookSpecificOutput?.updatedInput?.command).toContain(
            ` --worktree ${realpathSync(cwd)} `,
          );
          expect(answer.hookSpecificOutput?.permissionDecisionReason).toContain(
            `only the worktree \`${realpathSync(cwd)}\` is writable`,
          );
          // It ran in that folder, under Warden's sandbox: every write there was refused.
          expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
          expect(existsSync(join(outside, 'marker.txt'))).toBe(false);
          expect(existsSync(join(outside, 'abs.txt'))).toBe(false);
          // The data folder as `workdir`: denied before any policy is read.
          expect(run.toolOutputs[1]?.text, describeCodexRun(run)).toBe(
            blocked(
              `Warden: \`Bash\` acts in \`${realpathSync(data)}\`, in Warden's data folder, which no agent may read or change`,
              'ls > listing.txt',
            ),
          );
          expect(existsSync(join(data, 'listing.txt'))).toBe(false);
        },
      );
    });

    describe('connected (`--server`, WARDEN_TOKEN)', () => {
      let served: Served;
      let agent: string;
      let approver: string;
      let viewer: string;
      const spawned: Spawned[] = [];
      beforeAll(async () => {
        const data = tempDir();
        const applied = warden(['policy', 'apply', policyFile, '--data', data]);
        expect(applied.code, applied.stderr).toBe(0);
        agent = agentToken(data, 'codex', 'acme', 'codex');
        approver = cliToken(['--data', data, '--role', 'approver', '--name', 'bob']).token;
        viewer = cliToken(['--data', data, '--role', 'viewer', '--name', 'eve']).token;
        served = await serve(['--data', data]);
        return async () => {
          await served.stop('SIGKILL');
        };
      }, 60_000);
      afterEach(() => killAll(spawned));

      const hook = (url = served.url) => [process.execPath, BIN, 'hook', 'codex', '--server', url];

      it("G37: the server's deny reaches the model, an allowed command runs, and the server's audit has both with source `codex`", async () => {
        const cwd = worktree();
        const push = 'touch ran.txt && git push origin main';
        const run = await session([shell(push), shell('echo hello > marker.txt')], {
          hook: hook(),
          cwd,
          env: { WARDEN_TOKEN: agent },
          completions: true,
        });
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toBe(blocked(DENY_MAIN, push));
        expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
        expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('hello\n');
        const entries = (
          await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=decision')
        ).body.entries as Entry[];
        const ours = entries.filter((e) => e.callId?.startsWith('call_scripted_'));
        expect(ours.map((e) => [e.source, e.outcome]).sort()).toEqual([
          ['codex', 'allow'],
          ['codex', 'deny'],
        ]);
        // I1: the allowed call's completion, recorded by the server against its decision.
        expect(run.completions).toHaveLength(1);
        const allowed = ours.find((e) => e.outcome === 'allow');
        const calls = (await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=call'))
          .body.entries as Entry[];
        expect(
          calls.filter((e) => e.decisionId === allowed?.id),
          JSON.stringify(calls),
        ).toEqual([
          expect.objectContaining({
            source: 'codex',
            status: 'Ok',
            arguments: expect.objectContaining({ event: 'PostToolUse', exitCode: 0 }),
          }),
        ]);
      });

      it.skipIf(noSandbox !== null)(
        'G2: where Codex runs commands unsandboxed (`danger-full-access`), an allowed command runs under Warden’s sandbox with the server deciding, and the server records its run',
        async () => {
          const cwd = worktree();
          const command = 'echo connected > marker.txt';
          const run = await session([shell(command)], {
            hook: hook(),
            cwd,
            env: { WARDEN_TOKEN: agent },
            sandbox: 'danger-full-access',
          });
          const answer = JSON.parse(run.hookCalls[0]?.stdout ?? '{}') as {
            hookSpecificOutput?: { updatedInput?: { command: string } };
          };
          expect(answer.hookSpecificOutput?.updatedInput?.command, describeCodexRun(run)).toMatch(
            GRANTED_RUN,
          );
          expect(answer.hookSpecificOutput?.updatedInput?.command).toContain(
            ` --server ${served.url} `,
          );
          expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('connected\n');
          const calls = (await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=call'))
            .body.entries as Entry[];
          expect(
            calls.find((e) => e.arguments?.command === command),
            JSON.stringify(calls),
          ).toMatchObject({ status: 'Ok' });
        },
      );

      it('G22: a prompt waits inside the hook for a connected approver, and once approved the patch is applied', async () => {
        const cwd = worktree({ 'old.txt': 'old\n' });
        const watcher = await approverWatching(served.url, approver, spawned);
        const answering = watcher
          .waitFor(/"event":"approval".*\n/, { timeoutMs: 60_000 })
          .then(async (line) => {
            const id = /"id":"([0-9A-Z]+)"/.exec(line)?.[1] as string;
            const answered = await api(served.url, approver, 'POST', `/v1/approvals/${id}/answer`, {
              kind: 'once',
            });
            expect(answered.status).toBe(200);
          });
        const run = await session([applyPatch('*** Delete File: old.txt')], {
          hook: hook(),
          cwd,
          env: { WARDEN_TOKEN: agent },
        });
        await answering;
        expect(run.hookCalls[0]?.stdout.trim(), describeCodexRun(run)).toBe('{}');
        expect(existsSync(join(cwd, 'old.txt'))).toBe(false);
      });

      it('G22, G37: a prompt the connected approver leaves unanswered past --timeout is denied inside the hook, and the file stays', async () => {
        const cwd = worktree({ 'old.txt': 'old\n' });
        await approverWatching(served.url, approver, spawned);
        const run = await session([applyPatch('*** Delete File: old.txt')], {
          hook: [...hook(), '--timeout', '2'],
          cwd,
          env: { WARDEN_TOKEN: agent },
        });
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toContain(
          "blocked by PreToolUse hook: Warden: no decision within 2 s (raise the hook's `timeout` and `--timeout` together): denied, fail-closed",
        );
        expect(readFileSync(join(cwd, 'old.txt'), 'utf8')).toBe('old\n');
      });

      it('G22: with nobody watching, the same prompt is denied and the file stays', async () => {
        const cwd = worktree({ 'old.txt': 'old\n' });
        const run = await session([applyPatch('*** Delete File: old.txt')], {
          hook: hook(),
          cwd,
          env: { WARDEN_TOKEN: agent },
        });
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toContain(
          'blocked by PreToolUse hook: Warden: needs approval: `fileDelete` by rule `ask-deletes`',
        );
        expect(readFileSync(join(cwd, 'old.txt'), 'utf8')).toBe('old\n');
      });

      it('G14c, E10: under `-s danger-full-access`, a command in a `workdir` outside the project is decided by the server as a write there, against the project, and with nobody watching writes nothing', async () => {
        const cwd = worktree();
        const outside = codexScratch('warden-codex-outside-');
        const command = 'echo hi > marker.txt';
        const run = await session(
          [{ name: 'exec_command', arguments: { cmd: command, workdir: outside } }],
          { hook: hook(), cwd, env: { WARDEN_TOKEN: agent }, sandbox: 'danger-full-access' },
        );
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toContain(
          'blocked by PreToolUse hook: Warden: needs approval: `fileWriteOutsideWorktree` by rule `ask-outside`',
        );
        expect(existsSync(join(outside, 'marker.txt'))).toBe(false);
        const entries = (
          await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=decision')
        ).body.entries as WorktreeEntry[];
        const ours = entries.filter((e) => e.request?.command?.includes(outside) === true);
        expect(
          ours.map((e) => [e.outcome, e.request?.worktree, e.request?.actions]),
          JSON.stringify(entries),
        ).toEqual([['deny', realpathSync(cwd), ['processSpawn', 'fileWriteOutsideWorktree']]]);
      });

      it("G37: Warden's server unreachable: the call is denied, saying so, and does not run", async () => {
        const cwd = worktree();
        const port = await freePort();
        const run = await session([shell('echo hello > marker.txt')], {
          hook: hook(`http://127.0.0.1:${port}`),
          cwd,
          env: { WARDEN_TOKEN: agent },
        });
        expect(run.toolOutputs[0]?.text, describeCodexRun(run)).toContain(
          `blocked by PreToolUse hook: Warden: cannot reach the Warden server at http://127.0.0.1:${port} (ECONNREFUSED): denied, fail-closed`,
        );
        expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
      });
    });
  },
);
