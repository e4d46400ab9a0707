// Checks of each path by which Warden starts processes under the sandbox (G2,
// G37), for `warden doctor`: a backend on the PATH says nothing about whether
// a command started through the hook, `warden exec` or the gateway is really
// confined, so each path runs the same command for real — it writes a file in
// its worktree and tries one beside it — and passes only if the first write
// landed and the second did not.

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProbePath, ProbeResult } from './columns.js';
import { PROBE_PATHS } from './columns.js';
import type { HostFacts } from './host.js';
import { detectHost, missingBackend, sandboxBackend } from './host.js';

/**
 * The command every path runs: one write inside its worktree, one beside it
 * (whose refusal is kept off the doctor's own standard error).
 */
export const PROBE_COMMAND = 'echo in > inside; { echo out > ../outside; } 2>/dev/null';

/** The policy the checks are decided by: the gate allows both writes, so only the sandbox can refuse one. */
const PROBE_POLICY = {
  version: 1,
  workspace: 'warden-doctor',
  rules: [
    { id: 'doctor-spawn', action: 'processSpawn', decision: 'allow' },
    { id: 'doctor-outside', action: 'fileWriteOutsideWorktree', decision: 'allow' },
  ],
};

/** A check that hangs is a failed check. */
const PROBE_TIMEOUT_MS = 30_000;

export interface ProbeOptions {
  /** The host the checks run on (default: this one, read from `env`'s PATH). */
  readonly host?: HostFacts;
  /** The environment the started processes get (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
}

interface Exited {
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs a program to its end, standard error kept; killed at the deadline. */
function runToEnd(
  file: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Exited> {
  return new Promise((resolve) => {
    const child = spawn(file, [...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4096);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** A folder `worktree` with nothing beside it, for one path. */
async function area(scratch: string, path: ProbePath): Promise<string> {
  const worktree = join(scratch, path, 'worktree');
  await mkdir(worktree, { recursive: true });
  return worktree;
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The last line of standard error that says something, for a failed check's reason. */
function lastLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/Read-only file system|a write was refused/.test(l));
  return lines.at(-1)?.slice(0, 300) ?? '';
}

/** Whether the command ran confined in `worktree`: written inside, refused beside. */
async function judge(
  path: ProbePath,
  worktree: string,
  exited: Exited,
  ok: string,
): Promise<ProbeResult> {
  const inside = (await readFile(join(worktree, 'inside'), 'utf8').catch(() => null)) === 'in\n';
  const outside = await exists(join(worktree, '..', 'outside'));
  if (inside && !outside) return { path, status: 'ok', detail: ok };
  const said = lastLine(exited.stderr);
  const what = outside
    ? 'the write beside the worktree was not refused'
    : 'the command did not write inside its worktree';
  return {
    path,
    status: 'failed',
    detail: `${what} (exit ${String(exited.code)})${said === '' ? '' : `: ${said}`}`,
  };
}

function failed(path: ProbePath, error: unknown): ProbeResult {
  return {
    path,
    status: 'failed',
    detail: error instanceof Error ? error.message : String(error),
  };
}

/**
 * `warden exec --policy … --data … --worktree … -- <command>`, run in this
 * process (the hook's check starts it as a program). It resets the sandbox
 * runtime when it ends, so it runs alone among the in-process checks.
 */
async function probeExec(scratch: string, policy: string, env: NodeJS.ProcessEnv) {
  const worktree = await area(scratch, 'exec');
  const { runExec } = await import('../sandbox/exec.js');
  let said = '';
  const code = await runExec(
    {
      out: () => undefined,
      err: (text) => {
        said += text;
      },
      env,
    },
    [PROBE_COMMAND],
    { policy, data: join(scratch, 'exec', 'data'), worktree },
  );
  const exited: Exited = { code, stderr: said };
  return judge(
    'exec',
    worktree,
    exited,
    '`warden exec` ran a command that wrote inside its worktree and was refused a write beside it',
  );
}

/**
 * The hook answers a `Bash` call (standalone, `--sandbox required`); the
 * command it rewrote the call to is run with bash, as Claude Code would.
 */
async function probeHook(scratch: string, policy: string, env: NodeJS.ProcessEnv) {
  const worktree = await area(scratch, 'hook');
  const { answerHook } = await import('../hook/run.js');
  const input = {
    session_id: 'warden-doctor',
    hook_event_name: 'PreToolUse',
    cwd: worktree,
    tool_name: 'Bash',
    tool_input: { command: PROBE_COMMAND },
  };
  const answer = await answerHook(
    { stdin: () => Promise.resolve(JSON.stringify(input)), out: () => undefined, env },
    { policy, data: join(scratch, 'hook', 'data'), sandbox: 'required', worktree },
  );
  if (!('hookSpecificOutput' in answer))
    return failed('hook', 'the hook answered a `PreToolUse` call as a completion');
  const output = answer.hookSpecificOutput;
  const command = output.updatedInput?.['command'];
  if (output.permissionDecision !== 'allow' || typeof command !== 'string')
    return failed(
      'hook',
      `the hook did not answer with a command rewritten to run sandboxed: ${output.permissionDecisionReason}`,
    );
  const exited = await runToEnd('bash', ['-c', command], worktree, env);
  return judge(
    'hook',
    worktree,
    exited,
    'an allowed `Bash` call was answered with its command rewritten to `warden exec --grant …`, which wrote inside its worktree and was refused a write beside it',
  );
}

/** A stdio server started the way the gateway starts one, writable only in its worktree. */
async function probeGateway(scratch: string, host: HostFacts, env: NodeJS.ProcessEnv) {
  const worktree = await area(scratch, 'gateway');
  const { planSandboxes, serverProcess } = await import('../gateway/sandbox.js');
  const entry = {
    name: 'doctor',
    kind: 'stdio' as const,
    command: '/bin/sh',
    args: ['-c', PROBE_COMMAND],
    sandbox: { write: [worktree], hosts: [] },
  };
  const planned = await planSandboxes(
    {
      agent: 'warden-doctor',
      workspace: PROBE_POLICY.workspace,
      sandbox: 'required',
      allowHosts: [],
      servers: [entry],
      tools: [],
    },
    host,
  );
  if (!planned.ok) return failed('gateway', planned.problems.join('; '));
  const started = await serverProcess(entry, planned.plans.get(entry.name));
  if (started.launch === null)
    return failed('gateway', 'the gateway would start its stdio server without the sandbox');
  let exited: Exited;
  try {
    exited = await runToEnd(started.command, started.args, worktree, env);
  } finally {
    started.launch.release();
  }
  return judge(
    'gateway',
    worktree,
    exited,
    "a stdio server started through the gateway's sandboxed launch wrote inside its writable folder and was refused a write beside it",
  );
}

/** `run_command`'s check: one command under the runtime, as the built-in tool starts it. */
async function probeRunCommand(host: HostFacts): Promise<ProbeResult> {
  const { probeSandbox } = await import('../sandbox/runtime.js');
  const probe = await probeSandbox(host);
  return { path: 'run_command', status: probe.ok ? 'ok' : 'failed', detail: probe.detail };
}

/**
 * Runs every path's check; the results are in `PROBE_PATHS` order. On a host
 * without a backend none runs: each is `skipped`, saying what is missing. The
 * hook's, which starts `warden exec` as a program, runs beside the others,
 * which share this process's sandbox runtime and so run one after another.
 */
export async function probePaths(options: ProbeOptions = {}): Promise<ProbeResult[]> {
  const env = options.env ?? process.env;
  const host = options.host ?? detectHost({ env });
  if (sandboxBackend(host) === null) {
    const detail = `no sandbox backend on this host (${missingBackend(host)})`;
    return PROBE_PATHS.map((path) => ({ path, status: 'skipped', detail }));
  }
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'warden-doctor-')));
  const { closeSandbox } = await import('../sandbox/runtime.js');
  try {
    const policy = join(scratch, 'policy.json');
    await writeFile(policy, JSON.stringify(PROBE_POLICY));
    const catching = (path: ProbePath, run: Promise<ProbeResult>) =>
      run.catch((error: unknown) => failed(path, error));
    const hook = catching('hook', probeHook(scratch, policy, env));
    const gateway = await catching('gateway', probeGateway(scratch, host, env));
    const runCommand = await catching('run_command', probeRunCommand(host));
    const exec = await catching('exec', probeExec(scratch, policy, env));
    const results: Record<ProbePath, ProbeResult> = {
      run_command: runCommand,
      hook: await hook,
      exec,
      gateway,
    };
    return PROBE_PATHS.map((path) => results[path]);
  } finally {
    await closeSandbox();
    await rm(scratch, { recursive: true, force: true });
  }
}
