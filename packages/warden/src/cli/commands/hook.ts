// `warden hook <runtime>` (one per runtime of hook/runtimes.ts) and
// `warden hook install claude-code`. The hook's
// flags are `hook/flags.ts`'s, which its quick way in (`hook/main.ts`) reads
// too; the hook and the installer load when they run.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { HOOK_FLAGS, hookOptions } from '../../hook/flags.js';
import { HOOK_RUNTIMES } from '../../hook/runtimes.js';
import type { Cli, OptionsOf } from '../registration.js';

function install(hook: CommandUnknownOpts) {
  return hook
    .command('install')
    .description('install a hook into an agent runtime')
    .command('claude-code')
    .description(
      "write the `PreToolUse` entry (all tools) into a project's `.claude/settings.json` or the user's",
    )
    .option('--project <dir>', 'the project (default: this folder)')
    .option('--user', 'the user settings, `~/.claude/settings.json`')
    .option('--server <url>', 'connected: the Warden server (the token comes from WARDEN_TOKEN)')
    .option('--policy <file>', 'standalone: the policy file')
    .option('--data <dir>', 'standalone: the data folder for the audit log')
    .option('--agent <id>', 'the agent id')
    .option(
      '--gateway-config <file>',
      'pass the hook a gateway configuration that maps MCP servers Claude Code reaches directly',
    )
    .option(
      '--sandbox <mode>',
      'how the hook runs allowed `Bash` commands: `auto` (default), `required` or `off`',
    )
    .option('--json', 'print JSON');
}

export type HookInstallOptions = OptionsOf<typeof install>;

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
          { stdin: () => Promise.resolve(io.stdin()), out: (text) => io.out(text), env: io.env },
          hookOptions((key) => values[key]),
          runtime,
        ),
      );
    });
  }
  install(hook).action(async (options) =>
    cli.exit((await import('../hook-install-command.js')).runHookInstall(io, options)),
  );
}
