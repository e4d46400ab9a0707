// `warden gateway --config FILE`: the MCP gateway (contracts §7). Connected
// (`--server`/WARDEN_URL with an agent token) or standalone (`--policy FILE`);
// stdio to the agent by default, Streamable HTTP on 127.0.0.1 with `--http`
// (only loopback `Host` names pass, plus those `--allow-host` or the
// configuration's `allowHosts` name: DNS-rebinding protection).
// Every bad input is one line per problem on standard error and exit 1; the
// gateway logs only to standard error, as standard output is the MCP channel.
// The gateway loads when it runs.

import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { DEFAULT_DATA } from '../../data-folder.js';
import type { Decider } from '../../gateway/decider.js';
import type { HostName } from '../../gateway/hosts.js';
import { FlagProblem, adapterOptions, collect, numberOption } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, untilSignalled } from '../io.js';
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
    cli.exit(await runGateway(cli.io, options, cli.version)),
  );
}

function problems(io: Io, lines: readonly string[]): number {
  for (const line of lines) io.err(`error: ${line}\n`);
  return EXIT.usage;
}

export async function runGateway(
  io: Io,
  options: GatewayOptions,
  version: string,
): Promise<number> {
  const log = (line: string) => io.err(`warden gateway: ${line}\n`);
  if (options.config === undefined)
    return problems(io, ['--config: give the gateway configuration file (YAML or JSON)']);
  const flagProblems: string[] = [];
  const port = options.http ?? null;
  const allowHost = options.allowHost ?? [];
  const { hostNameProblem, parseHostName } = await import('../../gateway/hosts.js');
  const allowHosts: HostName[] = [];
  if (allowHost.length > 0 && options.http === undefined)
    flagProblems.push('--allow-host: only with `--http PORT` (stdio has no Host header)');
  for (const name of allowHost) {
    const problem = hostNameProblem(name);
    const parsed = parseHostName(name);
    if (problem !== null || parsed === null) flagProblems.push(`--allow-host: ${problem ?? name}`);
    else allowHosts.push(parsed);
  }
  const { DEFAULT_TIMEOUT_SECONDS } = await import('../../gateway/gateway.js');
  const timeoutSeconds = options.timeout ?? DEFAULT_TIMEOUT_SECONDS;
  const server = options.server ?? io.env.WARDEN_URL;
  const token = options.token ?? io.env.WARDEN_TOKEN;
  const hasServer = server !== undefined && server !== '';
  if (hasServer && options.policy !== undefined)
    flagProblems.push(
      '--policy: give either `--server` (connected) or `--policy` (standalone), not both',
    );
  if (hasServer && (token === undefined || token === ''))
    flagProblems.push(
      `--token: no token for ${server}: set WARDEN_TOKEN (an \`agent\` token) or give --token`,
    );
  if (hasServer) {
    try {
      new URL(server);
    } catch {
      flagProblems.push(`--server: \`${server}\` is not a URL`);
    }
  }
  if (!hasServer && options.policy === undefined)
    flagProblems.push(
      'the gateway has no policy: give `--server URL` with an agent token (or WARDEN_URL and WARDEN_TOKEN) for connected mode, or `--policy FILE` for standalone',
    );
  if (!hasServer && options.policy === undefined && options.managed !== undefined)
    flagProblems.push('--managed: only with `--policy` (standalone)');
  const { loadGatewayConfig } = await import('../../gateway/config.js');
  const loaded = loadGatewayConfig(options.config);
  if (!loaded.ok)
    flagProblems.push(
      ...loaded.problems.map((p) =>
        p.path.startsWith('--') || p.path.startsWith(options.config as string)
          ? `${p.path}: ${p.message}`
          : `${options.config}: ${p.path}: ${p.message}`,
      ),
    );
  if (flagProblems.length > 0 || !loaded.ok) return problems(io, flagProblems);
  const { config } = loaded;

  const { connectedDecider, standaloneDecider } = await import('../../gateway/decider.js');
  let decider: Decider;
  if (hasServer) {
    decider = connectedDecider(config, server, token as string, log);
  } else {
    const made = await standaloneDecider(config, {
      policy: options.policy as string,
      managed: options.managed ?? io.env.WARDEN_MANAGED_POLICY ?? null,
      data: options.data ?? DEFAULT_DATA,
      env: io.env,
    });
    if ('problems' in made) return problems(io, made.problems);
    decider = made;
  }

  const { Gateway, GatewayStartError } = await import('../../gateway/gateway.js');
  let gateway: Awaited<ReturnType<typeof Gateway.start>>;
  try {
    // Standalone, the data folder holds the audit log and the key grants are signed with.
    const data = hasServer ? null : resolve(options.data ?? DEFAULT_DATA);
    gateway = await Gateway.start(config, decider, {
      timeoutMs: timeoutSeconds * 1000,
      log,
      ...(data === null ? {} : { denyRead: [existsSync(data) ? realpathSync(data) : data] }),
    });
  } catch (error) {
    if (error instanceof GatewayStartError) return problems(io, error.problems);
    throw error;
  }
  const { serveHttp, serveStdio } = await import('../../gateway/upstream.js');
  const { servers, tools } = gateway.counts;
  const what = `${tools} tool${tools === 1 ? '' : 's'} from ${servers} server${servers === 1 ? '' : 's'}, ${decider.describe}`;
  const { signalled, dispose } = untilSignalled();
  try {
    if (port === null) {
      log(`serving ${what} on standard input/output`);
      await Promise.race([serveStdio(gateway, version), signalled]);
    } else {
      let http: Awaited<ReturnType<typeof serveHttp>>;
      try {
        http = await serveHttp(gateway, version, port, {
          allowHosts: [...config.allowHosts, ...allowHosts],
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return problems(io, [
          code === 'EADDRINUSE'
            ? `--http: port ${port} on 127.0.0.1 is in use: choose another`
            : `--http: cannot listen on port ${port}: ${(error as Error).message}`,
        ]);
      }
      log(`serving ${what} at ${http.url}`);
      await signalled;
      await http.close();
    }
  } finally {
    dispose();
    await gateway.close();
  }
  return EXIT.ok;
}
