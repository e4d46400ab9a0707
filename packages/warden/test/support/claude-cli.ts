// Drives the real Claude Code CLI (`claude -p`) against the fake Messages API,
// isolated from the machine's own Claude Code setup, with one `PreToolUse`
// command hook; returns what the agent saw (tool_results), what the hook was
// asked and answered (with how long it took), and how the CLI exited.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedCall, ToolResult } from './fake-anthropic.js';
import { startFakeAnthropic } from './fake-anthropic.js';

export const CLAUDE_CODE_VERSION = '2.1.197';
/** Where `.ci/run` installs the CLI (`npm install @anthropic-ai/claude-code@2.1.197` there). */
export const CLAUDE_CODE_PREFIX = `/tmp/claude-code-harness/${CLAUDE_CODE_VERSION}`;

/** The CLI is a native binary in a platform package; the wrapper package only links it. */
function candidates(): string[] {
  if (process.env.CLAUDE_BIN !== undefined && process.env.CLAUDE_BIN !== '')
    return [process.env.CLAUDE_BIN];
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  return [
    join(
      CLAUDE_CODE_PREFIX,
      'node_modules',
      '@anthropic-ai',
      `claude-code-${process.platform}-${arch}`,
      'claude',
    ),
  ];
}

/** The runnable CLI and the version it reports, or why there is none. */
export function locateClaude(): { bin: string; version: string } | { missing: string } {
  for (const bin of candidates()) {
    if (!existsSync(bin)) continue;
    const ran = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (ran.status === 0) return { bin, version: ran.stdout.trim() };
    return { missing: `\`${bin} --version\` failed: ${ran.stderr.trim() || String(ran.error)}` };
  }
  return {
    missing: `no Claude Code CLI at ${candidates().join(', ')} (set CLAUDE_BIN, or install it with \`npm install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}\` in ${CLAUDE_CODE_PREFIX})`,
  };
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

export interface ClaudeRun {
  readonly exit: number | null;
  readonly toolResults: ToolResult[];
  readonly hookCalls: HookCall[];
  /** `--output-format json`'s result object, or null when the CLI printed none. */
  readonly output: Record<string, unknown> | null;
  readonly stderr: string;
  readonly requests: readonly RecordedRequest[];
  /** The folder holding the settings, the home, the hook log and the debug log. */
  readonly workdir: string;
}

export interface RunOptions {
  readonly bin: string;
  readonly calls: readonly ScriptedCall[];
  /** The hook's command line; it runs with the session's cwd as its working folder. */
  readonly hook: readonly string[];
  readonly cwd: string;
  /** Added to the CLI's environment (the hook and the Bash tool inherit it). */
  readonly env?: Record<string, string>;
  readonly permissionMode?: 'default' | 'acceptEdits' | 'bypassPermissions';
  readonly timeoutMs?: number;
}

/**
 * Passes stdin, stdout, stderr and the exit code through to and from the hook
 * and appends one JSON line per call; a fault of its own exits 2 (a deny), as
 * Claude Code lets a call through on any other failure.
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

function lines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/**
 * One `claude -p` session. Isolation: an environment built from nothing (no
 * real `ANTHROPIC_*` or proxy variables reach the CLI), a fresh HOME, and
 * `--setting-sources user` so neither user nor project settings load; only the
 * `--settings` file with the hook applies.
 */
export async function runClaude(options: RunOptions): Promise<ClaudeRun> {
  const workdir = mkdtempSync(join(tmpdir(), 'warden-cc-'));
  const home = join(workdir, 'home');
  mkdirSync(home);
  const hookLog = join(workdir, 'hook-calls.jsonl');
  const argvFile = join(workdir, 'hook-argv.json');
  const wrapper = join(workdir, 'hook-wrapper.mjs');
  writeFileSync(argvFile, JSON.stringify(options.hook));
  writeFileSync(wrapper, WRAPPER);
  const settings = join(workdir, 'settings.json');
  const command = [process.execPath, wrapper, hookLog, argvFile].map(quote).join(' ');
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 60 }] }] },
    }),
  );

  const fake = await startFakeAnthropic(options.calls);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'dumb',
    LANG: process.env.LANG ?? 'C.UTF-8',
    HOME: home,
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // As root, Claude Code refuses `bypassPermissions` unless told it runs in a sandbox.
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
    ...options.env,
  };
  const args = [
    '-p',
    'do the task',
    '--settings',
    settings,
    '--setting-sources',
    'user',
    '--permission-mode',
    options.permissionMode ?? 'bypassPermissions',
    '--model',
    'claude-sonnet-4-5',
    '--output-format',
    'json',
    '--debug-file',
    join(workdir, 'debug.log'),
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
        err += `\n[the CLI ran longer than ${options.timeoutMs ?? 60_000} ms and was killed]`;
      }, options.timeoutMs ?? 60_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ exit: code, stdout: out, stderr: err });
      });
    });
    let output: Record<string, unknown> | null = null;
    try {
      output = JSON.parse(stdout) as Record<string, unknown>;
    } catch {
      output = null;
    }
    return {
      exit,
      toolResults: fake.toolResults(),
      hookCalls: lines<HookCall>(hookLog),
      output,
      stderr,
      requests: fake.requests,
      workdir,
    };
  } finally {
    await fake.close();
  }
}

/** A readable account of a run, for assertion messages. */
export function describeRun(run: ClaudeRun): string {
  return JSON.stringify(
    {
      exit: run.exit,
      toolResults: run.toolResults,
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
