// The server in process for route tests: a Warden on a fresh data folder, the
// app over it, one token per role, and `call` to ask it. Tests that need more
// tokens make them with `token`; a test with a store of its own uses `makeToken`.

import type { Hono } from 'hono';
import { pino } from 'pino';
import type { Api, Env } from '../../src/server/api.js';
import { createApp } from '../../src/server/app.js';
import type { ServerState } from '../../src/server/app.js';
import { createToken } from '../../src/tokens.js';
import type { ServerContext } from '../../src/server/context.js';
import type { TokenRecord, TokenStore } from '../../src/store/types.js';
import type { WardenOptions } from '../../src/warden.js';
import type { TestWarden } from './warden.js';
import { caller, openTestWarden } from './warden.js';

/** What a token may be bound to beyond its role and name. */
export interface TokenBinding {
  readonly workspace?: string;
  readonly agent?: string;
  readonly space?: string;
  readonly mode?: string;
}

/** A token of `role` named `name`, made directly in `store`: its secret and its record. */
export async function makeToken(
  store: TokenStore,
  role: string,
  name: string,
  binding: TokenBinding = {},
): Promise<{ token: string; record: TokenRecord }> {
  const made = await createToken(store, { role, name, ...binding, by: 'test', at: Date.now() });
  if (!made.ok) throw new Error(`test token is not valid: ${JSON.stringify(made.problems)}`);
  return { token: made.token, record: made.record };
}

/** One token per role: admin `ada`, approver `alice`, overrider `olga`, viewer `vic`, agent `coder` (coder-1 in acme). */
export interface RoleTokens {
  readonly admin: string;
  readonly approver: string;
  readonly overrider: string;
  readonly viewer: string;
  readonly agent: string;
}

export interface TestServer {
  readonly t: TestWarden;
  readonly ctx: ServerContext;
  readonly app: Hono<Env>;
  readonly api: Api;
  readonly tokens: RoleTokens;
  /** `call(method, path, token?, body?)` against the app. */
  readonly call: ReturnType<typeof caller>;
  /** Another token of this server's store. */
  token(role: string, name: string, binding?: TokenBinding): Promise<string>;
  cleanup(): Promise<void>;
}

export interface TestServerOptions {
  /** How the Warden opens (approval timing, a managed policy file, …). */
  readonly warden?: WardenOptions;
  /** The server's clock (default `Date.now`). */
  readonly clock?: () => number;
  readonly state?: ServerState;
}

/** A Warden with `policy` stored (none when null), and the app over it. */
export async function openTestServer(
  policy: object | null,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const t = await openTestWarden(policy, options.warden);
  const ctx: ServerContext = {
    warden: t.warden,
    logger: pino({ level: 'silent' }),
    version: '0.0.0-test',
    clock: options.clock ?? Date.now,
    node: 'test:0',
  };
  const { app, api } = createApp(ctx, options.state);
  const token = async (role: string, name: string, binding: TokenBinding = {}) =>
    (await makeToken(t.warden.store.tokens, role, name, binding)).token;
  const tokens: RoleTokens = {
    admin: await token('admin', 'ada'),
    approver: await token('approver', 'alice'),
    overrider: await token('overrider', 'olga'),
    viewer: await token('viewer', 'vic'),
    agent: await token('agent', 'coder', { workspace: 'acme', agent: 'coder-1' }),
  };
  return { t, ctx, app, api, tokens, call: caller(app), token, cleanup: () => t.cleanup() };
}
