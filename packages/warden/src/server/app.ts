// The HTTP API (contracts §8): JSON under /v1, a bearer token on every route
// but the health checks, errors as `{ "errors": [...] }` with a 4xx — and a
// 500 only for a bug, which says nothing of its stack.

import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { GateFault, unrecordedDenial } from '../gate/fault.js';
import { Api } from './api.js';
import type { Env } from './api.js';
import type { Identity } from './auth.js';
import { expiredAt, tokenHash } from '../tokens.js';
import type { ServerContext } from './context.js';
import {
  ApiError,
  errorBody,
  faultError,
  internal,
  notFound,
  tooLarge as tooLargeError,
  unauthorized,
  unavailable,
} from './errors.js';
import { agentRoutes } from './routes/agents.js';
import { approvalRoutes } from './routes/approvals.js';
import { auditRoutes } from './routes/audit.js';
import { decideRoutes } from './routes/decide.js';
import { delegateRoutes } from './routes/delegate.js';
import { execRoutes } from './routes/exec.js';
import { freezeRoutes } from './routes/freezes.js';
import { inspectorRoutes } from './routes/inspector.js';
import { managedRoutes } from './routes/managed.js';
import { metaRoutes } from './routes/meta.js';
import { permissionRoutes } from './routes/permissions.js';
import { policyRoutes } from './routes/policy.js';
import { reportRoutes } from './routes/reports.js';
import { ruleRoutes } from './routes/rules.js';
import { runRoutes } from './routes/runs.js';
import { spaceRoutes } from './routes/spaces.js';
import { taskRoutes } from './routes/tasks.js';
import { templateRoutes } from './routes/templates.js';
import { tokenRoutes } from './routes/tokens.js';
import { toolPinRoutes } from './routes/tool-pins.js';
import { whatIfRoutes } from './routes/what-if.js';
import { asksForPage, mountWeb } from './web.js';

export interface ServerState {
  /** Set when the server stops taking requests: readiness answers 503. */
  shuttingDown: boolean;
  /** Requests refused (503) since it began to stop: logged once, counted, when it has stopped. */
  refusedWhileStopping?: number;
}

const BODY_LIMIT = 2 * 1024 * 1024;
/** How long a token found by its hash is trusted before it is looked up again (a revocation waits at most this). */
const TOKEN_TTL_MS = 1000;

export function createApp(
  ctx: ServerContext,
  state: ServerState = { shuttingDown: false },
): { app: Hono<Env>; api: Api } {
  const app = new Hono<Env>();
  const api = new Api({ checkAnswers: process.env.WARDEN_CHECK_ANSWERS === '1' });
  const tokens = new Map<string, { identity: Identity | null; at: number }>();

  // The one place an error becomes a response (contracts §3, §8).
  const answer = (c: Context<Env>, error: ApiError) =>
    c.json(errorBody(error.problems), error.status);
  app.onError((error, c) => {
    if (error instanceof ApiError) return answer(c, error);
    const fault = faultError(error);
    if (fault === null) {
      ctx.logger.error({ err: error, path: c.req.path, method: c.req.method }, 'internal error');
      return answer(c, internal('internal error: the server logged it'));
    }
    // The store or the audit log is unavailable: a decide request gets the deny it comes to,
    // which says it is not recorded (no auditId).
    if (
      fault.status === 503 &&
      (c.req.path === '/v1/decide' || c.req.path.startsWith('/v1/decide/'))
    )
      return c.json(unrecordedDenial(new GateFault('store', fault.message)), 503);
    return answer(c, fault);
  });
  // Set below, once the console is mounted: a browser asking for a page nobody routes gets the console's not-found page.
  let pageNotFound: (() => Response) | null = null;
  app.notFound((c) =>
    pageNotFound !== null && asksForPage(c.req.method, c.req.path, c.req.header('accept'))
      ? pageNotFound()
      : answer(c, notFound(`no route \`${c.req.method} ${c.req.path}\``)),
  );

  // No API answer is kept by a cache or read as another type than it says, errors and 404s
  // included; the console's files bring their own headers (web.ts) and keep them.
  app.use('*', async (c, next) => {
    await next();
    const headers = c.res.headers;
    headers.set('x-content-type-options', 'nosniff');
    if (c.req.path === '/v1' || c.req.path.startsWith('/v1/') || !headers.has('cache-control'))
      headers.set('cache-control', 'no-store');
  });

  // One line per request at debug level; a failed one (5xx) at error level whatever the level.
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    // Stopping, every request is refused and its connection closed: counted, not logged one by one.
    if (state.shuttingDown && status === 503) {
      state.refusedWhileStopping = (state.refusedWhileStopping ?? 0) + 1;
      c.res.headers.set('connection', 'close');
      return;
    }
    const identity = c.get('identity') as Identity | undefined;
    if (status < 500 && !ctx.logger.isLevelEnabled('debug')) return;
    const line = {
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...(identity === undefined ? {} : { token: identity.id }),
    };
    if (status >= 500) ctx.logger.error(line, 'request failed');
    else ctx.logger.debug(line, 'request');
  });
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/readyz', async (c) => {
    if (state.shuttingDown) return c.json({ ok: false, reason: 'shutting down' }, 503);
    try {
      await ctx.warden.storage.ping();
      return c.json({ ok: true, storage: ctx.warden.storage.backend });
    } catch (error) {
      return c.json(
        { ok: false, reason: `the store does not answer: ${(error as Error).message}` },
        503,
      );
    }
  });

  const tooLarge = (): never => {
    throw tooLargeError('body', `the body is larger than ${BODY_LIMIT / 1024 / 1024} MiB`);
  };
  const streamedLimit = bodyLimit({ maxSize: BODY_LIMIT, onError: tooLarge });
  app.use('/v1/*', (c, next) => {
    // A declared length is checked from the header alone: reading `raw.body` here would turn
    // the server's fast path for the body into a stream per request. Only a body without a
    // length (chunked) is counted as it streams.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined)
      return Number(length) > BODY_LIMIT ? tooLarge() : next();
    return streamedLimit(c, next);
  });
  app.use('/v1/*', async (c, next) => {
    if (state.shuttingDown) throw unavailable('the server is shutting down');
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (match === null)
      throw unauthorized('authorization', 'give a token: `Authorization: Bearer <token>`');
    const presented = match[1] as string;
    const now = ctx.clock();
    // Held by the token itself for a second: hashing it on every request would cost more than the rest of auth.
    let known = tokens.get(presented);
    if (known === undefined || now - known.at > TOKEN_TTL_MS) {
      const identity = await ctx.warden.tokens
        .byHash(tokenHash(presented))
        .catch((error: unknown) => {
          throw new GateFault(
            'store',
            `the token cannot be checked, because the store is not available: ${(error as Error).message}`,
          );
        });
      known = { identity, at: now };
      if (tokens.size > 10_000) tokens.clear();
      tokens.set(presented, known);
    }
    if (known.identity === null)
      throw unauthorized('authorization', 'the token is not known or was revoked');
    const expired = expiredAt(known.identity, now);
    if (expired !== null)
      throw unauthorized(
        'authorization',
        `the token \`${known.identity.name}\` expired at ${expired}: an admin makes a new one (\`warden token create\` or \`POST /v1/tokens\`)`,
      );
    c.set('identity', known.identity);
    return next();
  });

  // A token revoked through this server is refused here at once; other servers take up to TOKEN_TTL_MS.
  app.use('/v1/tokens/:id', async (c, next) => {
    await next();
    if (c.req.method !== 'DELETE' || c.res.status !== 200) return;
    const id = c.req.param('id');
    for (const [presented, known] of tokens)
      if (known.identity?.id === id) tokens.delete(presented);
  });

  // One file under routes/ per URL prefix: `/v1/decide*` is in decide.ts, `/v1/permissions/*` in permissions.ts.
  for (const routes of [
    decideRoutes,
    auditRoutes,
    execRoutes,
    whatIfRoutes,
    approvalRoutes,
    policyRoutes,
    ruleRoutes,
    spaceRoutes,
    managedRoutes,
    permissionRoutes,
    templateRoutes,
    agentRoutes,
    freezeRoutes,
    runRoutes,
    delegateRoutes,
    taskRoutes,
    tokenRoutes,
    toolPinRoutes,
    reportRoutes,
    inspectorRoutes,
    metaRoutes,
  ])
    routes(api, ctx);
  api.mount(app);
  pageNotFound = mountWeb(app);
  return { app, api };
}
