// Warden's `PreToolUse` hook under the real Claude Code CLI (2.1.197), offline
// against a fake Messages API (G2, G22, G37): the model's scripted Bash calls
// go through `warden hook claude-code`, and what counts is what Claude Code
// then did — the tool_result it sent back and the side effects on disk and on
// the network — not only what the hook printed. A denied call never runs; an
// allowed one runs under the OS sandbox built from the decision, so a write or
// a connection the classifier could not see is still stopped; ordinary work
// (ls, npm test, git commit, a push the policy allows) still works. Under CI
// the CLI and the sandbox backend are required; elsewhere a missing one skips.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectHost, sandboxBackend } from '../src/honesty/index.js';
import { BIN, warden } from './helpers.js';
import { tempDir, UNDER_CI } from './support/backends.js';
import type { ClaudeRun, RunOptions } from './support/claude-cli.js';
import { describeRun, locateClaude, runClaude } from './support/claude-cli.js';
import type { ScriptedCall } from './support/fake-anthropic.js';

const claude = locateClaude();
const noClaude = 'missing' in claude ? claude.missing : null;
if (noClaude !== null && UNDER_CI)
  throw new Error(`under CI the Claude Code CLI is required: ${noClaude}`);
if (noClaude !== null) console.warn(`[skip] the Claude Code CLI tests: ${noClaude}`);

const backend = sandboxBackend(detectHost());
const noSandbox =
  backend === null
    ? 'this host offers no sandbox backend (`bwrap`, `socat` and `rg` on Linux): the sandboxed runs are skipped'
    : null;
if (noSandbox !== null && UNDER_CI)
  throw new Error(`under CI the sandbox is required: ${noSandbox}`);
if (noSandbox !== null && noClaude === null) console.warn(`[skip] ${noSandbox}`);

const DENY_MAIN =
  'Warden: denied: `gitPush`: ref `main` matches refs [main] of rule `protect-main` in workspace';

let root: string;
/** A folder the policy lets commands write in although it lies outside every worktree. */
let remotes: string;
let policyFile: string;
let policy: string;

beforeAll(() => {
  root = tempDir('warden-cc-cli-');
  remotes = join(root, 'remotes');
  mkdirSync(remotes);
  policy = `version: 1
workspace: acme
rules:
  - id: spawn
    action: processSpawn
    decision: allow
  - id: egress
    action: networkEgress
    decision: allow
  - id: commits
    action: gitCommit
    decision: allow
  - id: protect-main
    action: gitPush
    decision: deny
    when: { refs: [main] }
  - id: feature-branches
    action: gitPush
    decision: allow
    when: { refs: ['feature/**'] }
  - id: shared-remotes
    action: fileWriteOutsideWorktree
    decision: allow
    when: { paths: ['${remotes}/**'] }
`;
  policyFile = join(root, 'policy.yaml');
  writeFileSync(policyFile, policy);
});

/** Every hook call's wall time, by the test that made it, printed at the end. */
const hookTimes: { test: string; command: string; ms: number }[] = [];

afterAll(() => {
  if (hookTimes.length === 0) return;
  const rows = hookTimes.map(
    (t) => `  ${t.ms.toFixed(0).padStart(6)} ms  ${t.test}: ${t.command.slice(0, 60)}`,
  );
  const sorted = hookTimes.map((t) => t.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `hook wall time per call (${hookTimes.length} calls, median ${median.toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms):\n${rows.join('\n')}`,
  );
});

interface Answer {
  readonly hookSpecificOutput: {
    readonly permissionDecision: string;
    readonly permissionDecisionReason: string;
    readonly updatedInput?: Record<string, unknown>;
  };
}

/** The hook's answers, parsed. */
function answers(run: ClaudeRun): Answer[] {
  return run.hookCalls.map((call) => JSON.parse(call.stdout) as Answer);
}

/** A fresh worktree (the session's cwd), with `files` written into it. */
function worktree(files: Record<string, string> = {}): string {
  const dir = tempDir('warden-cc-wt-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function standalone(data: string): string[] {
  return [process.execPath, BIN, 'hook', 'claude-code', '--policy', policyFile, '--data', data];
}

/** Runs Claude Code with the scripted Bash commands, and checks the hook saw each call once. */
async function session(
  test: string,
  calls: readonly ScriptedCall[],
  options: Omit<RunOptions, 'bin' | 'calls'>,
): Promise<ClaudeRun> {
  if ('missing' in claude) throw new Error(claude.missing);
  const run = await runClaude({ bin: claude.bin, calls, ...options });
  run.hookCalls.forEach((call, i) => {
    const input = calls[i]?.input.command;
    hookTimes.push({ test, command: typeof input === 'string' ? input : '?', ms: call.ms });
  });
  // A settings file Claude Code rejects drops the hook silently: count the calls.
  expect(run.hookCalls, describeRun(run)).toHaveLength(calls.length);
  expect(run.toolResults, describeRun(run)).toHaveLength(calls.length);
  expect(run.exit, describeRun(run)).toBe(0);
  return run;
}

const bash = (command: string, extra: Record<string, unknown> = {}): ScriptedCall => ({
  name: 'Bash',
  input: { command, description: 'run it', ...extra },
});

interface Entry {
  readonly kind: string;
  readonly status?: string;
  readonly outcome?: string;
  readonly callId?: string;
  readonly error?: string;
  readonly arguments?: {
    command?: string;
    sandbox?: { backend: string; hosts: string[]; violations: string[] } | null;
  };
}

/** The standalone audit log, read back with `warden audit export`. */
function audit(data: string): Entry[] {
  const exported = warden(['audit', 'export', '--data', data]);
  expect(exported.code, exported.stderr).toBe(0);
  return exported.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Entry);
}

// `bypassPermissions` (as root it needs IS_SANDBOX=1, which the driver sets):
// in `-p` mode Claude Code's default permission check refuses writes and
// pushes by itself, which would hide whether Warden let a command through
// and what the command then did. With bypass, only Warden's hook stands
// between the model and the shell.
describe.skipIf(noClaude !== null)(
  `Claude Code ${'version' in claude ? claude.version : ''} with the Warden hook`,
  () => {
    describe('standalone (`--policy`, `--data`)', () => {
      it("G37, G22: a denied `git push` reaches Claude Code as Warden's reason, and the command does not run", async () => {
        const cwd = worktree();
        const data = tempDir();
        const run = await session('deny push', [bash('touch ran.txt && git push origin main')], {
          hook: standalone(data),
          cwd,
        });
        expect(answers(run)[0]?.hookSpecificOutput).toMatchObject({
          permissionDecision: 'deny',
          permissionDecisionReason: DENY_MAIN,
        });
        expect(run.toolResults[0]).toMatchObject({ text: DENY_MAIN, isError: true });
        expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
        expect(run.output?.permission_denials).toHaveLength(1);
        const denied = audit(data).find((e) => e.kind === 'decision');
        expect(denied).toMatchObject({ outcome: 'deny' });
      });
    });
  },
);
