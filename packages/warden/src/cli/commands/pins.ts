// `warden pins list|accept`: the gateway's downstream tools pinned by their
// definition. On a server (`--server` or WARDEN_URL; `accept` takes an admin
// token) or in the data folder, where a running gateway sees an acceptance
// the next time the agent lists or calls its tools. The client and the store
// load when a subcommand runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ToolPinRecord } from '../../store/types.js';
import type { ToolPinView } from '../../views/tool-pins.js';
import { author } from '../author.js';
import { storeOrServerOptions } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, fail, printJson, printListing, style } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { handler } from '../registration.js';
import { local, query, useServer } from '../store-or-server.js';

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
  list(pins).action(handler(cli, runPinsList));
  accept(pins).action(handler(cli, runPinsAccept));
}

type Pin = ToolPinView | ToolPinRecord;

function short(hash: string): string {
  return hash.slice(0, 12);
}

export async function runPinsList(io: Io, options: PinsListOptions): Promise<number> {
  const [{ call, connection }, { toolPinListView }] = await Promise.all([
    import('../client.js'),
    import('../../views/tool-pins.js'),
  ]);
  const json = options.json === true;
  const pins: readonly Pin[] = useServer(io, options)
    ? (
        await call(io, connection(io, options), 'GET', `/v1/tool-pins${query(options)}`, {
          schema: toolPinListView,
          json,
        })
      ).pins
    : await local(io, json, options, (warden, workspace) => warden.store.toolPins.list(workspace));
  return printListing(io, json, {
    value: { pins },
    empty: pins.length === 0,
    none: 'no tool is pinned yet: the gateway pins each tool the first time it lists it\n',
    text: (s) =>
      pins
        .map(
          (pin) =>
            `${pin.pending === null ? s.green('pinned') : s.red('changed')}  ${pin.tool}  ${short(pin.hash)} (${pin.pinnedAt}, by ${pin.pinnedBy})\n` +
            (pin.pending === null
              ? ''
              : `  a new definition ${short(pin.pending.hash)} was offered at ${pin.pending.seenAt}; it is refused until \`warden pins accept ${pin.tool} --hash ${short(pin.pending.hash)}\`\n`),
        )
        .join(''),
  });
}

export async function runPinsAccept(
  io: Io,
  tool: string,
  options: PinsAcceptOptions,
): Promise<number> {
  const [{ call, connection }, { REVIEWED_HASH, toolPinView }] = await Promise.all([
    import('../client.js'),
    import('../../views/tool-pins.js'),
  ]);
  const json = options.json === true;
  if (options.hash !== undefined && !REVIEWED_HASH.test(options.hash))
    return fail(io, json, [
      {
        code: 'invalid_value',
        path: '--hash',
        message: `\`${options.hash}\` is not a definition's hash: give at least the 12 hex digits \`warden pins list\` shows`,
      },
    ]);
  let accepted: Pin;
  if (useServer(io, options)) {
    accepted = await call(
      io,
      connection(io, options),
      'POST',
      `/v1/tool-pins/accept${query(options)}`,
      {
        schema: toolPinView,
        json,
        body: options.hash === undefined ? { tool } : { tool, hash: options.hash },
      },
    );
  } else {
    const done = await local(io, json, options, async (warden, workspace) => ({
      workspace,
      pin: await warden.acceptTool(workspace, tool, author(), options.hash),
    }));
    if (done.pin === null)
      return fail(io, json, [
        {
          code: 'invalid_value',
          path: 'tool',
          message: `no changed definition of \`${tool}\` waits in workspace \`${done.workspace}\``,
        },
      ]);
    if ('changed' in done.pin)
      return fail(io, json, [
        {
          code: 'invalid_value',
          path: '--hash',
          message: `the definition of \`${tool}\` waiting now (${short(done.pin.changed)}) is not the one given: read it with \`warden pins list\`, then accept that one`,
        },
      ]);
    accepted = done.pin;
  }
  if (json) {
    printJson(io, accepted);
    return EXIT.ok;
  }
  const s = style(io.color);
  io.out(
    `${s.green('accepted')}: \`${accepted.tool}\` is pinned to its new definition ${short(accepted.hash)}; the gateway lets it through again\n`,
  );
  return EXIT.ok;
}
