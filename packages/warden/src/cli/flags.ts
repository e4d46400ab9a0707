// Flags several commands share, and flags whose value is a number: declared
// once so every command spells, documents and checks them alike.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import { Option } from '@commander-js/extra-typings';
import { ADAPTER_FLAGS } from '../hook/flags.js';
import { DEFAULT_DATA } from '../data-folder.js';

/**
 * The data folder, spelled and described once for every command: the store
 * (SQLite, unless DATABASE_URL names Postgres), the audit log, the agents'
 * folders and the runner's socket.
 */
export const DATA_FLAG = {
  usage: '--data <dir>',
  description: `the data folder (default \`${DEFAULT_DATA}\`; DATABASE_URL puts the store on Postgres)`,
} as const;

/** A repeatable flag's values, in the order given. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The server a command talks to, and its token. */
/** What `connectOptions` adds. Written out: inferred, the declaration file spells commander's types out whole. */
export type ConnectFlags = {
  server?: string;
  token?: string;
};

/** What `dataOptions` adds. */
export type DataFlags = {
  data?: string;
  json?: true;
};

/** What `storeOrServerOptions` adds. */
export type StoreOrServerFlags = ConnectFlags & DataFlags & { workspace?: string };

/** What `adapterOptions` adds. */
export type AdapterFlags = ConnectFlags & {
  policy?: string;
  managed?: string;
  data?: string;
};

export function connectOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
): Command<A, O & ConnectFlags, G> {
  // The same type commander infers, said plainly (its own spelling does not unify with it).
  return command
    .option('--server <url>', 'the Warden server (default: WARDEN_URL)')
    .option('--token <token>', 'a token for it (default: WARDEN_TOKEN)') as unknown as Command<
    A,
    O & ConnectFlags,
    G
  >;
}

/** A command that works on the data folder (its store, its agents, its runner) and can print JSON. */
export function dataOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
): Command<A, O & DataFlags, G> {
  return command
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--json', 'print JSON') as unknown as Command<A, O & DataFlags, G>;
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
>(command: Command<A, O, G>): Command<A, O & StoreOrServerFlags, G> {
  return connectOptions(
    command
      .option('--workspace <id>', 'the workspace (default: the only one, or the token’s)')
      .option(DATA_FLAG.usage, DATA_FLAG.description),
  ).option('--json', 'print JSON') as unknown as Command<A, O & StoreOrServerFlags, G>;
}

/** The two adapter modes (contracts §4): connected to a server, or standalone on a policy file. */
export function adapterOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
): Command<A, O & AdapterFlags, G> {
  const { server, token, policy, managed, data } = ADAPTER_FLAGS;
  return command
    .option(server.usage, server.description)
    .option(token.usage, token.description)
    .option(policy.usage, policy.description)
    .option(managed.usage, managed.description)
    .option(data.usage, data.description) as unknown as Command<A, O & AdapterFlags, G>;
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
): Option<Usage, undefined, undefined, number> {
  return new Option(usage, description).argParser((text) => {
    const value = Number(text);
    if (!accepts(value)) throw problem(text);
    return value;
  });
}
