// `warden doctor`: the honesty matrix's and the installed hooks' flags and help;
// the checks load when they run.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Cli, OptionsOf } from '../registration.js';

function doctor(program: CommandUnknownOpts) {
  return program
    .command('doctor')
    .description(
      "where rules are enforced on this host: the honesty matrix, with a command run through each sandboxed path (exit 1 if one fails), and Warden's hook in each agent runtime's settings here and the user's: for which events, and whether the runtime would call it",
    )
    .option('--json', 'print JSON')
    .option(
      '--no-probe',
      'do not run a command through each sandboxed path (run_command, hook, exec, gateway) to check it is confined',
    );
}

export type DoctorOptions = OptionsOf<typeof doctor>;

export function registerDoctor(program: CommandUnknownOpts, cli: Cli): void {
  doctor(program).action(async (options) =>
    cli.exit(await (await import('../doctor-command.js')).runDoctor(cli.io, cli.version, options)),
  );
}
