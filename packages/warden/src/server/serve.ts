// `warden serve`: the control plane. Opens the store (SQLite in the data
// folder, or Postgres), listens, prints a one-screen banner, and on SIGINT or
// SIGTERM stops taking requests, lets the ones in flight finish, flushes the
// audit log and closes the store.

import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { redactUrl } from '../store/postgres.js';
import { Warden } from '../warden.js';
import { createApp } from './app.js';
import type { ServerState } from './app.js';
import type { ServerConfig } from './config.js';

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly warden: Warden;
  /** Stops as SIGTERM does: in-flight requests finish, the audit log is flushed. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly version: string;
  readonly env: NodeJS.ProcessEnv;
  readonly logger?: Logger;
  readonly clock?: () => number;
}

export async function startServer(
  config: ServerConfig,
  options: StartOptions,
): Promise<RunningServer> {
  const logger =
    options.logger ?? pino({ name: 'warden', level: config.logLevel }, pino.destination(2));
  const clock = options.clock ?? Date.now;
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
  const { app } = createApp(
    { warden, logger, version: options.version, clock, node: `${hostname()}:${process.pid}` },
    state,
  );
  const server = await new Promise<Server>((resolveListening, reject) => {
    const started = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () =>
      resolveListening(started as Server),
    ) as Server;
    started.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      state.shuttingDown = true;
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
      await closed;
      clearTimeout(grace);
      await warden.close();
      logger.info('stopped: the audit log is flushed');
    })());
  return { url, port, warden, stop };
}

/** The one-screen banner: where it listens, where the data is, what decides. */
export async function banner(
  running: RunningServer,
  config: ServerConfig,
  version: string,
): Promise<string> {
  const { warden } = running;
  const storage =
    warden.store.backend === 'sqlite'
      ? `SQLite ${warden.store.location}`
      : `Postgres ${config.databaseUrl === undefined ? warden.store.location : redactUrl(config.databaseUrl)}${config.databaseSchema === undefined ? '' : ` (schema ${config.databaseSchema})`}`;
  const managed =
    warden.managedFile !== null
      ? `file ${warden.managedFile.file} (${config.managedPolicy === undefined ? 'WARDEN_MANAGED_POLICY' : 'configured'}; the stored managed layer is ignored)`
      : (await warden.store.policies.currentManaged()) === null
        ? 'none'
        : 'stored (edit it with PUT /v1/managed)';
  const workspaces = await warden.store.policies.workspaces();
  const revisions = await Promise.all(
    workspaces.map(
      async (w) => `${w} (revision ${(await warden.store.policies.current(w))?.revision ?? '?'})`,
    ),
  );
  const tokens = (await warden.store.tokens.list()).filter((t) => t.revokedAt === null);
  const roles = new Map<string, number>();
  for (const t of tokens) roles.set(t.role, (roles.get(t.role) ?? 0) + 1);
  const lines = [
    `Warden ${version} — listening on ${running.url}`,
    `  storage     ${storage}`,
    `  data        ${resolve(config.data)}`,
    `  managed     ${managed}`,
    `  workspaces  ${revisions.length === 0 ? 'none yet (PUT /v1/policy, or `warden policy apply FILE`)' : revisions.join(', ')}`,
    `  tokens      ${tokens.length === 0 ? 'none yet: `warden token create --role admin --name <you>`' : [...roles].map(([r, n]) => `${n} ${r}`).join(', ')}`,
    `  approvals   a prompt waits ${config.approvalTimeoutSeconds} s for a connected approver, else it is denied`,
    `  API         ${running.url}/v1/openapi.json · health ${running.url}/healthz · ready ${running.url}/readyz`,
  ];
  return `${lines.join('\n')}\n`;
}
