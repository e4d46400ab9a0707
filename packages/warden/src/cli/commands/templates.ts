// `warden templates list|show|apply`: the shipped policy templates; the
// module that reads and writes them loads when a subcommand runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { collect, connectOptions, DATA_FLAG } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

function list(templates: CommandUnknownOpts) {
  return templates
    .command('list')
    .description('the templates: names, titles and the parameters they take')
    .option('--json', 'print JSON');
}

function show(templates: CommandUnknownOpts) {
  return templates
    .command('show')
    .description('what one template does, and its parameters')
    .argument('<name>', 'the template')
    .option('--json', 'print JSON');
}

function apply(templates: CommandUnknownOpts) {
  return connectOptions(
    templates
      .command('apply')
      .description(
        "add a template's rules to a workspace policy as the next revision: on a server (`--server`, admin token) or in the data folder",
      )
      .argument('<name>', 'the template')
      .option('--param <key=value>', 'a parameter; repeat it for each value of a list', collect)
      .option('--workspace <id>', 'the workspace (needed when several have a policy)')
      .option(DATA_FLAG.usage, DATA_FLAG.description)
      .option('--message <text>', 'say why, for the revision history (default: `template NAME`)'),
  ).option('--json', 'print JSON');
}

export type TemplatesListOptions = OptionsOf<typeof list>;
export type TemplatesShowOptions = OptionsOf<typeof show>;
export type TemplatesOptions = OptionsOf<typeof apply>;

export function registerTemplates(program: CommandUnknownOpts, cli: Cli): void {
  const load = () => import('../templates-command.js');
  const templates = program
    .command('templates')
    .description('the shipped policy templates: named sets of rules to add to a workspace policy');
  list(templates).action(async (options) =>
    cli.exit((await load()).runTemplatesList(cli.io, options)),
  );
  show(templates).action(async (name, options) =>
    cli.exit((await load()).runTemplatesShow(cli.io, name, options)),
  );
  apply(templates).action(async (name, options) =>
    cli.exit(await (await load()).runTemplatesApply(cli.io, name, options)),
  );
}
