// `warden approvals watch|list|answer`: answering prompts from a terminal; the
// client that talks to the server loads when a subcommand runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { FlagProblem, connectOptions, numberOption } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

/** `--hours`: how long a "remember" answer allows. */
function hoursOption(description: string) {
  return numberOption(
    '--hours <n>',
    description,
    (hours) => Number.isFinite(hours) && hours > 0,
    (text) => new FlagProblem('--hours', `\`${text}\` is not a number of hours above 0`),
  );
}

function watch(approvals: CommandUnknownOpts) {
  return connectOptions(
    approvals
      .command('watch')
      .description(
        'be a connected approver: each prompt is shown as it comes, answered once / for N hours / deny',
      )
      .addOption(hoursOption('how long "remember" allows (default 8)'))
      .option(
        '--json',
        'print the stream as JSON lines and ask nothing (answer with `approvals answer`)',
      ),
  );
}

function list(approvals: CommandUnknownOpts) {
  return connectOptions(
    approvals
      .command('list')
      .description('approvals, newest first (pending by default)')
      .option('--state <state>', '`pending`, `approved`, `denied`, `expired`, `cancelled` or `all`')
      .option('--agent <id>', 'only this agent')
      .option('--workspace <id>', 'the workspace (when the token is not bound to one)')
      // Passed on as given: the server checks it.
      .option('--limit <n>', 'at most this many')
      .option('--json', 'print JSON'),
  );
}

function answer(approvals: CommandUnknownOpts) {
  return connectOptions(
    approvals
      .command('answer')
      .description('answer one approval')
      .argument('<id>', 'the approval id')
      .option('--once', 'allow this call once')
      .option('--remember', 'allow it and calls like it for `--hours` in `--scope`')
      .option('--deny', 'refuse it')
      .option('--override', 'override a soft deny (needs `--reason`)')
      .addOption(hoursOption('for `--remember` (default 8)'))
      .option('--scope <scope>', 'for `--remember`: one of the scopes the approval offers')
      .option('--reason <text>', 'why')
      .option('--json', 'print JSON'),
  );
}

export type WatchOptions = OptionsOf<typeof watch>;
export type ListOptions = OptionsOf<typeof list>;
export type AnswerOptions = OptionsOf<typeof answer>;

export function registerApprovals(program: CommandUnknownOpts, cli: Cli): void {
  const load = () => import('../approvals-command.js');
  const approvals = program
    .command('approvals')
    .description('answer the prompts agents are waiting on');
  watch(approvals).action(async (options) =>
    cli.exit(await (await load()).runWatch(cli.io, options)),
  );
  list(approvals).action(async (options) =>
    cli.exit(await (await load()).runList(cli.io, options)),
  );
  answer(approvals).action(async (id, options) =>
    cli.exit(await (await load()).runAnswer(cli.io, id, options)),
  );
}
