// Drives the real Gemini CLI (`gemini -p`) against the fake Gemini API,
// isolated from the machine's own Gemini CLI setup, with one `BeforeTool`
// command hook; returns what the model was sent back (functionResponses),
// what the hook was asked and answered (with how long it took), and how the
// CLI exited.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FunctionResponse, RecordedRequest, ScriptedCall } from './fake-gemini.js';
import { startFakeGemini } from './fake-gemini.js';
import type { CliInstall, HookCall, Located } from './agent-cli.js';
import {
  cleanEnv,
  describeAgentRun,
  harnessPrefix,
  jsonOutput,
  locateCli,
  runCli,
  wrapHook,
} from './agent-cli.js';

export const GEMINI_CLI_VERSION = '0.61.0';
/** Where the CLI is installed (`npm install @google/gemini-cli@0.61.0` there). */
export const GEMINI_CLI_PREFIX = harnessPrefix('gemini-harness', GEMINI_CLI_VERSION);

const GEMINI_CLI: CliInstall = {
  name: 'Gemini CLI',
  envVar: 'GEMINI_BIN',
  pkg: '@google/gemini-cli',
  version: GEMINI_CLI_VERSION,
  prefix: GEMINI_CLI_PREFIX,
  bin: ['node_modules', '.bin', 'gemini'],
  npmFlags: '--no-audit --no-fund',
};

/** The runnable CLI and the version it reports, or why there is none. */
export function locateGemini(): Located {
  return locateCli(GEMINI_CLI, {
    // A scratch HOME: `--version` must not read or write the machine's own settings.
    env: () => {
      const home = mkdtempSync(join(tmpdir(), 'warden-gemini-version-'));
      return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'dumb' };
    },
    timeoutMs: 60_000,
    version: (stdout) => stdout.trim().split('\n').at(-1) ?? '',
  });
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
  /** The hook's command as it is, without the wrapper that records its calls (for timing). */
  readonly rawHook?: boolean;
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
  /** Also send completions to the hook (`AfterTool`). */
  readonly completions?: boolean;
  /**
   * The events the hook is written for (default `BeforeTool`, and `AfterTool`
   * with `completions`); none leaves the hook out, for a test that installs its own.
   */
  readonly events?: readonly string[];
  /** Settings merged over the top level of the written settings (e.g. `security`). */
  readonly settings?: Record<string, unknown>;
  /** Called once the settings are written and before the CLI starts, with its home and environment. */
  readonly beforeRun?: (setup: {
    readonly home: string;
    readonly env: Record<string, string>;
  }) => void;
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
  const hook = wrapHook(workdir, options.hook, options.rawHook === true);
  const group = [
    {
      matcher: '.*',
      hooks: [
        {
          name: 'warden',
          type: 'command',
          command: hook.command,
          timeout: options.hookTimeoutMs ?? 60_000,
        },
      ],
    },
  ];
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
      hooks: Object.fromEntries(
        (
          options.events ??
          (options.completions === true ? ['BeforeTool', 'AfterTool'] : ['BeforeTool'])
        ).map((event) => [event, group]),
      ),
      ...(options.mcpServers === undefined ? {} : { mcpServers: options.mcpServers }),
      ...options.settings,
    }),
  );

  const fake = await startFakeGemini(options.calls);
  const env: Record<string, string> = {
    ...cleanEnv(home),
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
    options.beforeRun?.({ home, env });
    const { exit, stdout, stderr } = await runCli(options.bin, args, {
      cwd: options.cwd,
      env,
      timeoutMs: limit,
    });
    return {
      exit,
      functionResponses: fake.functionResponses(),
      hookCalls: hook.calls(),
      output: jsonOutput(stdout),
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
  return describeAgentRun(run, { functionResponses: run.functionResponses });
}
