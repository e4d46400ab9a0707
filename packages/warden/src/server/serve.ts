// `warden serve`: the control plane. Opens the store (SQLite in the data
// folder, or Postgres), listens — closing clients that are slow to send a
// request or idle between requests, holding a capped number of connections,
// and refusing a request whose `Host` does not name it (hosts.ts) — prints
// a one-screen banner, and on SIGINT or SIGTERM stops taking requests, lets
// the ones in flight finish, flushes the audit log and closes the store.

import { realpathSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { RequestListener, Server, ServerOptions as HttpServerOptions } from 'node:http';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { DEFAULT_DENY_READ } from '../sandbox/runtime.js';
import { redactUrl } from '../store/postgres.js';
import { Warden } from '../warden.js';
import { detectHost, honestyMatrix } from '../honesty/index.js';
import { newId } from '../ids.js';
import { startReportScheduler } from '../report/scheduler.js';
import type { ReportScheduler } from '../report/scheduler.js';
import { parseHostName } from '../gateway/hosts.js';
import { createApp } from './app.js';
import type { ServerState } from './app.js';
import type { ServerConfig } from './config.js';
import { guardHosts, serverHosts } from './hosts.js';
import { permissionsView } from '../permissions/view.js';

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly warden: Warden;
  /** The scheduled supervisor reports (I11); null when `reports.schedule` is not set. */
  readonly reports: ReportScheduler | null;
  /** The `Host` names requests may carry now (hosts.ts). */
  hosts(): readonly string[];
  /** Stops as SIGTERM does: in-flight requests finish, the audit log is flushed. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly version: string;
  readonly env: NodeJS.ProcessEnv;
  readonly logger?: Logger;
  readonly clock?: () => number;
}

/** The folder's real path, as the sandbox compares paths; as given when it cannot be read. */
function realFolder(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

/** How long after listening the server warms its policies up; a server stopped sooner does none of it. */
const WARM_UP_AFTER_MS = 1000;
/** How often prompts nobody can answer any more are looked for (an approver counts as gone 5 s after its last beat). */
const SWEEP_EVERY_MS = 2000;
/** How many workspaces are warmed up: the code paths are warm after the first, the rest is their data. */
const WARM_UP_WORKSPACES = 5;

/**
 * Compiles the first workspaces' policies and builds their permissions view once, in the
 * background: the first decision and the first console visit then answer as fast as later ones
 * (a 500-rule matrix's first answer takes about five times as long as the next). Nothing is
 * recorded; a failure is only logged, and the request that needs the policy sees it again.
 */
async function warmUp(warden: Warden, clock: () => number, logger: Logger): Promise<void> {
  try {
    const workspaces = (await warden.policy.workspaces()).slice(0, WARM_UP_WORKSPACES);
    for (const workspace of workspaces) await permissionsView(warden, workspace, clock());
    logger.debug({ workspaces }, 'policies warmed up');
  } catch (error) {
    logger.debug({ err: error }, 'warming the policies up failed; requests compile them');
  }
}

export async function startServer(
  config: ServerConfig,
  options: StartOptions,
): Promise<RunningServer> {
  const logger =
    options.logger ?? pino({ name: 'warden', level: config.logLevel }, pino.destination(2));
  const clock = options.clock ?? Date.now;
  const allowed = config.allowHosts.flatMap((name) => parseHostName(name) ?? []);
  const warden = await Warden.open({
    data: config.data,
    ...(config.databaseUrl === undefined ? {} : { databaseUrl: config.databaseUrl }),
    ...(config.databaseSchema === undefined ? {} : { schema: config.databaseSchema }),
    managedPolicyFile: config.managedPolicy ?? null,
    env: {},
    logger,
    clock,
    approvals: {
      timeoutMs: config.approvalTimeoutSeconds * 1000,
      overrideWindowMs: config.overrideWindowSeconds * 1000,
    },
  });
  const state: ServerState = { shuttingDown: false };
  // The accepted `Host` names carry the bound port, known once listening (port 0 picks one).
  let hosts = serverHosts(config.host, config.port, allowed);
  const { app } = createApp(
    {
      warden,
      logger,
      version: options.version,
      clock,
      node: `${hostname()}:${process.pid}`,
      // A granted command never reads the server's data: its audit log, its keys.
      sandboxDenyRead: [
        ...(config.sandbox.denyRead ?? DEFAULT_DENY_READ),
        ...(config.databaseUrl === undefined ? [realFolder(config.data)] : []),
      ],
    },
    state,
  );
  const { http } = config;
  const server = await new Promise<Server>((resolveListening, reject) => {
    const started = serve(
      {
        fetch: app.fetch,
        hostname: config.host,
        port: config.port,
        createServer: ((options: HttpServerOptions, listener: RequestListener) =>
          createHttpServer(
            options,
            guardHosts(() => hosts, listener),
          )) as typeof createHttpServer,
        serverOptions: {
          headersTimeout: http.headersTimeoutSeconds * 1000,
          requestTimeout: http.requestTimeoutSeconds * 1000,
          keepAliveTimeout: http.keepAliveTimeoutSeconds * 1000,
          // How often slow clients are looked for: often enough that a timeout is kept to about a second.
          connectionsCheckingInterval: Math.min(1000, http.headersTimeoutSeconds * 1000),
        },
      },
      () => resolveListening(started as Server),
    ) as Server;
    started.maxConnections = http.maxConnections;
    started.once('error', reject);
  });
  // A report that fails is logged by the scheduler and never reaches the server.
  const reports = startReportScheduler(config.reports, {
    store: warden.reports.evidence,
    data: config.data,
    logger,
    clock,
    newId,
  });
  if (reports !== null)
    logger.info(
      {
        schedule: config.reports.schedule,
        timezone: config.reports.timezone ?? null,
        next: reports.next()?.toISOString() ?? null,
      },
      'supervisor reports scheduled',
    );
  // The first console visit and the first decision after a start should not pay for compiling.
  const warming = setTimeout(() => void warmUp(warden, clock, logger), WARM_UP_AFTER_MS);
  warming.unref();
  // A prompt nobody can answer any more ends, also one no caller waits on (`?wait=0`).
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    warden.approvals
      .sweep()
      .catch((error: unknown) =>
        logger.warn(`cannot end the prompts nobody can answer: ${(error as Error).message}`),
      )
      .finally(() => (sweeping = false));
  }, SWEEP_EVERY_MS);
  sweeper.unref();
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  if (port !== config.port) hosts = serverHosts(config.host, port, allowed);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      state.shuttingDown = true;
      clearTimeout(warming);
      clearInterval(sweeper);
      logger.info('shutting down: finishing requests in flight');
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeIdleConnections();
      // Live approver channels stay open until told: after the grace period every connection ends.
      const grace = setTimeout(
        () => server.closeAllConnections(),
        config.shutdownGraceSeconds * 1000,
      );
      grace.unref();
      // Streams (approver channels) never end by themselves: they end now, other requests finish.
      await warden.approvals.close();
      // A report being made finishes before the store closes under it.
      await reports?.stop();
      await closed;
      clearTimeout(grace);
      await warden.close();
      if ((state.refusedWhileStopping ?? 0) > 0)
        logger.warn(
          { refused: state.refusedWhileStopping },
          `refused ${state.refusedWhileStopping} requests while stopping (503, connection closed)`,
        );
      logger.info('stopped: the audit log is flushed');
    })());
  return { url, port, warden, reports, hosts: () => hosts.accepted(), stop };
}

export interface BannerFacts {
  readonly version: string;
  readonly url: string;
  readonly storage: { readonly backend: 'sqlite' | 'postgres'; readonly location: string };
  readonly data: string;
  readonly managed: { readonly source: 'file' | 'stored' | 'none'; readonly file?: string };
  readonly workspaces: readonly { readonly workspace: string; readonly revision: number | null }[];
  readonly tokens: Readonly<Record<string, number>>;
  readonly approvalTimeoutSeconds: number;
  /** The `Host` names a request may carry; any other is refused (DNS-rebinding protection). */
  readonly hosts: readonly string[];
  /** The host's sandbox backend (G2): `null` where there is none and the guard rules are the outermost layer. */
  readonly sandbox: { readonly backend: string | null };
  /** The scheduled supervisor reports (I11): the cron pattern and the next run, or null when off. */
  readonly reports: {
    readonly schedule: string;
    readonly timezone: string | null;
    readonly next: string | null;
  } | null;
}

/** What the banner says, as data (`warden serve --json` prints it as one line). */
export async function bannerFacts(
  running: RunningServer,
  config: ServerConfig,
  version: string,
): Promise<BannerFacts> {
  const { warden } = running;
  const location =
    warden.storage.backend === 'sqlite' || config.databaseUrl === undefined
      ? warden.storage.location
      : `${redactUrl(config.databaseUrl)}${config.databaseSchema === undefined ? '' : ` (schema ${config.databaseSchema})`}`;
  const managed: BannerFacts['managed'] =
    warden.managedFile !== null
      ? { source: 'file', file: warden.managedFile.file }
      : (await warden.policy.currentManaged()) === null
        ? { source: 'none' }
        : { source: 'stored' };
  const workspaces = await warden.policy.revisions();
  const tokens = await warden.tokens.activeByRole(Date.now());
  return {
    version,
    url: running.url,
    storage: { backend: warden.storage.backend, location },
    data: resolve(config.data),
    managed,
    workspaces,
    tokens,
    approvalTimeoutSeconds: config.approvalTimeoutSeconds,
    hosts: running.hosts(),
    sandbox: { backend: honestyMatrix(detectHost(), { version }).host.backend },
    reports:
      running.reports === null || config.reports.schedule === undefined
        ? null
        : {
            schedule: config.reports.schedule,
            timezone: config.reports.timezone ?? null,
            next: running.reports.next()?.toISOString() ?? null,
          },
  };
}

/** The one-screen banner: where it listens, where the data is, what decides. */
export function renderBanner(facts: BannerFacts, config: ServerConfig): string {
  const managed =
    facts.managed.source === 'file'
      ? `file ${facts.managed.file ?? ''} (${config.managedPolicy === undefined ? 'WARDEN_MANAGED_POLICY' : 'configured'}; a stored managed layer is ignored)`
      : facts.managed.source === 'stored'
        ? 'stored (edit it with PUT /v1/managed)'
        : 'none';
  const roles = Object.entries(facts.tokens);
  const lines = [
    `Warden ${facts.version} — listening on ${facts.url}`,
    `  storage     ${facts.storage.backend === 'sqlite' ? 'SQLite' : 'Postgres'} ${facts.storage.location}`,
    ...(facts.storage.backend === 'sqlite' ? [`  data        ${facts.data}`] : []),
    `  managed     ${managed}`,
    `  workspaces  ${facts.workspaces.length === 0 ? 'none yet: `warden policy apply FILE`' : facts.workspaces.map((w) => `${w.workspace} (revision ${w.revision ?? '?'})`).join(', ')}`,
    `  tokens      ${roles.length === 0 ? 'none yet: `warden token create --role admin --name <you>`' : roles.map(([r, n]) => `${n} ${r}`).join(', ')}`,
    `  hosts       ${facts.hosts.slice(0, 6).join(', ')}${facts.hosts.length > 6 ? ` and ${facts.hosts.length - 6} more` : ''}; other names with \`--allow-host NAME\``,
    `  approvals   a prompt waits ${facts.approvalTimeoutSeconds} s for a connected approver, else it is denied`,
    `  sandbox     ${
      facts.sandbox.backend === null
        ? 'none on this host: the guard rules are the outermost layer (`warden doctor`)'
        : `${facts.sandbox.backend} found: the built-in \`run_command\`, \`warden exec\`, the Claude Code hook's \`Bash\` calls and the gateway's stdio servers run under it; for other tools, and for agents that only ask this server, the guard rules are the outermost layer (\`warden doctor\`)`
    }`,
    `  reports     ${
      facts.reports === null
        ? 'off (set `reports.schedule` for a daily supervisor report)'
        : `\`${facts.reports.schedule}\`${facts.reports.timezone === null ? '' : ` (${facts.reports.timezone})`}, next ${facts.reports.next ?? 'never'}: GET /v1/reports`
    }`,
    `  console     ${facts.url}/ (sign in with an API token)`,
    `  API         ${facts.url}/v1/openapi.json · ${facts.url}/healthz · ${facts.url}/readyz`,
    `  stop        Ctrl-C (requests in flight finish, the audit log is flushed)`,
  ];
  return `${lines.join('\n')}\n`;
}
