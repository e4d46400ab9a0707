// Drives the real Codex CLI (`codex exec`) against the fake Responses API,
// isolated from the machine's own Codex setup (a fresh CODEX_HOME and HOME),
// with one `PreToolUse` command hook; returns what the model was sent back
// (the tool outputs), what the hook was asked and answered, and how the CLI
// exited. Codex's folders live under /var/tmp, not /tmp: with CODEX_HOME
// under /tmp, Codex 0.171.0 will not create its sandbox helper and every
// sandboxed command fails.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedResponse, ScriptedCodexCall, ToolOutput } from './fake-openai.js';
import { startFakeOpenAi } from './fake-openai.js';
import { HOST_TMP } from './backends.js';
import type { CliInstall, HookCall, Located } from './agent-cli.js';
import {
  cleanEnv,
  describeAgentRun,
  harnessPrefix,
  locateCli,
  runCli,
  wrapHook,
} from './agent-cli.js';

export const CODEX_VERSION = '0.171.0';
/** Where the CLI is installed (`npm install @openai/codex@0.171.0` there). */
export const CODEX_PREFIX = harnessPrefix('codex-harness', CODEX_VERSION);
/** Codex's own folders and the sessions' working folders: never under /tmp (see above). */
export const CODEX_SCRATCH = HOST_TMP;

const CODEX: CliInstall = {
  name: 'Codex CLI',
  envVar: 'CODEX_BIN',
  pkg: '@openai/codex',
  version: CODEX_VERSION,
  prefix: CODEX_PREFIX,
  bin: ['node_modules', '.bin', 'codex'],
};

/** A fresh folder under /var/tmp (the test run's own folder there). */
export function codexScratch(prefix = 'warden-codex-'): string {
  return mkdtempSync(join(CODEX_SCRATCH, prefix));
}

/** The runnable CLI and the version it reports, or why there is none. */
export function locateCodex(): Located {
  return locateCli(CODEX, {
    env: () => {
      const home = codexScratch('warden-codex-version-');
      return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: home };
    },
  });
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
  /** The hook's command as it is, without the wrapper that records its calls (for timing). */
  readonly rawHook?: boolean;
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
  /** Also send completions to the hook (`PostToolUse`). */
  readonly completions?: boolean;
  /**
   * The events the hook is written for (default `PreToolUse`, and `PostToolUse`
   * with `completions`); none leaves the hook out, for a test that installs its own.
   */
  readonly events?: readonly string[];
  /**
   * Whether to pass `--dangerously-bypass-hook-trust` (default true). Without it
   * Codex runs only the hooks its config trusts.
   */
  readonly trustBypass?: boolean;
  /** Called once the config is written and before Codex starts, with Codex's folders and environment. */
  readonly beforeRun?: (setup: {
    readonly codexHome: string;
    readonly home: string;
    readonly env: Record<string, string>;
  }) => void;
}

/** Codex's configuration: the fake provider, no network lookups at start, and the hook. */
function config(url: string, hookCommand: string, events: readonly string[]): string {
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
${events
  .map(
    (event) => `
[[hooks.${event}]]
[[hooks.${event}.hooks]]
type = "command"
command = ${q(hookCommand)}
timeout = 60
`,
  )
  .join('')}`;
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
  const hook = wrapHook(workdir, options.hook, options.rawHook === true);
  const fake = await startFakeOpenAi(options.calls);
  writeFileSync(
    join(codexHome, 'config.toml'),
    config(
      fake.url,
      hook.command,
      options.events ??
        (options.completions === true ? ['PreToolUse', 'PostToolUse'] : ['PreToolUse']),
    ),
  );
  const env: Record<string, string> = {
    ...cleanEnv(home),
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
    ...(options.trustBypass === false ? [] : ['--dangerously-bypass-hook-trust']),
    'do the task',
  ];
  try {
    options.beforeRun?.({ codexHome, home, env });
    const { exit, stdout, stderr } = await runCli(options.bin, args, {
      cwd: options.cwd,
      env,
      timeoutMs: options.timeoutMs ?? 90_000,
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
      hookCalls: hook.calls(),
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
  return describeAgentRun(run, { toolOutputs: run.toolOutputs });
}
