// The resident runner (G37, G2, E44): the hooks' shell client and the granted
// run's bash client reach one process per data folder, which answers exactly
// what the per-call paths answer, and every fault on the way — no runner yet,
// its socket deleted or left behind, a socket of another user, the runner
// killed while a call waits or while a command runs, a full disk — ends in a
// deny or a recorded error, never in a run nobody recorded. Under CI the
// runner's clients (sh, bash, curl) and the sandbox are required.

import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnerClientUsable } from '../../src/hook/sandboxed.js';
import { detectHost, sandboxBackend } from '../../src/honesty/index.js';
import type { Ran } from '../helpers.js';
import { BIN, GRANTED_RUN, HOOK_CLIENT, exportedAudit, runAsync, warden } from '../helpers.js';
import { UNDER_CI, tempDir } from '../support/backends.js';
import type { Served, Spawned } from '../support/processes.js';
import { agentToken, approverWatching, cliToken, serve } from '../support/processes.js';

const clients = runnerClientUsable();
const backend = sandboxBackend(detectHost());
const missing = !clients
  ? "the runner's clients need /bin/bash and socat"
  : backend === null
    ? 'this host offers no sandbox backend (`bwrap` and `socat` on Linux)'
    : null;
if (missing !== null && UNDER_CI) throw new Error(`under CI the runner is required: ${missing}`);
if (missing !== null) console.warn(`[skip] the runner's tests: ${missing}`);

const POLICY = `version: 1
workspace: acme
rules:
  - { id: spawn, action: processSpawn, decision: allow }
  - { id: protect-main, action: gitPush, decision: deny, when: { refs: [main] } }
  - { id: keep-kept, action: fileDelete, decision: deny, when: { paths: ['keep/**'] } }
`;

let root: string;
let policy: string;

beforeAll(() => {
  root = realpathSync(tempDir('warden-runner-'));
  policy = join(root, 'policy.yaml');
  writeFileSync(policy, POLICY);
});

interface Answer {
  readonly permissionDecision: string;
  readonly permissionDecisionReason: string;
  readonly updatedInput?: { command: string };
}

/** A fresh worktree (with its data folder `.warden` inside, as the hook's default). */
function worktree(): string {
  const dir = join(root, `wt-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir);
  return dir;
}

function bashCall(cwd: string, command: string): string {
  return JSON.stringify({
    hook_event_name: 'PreToolUse',
    session_id: 's',
    cwd,
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
  });
}

/** The installed hook: the shell client, as Claude Code starts it in the session's folder. */
function hookClient(
  cwd: string,
  input: string,
  args: readonly string[],
  env: Record<string, string> = {},
  node = process.execPath,
): { answer: Answer; stderr: string; status: number | null } {
  const ran = spawnSync('/bin/sh', [HOOK_CLIENT, node, 'claude-code', ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, WARDEN_URL: '', WARDEN_TOKEN: '', CLAUDE_PROJECT_DIR: cwd, ...env },
    timeout: 60_000,
  });
  let answer: Answer;
  try {
    answer = (JSON.parse(ran.stdout) as { hookSpecificOutput: Answer }).hookSpecificOutput;
  } catch {
    throw new Error(`not an answer: ${ran.stdout} ${ran.stderr}`);
  }
  return { answer, stderr: ran.stderr, status: ran.status };
}

/** Runs a rewritten command as Claude Code's Bash tool does. */
function run(cwd: string, command: string, env: Record<string, string> = {}): Promise<Ran> {
  return runAsync('bash', ['-c', command], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', WARDEN_URL: '', WARDEN_TOKEN: '', ...env },
  });
}

function status(data: string): { running: boolean; pid?: number; hooks?: number; runs?: number } {
  const ran = warden(['runner', 'status', '--data', data, '--json']);
  return JSON.parse(ran.stdout) as { running: boolean; pid?: number };
}

function stopRunner(data: string): void {
  warden(['runner', 'stop', '--data', data]);
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const start = Date.now(); Date.now() - start < ms;)
    if (check()) return;
    else await new Promise((r) => setTimeout(r, 50));
  throw new Error(`waited ${ms} ms for ${what}`);
}

/**
 * Waits until a killed process has died: gone, or a zombie nobody reaped. A process
 * killed a moment ago may still hold its socket for a while on a busy host.
 */
function untilDead(pid: number): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < 1000; i++) {
    let state: string | undefined;
    try {
      state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.[0];
    } catch {
      return;
    }
    if (state === 'Z' || state === 'X') return;
    Atomics.wait(pause, 0, 0, 10);
  }
  throw new Error(`process ${pid} still runs after SIGKILL`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(missing !== null)('the resident runner, standalone', () => {
  const stops: string[] = [];
  afterAll(() => {
    for (const data of stops) stopRunner(data);
  });

  it('the first call starts the runner, which answers it; the next call finds it running, and `warden runner status` says what it served', () => {
    const cwd = worktree();
    const data = join(cwd, '.warden');
    stops.push(data);
    expect(status(data).running).toBe(false);
    const first = hookClient(cwd, bashCall(cwd, 'git push origin main'), ['--policy', policy]);
    expect(first.answer.permissionDecision).toBe('deny');
    expect(first.answer.permissionDecisionReason).toContain('protect-main');
    const running = status(data);
    expect(running).toMatchObject({ running: true, hooks: 1 });
    const second = hookClient(cwd, bashCall(cwd, 'echo hi > a.txt'), ['--policy', policy]);
    expect(second.answer.permissionDecision).toBe('allow');
    expect(second.answer.updatedInput?.command).toMatch(GRANTED_RUN);
    expect(status(data)).toMatchObject({ running: true, pid: running.pid, hooks: 2 });
    // Only its owner may enter the data folder that holds its socket.
    expect(spawnSync('stat', ['-c', '%a', data], { encoding: 'utf8' }).stdout.trim()).toBe('700');
  });

  it('answers what the per-call hook answers, for the same call', () => {
    const cwd = worktree();
    stops.push(join(cwd, '.warden'));
    for (const command of ['git push origin main', 'git push origin feature/x', 'rm -rf keep/a']) {
      const input = bashCall(cwd, command);
      const viaRunner = hookClient(cwd, input, ['--policy', policy]).answer;
      const perCall = JSON.parse(
        warden(['hook', 'claude-code', '--policy', policy], {
          input,
          env: { CLAUDE_PROJECT_DIR: cwd, WARDEN_URL: '', WARDEN_TOKEN: '' },
        }).stdout,
      ) as { hookSpecificOutput: Answer };
      expect(viaRunner.permissionDecision, command).toBe(
        perCall.hookSpecificOutput.permissionDecision,
      );
      if (viaRunner.permissionDecision === 'deny')
        expect(viaRunner.permissionDecisionReason, command).toBe(
          perCall.hookSpecificOutput.permissionDecisionReason,
        );
    }
  });

  it('E44: a granted run goes through the runner: the command runs in the sandbox, what it deleted is decided, and the run is recorded', async () => {
    const cwd = worktree();
    const data = join(cwd, '.warden');
    stops.push(data);
    mkdirSync(join(cwd, 'keep'));
    writeFileSync(join(cwd, 'keep', 'a'), 'a\n');
    const allowed = hookClient(cwd, bashCall(cwd, 'echo hi > a.txt; echo out'), [
      '--policy',
      policy,
    ]).answer;
    const ran = await run(cwd, allowed.updatedInput?.command ?? '');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('out\n');
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('hi\n');
    const hidden = hookClient(cwd, bashCall(cwd, `eval "$(printf 'rm -rf keep')"`), [
      '--policy',
      policy,
    ]).answer;
    expect(hidden.permissionDecision).toBe('allow');
    const denied = await run(cwd, hidden.updatedInput?.command ?? '');
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('keep-kept');
    expect(readFileSync(join(cwd, 'keep', 'a'), 'utf8')).toBe('a\n');
    const calls = exportedAudit<{ kind: string; status?: string }>(data).filter(
      (e) => e.kind === 'call',
    );
    // Each run: its start, then its end; the denied deletion is an entry of its own.
    expect(calls.map((c) => c.status)).toEqual(['Staged', 'Ok', 'Staged', 'Denied', 'Error']);
    expect(status(data)).toMatchObject({ running: true, runs: 2 });
  });

  it('a socket deleted under a running runner: the next call starts another, and the first one stops', async () => {
    const cwd = worktree();
    const data = join(cwd, '.warden');
    stops.push(data);
    hookClient(cwd, bashCall(cwd, 'ls'), ['--policy', policy]);
    const first = status(data).pid as number;
    rmSync(join(data, 'runner.sock'));
    const answer = hookClient(cwd, bashCall(cwd, 'git push origin main'), ['--policy', policy]);
    expect(answer.answer.permissionDecision).toBe('deny');
    expect(answer.answer.permissionDecisionReason).toContain('protect-main');
    const second = status(data).pid as number;
    expect(second).not.toBe(first);
    await until(() => !alive(first), 'the first runner to stop');
  });

  it('a socket nobody answers on (a runner that died) is replaced by a new runner', () => {
    const cwd = worktree();
    const data = join(cwd, '.warden');
    stops.push(data);
    hookClient(cwd, bashCall(cwd, 'ls'), ['--policy', policy]);
    const pid = status(data).pid as number;
    process.kill(pid, 'SIGKILL');
    untilDead(pid);
    // Its socket and its lock stay behind.
    expect(existsSync(join(data, 'runner.sock'))).toBe(true);
    const answer = hookClient(cwd, bashCall(cwd, 'git push origin main'), ['--policy', policy]);
    expect(answer.answer.permissionDecisionReason).toContain('protect-main');
    expect(status(data)).toMatchObject({ running: true });
    expect(status(data).pid).not.toBe(pid);
  });

  it('no runner can start (a Node that is not there): the call is denied, saying so', () => {
    const cwd = worktree();
    const got = hookClient(
      cwd,
      bashCall(cwd, 'ls'),
      ['--policy', policy],
      {},
      join(root, 'no-such-node'),
    );
    expect(got.status).toBe(0);
    expect(got.answer.permissionDecision).toBe('deny');
    expect(got.answer.permissionDecisionReason).toContain("Warden's runner");
    expect(got.answer.permissionDecisionReason).toContain('did not start');
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a socket of another user in the data folder is never used: the call is denied, and no runner starts (as root: the socket is given to `nobody`)',
    async () => {
      const cwd = worktree();
      const data = join(cwd, '.warden');
      mkdirSync(data, { mode: 0o700 });
      const socket = join(data, 'runner.sock');
      const listener = createServer(() => undefined);
      await new Promise<void>((resolve) => listener.listen(socket, resolve));
      chownSync(socket, 65534, 65534);
      try {
        const got = hookClient(cwd, bashCall(cwd, 'ls'), ['--policy', policy]);
        expect(got.answer.permissionDecision).toBe('deny');
        expect(got.answer.permissionDecisionReason).toContain('belongs to another user');
        const served = warden(['runner', 'serve', '--data', data]);
        expect(served.code).toBe(1);
        expect(served.stderr).toContain('belongs to another user');
      } finally {
        listener.close();
      }
    },
  );

  it('a data folder on a full disk: the call is denied, saying the decision could not be recorded', () => {
    const cwd = worktree();
    const data = join(cwd, '.warden');
    mkdirSync(data);
    // A small file system of its own, in a namespace of its own, where the runner and its client run.
    const script = [
      'set -e',
      `mount -t tmpfs -o size=4m tmpfs ${JSON.stringify(data)}`,
      `cd ${JSON.stringify(cwd)}`,
      // The first call makes the store, then the disk is filled.
      `printf '%s' "$FIRST" | /bin/sh ${JSON.stringify(HOOK_CLIENT)} ${JSON.stringify(process.execPath)} claude-code --policy ${JSON.stringify(policy)} > first.json`,
      `dd if=/dev/zero of=${JSON.stringify(join(data, 'fill'))} bs=64k 2>/dev/null || true`,
      `printf '%s' "$SECOND" | /bin/sh ${JSON.stringify(HOOK_CLIENT)} ${JSON.stringify(process.execPath)} claude-code --policy ${JSON.stringify(policy)} > second.json`,
      `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} runner stop --data ${JSON.stringify(data)} >/dev/null`,
    ].join('\n');
    const ran = spawnSync('unshare', ['-Urm', '/bin/bash', '-c', script], {
      encoding: 'utf8',
      env: {
        ...process.env,
        WARDEN_URL: '',
        WARDEN_TOKEN: '',
        CLAUDE_PROJECT_DIR: cwd,
        FIRST: bashCall(cwd, 'ls'),
        SECOND: bashCall(cwd, 'ls -la'),
      },
      timeout: 60_000,
    });
    expect(ran.status, ran.stderr).toBe(0);
    const first = JSON.parse(readFileSync(join(cwd, 'first.json'), 'utf8')) as {
      hookSpecificOutput: Answer;
    };
    expect(first.hookSpecificOutput.permissionDecision).toBe('allow');
    const second = JSON.parse(readFileSync(join(cwd, 'second.json'), 'utf8')) as {
      hookSpecificOutput: Answer;
    };
    expect(second.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(second.hookSpecificOutput.permissionDecisionReason).toMatch(/could not record/);
  });

  it('the runner killed while a command runs: the client says so, nothing of the command is kept, and the next runner records how the run ended', async () => {
    const cwd = worktree();
    const data = join(cwd, '.warden');
    stops.push(data);
    const answer = hookClient(cwd, bashCall(cwd, 'echo partial > p.txt; sleep 2; echo late'), [
      '--policy',
      policy,
    ]).answer;
    const running = run(cwd, answer.updatedInput?.command ?? '');
    await until(() => (status(data).runs ?? 0) >= 1, 'the run to start');
    process.kill(status(data).pid as number, 'SIGKILL');
    const ran = await running;
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain("Warden's runner was lost while the command ran");
    expect(existsSync(join(cwd, 'p.txt'))).toBe(false);
    // The next call starts a runner, which records the run the dead one left open.
    hookClient(cwd, bashCall(cwd, 'ls'), ['--policy', policy]);
    const calls = exportedAudit<{ kind: string; status?: string; error?: string }>(data).filter(
      (e) => e.kind === 'call',
    );
    expect(calls.map((c) => c.status)).toEqual(['Staged', 'Error']);
    expect(calls[1]?.error).toContain("Warden's runner stopped while the command ran");
  });
});

describe.skipIf(missing !== null)('the resident runner, connected', () => {
  let served: Served;
  let agent: string;
  let approver: string;
  const spawned: Spawned[] = [];
  beforeAll(async () => {
    const data = tempDir();
    const file = join(data, 'policy.yaml');
    writeFileSync(file, `${POLICY}  - { id: ask-delete, action: fileDelete, decision: prompt }\n`);
    expect(warden(['policy', 'apply', file, '--data', data]).code).toBe(0);
    agent = agentToken(data, 'coder-1');
    approver = cliToken(['--data', data, '--role', 'approver', '--name', 'bob']).token;
    served = await serve(['--data', data]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(spawned.map((s) => s.stop('SIGKILL')));
    await served.stop('SIGKILL');
  });

  it('asks the server with the token the client passed on, and runs the granted command through the runner', async () => {
    const cwd = worktree();
    const env = { WARDEN_TOKEN: agent };
    const denied = hookClient(
      cwd,
      bashCall(cwd, 'git push origin main'),
      ['--server', served.url],
      env,
    );
    expect(denied.answer.permissionDecisionReason).toContain('protect-main');
    const allowed = hookClient(
      cwd,
      bashCall(cwd, 'echo hi > a.txt'),
      ['--server', served.url],
      env,
    ).answer;
    expect(allowed.updatedInput?.command).toContain(`--server ${served.url}`);
    const ran = await run(cwd, allowed.updatedInput?.command ?? '', env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('hi\n');
    stopRunner(join(cwd, '.warden'));
  });

  it('the runner killed while a call waits for a human: the client denies, saying the runner did not answer', async () => {
    const cwd = worktree();
    const data = join(cwd, '.warden');
    const watcher = await approverWatching(served.url, approver, spawned);
    const client = spawn(
      '/bin/sh',
      [HOOK_CLIENT, process.execPath, 'claude-code', '--server', served.url],
      {
        cwd,
        env: { ...process.env, WARDEN_URL: '', WARDEN_TOKEN: agent, CLAUDE_PROJECT_DIR: cwd },
      },
    );
    let out = '';
    client.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    client.stdin.end(bashCall(cwd, 'rm -rf build'));
    await watcher.waitFor(/"event":"approval"/);
    process.kill(status(data).pid as number, 'SIGKILL');
    const code = await new Promise<number | null>((resolve) => client.on('exit', resolve));
    expect(code).toBe(0);
    const answer = (JSON.parse(out) as { hookSpecificOutput: Answer }).hookSpecificOutput;
    expect(answer.permissionDecision).toBe('deny');
    expect(answer.permissionDecisionReason).toContain("Warden's runner");
  });
});
