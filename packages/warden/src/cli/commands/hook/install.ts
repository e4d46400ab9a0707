// `warden hook install <runtime> [--project DIR | --user]`: writes the entries
// that send every tool call of Claude Code, Codex or Gemini CLI through
// `warden hook <runtime>` (the decision event) and every completion too (the
// event after the call), into the project's settings or the user's. The rest of
// the settings stays; an entry written before is replaced, so installing twice
// leaves one. A token is never written: connected, the hook reads WARDEN_TOKEN
// from the runtime's environment. The worktree is: `--worktree`, by default
// the project's folder (a `--user` hook binds each call to its session's).
// `cli/hook-install/` holds one module per runtime's settings format; the
// flags and the command line are checked and built once, in
// `cli/hook-install/common.ts`. They load when it runs.

import { resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { DATA_FLAG } from '../../flags.js';
import type { InstallRuntime } from '../../hook-install/common.js';
import type { Io } from '../../io.js';
import { EXIT, printJson, style, usage } from '../../io.js';
import type { Cli, OptionsOf } from '../../registration.js';

/** The runtimes `warden hook install` writes into: name, aliases and what it writes where. */
const INSTALL_TARGETS = [
  {
    name: 'claude-code',
    aliases: [],
    description:
      "write `PreToolUse`, `PostToolUse` and `PostToolUseFailure` entries (all tools) into a project's `.claude/settings.json` or the user's `~/.claude/settings.json`",
    user: 'the user settings, `~/.claude/settings.json`',
    runtime: 'Claude Code',
  },
  {
    name: 'codex',
    aliases: [],
    description:
      "write `PreToolUse` and `PostToolUse` entries (all tools) into a project's `.codex/config.toml` or the user's `$CODEX_HOME/config.toml`, and Codex's trust for them into the user's (Codex skips an untrusted hook)",
    user: 'the user configuration, `$CODEX_HOME/config.toml` (default `~/.codex`)',
    runtime: 'Codex',
  },
  {
    name: 'gemini',
    aliases: ['gemini-cli'],
    description:
      "write `BeforeTool` and `AfterTool` entries (all tools) into a project's `.gemini/settings.json` or the user's `~/.gemini/settings.json`, letting WARDEN_URL and WARDEN_TOKEN through Gemini CLI's environment redaction",
    user: 'the user settings, `~/.gemini/settings.json`',
    runtime: 'Gemini CLI',
  },
] as const;

type InstallTarget = (typeof INSTALL_TARGETS)[number];

function installCommand(parent: CommandUnknownOpts, target: InstallTarget) {
  return parent
    .command(target.name)
    .aliases([...target.aliases])
    .description(target.description)
    .option('--project <dir>', 'the project (default: this folder)')
    .option('--user', target.user)
    .option(
      '--worktree <dir>',
      'the worktree the hook binds every call to (default: the project folder; with --user, the session’s)',
    )
    .option('--server <url>', 'connected: the Warden server (the token comes from WARDEN_TOKEN)')
    .option('--policy <file>', 'standalone: the policy file')
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--agent <id>', 'the agent id')
    .option(
      '--gateway-config <file>',
      `pass the hook a gateway configuration that maps MCP servers ${target.runtime} reaches directly`,
    )
    .option(
      '--sandbox <mode>',
      'how the hook runs allowed shell commands: `auto` (default), `required` or `off`',
    )
    .option(
      '--timeout <seconds>',
      `the hook answers within this long (default 55); ${target.runtime} is told to wait 5 s longer`,
    )
    .option(
      '--no-runner',
      "answer each call in a Node process of its own instead of through the data folder's resident runner",
    )
    .option('--json', 'print JSON');
}

export function registerHookInstall(hook: CommandUnknownOpts, cli: Cli): void {
  const parent = hook.command('install').description('install a hook into an agent runtime');
  for (const target of INSTALL_TARGETS)
    installCommand(parent, target).action(async (options) =>
      cli.exit(await runHookInstall(cli.io, options, target.name)),
    );
}

export type HookInstallOptions = OptionsOf<typeof installCommand>;

export async function runHookInstall(
  io: Io,
  options: HookInstallOptions,
  runtime: InstallRuntime = 'claude-code',
): Promise<number> {
  const [{ INSTALLERS }, { planHookCommand }] = await Promise.all([
    import('../../hook-install/installers.js'),
    import('../../hook-install/common.js'),
  ]);
  const json = options.json === true;
  const installer = INSTALLERS.find((i) => i.runtime === runtime);
  if (installer === undefined) return usage(io, json, 'runtime', `no installer for \`${runtime}\``);
  const planned = planHookCommand(runtime, options);
  if (!planned.ok) return usage(io, json, planned.path, planned.message);
  const { hook } = planned;
  const target = {
    scope: options.user === true ? ('user' as const) : ('project' as const),
    project: resolve(options.project ?? '.'),
    env: io.env,
  };
  const installed = installer.install(target, hook);
  if (!installed.ok) return usage(io, json, installed.path, installed.message);
  const [file] = installed.files;

  if (json) {
    printJson(io, {
      installed: true,
      runtime,
      file,
      files: installed.files,
      events: installer.events,
      command: hook.command,
      worktree: hook.worktree,
      timeout: installed.timeout,
      timeoutUnit: installer.timeoutUnit,
      hookTimeout: hook.hookSeconds,
      replaced: installed.replaced,
      todo: installed.todo,
      notes: installed.notes ?? [],
    });
    return EXIT.ok;
  }
  const s = style(io.color);
  const [decision, ...completions] = installer.events;
  io.out(
    `${s.green('installed')}: every ${installer.label} tool call now asks Warden (${decision}) and its completion is recorded (${completions.join(', ')}) (${file}${installed.replaced ? ', the earlier entries replaced' : ''})\n`,
  );
  io.out(`  ${hook.command}\n`);
  io.out(
    hook.worktree === null
      ? `  every call is judged against its session's folder, as ${installer.label} names it or starts the hook in, never a folder the call names\n`
      : `  every call is judged against the worktree ${hook.worktree}, whatever folder it names\n`,
  );
  for (const other of installed.files.slice(1))
    io.out(`  Codex's trust for these entries written to ${other}\n`);
  if (runtime === 'codex' && installed.files.length === 1)
    io.out(`  Codex's trust for these entries written to the same file\n`);
  io.out(
    `  ${installer.label} waits ${installed.timeout}${installer.timeoutUnit === 'ms' ? ' ms' : ' s'} for it; it answers within ${hook.hookSeconds} s\n`,
  );
  io.out(
    options.server !== undefined
      ? `  connected: start ${installer.label} with WARDEN_TOKEN set to an \`agent\` token of this server\n`
      : options.policy !== undefined
        ? '  standalone: decisions from the policy file; prompts are denied (no approver)\n'
        : `  give it a policy: set WARDEN_URL and WARDEN_TOKEN for ${installer.label}, or install again with --server or --policy; until then every call is denied\n`,
  );
  for (const note of installed.notes ?? []) io.out(`  note: ${note}\n`);
  for (const todo of installed.todo) io.out(`  ${s.yellow('to do')}: ${todo}\n`);
  return EXIT.ok;
}
