// `warden serve`: the control plane on its embedded default (SQLite in the
// data folder) or on Postgres (DATABASE_URL). Validates its whole
// configuration before it listens, prints a one-screen banner, and stops
// gracefully on SIGINT or SIGTERM. The server loads when it runs.

import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { RunningServer } from '../../server/serve.js';
import { collect, DATA_FLAG } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, untilSignalled, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { readServerConfig } from '../server-config.js';

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
  serve(program).action(async (options) => cli.exit(await runServe(cli.io, options, cli.version)));
}

/** Resolves when SIGINT or SIGTERM arrives; a second one while stopping stops at once. */
async function untilStopped(): Promise<string> {
  const { signalled, dispose } = untilSignalled();
  const signal = await signalled;
  dispose();
  const force = () => process.exit(EXIT.usage);
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  return signal;
}

function startProblem(error: unknown, port: number, host: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return `port ${port} on ${host} is in use: stop what holds it or choose another with \`--port\``;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `cannot listen on \`${host}\`: it is not an address of this machine`;
  if (code === 'EACCES') return `not allowed to listen on port ${port}: choose one above 1023`;
  return (error as Error).message;
}

export async function runServe(
  io: Io,
  options: ServeOptions,
  version: string,
  stopped: () => Promise<string> = untilStopped,
): Promise<number> {
  const json = options.json === true;
  const [config, { bannerFacts, renderBanner, startServer }] = await Promise.all([
    readServerConfig(io, json, options),
    import('../../server/serve.js'),
  ]);
  // Listening for the stop signal from here on: one that comes while starting or just after
  // the banner stops the server cleanly instead of killing it.
  const stopping = stopped();
  let running: RunningServer;
  try {
    running = await startServer(config, { version, env: io.env });
  } catch (error) {
    const where = config.databaseUrl === undefined ? '--data' : 'DATABASE_URL';
    const message = startProblem(error, config.port, config.host);
    return usage(
      io,
      json,
      /port|listen/.test(message) ? '--port' : where,
      `cannot start: ${message}`,
    );
  }
  const facts = await bannerFacts(running, config, version);
  if (json) io.out(`${JSON.stringify({ ready: true, ...facts })}\n`);
  else io.out(renderBanner(facts, config));
  const signal = await stopping;
  io.err(`warden: ${signal}: stopping (requests in flight finish, the audit log is flushed)\n`);
  await running.stop();
  if (json) io.out(`${JSON.stringify({ stopped: true })}\n`);
  else io.err('warden: stopped\n');
  return EXIT.ok;
}
