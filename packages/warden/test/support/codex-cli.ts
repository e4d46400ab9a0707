// Drives the real Codex CLI (`codex exec`) against the fake Responses API,
// isolated from the machine's own Codex setup (a fresh CODEX_HOME and HOME),
// with one `PreToolUse` command hook; returns what the model was sent back
// (the tool outputs), what the hook was asked and answered, and how the CLI
// exited. Codex's folders live under /var/tmp, not /tmp: with CODEX_HOME
// under /tmp, Codex 0.171.0 will not create its sandbox helper and every
// sandboxed command fails.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedResponse, ScriptedCodexCall, ToolOutput } from './fake-openai.js';
import { startFakeOpenAi } from './fake-openai.js';

export const CODEX_VERSION = '0.171.0';
/** Where the CLI is installed (`npm install @openai/codex@0.171.0` there). */
export const CODEX_PREFIX = `/tmp/codex-harness/${CODEX_VERSION}`;
/** Codex's own folders and the sessions' working folders: never under /tmp (see above). */
export const CODEX_SCRATCH = '/var/tmp';

function candidates(): string[] {
  if (process.env.CODEX_BIN !== undefined && process.env.CODEX_BIN !== '')
    return [process.env.CODEX_BIN];
  return [join(CODEX_PREFIX, 'node_modules', '.bin', 'codex')];
}

/** A fresh folder under /var/tmp. */
export function codexScratch(prefix = 'warden-codex-'): string {
  return mkdtempSync(join(CODEX_SCRATCH, prefix));
}

/** The runnable CLI and the version it reports, or why there is none. */
export function locateCodex(): { bin: string; version: string } | { missing: string } {
  for (const bin of candidates()) {
    if (!existsSync(bin)) continue;
    const home = codexScratch('warden-codex-version-');
    const ran = spawnSync(bin, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: home },
    });
    if (ran.status === 0) return { bin, version: ran.stdout.trim() };
    return { missing: `\`${bin} --version\` failed: ${ran.stderr.trim() || String(ran.error)}` };
  }
  return {
    missing: `no Codex CLI at ${candidates().join(', ')} (set CODEX_BIN, or install it with \`npm install @openai/codex@${CODEX_VERSION}\` in ${CODEX_PREFIX})`,
  };
}

/** One call of the hook, as the wrapper around it saw it. */
export interface HookCall {
  readonly stdin: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly exit: number | null;
  readonly ms: number;
}

export interface CodexRun {
  readonly exit: number | null;
  readonly toolOutputs: ToolOutput[];
  readonly hookCalls: HookCall[];
  /** `codex exec --json` events. */
  readonly events: Record<string, unknown>[];
  readonly stderr: string;
  readonly requests: readonly RecordedResponse[];
  /** The folder holding CODEX_HOME, HOME and the hook log. */
  readonly workdir: string;
}

export interface RunCodexOptions {
  readonly bin: string;
  readonly calls: readonly ScriptedCodexCall[];
  /** The hook's command line; Codex runs it with the session's cwd as its working folder. */
  readonly hook: readonly string[];
  /** The session's working folder (under /var/tmp). */
  readonly cwd: string;
  /** Added to the CLI's environment (the hook and the commands inherit it). */
  readonly env?: Record<string, string>;
  /** `-s`: `workspace-write` (default), `read-only` or `danger-full-access`. */
  readonly sandbox?: 'workspace-write' | 'read-only' | 'danger-full-access';
  readonly timeoutMs?: number;
}

/** Passes stdin, stdout, stderr and the exit code through, and appends one JSON line per call. */
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

function lines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Codex's configuration: the fake provider, no network lookups at start, and the hook. */
function config(url: string, hookCommand: string): string {
  const q = (s: string) => JSON.stringify(s);
  return `model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

[features]
apps = false
plugins = false
remote_plugin = false
plugin_sharing = false
tool_suggest = false
skill_search = false
daemon_auto_start = false

[model_providers.fake]
name = "fake"
base_url = ${q(url)}
env_key = "FAKE_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[[hooks.PreToolUse]]
[[hooks.PreToolUse.hooks]]
type = "command"
command = ${q(hookCommand)}
timeout = 60
`;
}

/**
 * One `codex exec` session, with an environment built from nothing (no real
 * `OPENAI_*` or proxy variables reach the CLI). `--dangerously-bypass-hook-trust`
 * makes Codex run the hook without the trust a user gives it.
 */
export async function runCodex(options: RunCodexOptions): Promise<CodexRun> {
  const workdir = codexScratch('warden-codex-run-');
  const home = join(workdir, 'home');
  const codexHome = join(workdir, 'codex-home');
  mkdirSync(home);
  mkdirSync(codexHome);
  const hookLog = join(workdir, 'hook-calls.jsonl');
  const argvFile = join(workdir, 'hook-argv.json');
  const wrapper = join(workdir, 'hook-wrapper.mjs');
  writeFileSync(argvFile, JSON.stringify(options.hook));
  writeFileSync(wrapper, WRAPPER);
  const fake = await startFakeOpenAi(options.calls);
  writeFileSync(
    join(codexHome, 'config.toml'),
    config(fake.url, [process.execPath, wrapper, hookLog, argvFile].map(quote).join(' ')),
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'dumb',
    LANG: process.env.LANG ?? 'C.UTF-8',
    HOME: home,
    CODEX_HOME: codexHome,
    FAKE_API_KEY: 'dummy',
    ...options.env,
  };
  const args = [
    'exec',
    '--json',
    '--strict-config',
    '--skip-git-repo-check',
    '-C',
    options.cwd,
    '-s',
    options.sandbox ?? 'workspace-write',
    '--dangerously-bypass-hook-trust',
    'do the task',
  ];
  try {
    const { exit, stdout, stderr } = await new Promise<{
      exit: number | null;
      stdout: string;
      stderr: string;
    }>((resolve, reject) => {
      // Its own process group, so a run past the deadline is ended with whatever it started.
      const child = spawn(options.bin, args, {
        cwd: options.cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const timer = setTimeout(() => {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        err += `\n[the CLI ran longer than ${options.timeoutMs ?? 90_000} ms and was killed]`;
      }, options.timeoutMs ?? 90_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ exit: code, stdout: out, stderr: err });
      });
    });
    const events: Record<string, unknown>[] = [];
    for (const line of stdout.split('\n'))
      try {
        if (line.trim() !== '') events.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // Not an event line.
      }
    return {
      exit,
      toolOutputs: fake.toolOutputs(),
      hookCalls: lines<HookCall>(hookLog),
      events,
      stderr,
      requests: fake.requests,
      workdir,
    };
  } finally {
    await fake.close();
  }
}

/** A readable account of a run, for assertion messages. */
export function describeCodexRun(run: CodexRun): string {
  return JSON.stringify(
    {
      exit: run.exit,
      toolOutputs: run.toolOutputs,
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
