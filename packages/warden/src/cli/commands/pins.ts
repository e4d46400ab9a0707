// `warden pins list|accept`: the gateway's downstream tools pinned by their
// definition, and accepting a changed one; on a server or in the data folder.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { storeOrServerOptions } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

function list(pins: CommandUnknownOpts) {
  return storeOrServerOptions(
    pins
      .command('list')
      .description(
        'the pinned tools, each by the hash of its definition, and the changed definitions waiting for an admin',
      ),
  );
}

function accept(pins: CommandUnknownOpts) {
  return storeOrServerOptions(
    pins
      .command('accept')
      .description("accept a tool's changed definition: the gateway lets the tool through again")
      .argument('<tool>', 'the exposed name, `<server>__<tool>`')
      .option(
        '--hash <sha256>',
        'accept only the changed definition whose hash starts with this (at least the 12 hex digits `warden pins list` shows); another waiting one is refused',
      ),
  );
}

export type PinsListOptions = OptionsOf<typeof list>;
export type PinsAcceptOptions = OptionsOf<typeof accept>;

export function registerPins(program: CommandUnknownOpts, cli: Cli): void {
  const pins = program
    .command('pins')
    .description(
      "the MCP gateway's downstream tools, pinned by their definition: a changed one is refused until accepted",
    );
  const load = () => import('../pins-command.js');
  list(pins).action(async (options) => cli.exit(await (await load()).runPinsList(cli.io, options)));
  accept(pins).action(async (tool, options) =>
    cli.exit(await (await load()).runPinsAccept(cli.io, tool, options)),
  );
}
