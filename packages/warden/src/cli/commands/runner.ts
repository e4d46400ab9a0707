// `warden runner serve|status|stop`: the resident runner of a data folder, its
// flags and help; the runner loads only when one of them runs.

import { DATA_FLAG } from '../flags.js';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Cli, OptionsOf } from '../registration.js';

function serve(group: CommandUnknownOpts) {
  return group
    .command('serve')
    .description(
      "run the data folder's resident runner in the foreground (the hooks' clients start it when they find none); it exits when idle",
    )
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option(
      '--idle <seconds>',
      'exit after this long without a call (default: WARDEN_RUNNER_IDLE, else 900)',
    );
}

function status(group: CommandUnknownOpts) {
  return group
    .command('status')
    .description("whether the data folder's runner is running, since when, and what it served")
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--json', 'print JSON');
}

function stop(group: CommandUnknownOpts) {
  return group
    .command('stop')
    .description("stop the data folder's runner (the next call starts it again)")
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--json', 'print JSON');
}

export type RunnerServeOptions = OptionsOf<typeof serve>;
export type RunnerStatusOptions = OptionsOf<typeof status>;

export function registerRunner(program: CommandUnknownOpts, cli: Cli): void {
  const group = program
    .command('runner')
    .description(
      'the resident runner that answers the hooks and runs granted commands, one per user and data folder',
    );
  serve(group).action(async (options) =>
    cli.exit(await (await import('../runner-command.js')).runRunnerServe(cli.io, options)),
  );
  status(group).action(async (options) =>
    cli.exit(
      await (await import('../runner-command.js')).runRunnerStatus(cli.io, options, 'status'),
    ),
  );
  stop(group).action(async (options) =>
    cli.exit(await (await import('../runner-command.js')).runRunnerStatus(cli.io, options, 'stop')),
  );
}
