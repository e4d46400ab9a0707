// What every route needs: the Warden it serves, the clock, and the rules for
// which workspace a request concerns — an agent's or a bound token's own, an
// unbound human's as asked (or the only one there is).

import type { Logger } from 'pino';
import type { CallContext } from '../gate/gate.js';
import type { Warden } from '../warden.js';
import type { Identity } from './auth.js';
import { badRequest, forbidden } from './errors.js';

export interface ServerContext {
  readonly warden: Warden;
  readonly logger: Logger;
  readonly version: string;
  readonly clock: () => number;
  /** The server's own name in presence records and logs (host:port). */
  readonly node: string;
}

/** The workspace a request acts in; a token bound to another workspace gets 403. */
export async function workspaceOf(
  ctx: ServerContext,
  identity: Identity,
  asked: string | undefined,
): Promise<string> {
  if (identity.workspace !== null) {
    if (asked !== undefined && asked !== identity.workspace)
      throw forbidden(
        `this token acts in workspace \`${identity.workspace}\`, not in \`${asked}\``,
      );
    return identity.workspace;
  }
  if (asked !== undefined) return asked;
  const known = await ctx.warden.store.policies.workspaces();
  if (known.length === 1) return known[0] as string;
  throw badRequest(
    'workspace',
    known.length === 0
      ? 'no workspace has a policy yet: say which workspace with `workspace`'
      : `say which workspace with \`workspace\`: ${known.map((w) => `\`${w}\``).join(', ')}`,
  );
}

/** An agent token's call context: every field from the token, none from the body (I1). */
/** The adapters that say which choke point they are (header `X-Warden-Adapter`); any other caller is `http`. */
export const ADAPTER_SOURCES = ['mcp-gateway', 'claude-code'] as const;

/** The audit's `source` for a request: the adapter it names, if it is one Warden knows. */
export function sourceOf(header: string | undefined): string {
  return (ADAPTER_SOURCES as readonly string[]).includes(header ?? '')
    ? (header as string)
    : 'http';
}

export function agentContext(
  identity: Identity,
  worktree: string | undefined,
  source = 'http',
): CallContext {
  return {
    workspace: identity.workspace as string,
    agent: identity.agent as string,
    source,
    ...(identity.space === null ? {} : { space: identity.space }),
    ...(identity.mode === null ? {} : { mode: identity.mode }),
    ...(worktree === undefined ? {} : { worktree }),
  };
}

/** `24h`, `7d`, `30m` before now, or an ISO 8601 time with a zone; milliseconds. */
export function timeParam(
  path: string,
  value: string | undefined,
  now: number,
): number | undefined {
  if (value === undefined) return undefined;
  const relative = /^(\d+)\s*(s|m|h|d)$/.exec(value);
  if (relative !== null) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
      relative[2] as 's' | 'm' | 'h' | 'd'
    ];
    return now - Number(relative[1]) * unit;
  }
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(value) || Number.isNaN(Date.parse(value)))
    throw badRequest(
      path,
      `\`${value}\` is neither a time with a zone (ISO 8601) nor a span like \`24h\``,
    );
  return Date.parse(value);
}

/** The `since`/`until` parameters of a query as a store filter's window (absent ones stay absent). */
export function timeWindow(
  query: { readonly since?: string | undefined; readonly until?: string | undefined },
  now: number,
): { sinceMs?: number; untilMs?: number } {
  const sinceMs = timeParam('since', query.since, now);
  const untilMs = timeParam('until', query.until, now);
  return {
    ...(sinceMs === undefined ? {} : { sinceMs }),
    ...(untilMs === undefined ? {} : { untilMs }),
  };
}
