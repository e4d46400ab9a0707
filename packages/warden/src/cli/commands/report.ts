// `warden report`: the supervisor report's flags and help; it loads when it runs.

import { DATA_FLAG } from '../flags.js';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Cli, OptionsOf } from '../registration.js';

function report(program: CommandUnknownOpts) {
  return program
    .command('report')
    .description(
      'the deterministic supervisor report: findings from the audit log, receipts and tasks of the agents a supervisor may observe — never from files',
    )
    .option('--supervisor <id>', 'the supervisor (default: the only one in the data folder)')
    .option('--since <window>', 'the window: `24h`, `7d`, `30m` or an ISO time (default 24h)')
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option(
      '--config <file>',
      "the server's configuration: its `reports` settings and where the data is",
    )
    .option('--store', 'also store it for the human (`GET /v1/reports`)')
    .option('--json', 'print JSON');
}

export type ReportOptions = OptionsOf<typeof report>;

export function registerReport(program: CommandUnknownOpts, cli: Cli): void {
  report(program).action(async (options) =>
    cli.exit(await (await import('../report-command.js')).runReport(cli.io, options, cli.version)),
  );
}
