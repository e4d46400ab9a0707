// Flags several commands share, and flags whose value is a number: declared
// once so every command spells, documents and checks them alike.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import { Option } from '@commander-js/extra-typings';
import { ADAPTER_FLAGS } from '../hook/flags.js';

/** A repeatable flag's values, in the order given. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The server a command talks to, and its token. */
export function connectOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return command
    .option('--server <url>', 'the Warden server (default: WARDEN_URL)')
    .option('--token <token>', 'a token for it (default: WARDEN_TOKEN)');
}

/**
 * Where a command that reads or changes server state acts (see
 * `store-or-server.ts`): a server with a token, or the data folder; in which
 * workspace; and `--json`.
 */
export function storeOrServerOptions<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
>(command: Command<A, O, G>) {
  return connectOptions(
    command
      .option('--workspace <id>', 'the workspace (default: the only one, or the token’s)')
      .option(
        '--data <dir>',
        'the data folder, without a server (default `.warden`; DATABASE_URL for Postgres)',
      ),
  ).option('--json', 'print JSON');
}

/** The two adapter modes (contracts §4): connected to a server, or standalone on a policy file. */
export function adapterOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  const { server, token, policy, managed, data } = ADAPTER_FLAGS;
  return command
    .option(server.usage, server.description)
    .option(token.usage, token.description)
    .option(policy.usage, policy.description)
    .option(managed.usage, managed.description)
    .option(data.usage, data.description);
}

/**
 * A flag's value that is not what the command takes: a usage error, printed
 * as `error: FLAG: MESSAGE` (or as `{ "errors": [...] }` with `--json`), exit 1.
 */
export class FlagProblem extends Error {
  override readonly name = 'FlagProblem';
  constructor(
    /** Where the problem is (`--hours`); empty when the message names the flag itself. */
    readonly flag: string,
    message: string,
  ) {
    super(message);
  }
}

/** A flag whose value is a number `accepts` takes; any other value is the `problem` it names. */
export function numberOption<Usage extends string>(
  usage: Usage,
  description: string,
  accepts: (value: number) => boolean,
  problem: (text: string) => FlagProblem,
) {
  return new Option(usage, description).argParser((text) => {
    const value = Number(text);
    if (!accepts(value)) throw problem(text);
    return value;
  });
}
