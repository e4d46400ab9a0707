// The server under test of the HTTP bench, in a process of its own (see
// http-load.ts for why): `warden` is `warden serve` on SQLite in a temporary
// data folder, with a policy and agent tokens; `bare` is a Hono app on
// @hono/node-server whose POST /v1/decide answers a constant (the cost of HTTP
// itself). It talks to the load process over the IPC channel: it sends
// `ready` with its URL, answers `count` with the audit log's counts, and
// `stop` stops it (as SIGTERM does) and ends the process normally, so that a
// --cpu-prof profile is written. The cluster bench starts `warden` with a
// setting (JSON, the second argument): a data folder or a Postgres URL and
// schema to share with other servers, and whether this one writes the policy
// and the tokens or finds them there.

import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createToken } from '../packages/warden/dist/tokens.js';
import { configSchema } from '../packages/warden/dist/server/config.js';
import { startServer } from '../packages/warden/dist/server/serve.js';

export type ServerKind = 'warden' | 'bare';

/** From the load process. */
export type ServerCommand = { readonly type: 'count' } | { readonly type: 'stop' };

/** To the load process. */
export type ServerMessage =
  | {
      readonly type: 'ready';
      readonly url: string;
      /** One agent token per agent (warden only). */
      readonly tokens: readonly string[];
    }
  | {
      readonly type: 'count';
      /** Audit entries of kind `decision`: one per answered decide. */
      readonly decisions: number;
      /** Entries of every kind (a deny also writes a `call` entry with status Denied). */
      readonly entries: number;
      readonly denied: number;
      /** CPU this process has used so far, all its threads, in microseconds. */
      readonly cpuMicros: number;
    };

/** Where a `warden` server keeps its state, when it shares it (the cluster bench). */
export interface WardenSetting {
  readonly data?: string;
  readonly databaseUrl?: string;
  readonly schema?: string;
  /** Write the policy and make the tokens (the first server); the others find them. */
  readonly setup: boolean;
}

const cpuMicros = (): number => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

export const WORKSPACE = 'acme';
export const AGENTS = ['coder-1', 'coder-2', 'reviewer-1', 'ops-1'] as const;

/** Hard rules only: a soft deny would open an override and a prompt hold for an approver. */
export const POLICY = {
  version: 1,
  workspace: WORKSPACE,
  rules: [
    {
      id: 'protect-main',
      action: 'gitPush',
      decision: 'deny',
      when: { refs: ['main', 'release/**'] },
    },
    {
      id: 'feature-branches',
      action: 'gitPush',
      decision: 'allow',
      when: { refs: ['feature/**'] },
    },
    {
      id: 'no-egress-prod',
      action: 'networkEgress',
      decision: 'deny',
      when: { hosts: ['*.prod.internal'] },
    },
    {
      id: 'clean-build-output',
      action: 'fileDelete',
      decision: 'allow',
      when: { paths: ['repos/*/dist/**'] },
    },
    { id: 'tests', command: 'npm test', decision: 'allow' },
    { id: 'no-rm-rf', command: 'rm -rf', decision: 'deny' },
    { id: 'no-force-push', command: 'git push --force', decision: 'deny' },
  ],
};

function send(message: ServerMessage): void {
  process.send?.(message);
}

async function warden(setting: WardenSetting): Promise<void> {
  const owned = setting.data === undefined;
  const data = setting.data ?? mkdtempSync(join(tmpdir(), 'warden-bench-http-'));
  const config = configSchema.parse({
    data,
    port: 0,
    logLevel: 'silent',
    ...(setting.databaseUrl === undefined ? {} : { databaseUrl: setting.databaseUrl }),
    ...(setting.schema === undefined ? {} : { databaseSchema: setting.schema }),
  });
  const running = await startServer(config, { version: 'bench', env: {} });
  const { warden } = running;
  const tokens: string[] = [];
  if (setting.setup) {
    const put = await warden.putPolicy(POLICY, { author: 'bench' });
    if (!put.ok) throw new Error(`the bench policy was refused: ${JSON.stringify(put)}`);
  }
  for (const agent of setting.setup ? AGENTS : []) {
    const made = await createToken(warden.store.tokens, {
      role: 'agent',
      name: agent,
      workspace: WORKSPACE,
      agent,
      by: 'bench',
      at: Date.now(),
    });
    if (!made.ok) throw new Error(`no token for ${agent}: ${JSON.stringify(made.problems)}`);
    tokens.push(made.token);
  }
  process.on('message', (command: ServerCommand) => {
    void (async () => {
      if (command.type === 'count') {
        const audit = warden.store.audit;
        const [decisions, all, denied] = await Promise.all([
          audit.group({ kinds: ['decision'] }, []),
          audit.group({}, []),
          audit.group({ kinds: ['call'], statuses: ['Denied'] }, []),
        ]);
        send({
          type: 'count',
          decisions: decisions[0]?.count ?? 0,
          entries: all[0]?.count ?? 0,
          denied: denied[0]?.count ?? 0,
          cpuMicros: cpuMicros(),
        });
      } else if (command.type === 'stop') {
        await running.stop();
        if (owned) rmSync(data, { recursive: true, force: true });
        process.exit(0);
      }
    })().catch(fail);
  });
  // The load process ended without a `stop` (it failed): stop anyway, leave nothing behind.
  process.once('disconnect', () => {
    void running.stop().finally(() => {
      if (owned) rmSync(data, { recursive: true, force: true });
      process.exit(1);
    });
  });
  send({ type: 'ready', url: running.url, tokens });
}

async function bare(constant: string): Promise<void> {
  const app = new Hono();
  // The same route and the same answer (a Warden decision, byte for byte), from a constant:
  // the body is neither read nor parsed, nothing is decided or written.
  app.post('/v1/decide', (c) => c.body(constant, 200, { 'content-type': 'application/json' }));
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(started as Server),
    ) as Server;
    started.once('error', reject);
  });
  const address = server.address();
  if (typeof address !== 'object' || address === null)
    throw new Error('the bare server has no port');
  process.on('message', (command: ServerCommand) => {
    if (command.type === 'count')
      send({ type: 'count', decisions: 0, entries: 0, denied: 0, cpuMicros: cpuMicros() });
    else if (command.type === 'stop') {
      server.close(() => process.exit(0));
      server.closeIdleConnections();
    }
  });
  process.once('disconnect', () => process.exit(1));
  send({ type: 'ready', url: `http://127.0.0.1:${address.port}`, tokens: [] });
}

function fail(error: unknown): never {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}

const [kind, constant] = process.argv.slice(2) as [ServerKind, string | undefined];
if (kind === 'warden')
  warden(constant === undefined ? { setup: true } : (JSON.parse(constant) as WardenSetting)).catch(
    fail,
  );
else if (kind === 'bare') bare(constant ?? '{}').catch(fail);
else fail(new Error(`unknown server \`${String(kind)}\``));
