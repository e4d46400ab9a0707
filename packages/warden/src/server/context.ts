// What every route needs: the Warden it serves, the clock, and the rules for
// which workspace a request concerns — an agent's or a bound token's own, an
// unbound human's as asked (or the only one there is) — and where an agent
// acts: its token's space and mode, else its registration's, never the body's.

import type { Logger } from 'pino';
import type { CallContext } from '../gate/gate.js';
import type { Warden } from '../warden.js';
import { GateFault } from '../gate/fault.js';
import type { Identity } from './auth.js';
import type { ApiError } from './errors.js';
import { badRequest, forbidden } from './errors.js';

export interface ServerContext {
  readonly warden: Warden;
  readonly logger: Logger;
  readonly version: string;
  readonly clock: () => number;
  /** The server's own name in presence records and logs (host:port). */
  readonly node: string;
  /**
   * What a command this server grants may not read: the credential folders
   * (or the operator's list instead) and the server's own data folder.
   */
  readonly sandboxDenyRead?: readonly string[];
}

/**
 * The workspace a call names, as its token allows: a token bound to a
 * workspace acts there and nowhere else (naming another is a 403); an unbound
 * one acts where the call says, if it says.
 */
export function workspaceAsked(identity: Identity, asked: string | undefined): string | undefined {
  if (identity.workspace === null) return asked;
  if (asked !== undefined && asked !== identity.workspace)
    throw forbidden(`this token acts in workspace \`${identity.workspace}\`, not in \`${asked}\``);
  return identity.workspace;
}

/** Whether a token may see a record: one bound to a workspace sees that workspace's only. */
export function sees(identity: Identity, record: { readonly workspace: string | null }): boolean {
  return identity.workspace === null || record.workspace === identity.workspace;
}

/** The workspace a request acts in; a token bound to another workspace gets 403. */
export async function workspaceOf(
  ctx: ServerContext,
  identity: Identity,
  asked: string | undefined,
): Promise<string> {
  const workspace = workspaceAsked(identity, asked);
  if (workspace !== undefined) return workspace;
  const known = await ctx.warden.policy.workspaces();
  if (known.length === 1) return known[0] as string;
  throw badRequest(
    'workspace',
    known.length === 0
      ? 'no workspace has a policy yet: say which workspace with `workspace`'
      : `say which workspace with \`workspace\`: ${known.map((w) => `\`${w}\``).join(', ')}`,
  );
}

/** The adapters that say which choke point they are (header `X-Warden-Adapter`); any other caller is `http`. */
export const ADAPTER_SOURCES = [
  'mcp-gateway',
  'claude-code',
  'codex',
  'gemini-cli',
  'exec',
] as const;

/** The audit's `source` for a request: the adapter it names, if it is one Warden knows. */
export function sourceOf(header: string | undefined): string {
  return (ADAPTER_SOURCES as readonly string[]).includes(header ?? '')
    ? (header as string)
    : 'http';
}

/** Where a space or mode an agent acts in comes from. */
export type PlacedBy = 'token' | 'registration' | null;

/**
 * Where an agent acts (contracts §8): the space and the mode its token binds,
 * else the ones it is registered with (`PUT /v1/agents/:id`), else none. A
 * change to the registration holds from the next request on at the server
 * that made it, and within a quarter second at the others (sooner with
 * Postgres's notices), as a policy change does.
 */
export interface Placement {
  readonly space: string | null;
  readonly spaceBy: PlacedBy;
  readonly mode: string | null;
  readonly modeBy: PlacedBy;
}

export async function placementOf(
  ctx: ServerContext,
  workspace: string,
  agent: string,
  bound: { readonly space: string | null; readonly mode: string | null } = {
    space: null,
    mode: null,
  },
): Promise<Placement> {
  let registered: { space: string | null; mode: string | null } = { space: null, mode: null };
  if (bound.space === null || bound.mode === null) {
    try {
      registered = await ctx.warden.registrations.get(workspace, agent);
    } catch (error) {
      // Without the registration the space is unknown: acting in none could be freer (fail-closed).
      throw new GateFault(
        'store',
        `cannot read the registration of agent \`${agent}\`: ${(error as Error).message}`,
      );
    }
  }
  const pick = (token: string | null, registration: string | null) =>
    token !== null
      ? { value: token, by: 'token' as const }
      : registration !== null
        ? { value: registration, by: 'registration' as const }
        : { value: null, by: null };
  const space = pick(bound.space, registered.space);
  const mode = pick(bound.mode, registered.mode);
  return { space: space.value, spaceBy: space.by, mode: mode.value, modeBy: mode.by };
}

/** What a request body says about who acts and where; each may only repeat the token's or the registration's. */
export interface Claimed {
  readonly workspace?: string | undefined;
  readonly agent?: string | undefined;
  readonly space?: string | undefined;
  readonly mode?: string | undefined;
}

function refusal(
  key: 'space' | 'mode',
  agent: string,
  value: string | null,
  by: PlacedBy,
  asked: string,
): ApiError {
  const where =
    by === 'token'
      ? `this token is bound to ${key} \`${value as string}\``
      : by === 'registration'
        ? `agent \`${agent}\` is registered in ${key} \`${value as string}\``
        : `agent \`${agent}\` acts in no ${key} (neither its token nor its registration names one)`;
  return forbidden(
    `${where}, so the request may not name ${key} \`${asked}\`: an admin places an agent in a ${key} with its token (\`--${key}\`) or its registration (\`PUT /v1/agents/:id\`)`,
  );
}

/**
 * An agent token's call context (I1, contracts §8): the workspace and agent
 * from the token, the space and mode from the token or the agent's
 * registration. A body may repeat them or leave them out; one that names
 * another gets 403, so an agent cannot pick a freer space or drop its mode's net.
 */
export async function agentCall(
  ctx: ServerContext,
  identity: Identity,
  claimed: Claimed = {},
  options: { readonly worktree?: string | undefined; readonly source?: string } = {},
): Promise<CallContext> {
  const workspace = identity.workspace;
  const agent = identity.agent;
  if (identity.role !== 'agent' || workspace === null || agent === null)
    throw forbidden('only an `agent` token acts as an agent');
  if (claimed.workspace !== undefined && claimed.workspace !== workspace)
    throw forbidden(
      `this token acts in workspace \`${workspace}\`, so the request may not name workspace \`${claimed.workspace}\``,
    );
  if (claimed.agent !== undefined && claimed.agent !== agent)
    throw forbidden(
      `this token is agent \`${agent}\`, so the request may not name agent \`${claimed.agent}\``,
    );
  const placed = await placementOf(ctx, workspace, agent, identity);
  if (claimed.space !== undefined && claimed.space !== placed.space)
    throw refusal('space', agent, placed.space, placed.spaceBy, claimed.space);
  if (claimed.mode !== undefined && claimed.mode !== placed.mode)
    throw refusal('mode', agent, placed.mode, placed.modeBy, claimed.mode);
  return {
    workspace,
    agent,
    source: options.source ?? 'http',
    ...(placed.space === null ? {} : { space: placed.space }),
    ...(placed.mode === null ? {} : { mode: placed.mode }),
    ...(options.worktree === undefined ? {} : { worktree: options.worktree }),
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
