// `warden hook <runtime>` (one per runtime of hook/runtimes.ts) and
// `warden hook install <runtime>` (Claude Code, Codex, Gemini CLI). The hook's
// flags are `hook/flags.ts`'s, which its quick way in (`hook/main.ts`) reads
// too; the hook loads when it runs. The installer is `install.ts`.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { HOOK_FLAGS, hookOptions } from '../../../hook/flags.js';
import { HOOK_RUNTIMES } from '../../../hook/runtimes.js';
import type { Cli } from '../../registration.js';
import { registerHookInstall } from './install.js';

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
      const [{ runHook }, runtime] = await Promise.all([
        import('../../../hook/run.js'),
        entry.load(),
      ]);
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
  registerHookInstall(hook, cli);
}
