// Drives the real Claude Code CLI (`claude -p`) against the fake Messages API,
// isolated from the machine's own Claude Code setup, with one `PreToolUse`
// command hook; returns what the agent saw (tool_results), what the hook was
// asked and answered (with how long it took), and how the CLI exited.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedCall, ToolResult } from './fake-anthropic.js';
import { startFakeAnthropic } from './fake-anthropic.js';
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

export const CLAUDE_CODE_VERSION = '2.1.197';
/** Where `.ci/run` installs the CLI (`npm install @anthropic-ai/claude-code@2.1.197` there). */
export const CLAUDE_CODE_PREFIX = harnessPrefix('claude-code-harness', CLAUDE_CODE_VERSION);

const CLAUDE_CODE: CliInstall = {
  name: 'Claude Code CLI',
  envVar: 'CLAUDE_BIN',
  pkg: '@anthropic-ai/claude-code',
  version: CLAUDE_CODE_VERSION,
  prefix: CLAUDE_CODE_PREFIX,
  // The CLI is a native binary in a platform package; the wrapper package only links it.
  bin: [
    'node_modules',
    '@anthropic-ai',
    `claude-code-${process.platform}-${process.arch}`,
    'claude',
  ],
};

/** The runnable CLI and the version it reports, or why there is none. */
export function locateClaude(): Located {
  return locateCli(CLAUDE_CODE);
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
  /** The hook's command as it is, without the wrapper that records its calls (for timing). */
  readonly rawHook?: boolean;
  readonly calls: readonly ScriptedCall[];
  /** The hook's command line; it runs with the session's cwd as its working folder (none: no hook). */
  readonly hook: readonly string[];
  readonly cwd: string;
  /** Added to the CLI's environment (the hook and the Bash tool inherit it). */
  readonly env?: Record<string, string>;
  readonly permissionMode?: 'default' | 'acceptEdits' | 'bypassPermissions' | 'dontAsk';
  /** Instead of the command hook: an `http` hook posting to this URL (Claude Code's own kind). */
  readonly httpHook?: string;
  readonly timeoutMs?: number;
  /** Also send completions to the hook: `PostToolUse` and `PostToolUseFailure`. */
  readonly completions?: boolean;
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
  const hook = wrapHook(workdir, options.hook, options.rawHook === true);
  const settings = join(workdir, 'settings.json');
  const group = [
    {
      matcher: '*',
      hooks: [
        options.httpHook === undefined
          ? { type: 'command', command: hook.command, timeout: 60 }
          : { type: 'http', url: options.httpHook, timeout: 10 },
      ],
    },
  ];
  // No hook at all where none is given (a session without Warden, for comparison).
  writeFileSync(
    settings,
    JSON.stringify(
      options.hook.length === 0 && options.httpHook === undefined
        ? {}
        : {
            hooks: {
              PreToolUse: group,
              ...(options.completions === true
                ? { PostToolUse: group, PostToolUseFailure: group }
                : {}),
            },
          },
    ),
  );

  const fake = await startFakeAnthropic(options.calls);
  const env: Record<string, string> = {
    ...cleanEnv(home),
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
    const { exit, stdout, stderr } = await runCli(options.bin, args, {
      cwd: options.cwd,
      env,
      timeoutMs: options.timeoutMs ?? 60_000,
    });
    return {
      exit,
      toolResults: fake.toolResults(),
      hookCalls: hook.calls(),
      output: jsonOutput(stdout),
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
  return describeAgentRun(run, { toolResults: run.toolResults });
}
