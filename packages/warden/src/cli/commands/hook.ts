// `warden hook <runtime>` (one per runtime of hook/runtimes.ts) and
// `warden hook install <runtime>` (Claude Code, Codex, Gemini CLI). The hook's
// flags are `hook/flags.ts`'s, which its quick way in (`hook/main.ts`) reads
// too; the hook and the installer load when they run.

import { DATA_FLAG } from '../flags.js';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { HOOK_FLAGS, hookOptions } from '../../hook/flags.js';
import { HOOK_RUNTIMES } from '../../hook/runtimes.js';
import type { Cli, OptionsOf } from '../registration.js';

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

function install(hook: CommandUnknownOpts, cli: Cli) {
  const parent = hook.command('install').description('install a hook into an agent runtime');
  for (const target of INSTALL_TARGETS)
    installCommand(parent, target).action(async (options) =>
      cli.exit(
        (await import('../hook-install-command.js')).runHookInstall(cli.io, options, target.name),
      ),
    );
}

export type HookInstallOptions = OptionsOf<typeof installCommand>;

export function registerHook(program: CommandUnknownOpts, cli: Cli): void {
  const { io } = cli;
  const hook = program
    .command('hook')
    .description("answer an agent runtime's hook: the runtime asks Warden before every tool call");
  for (const entry of HOOK_RUNTIMES) {
    const command: CommandUnknownOpts = hook
      .command(entry.name)
      .aliases([...entry.aliases])
      .description(entry.description);
    for (const flag of Object.values(HOOK_FLAGS)) command.option(flag.usage, flag.description);
    command.action(async () => {
      const [{ runHook }, runtime] = await Promise.all([import('../../hook/run.js'), entry.load()]);
      const values = command.opts();
      cli.exit(
        await runHook(
          {
            stdin: () => Promise.resolve(io.stdin()),
            out: (text) => io.out(text),
            err: (text) => io.err(text),
            env: io.env,
          },
          hookOptions((key) => values[key]),
          runtime,
        ),
      );
    });
  }
  install(hook, cli);
}
