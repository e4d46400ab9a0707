// Drives the real Gemini CLI (`gemini -p`) against the fake Gemini API,
// isolated from the machine's own Gemini CLI setup, with one `BeforeTool`
// command hook; returns what the model was sent back (functionResponses),
// what the hook was asked and answered (with how long it took), and how the
// CLI exited.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FunctionResponse, RecordedRequest, ScriptedCall } from './fake-gemini.js';
import { startFakeGemini } from './fake-gemini.js';

export const GEMINI_CLI_VERSION = '0.61.0';
/** Where the CLI is installed (`npm install @google/gemini-cli@0.61.0` there). */
export const GEMINI_CLI_PREFIX = `/tmp/gemini-harness/${GEMINI_CLI_VERSION}`;

function candidate(): string {
  const given = process.env.GEMINI_BIN;
  if (given !== undefined && given !== '') return given;
  return join(GEMINI_CLI_PREFIX, 'node_modules', '.bin', 'gemini');
}

/** The runnable CLI and the version it reports, or why there is none. */
export function locateGemini(): { bin: string; version: string } | { missing: string } {
  const bin = candidate();
  if (!existsSync(bin))
    return {
      missing: `no Gemini CLI at ${bin} (set GEMINI_BIN, or install it with \`npm install --no-audit --no-fund @google/gemini-cli@${GEMINI_CLI_VERSION}\` in ${GEMINI_CLI_PREFIX})`,
    };
  // A scratch HOME: `--version` must not read or write the machine's own settings.
  const home = mkdtempSync(join(tmpdir(), 'warden-gemini-version-'));
  const ran = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'dumb' },
  });
  if (ran.status === 0) return { bin, version: ran.stdout.trim().split('\n').at(-1) ?? '' };
  return { missing: `\`${bin} --version\` failed: ${ran.stderr.trim() || String(ran.error)}` };
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

export interface GeminiRun {
  readonly exit: number | null;
  readonly functionResponses: FunctionResponse[];
  readonly hookCalls: HookCall[];
  /** `-o json`'s result object, or null when the CLI printed none. */
  readonly output: Record<string, unknown> | null;
  readonly stderr: string;
  readonly requests: readonly RecordedRequest[];
  /** The tools Gemini CLI offered the model. */
  readonly offered: readonly string[];
  /** The folder holding the home (with the settings), the hook log and its wrapper. */
  readonly workdir: string;
}

export interface RunOptions {
  readonly bin: string;
  readonly calls: readonly ScriptedCall[];
  /** The hook's command line; it runs with the session's cwd as its working folder. */
  readonly hook: readonly string[];
  readonly cwd: string;
  /** Added to the CLI's environment (the hook and the shell tool inherit it). */
  readonly env?: Record<string, string>;
  /** Folders Gemini CLI lets its file tools reach besides `cwd` (`--include-directories`). */
  readonly include?: readonly string[];
  /** MCP servers Gemini CLI starts itself (`mcpServers` in its settings). */
  readonly mcpServers?: Record<string, { command: string; args: readonly string[] }>;
  /** The hook entry's `timeout`, in milliseconds as Gemini CLI reads it (default 60 000). */
  readonly hookTimeoutMs?: number;
  readonly timeoutMs?: number;
}

/**
 * Passes stdin, stdout, stderr and the exit code through to and from the hook
 * and appends one JSON line per call; a fault of its own exits 2 with the
 * reason on stderr, which Gemini CLI reads as a deny.
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
 * One `gemini -p` session in `--approval-mode yolo` (in `-p` mode the other
 * modes do not even offer the shell tool, so only the hook stands between the
 * model and the tools). Isolation: an environment built from nothing, a fresh
 * HOME holding the only settings file (user settings), and the system
 * settings pointed at files that do not exist.
 */
export async function runGemini(options: RunOptions): Promise<GeminiRun> {
  const workdir = mkdtempSync(join(tmpdir(), 'warden-gemini-'));
  const home = join(workdir, 'home');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  const hookLog = join(workdir, 'hook-calls.jsonl');
  const argvFile = join(workdir, 'hook-argv.json');
  const wrapper = join(workdir, 'hook-wrapper.mjs');
  writeFileSync(argvFile, JSON.stringify(options.hook));
  writeFileSync(wrapper, WRAPPER);
  const command = [process.execPath, wrapper, hookLog, argvFile].map(quote).join(' ');
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: {
        auth: { selectedType: 'gemini-api-key' },
        folderTrust: { enabled: false },
      },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      hooks: {
        BeforeTool: [
          {
            matcher: '.*',
            hooks: [
              {
                name: 'warden',
                type: 'command',
                command,
                timeout: options.hookTimeoutMs ?? 60_000,
              },
            ],
          },
        ],
      },
      ...(options.mcpServers === undefined ? {} : { mcpServers: options.mcpServers }),
    }),
  );

  const fake = await startFakeGemini(options.calls);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TERM: 'dumb',
    LANG: process.env.LANG ?? 'C.UTF-8',
    HOME: home,
    GEMINI_API_KEY: 'dummy',
    GOOGLE_GEMINI_BASE_URL: fake.url,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(workdir, 'no-system-settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(workdir, 'no-system-defaults.json'),
    ...options.env,
  };
  const args = [
    '-p',
    'do the task',
    '-o',
    'json',
    '-m',
    'gemini-2.5-flash',
    '--approval-mode',
    'yolo',
    ...(options.include ?? []).flatMap((dir) => ['--include-directories', dir]),
  ];
  const limit = options.timeoutMs ?? 90_000;
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
        err += `\n[the CLI ran longer than ${limit} ms and was killed]`;
      }, limit);
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
      functionResponses: fake.functionResponses(),
      hookCalls: lines<HookCall>(hookLog),
      output,
      stderr,
      requests: fake.requests,
      offered: fake.offeredTools(),
      workdir,
    };
  } finally {
    await fake.close();
  }
}

/** A readable account of a run, for assertion messages. */
export function describeRun(run: GeminiRun): string {
  return JSON.stringify(
    {
      exit: run.exit,
      functionResponses: run.functionResponses,
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
