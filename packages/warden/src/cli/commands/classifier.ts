// `warden classifier`: the command classifier's table, or what it reads in a command line.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { runClassifier } from '../classifier-command.js';
import type { Cli, OptionsOf } from '../registration.js';

function classifier(program: CommandUnknownOpts) {
  return program
    .command('classifier')
    .description('show the command classifier table, or what it reads in a command line')
    .argument('[command]', 'a command line to classify')
    .option('--worktree <dir>', 'the absolute worktree root relative paths refer to')
    .option('--classifier <file>', 'extend the table with this configuration')
    .option('--json', 'print JSON');
}

export type ClassifierOptions = OptionsOf<typeof classifier>;

export function registerClassifier(program: CommandUnknownOpts, cli: Cli): void {
  classifier(program).action((command, options) => runClassifier(cli.io, command, options));
}
