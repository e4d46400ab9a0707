// `warden exec … -- <command line>`: asks the gate whether a shell command
// may run, and runs it under the OS sandbox with a profile made from the
// decision (`sandbox/exec.ts`, which the resident runner runs too). It runs
// for every shell call of an agent on a host without the runner, so the gate
// and the sandbox load only when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { FlagProblem, adapterOptions, numberOption } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

/** The longest `--timeout`: a week. */
const MAX_TIMEOUT_SECONDS = 7 * 24 * 3600;

function exec(program: CommandUnknownOpts) {
  return adapterOptions(
    program
      .command('exec')
      .description(
        "ask the gate whether a shell command may run, and run it under the OS sandbox: exit 3 when denied, else the command's exit code",
      )
      .argument('[command...]', 'the command line, after `--`; it runs with `bash -c`'),
  )
    .option('--agent <id>', "the agent id (standalone default `exec`; connected: the token's)")
    .option('--worktree <dir>', 'the folder the command runs in: the only one it may write to')
    .addOption(
      numberOption(
        '--timeout <seconds>',
        'kill the command after this long (exit 124)',
        (seconds) => Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS,
        (text) => new FlagProblem('', `\`--timeout ${text}\` is not a number of seconds above 0`),
      ),
    )
    .option(
      '--grant <grant>',
      'run under the decision a hook granted for exactly this command line and worktree, instead of asking again',
    )
    .option(
      '--transactional <mode>',
      'run over a copy-on-write layer and decide what the command did before it lands: `auto` (default: where the host can), `required`, or `off`',
    )
    .option(
      '--no-sandbox',
      'on a host without a sandbox backend, run the command anyway, with the guard rules as the only boundary',
    )
    .option('--json', "Warden's own messages as JSON lines on standard error");
}

export type ExecOptions = OptionsOf<typeof exec>;

export function registerExec(program: CommandUnknownOpts, cli: Cli): void {
  exec(program).action(async (words, options) =>
    cli.exit(await (await import('../../sandbox/exec.js')).runExec(cli.io, words, options)),
  );
}
