// Warden's `PreToolUse` hook under the real Claude Code CLI (2.1.197), offline
// against a fake Messages API (G2, G22, G37): the model's scripted Bash calls
// go through `warden hook claude-code`, and what counts is what Claude Code
// then did — the tool_result it sent back and the side effects on disk and on
// the network — not only what the hook printed. A denied call never runs; an
// allowed one runs under the OS sandbox built from the decision, so a write or
// a connection the classifier could not see is still stopped, and a replayed
// grant runs nothing; ordinary work (ls, npm test, git commit, a push the
// policy allows) still works. Under CI the CLI and the sandbox backend are
// required (the scenarios also use `python3`, `curl` and `git`); elsewhere a
// missing CLI or backend skips.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, GRANTED_PREFIX, HOOK_CLIENT, RUN_CLIENT, exportedAudit, warden } from '../helpers.js';
import { sandboxForTests, tempDir } from '../support/backends.js';
import type { ClaudeRun, RunOptions } from '../support/claude-cli.js';
import type { HookCall } from '../support/agent-cli.js';
import { forEvent, requireCli } from '../support/agent-cli.js';
import { endings } from '../support/audit.js';
import { describeRun, locateClaude, runClaude } from '../support/claude-cli.js';
import type { ScriptedCall } from '../support/fake-anthropic.js';
import type { Served } from '../support/processes.js';
import { api, agentToken, cliToken, serve } from '../support/processes.js';
import { parse } from 'yaml';
import { openTestWarden } from '../support/warden.js';
import { registerBuiltins } from '../../src/tools/builtin/index.js';

const claude = locateClaude();
const noClaude = requireCli(claude, 'Claude Code CLI');

const { backend, missing: noSandbox } = sandboxForTests('the sandboxed runs', noClaude === null);

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
  return [process.execPath, BIN, 'hook', 'claude-code', ...decider(data)];
}

/** Who decides, standalone: the policy file, with the audit in `data`. */
function decider(data: string): string[] {
  return ['--policy', policyFile, '--data', data];
}

/** Runs Claude Code with the scripted Bash commands, and checks the hook saw each call once. */
async function session(
  test: string,
  calls: readonly ScriptedCall[],
  options: Omit<RunOptions, 'bin' | 'calls'>,
): Promise<ClaudeRun & { completions: HookCall[] }> {
  if ('missing' in claude) throw new Error(claude.missing);
  const all = await runClaude({ bin: claude.bin, calls, ...options });
  // `hookCalls`: the calls' `PreToolUse`; their completions, if asked for, in `completions`.
  const run = {
    ...all,
    hookCalls: forEvent(all.hookCalls, 'PreToolUse'),
    completions: [
      ...forEvent(all.hookCalls, 'PostToolUse'),
      ...forEvent(all.hookCalls, 'PostToolUseFailure'),
    ],
  };
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
  readonly id?: string;
  readonly decisionId?: string | null;
  readonly tool?: string;
  readonly durationMs?: number | null;
  readonly status?: string;
  readonly outcome?: string;
  readonly callId?: string;
  readonly error?: string;
  readonly arguments?: {
    command?: string;
    sandbox?: { backend: string; hosts: string[]; violations: string[] } | null;
    event?: string;
    exitCode?: number;
    ungated?: string;
  };
}

/** The standalone audit log, read back with `warden audit export`. */
function audit(data: string): Entry[] {
  return exportedAudit<Entry>(data);
}

/** The run of `command` as a call entry (recorded by `warden exec` under the hook's grant). */
function ranAs(entries: readonly Entry[], command: string): Entry | undefined {
  return entries.find(
    (e) => e.kind === 'call' && e.status !== 'Staged' && e.arguments?.command === command,
  );
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** git run by the test itself (not through Claude Code), to set up or inspect a repository. */
function git(cwd: string, ...args: string[]): string {
  const ran = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV },
  });
  if (ran.status !== 0) throw new Error(`git ${args.join(' ')}: ${ran.stderr}`);
  return ran.stdout;
}

/** The words of a plain shell command line (quotes and backslashes; no expansions). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; line[j] !== '"'; j++) text += line[j] === '\\' ? (line[++j] as string) : line[j];
      word = (word ?? '') + text;
      i = j;
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] as string);
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * The hook allowed the call and handed Claude Code the same input with its
 * command run through the runner's client under the decision's grant, for the
 * session's cwd as the worktree, asking the same Warden (`who`).
 */
function expectSandboxed(run: ClaudeRun, index: number, cwd: string, who: readonly string[]): void {
  const answer = answers(run)[index]?.hookSpecificOutput;
  const asked = (
    JSON.parse(run.hookCalls[index]?.stdin ?? '{}') as { tool_input: Record<string, unknown> }
  ).tool_input;
  expect(answer?.permissionDecision, describeRun(run)).toBe('allow');
  const { command, ...rest } = asked;
  expect(answer?.updatedInput).toMatchObject(rest);
  const words = shellWords(String(answer?.updatedInput?.command));
  expect(words, describeRun(run)).toEqual([
    ...GRANTED_PREFIX,
    '--grant',
    expect.stringMatching(/\S/),
    '--worktree',
    cwd,
    ...who,
    // Connected, the runner's client is told which data folder's runner serves it.
    ...(who[0] === '--server' ? ['--data', expect.stringMatching(/\/\.warden$/)] : []),
    '--',
    command,
  ]);
}

// `bypassPermissions` (as root it needs IS_SANDBOX=1, which the driver sets):
// in `-p` mode Claude Code's default permission check refuses writes and
// pushes by itself, which would hide whether Warden let a command through
// and what the command then did. With bypass, only Warden's hook stands
// between the model and the shell.
describe.skipIf(noClaude !== null)(
  `Claude Code ${'version' in claude ? claude.version : ''} with the Warden hook`,
  // One CLI session takes a few seconds, and more on a busy machine.
  { timeout: 120_000 },
  () => {
    /** A local HTTP server that counts the connections it gets and the paths asked. */
    let counter: Server;
    let port = 0;
    /** When each connection was accepted (`Date.now()`). */
    const connections: number[] = [];
    const paths: string[] = [];
    beforeAll(async () => {
      counter = createServer((req, res) => {
        paths.push(req.url ?? '');
        res.end('hello from the host\n');
      });
      counter.on('connection', () => connections.push(Date.now()));
      await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
      port = (counter.address() as AddressInfo).port;
    });
    afterAll(
      () =>
        new Promise<void>((resolve) => {
          counter.closeAllConnections();
          counter.close(() => resolve());
        }),
    );

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

      it('I1: the audit has the decision and the completion of each call: a denied push did not run, an allowed command ended `Ok`, a failing one `Error` with its exit code, a write inside the worktree ran ungated', async () => {
        const cwd = worktree();
        const data = tempDir();
        const run = await session(
          'completions',
          [
            bash('git push origin main'),
            bash('echo hello'),
            bash('echo failing; exit 3'),
            { name: 'Write', input: { file_path: join(cwd, 'notes.txt'), content: 'hi\n' } },
          ],
          { hook: [...standalone(data), '--sandbox', 'off'], cwd, completions: true },
        );
        expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('hi\n');
        // Three ran and reported; the denied push never did.
        expect(run.completions.map((c) => c.exit)).toEqual([0, 0, 0]);
        const entries = audit(data);
        const { decided, undecided } = endings(entries);
        expect(decided, JSON.stringify(entries)).toEqual([
          ['deny', ['Denied']],
          ['allow', ['Ok']],
          ['allow', ['Error']],
        ]);
        const failed = entries.find((e) => e.kind === 'call' && e.status === 'Error');
        expect(failed).toMatchObject({
          error: 'Exit code 3 failing',
          arguments: { event: 'PostToolUseFailure', exitCode: 3 },
        });
        expect(typeof failed?.durationMs).toBe('number');
        expect(undecided).toEqual([
          expect.objectContaining({
            tool: 'Write',
            status: 'Ok',
            arguments: expect.objectContaining({
              ungated: '`Write` writes inside the worktree (not gated)',
            }),
          }),
        ]);
      });

      it('G2, G22: a Bash call that asks for `dangerouslyDisableSandbox` needs a human, so standalone it is denied and does not run', async () => {
        const cwd = worktree();
        const data = tempDir();
        const run = await session(
          'unsandboxed',
          [bash('touch unsandboxed.txt', { dangerouslyDisableSandbox: true })],
          { hook: standalone(data), cwd },
        );
        const answer = answers(run)[0]?.hookSpecificOutput;
        expect(answer?.permissionDecision, describeRun(run)).toBe('deny');
        expect(answer?.permissionDecisionReason).toContain('without the OS sandbox');
        expect(answer?.permissionDecisionReason).toContain('no approver is connected');
        expect(run.toolResults[0]?.isError).toBe(true);
        expect(existsSync(join(cwd, 'unsandboxed.txt'))).toBe(false);
      });

      describe.skipIf(noSandbox !== null)(`under the sandbox (G2, ${backend ?? 'none'})`, () => {
        it('G2: an allowed command writing outside the worktree where the classifier cannot see it fails, and the audit records the violation', async () => {
          const outside = tempDir('warden-cc-out-');
          const target = join(outside, 'f.txt');
          const cwd = worktree({ 'write.py': `open(${JSON.stringify(target)}, 'w').write('x')\n` });
          const data = tempDir();
          const command = 'python3 write.py';
          const run = await session('write outside', [bash(command)], {
            hook: standalone(data),
            cwd,
          });
          expectSandboxed(run, 0, cwd, decider(data));
          expect(existsSync(target)).toBe(false);
          expect(run.toolResults[0]?.isError, describeRun(run)).toBe(true);
          expect(run.toolResults[0]?.text).toMatch(/read-only file system|permission denied/i);
          const entry = ranAs(audit(data), command);
          expect(entry, JSON.stringify(audit(data))).toMatchObject({ status: 'Error' });
          expect(entry?.arguments?.sandbox?.violations.join('\n')).toContain(target);
        });

        it('G2: an allowed command reaches a host its command line names, and not one hidden from the classifier', async () => {
          const hiddenUrl = `'http://' + '127.0.0.' + '1' + ':${port}/hidden'`;
          const cwd = worktree({
            'fetch.py': `import urllib.request\nurllib.request.urlopen(${hiddenUrl}, timeout=10).read()\n`,
          });
          const data = tempDir();
          connections.length = 0;
          paths.length = 0;
          const hidden = 'python3 fetch.py';
          const named = `curl -sS -m 10 --noproxy '' http://localhost:${port}/named`;
          const run = await session('network', [bash(hidden), bash(named)], {
            hook: standalone(data),
            cwd,
          });
          expectSandboxed(run, 0, cwd, decider(data));
          expect(paths, describeRun(run)).not.toContain('/hidden');
          expect(run.toolResults[0]?.isError, describeRun(run)).toBe(true);
          expect(run.toolResults[0]?.text).toMatch(/error/i);
          // The named host does get through, so the counter is known to count.
          expect(run.toolResults[1]).toMatchObject({ text: 'hello from the host', isError: false });
          expect(paths).toEqual(['/named']);
          // No connection at all while the hidden fetch ran: it ended before Claude Code sent its result.
          const firstResult = run.requests.find((r) => r.results >= 1)?.at ?? 0;
          expect(firstResult).toBeGreaterThan(0);
          expect(connections.filter((at) => at <= firstResult)).toEqual([]);
          expect(connections.length).toBeGreaterThan(0);
          const entry = ranAs(audit(data), hidden);
          expect(entry).toMatchObject({ status: 'Error' });
        });

        it("G2: a Bash call that replays Warden's `exec --grant` line for another command runs nothing: the grant does not verify", async () => {
          const cwd = worktree();
          const data = tempDir();
          // A real grant, made by the hook for `touch granted.txt` in this worktree.
          const asked = warden([...standalone(data).slice(2)], {
            env: { WARDEN_URL: '', WARDEN_TOKEN: '' },
            input: JSON.stringify({
              session_id: 'earlier',
              transcript_path: join(cwd, 'transcript.jsonl'),
              cwd,
              permission_mode: 'bypassPermissions',
              hook_event_name: 'PreToolUse',
              tool_name: 'Bash',
              tool_input: { command: 'touch granted.txt' },
              tool_use_id: 'toolu_earlier',
            }),
          });
          const granted = String(
            (JSON.parse(asked.stdout) as Answer).hookSpecificOutput.updatedInput?.command,
          );
          expect(granted, asked.stdout).toContain(' --grant ');
          const replayed = granted.replace(/ -- .*$/, " -- 'touch evil.txt'");
          const run = await session('replayed grant', [bash(replayed)], {
            hook: standalone(data),
            cwd,
          });
          expect(answers(run)[0]?.hookSpecificOutput.permissionDecision).toBe('allow');
          expect(run.toolResults[0]?.isError, describeRun(run)).toBe(true);
          expect(run.toolResults[0]?.text).toContain('the grant was refused');
          expect(existsSync(join(cwd, 'evil.txt'))).toBe(false);
          expect(existsSync(join(cwd, 'granted.txt'))).toBe(false);
        });

        it("E44: `bash - <<< 'rm -rf src'` under a deny on deleting `src` is denied as the deletion it is: `src` stays and the model is told why", async () => {
          const cwd = worktree();
          mkdirSync(join(cwd, 'src'));
          writeFileSync(join(cwd, 'src', 'main.ts'), 'main\n');
          writeFileSync(join(cwd, 'clean.sh'), 'rm -rf src\necho cleaned > cleaned.txt\n');
          const data = tempDir();
          const guarded = join(root, 'guard-src.yaml');
          writeFileSync(
            guarded,
            `${policy}  - id: keep-src\n    action: fileDelete\n    decision: deny\n    when: { paths: ['src', 'src/**'] }\n`,
          );
          const hook = [
            process.execPath,
            BIN,
            'hook',
            'claude-code',
            '--policy',
            guarded,
            '--data',
            data,
          ];
          const run = await session(
            'stdin script',
            [bash("bash - <<< 'rm -rf src'"), bash('bash ./clean.sh')],
            { hook, cwd },
          );
          // Read by the classifier: the here-string is the script `bash -` runs.
          expect(answers(run)[0]?.hookSpecificOutput.permissionDecision).toBe('deny');
          expect(run.toolResults[0]?.text, describeRun(run)).toContain('keep-src');
          // Hidden in a script file: allowed as a process, run over a layer, and decided on what
          // it did: nothing of it is kept, and the model reads the rule.
          expect(answers(run)[1]?.hookSpecificOutput.permissionDecision).toBe('allow');
          expect(run.toolResults[1]?.isError, describeRun(run)).toBe(true);
          expect(run.toolResults[1]?.text, describeRun(run)).toContain(
            'nothing the command did was kept',
          );
          expect(run.toolResults[1]?.text, describeRun(run)).toContain('keep-src');
          expect(readFileSync(join(cwd, 'src', 'main.ts'), 'utf8')).toBe('main\n');
          expect(existsSync(join(cwd, 'cleaned.txt'))).toBe(false);
        });

        it("E44: a git hook planted by a command is held for a human (standalone: denied); one planted another way never runs under Warden's own `git_commit`", async () => {
          const cwd = worktree({ 'README.md': '# tiny\n' });
          git(cwd, 'init', '-q');
          const marker = join(root, `hook-ran-${Date.now()}`);
          const plant = `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`;
          const data = tempDir();
          const run = await session('plant a hook', [bash(plant)], { hook: standalone(data), cwd });
          expect(run.toolResults[0]?.text, describeRun(run)).toContain(
            '`.git/hooks/pre-commit` changes what later commands run',
          );
          expect(existsSync(join(cwd, '.git', 'hooks', 'pre-commit'))).toBe(false);
          // Planted by a hand Warden does not see, the hook is still not run by Warden's own git.
          writeFileSync(join(cwd, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${marker}\n`, {
            mode: 0o755,
          });
          const t = await openTestWarden(parse(policy) as object);
          try {
            const tools = registerBuiltins(
              t.warden.tools({
                workspace: 'acme',
                agent: 'claude-code',
                source: 'builtin',
                worktree: cwd,
              }),
              {
                env: {
                  ...process.env,
                  GIT_AUTHOR_NAME: 'T',
                  GIT_AUTHOR_EMAIL: 't@example.test',
                  GIT_COMMITTER_NAME: 'T',
                  GIT_COMMITTER_EMAIL: 't@example.test',
                },
              },
            );
            const committed = await tools.call(
              'git_commit',
              { message: 'first', paths: ['README.md'] },
              { callId: 'c' },
            );
            expect(committed, JSON.stringify(committed)).toMatchObject({ ok: true });
          } finally {
            await t.cleanup();
          }
          expect(git(cwd, 'log', '--format=%s')).toBe('first\n');
          expect(existsSync(marker)).toBe(false);
        });

        it('G2: ordinary work still runs: `ls` lists the worktree', async () => {
          const cwd = worktree({ 'hello.txt': 'hi\n' });
          const data = tempDir();
          const run = await session('ls', [bash('ls')], { hook: standalone(data), cwd });
          expectSandboxed(run, 0, cwd, decider(data));
          expect(run.toolResults[0]).toMatchObject({ text: 'hello.txt', isError: false });
        });

        it('G2: ordinary work still runs: `npm test` runs the package script, which writes in the worktree', async () => {
          const cwd = worktree({
            'package.json': JSON.stringify({
              name: 'tiny',
              version: '1.0.0',
              private: true,
              scripts: { test: 'node test.js' },
            }),
            'test.js':
              "require('node:fs').writeFileSync('marker.txt', 'tested');\nconsole.log('1 test passed');\n",
          });
          const data = tempDir();
          const run = await session('npm test', [bash('npm test')], {
            hook: standalone(data),
            cwd,
          });
          expectSandboxed(run, 0, cwd, decider(data));
          // npm's own update check (registry.npmjs.org) is refused by the sandbox and said in
          // the output, and its log under HOME is not written; the script runs all the same.
          expect(run.toolResults[0]?.text, describeRun(run)).toContain('1 test passed');
          expect(run.toolResults[0]?.isError, describeRun(run)).toBe(false);
          expect(readFileSync(join(cwd, 'marker.txt'), 'utf8')).toBe('tested');
        });

        it('G2: ordinary work still runs: `git init`, `git add` and `git commit` in the worktree', async () => {
          const cwd = worktree({ 'README.md': '# tiny\n' });
          const data = tempDir();
          const command =
            'git init -q && git add README.md && git -c user.name=Test -c user.email=test@example.com commit -q -m first';
          const run = await session('git commit', [bash(command)], {
            hook: standalone(data),
            cwd,
          });
          expectSandboxed(run, 0, cwd, decider(data));
          expect(run.toolResults[0]?.isError, describeRun(run)).toBe(false);
          expect(git(cwd, 'log', '--format=%s')).toBe('first\n');
        });

        it('G2, G16: a push the policy allows reaches a bare remote in a folder the policy lets commands write in', async () => {
          const cwd = worktree({ 'README.md': '# tiny\n' });
          const remote = join(remotes, 'tiny.git');
          git(remotes, 'init', '-q', '--bare', remote);
          const data = tempDir();
          git(cwd, 'init', '-q');
          git(cwd, 'add', 'README.md');
          git(cwd, 'commit', '-q', '-m', 'first');
          git(cwd, 'checkout', '-q', '-b', 'feature/login');
          git(cwd, 'remote', 'add', 'origin', remote);
          const run = await session('git push', [bash('git push -q origin feature/login')], {
            hook: standalone(data),
            cwd,
          });
          expectSandboxed(run, 0, cwd, decider(data));
          expect(run.toolResults[0]?.isError, describeRun(run)).toBe(false);
          expect(git(remote, 'branch', '--list', 'feature/login')).toContain('feature/login');
        });
      });

      it("the hook's wall time per call is measured and printed (never asserted)", async () => {
        const cwd = worktree({ 'hello.txt': 'hi\n' });
        const data = tempDir();
        const calls = [
          bash('ls'),
          bash('git status --short || true'),
          bash('git push origin main'),
          bash('echo done'),
        ];
        const run = await session('wall time', calls, { hook: standalone(data), cwd });
        const times = run.hookCalls.map(
          (call, i) => `${call.ms.toFixed(0)} ms  ${String(calls[i]?.input.command)}`,
        );
        console.log(`hook wall time, one session on one data folder:\n  ${times.join('\n  ')}`);
        expect(answers(run).map((a) => a.hookSpecificOutput.permissionDecision)).toEqual([
          'allow',
          'allow',
          'deny',
          'allow',
        ]);
      });
    });

    describe('connected (`--server`, WARDEN_TOKEN)', () => {
      let served: Served;
      let agent: string;
      let viewer: string;
      beforeAll(async () => {
        const data = tempDir();
        const applied = warden(['policy', 'apply', policyFile, '--data', data]);
        expect(applied.code, applied.stderr).toBe(0);
        agent = agentToken(data, 'claude-code', 'acme', 'claude');
        viewer = cliToken(['--data', data, '--role', 'viewer', '--name', 'eve']).token;
        served = await serve(['--data', data]);
        return async () => {
          await served.stop('SIGKILL');
        };
      }, 60_000);

      const hook = () => [process.execPath, BIN, 'hook', 'claude-code', '--server', served.url];

      it("G37: the server's deny reaches Claude Code as Warden's reason, and the command does not run", async () => {
        const cwd = worktree();
        const run = await session(
          'connected deny',
          [bash('touch ran.txt && git push origin main')],
          { hook: hook(), cwd, env: { WARDEN_TOKEN: agent } },
        );
        expect(run.toolResults[0]).toMatchObject({ text: DENY_MAIN, isError: true });
        expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
      });

      it.skipIf(noSandbox !== null)(
        'G2: an allowed command runs under the sandbox with the server deciding; a write outside the worktree fails, and the server records the violation',
        async () => {
          const outside = tempDir('warden-cc-out-');
          const target = join(outside, 'f.txt');
          const cwd = worktree({
            'write.py': `open(${JSON.stringify(target)}, 'w').write('x')\nprint('unreachable')\n`,
          });
          const command = 'echo inside > inside.txt && python3 write.py';
          const run = await session('connected write outside', [bash(command)], {
            hook: hook(),
            cwd,
            env: { WARDEN_TOKEN: agent },
            completions: true,
          });
          expectSandboxed(run, 0, cwd, ['--server', served.url]);
          expect(readFileSync(join(cwd, 'inside.txt'), 'utf8')).toBe('inside\n');
          expect(existsSync(target)).toBe(false);
          expect(run.toolResults[0]?.isError, describeRun(run)).toBe(true);
          expect(run.toolResults[0]?.text).toMatch(/read-only file system|permission denied/i);
          const calls = (await api(served.url, viewer, 'GET', '/v1/audit?workspace=acme&kind=call'))
            .body.entries as Entry[];
          const entry = ranAs(calls, command);
          expect(entry, JSON.stringify(calls)).toMatchObject({ status: 'Error' });
          expect(entry?.arguments?.sandbox?.violations.join('\n')).toContain(target);
          // I1: the runner recorded how it ended; Claude Code's completion of the rewritten
          // command adds no second record.
          expect(run.completions).toHaveLength(1);
          // (Beside the entry `warden exec` made when the run started.)
          expect(
            calls.filter((e) => e.decisionId === entry?.decisionId && e.status !== 'Staged'),
          ).toHaveLength(1);
        },
      );
    });
  },
);

describe.skipIf(noClaude !== null)(
  `Claude Code ${'version' in claude ? claude.version : ''}: the installed hook, and why it is a command`,
  { timeout: 120_000 },
  () => {
    it('G37: an `http` hook whose server is down decides nothing: under `acceptEdits` and `bypassPermissions` Bash and Write run, and only `dontAsk` denies them — so Warden installs command hooks', async () => {
      if ('missing' in claude) throw new Error(claude.missing);
      const closed = `http://127.0.0.1:${await (await import('../support/processes.js')).freePort()}/hook`;
      const ran: Record<string, boolean> = {};
      for (const mode of ['acceptEdits', 'bypassPermissions', 'dontAsk'] as const) {
        const cwd = tempDir('warden-cc-http-');
        await runClaude({
          bin: claude.bin,
          calls: [
            bash('echo hi > marker.txt'),
            { name: 'Write', input: { file_path: join(cwd, 'w.txt'), content: 'w' } },
          ],
          hook: [],
          httpHook: closed,
          cwd,
          permissionMode: mode,
        });
        ran[mode] = existsSync(join(cwd, 'marker.txt')) && existsSync(join(cwd, 'w.txt'));
      }
      expect(ran).toEqual({ acceptEdits: true, bypassPermissions: true, dontAsk: false });
    });

    it("G37: the installed hook (the runner's client) denies in `bypassPermissions` when no runner can answer", async () => {
      const cwd = tempDir('warden-cc-runner-');
      const run = await session('no runner', [bash('echo hi > marker.txt')], {
        hook: ['/bin/sh', HOOK_CLIENT, join(cwd, 'no-node'), 'claude-code', '--policy', policyFile],
        cwd,
      });
      expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
      expect(run.toolResults[0]?.text).toContain("Warden's runner");
    });

    it.skipIf(noSandbox !== null)(
      "G2, G37: through the installed hook, a push to main is denied with Warden's reason and an allowed command runs under the sandbox, through the resident runner",
      async () => {
        const cwd = tempDir('warden-cc-runner-');
        const data = join(cwd, '.warden');
        const hook = [
          '/bin/sh',
          HOOK_CLIENT,
          process.execPath,
          'claude-code',
          '--policy',
          policyFile,
        ];
        try {
          const run = await session(
            'runner',
            [bash('git push origin main'), bash('echo hi > a.txt')],
            {
              hook,
              cwd,
              completions: true,
            },
          );
          expect(run.toolResults[0]?.text).toContain(DENY_MAIN);
          expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('hi\n');
          const second = answers(run)[1]?.hookSpecificOutput?.updatedInput?.command ?? '';
          expect(second).toContain(RUN_CLIENT);
          const statuses = exportedAudit<{ kind: string; status?: string }>(data)
            .filter((e) => e.kind === 'call')
            .map((e) => e.status);
          // The denied push; the run, started and ended; no second record of its completion.
          expect(statuses).toEqual(['Denied', 'Staged', 'Ok']);
        } finally {
          warden(['runner', 'stop', '--data', data]);
        }
      },
    );
  },
);
