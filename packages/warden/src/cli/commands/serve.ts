// `warden serve`: the server's flags and help; the server itself loads when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { collect, DATA_FLAG } from '../flags.js';
import type { Cli, OptionsOf } from '../registration.js';

function serve(program: CommandUnknownOpts) {
  return program
    .command('serve')
    .description(
      'the Warden server: SQLite in `--data` by default, Postgres with DATABASE_URL; binds 127.0.0.1 unless told otherwise',
    )
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option('--port <n>', 'the port (default 8787; 0 picks a free one)')
    .option('--host <host>', 'the address to listen on (default 127.0.0.1)')
    .option(
      '--allow-host <name>',
      'also accept this `Host` name (a reverse proxy, a LAN name), repeatable; only loopback names and the address listened on pass otherwise (default: WARDEN_ALLOW_HOSTS, comma-separated)',
      collect,
    )
    .option('--config <file>', 'a configuration file (YAML or JSON); env and flags override it')
    .option('--json', 'print the banner as one JSON line');
}

/** `--port` stays text: the configuration checks it with the file's and the environment's. */
export type ServeOptions = OptionsOf<typeof serve>;

export function registerServe(program: CommandUnknownOpts, cli: Cli): void {
  serve(program).action(async (options) =>
    cli.exit(await (await import('../serve-command.js')).runServe(cli.io, options, cli.version)),
  );
}
