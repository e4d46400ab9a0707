// `warden token create|list|revoke`: API tokens in the data folder's store,
// which loads when a subcommand runs.

import { DATA_FLAG } from '../flags.js';
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Cli, OptionsOf } from '../registration.js';

/** Every token command works on a store and can print JSON. */
function storeOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return command.option(DATA_FLAG.usage, DATA_FLAG.description).option('--json', 'print JSON');
}

function create(token: CommandUnknownOpts) {
  return storeOptions(
    token
      .command('create')
      .description('make a token and print it once')
      .option('--role <role>', '`admin`, `approver`, `overrider`, `viewer` or `agent`')
      .option('--name <name>', 'who or what holds it')
      .option('--workspace <id>', 'bind it to one workspace (required for `agent`)')
      .option('--agent <id>', 'the agent an `agent` token is')
      .option('--space <id>', 'bind an `agent` token to a space')
      .option('--mode <name>', 'bind an `agent` token to a mode')
      .option(
        '--expires <when>',
        'refuse it after a span (`90m`, `24h`, `30d`, `2w`) or at a time with a zone (`2026-12-01T08:00:00Z`); default: never',
      ),
  );
}

function list(token: CommandUnknownOpts) {
  return storeOptions(
    token
      .command('list')
      .description('the tokens: names, roles, bindings and expiry, never the secrets')
      .option('--all', 'include revoked tokens'),
  );
}

function revoke(token: CommandUnknownOpts) {
  return storeOptions(
    token
      .command('revoke')
      .description('revoke a token (servers refuse it within a second)')
      .argument('<id>', 'the token id (or its name, when only one live token has it)'),
  );
}

export type TokenCreateOptions = OptionsOf<typeof create>;
export type TokenListOptions = OptionsOf<typeof list>;
export type TokenRevokeOptions = OptionsOf<typeof revoke>;

export function registerToken(program: CommandUnknownOpts, cli: Cli): void {
  const load = () => import('../token-command.js');
  const token = program
    .command('token')
    .description("API tokens for people and for agents' adapters (shown once, kept as a hash)");
  create(token).action(async (options) =>
    cli.exit(await (await load()).runTokenCreate(cli.io, options)),
  );
  list(token).action(async (options) =>
    cli.exit(await (await load()).runTokenList(cli.io, options)),
  );
  revoke(token).action(async (id, options) =>
    cli.exit(await (await load()).runTokenRevoke(cli.io, id, options)),
  );
}
