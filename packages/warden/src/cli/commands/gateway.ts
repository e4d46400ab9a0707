// `warden gateway`: the MCP gateway's flags and help; the gateway loads when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { FlagProblem, adapterOptions, collect, numberOption } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

function gateway(program: CommandUnknownOpts) {
  return adapterOptions(
    program
      .command('gateway')
      .description(
        'the MCP gateway: one MCP server to the agent in front of downstream MCP servers, every call through the gate',
      ),
  )
    .option('--config <file>', 'the gateway configuration (YAML or JSON)')
    .addOption(
      numberOption(
        '--http <port>',
        'serve Streamable HTTP on 127.0.0.1 at this port instead of stdio',
        (port) => Number.isInteger(port) && port >= 0 && port <= 65535,
        (text) => new FlagProblem('--http', `\`${text}\` is not a port (0 to 65535)`),
      ),
    )
    .option(
      '--allow-host <name>',
      'with --http: also accept this Host name (a reverse proxy), repeatable; only loopback names pass otherwise',
      collect,
    )
    .addOption(
      numberOption(
        '--timeout <seconds>',
        'a downstream call that takes longer fails (default 60)',
        (seconds) => Number.isFinite(seconds) && seconds > 0 && seconds <= 3600,
        (text) =>
          new FlagProblem('--timeout', `\`${text}\` is not a number of seconds (up to 3600)`),
      ),
    );
}

export type GatewayOptions = OptionsOf<typeof gateway>;

export function registerGateway(program: CommandUnknownOpts, cli: Cli): void {
  gateway(program).action(async (options) =>
    cli.exit(
      await (await import('../gateway-command.js')).runGateway(cli.io, options, cli.version),
    ),
  );
}
