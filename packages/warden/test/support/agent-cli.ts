// What the end-to-end suites of the agent CLIs (Claude Code, Codex, Gemini CLI)
// share: finding the CLI an npm install put under /tmp/<name>-harness/<version>
// (or the one an environment variable names), requiring it under CI and
// skipping with the reason elsewhere, the wrapper that records every call of
// the hook, and running the CLI in its own process group with a deadline.
// Each runtime's own file keeps its settings, arguments and fake model API.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UNDER_CI } from './backends.js';

/** The runnable CLI and the version it reports, or why there is none. */
export type Located = { bin: string; version: string } | { missing: string };

export interface CliInstall {
  /** The CLI's name in messages: `Claude Code CLI`, `Codex CLI`, `Gemini CLI`. */
  readonly name: string;
  /** The environment variable that names a CLI to use instead (`CLAUDE_BIN`). */
  readonly envVar: string;
  /** The npm package (`@openai/codex`) and its version. */
  readonly pkg: string;
  readonly version: string;
  /** Where it is installed: `npm install <pkg>@<version>` there. */
  readonly prefix: string;
  /** The executable's path under `prefix`. */
  readonly bin: readonly string[];
  /** Extra flags in the install hint (`--no-audit --no-fund`). */
  readonly npmFlags?: string;
}

/** `/tmp/<harness>/<version>`, where CI installs an agent CLI. */
export const harnessPrefix = (harness: string, version: string) => `/tmp/${harness}/${version}`;

/** The CLI to run: the one `envVar` names, else the installed one. */
export function cliCandidate(install: CliInstall): string {
  const given = process.env[install.envVar];
  if (given !== undefined && given !== '') return given;
  return join(install.prefix, ...install.bin);
}

/**
 * Finds the CLI and asks it `--version` (with `env` and `timeoutMs`); `version`
 * picks the version out of what it printed (default: the whole output, trimmed).
 */
export function locateCli(
  install: CliInstall,
  check: {
    /** The environment for `--version`, made only once the CLI is found. */
    readonly env?: () => NodeJS.ProcessEnv;
    readonly timeoutMs?: number;
    readonly version?: (stdout: string) => string;
  } = {},
): Located {
  const bin = cliCandidate(install);
  if (!existsSync(bin))
    return {
      missing: `no ${install.name} at ${bin} (set ${install.envVar}, or install it with \`npm install ${install.npmFlags === undefined ? '' : `${install.npmFlags} `}${install.pkg}@${install.version}\` in ${install.prefix})`,
    };
  const ran = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: check.timeoutMs ?? 30_000,
    ...(check.env === undefined ? {} : { env: check.env() }),
  });
  if (ran.status === 0)
    return { bin, version: (check.version ?? ((out: string) => out.trim()))(ran.stdout) };
  return { missing: `\`${bin} --version\` failed: ${ran.stderr.trim() || String(ran.error)}` };
}

/**
 * Why the CLI's tests skip, or null when it was found. Under CI a missing CLI
 * is an error, not a skip; elsewhere the reason is printed.
 */
export function requireCli(located: Located, name: string): string | null {
  const missing = 'missing' in located ? located.missing : null;
  if (missing !== null && UNDER_CI) throw new Error(`under CI the ${name} is required: ${missing}`);
  if (missing !== null) console.warn(`[skip] the ${name} tests: ${missing}`);
  return missing;
}

/** One call of the hook, as the wrapper around it saw it. */
export interface HookCall {
  readonly stdin: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly exit: number | null;
  /** Wall time from starting the hook process to its exit. */
  readonly ms: number;
}

/** The calls of one hook event (`PreToolUse`, `PostToolUse`, `AfterTool`, …), by their input. */
export function forEvent(calls: readonly HookCall[], event: string): HookCall[] {
  return calls.filter((call) => {
    try {
      return (JSON.parse(call.stdin) as { hook_event_name?: unknown }).hook_event_name === event;
    } catch {
      return false;
    }
  });
}

/**
 * Passes stdin, stdout, stderr and the exit code through to and from the hook
 * and appends one JSON line per call; a fault of its own exits 2 with the
 * reason on stderr, which Claude Code, Codex and Gemini CLI all read as a
 * deny (any other failure lets Claude Code and Gemini CLI run the call).
 */
const WRAPPER = `import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
const [log, argvFile] = process.argv.slice(2);
const argv = JSON.parse(readFileSync(argvFile, 'utf8'));
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const stdin = Buffer.concat(chunks).toString('utf8');
const started = process.hrtime.bigint();
const child = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
let stdout = '';
let stderr = '';
child.stdout.on('data', (c) => (stdout += c));
child.stderr.on('data', (c) => (stderr += c));
child.on('error', (e) => { process.stderr.write('hook wrapper: ' + e.message); process.exit(2); });
child.on('close', (exit) => {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  appendFileSync(log, JSON.stringify({ stdin, stdout, stderr, exit, ms }) + '\\n');
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = exit ?? 2;
});
child.stdin.end(stdin);
`;

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** The recording wrapper around `hook`, written into `workdir`. */
export interface WrappedHook {
  /** The shell command line to give the CLI as the hook's `command`. */
  readonly command: string;
  /** The calls recorded so far. */
  calls(): HookCall[];
}

export function wrapHook(workdir: string, hook: readonly string[], raw = false): WrappedHook {
  // Raw: the command as it is, recording nothing (for timing the hook as the CLI runs it).
  if (raw) return { command: hook.map(quote).join(' '), calls: () => [] };
  const log = join(workdir, 'hook-calls.jsonl');
  const argvFile = join(workdir, 'hook-argv.json');
  const wrapper = join(workdir, 'hook-wrapper.mjs');
  writeFileSync(argvFile, JSON.stringify(hook));
  writeFileSync(wrapper, WRAPPER);
  return {
    command: [process.execPath, wrapper, log, argvFile].map(quote).join(' '),
    calls: () => {
      if (!existsSync(log)) return [];
      return readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as HookCall);
    },
  };
}

/** An environment built from nothing: no real API keys or proxy variables reach the CLI. */
export function cleanEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'dumb',
    LANG: process.env.LANG ?? 'C.UTF-8',
    HOME: home,
  };
}

export interface Ran {
  readonly exit: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the CLI with stdin closed and collects its output. It gets its own
 * process group, so a run past the deadline is ended with whatever it started.
 */
export function runCli(
  bin: string,
  args: readonly string[],
  options: {
    readonly cwd: string;
    readonly env: Record<string, string>;
    readonly timeoutMs: number;
  },
): Promise<Ran> {
  return new Promise<Ran>((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      err += `\n[the CLI ran longer than ${options.timeoutMs} ms and was killed]`;
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exit: code, stdout: out, stderr: err });
    });
  });
}

/** Stdout as one JSON object, or null when the CLI printed none. */
export function jsonOutput(stdout: string): Record<string, unknown> | null {
  try {
    return JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** What every run reports, whatever the CLI. */
export interface AgentRun {
  readonly exit: number | null;
  readonly hookCalls: readonly HookCall[];
  readonly stderr: string;
  readonly requests: readonly { method: string; path: string; reply: string }[];
  readonly workdir: string;
}

/**
 * A readable account of a run, for assertion messages: `results` is what the
 * CLI sent back to the model, under its runtime's name (`toolResults`).
 */
export function describeAgentRun(run: AgentRun, results: Record<string, unknown>): string {
  return JSON.stringify(
    {
      exit: run.exit,
      ...results,
      hookCalls: run.hookCalls.map(({ stdout, stderr, exit, ms }) => ({
        stdout,
        stderr,
        exit,
        ms,
      })),
      requests: run.requests.map((r) => `${r.method} ${r.path} => ${r.reply}`),
      stderr: run.stderr.slice(-2000),
      workdir: run.workdir,
    },
    null,
    2,
  );
}
