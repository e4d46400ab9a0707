// Reading what happened: the audit log (contracts §6, §8), the permissions
// audit — every decision with its facets, deciding rules and advisory hits
// (G39) — and what an advisory rule would have blocked (G25).

import { z } from 'zod';
import type { AuditEntry, AuditKind, AuditStatus } from '../../store/types.js';
import { AUDIT_KINDS, AUDIT_STATUSES } from '../../store/types.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { timeParam, timeWindow, workspaceOf } from '../context.js';

const oneOrMore = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]);
const limit = z.coerce.number().int().min(1).max(1000).optional();

export const auditQuery = z.strictObject({
  workspace: z.string().optional(),
  agent: z.string().optional(),
  since: z.string().optional().describe('ISO 8601 with a zone, or a span before now like `24h`'),
  until: z.string().optional(),
  status: oneOrMore(z.enum(AUDIT_STATUSES)).optional(),
  tool: z.string().optional(),
  kind: oneOrMore(z.enum(AUDIT_KINDS)).optional(),
  limit,
});

const permissionsQuery = z.strictObject({
  workspace: z.string().optional(),
  agent: z.string().optional(),
  since: z.string().optional(),
  until: z.string().optional(),
  outcome: z.enum(['allow', 'ask', 'deny']).optional(),
  advisory: z
    .enum(['1', 'true'])
    .optional()
    .describe('only decisions an advisory rule would have changed'),
  limit,
});

function list<T>(value: T | T[] | undefined): T[] | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value : [value];
}

function advisoriesOf(entry: AuditEntry): { rule: string; facet: string; wouldBe: string }[] {
  const decision = entry.decision as {
    advisories?: { rule: string; facet: string; wouldBe: string }[];
  } | null;
  return decision?.advisories ?? [];
}

export function recordRoutes(api: Api, ctx: ServerContext): void {
  api.add({
    method: 'get',
    path: '/v1/audit',
    summary: 'Read audit entries, newest first',
    permission: 'read',
    query: auditQuery,
    responses: { 200: '`{ entries }`' },
    handler: async ({ identity, query }) => {
      const now = ctx.clock();
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const entries = await ctx.warden.store.audit.query({
        workspace,
        ...(query.agent === undefined ? {} : { agent: query.agent }),
        ...(query.tool === undefined ? {} : { tool: query.tool }),
        ...(query.status === undefined ? {} : { statuses: list(query.status) as AuditStatus[] }),
        ...(query.kind === undefined ? {} : { kinds: list(query.kind) as AuditKind[] }),
        ...timeWindow(query, now),
        limit: query.limit ?? 100,
      });
      return { entries };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/permissions/audit',
    summary: 'Read the permissions audit: decisions with their facets, rules and advisory hits',
    permission: 'read',
    query: permissionsQuery,
    responses: { 200: '`{ decisions }`' },
    handler: async ({ identity, query }) => {
      const now = ctx.clock();
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const wanted = query.limit ?? 100;
      const found = await ctx.warden.store.audit.query({
        workspace,
        kinds: ['decision'],
        ...(query.agent === undefined ? {} : { agent: query.agent }),
        ...timeWindow(query, now),
        // Filters on the entries' content run here, so read a margin beyond the limit.
        limit:
          query.outcome === undefined && query.advisory === undefined
            ? wanted
            : Math.min(wanted * 20, 5000),
      });
      const decisions = found
        .filter((e) => query.outcome === undefined || e.outcome === query.outcome)
        .filter((e) => query.advisory === undefined || advisoriesOf(e).length > 0)
        .slice(0, wanted);
      return { decisions };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/permissions/advisories',
    summary: 'What each advisory rule would have decided, and how often, over a window (G25)',
    permission: 'read',
    query: z.strictObject({
      workspace: z.string().optional(),
      since: z.string().optional().describe('default `7d`'),
    }),
    responses: {
      200: '`{ since, decisions, truncated, rules: [{ rule, facet, wouldBe, count, agents, lastAt }] }`',
    },
    handler: async ({ identity, query }) => {
      const now = ctx.clock();
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const since = timeParam('since', query.since ?? '7d', now) as number;
      const counts = new Map<
        string,
        {
          rule: string;
          facet: string;
          wouldBe: string;
          count: number;
          agents: Set<string>;
          lastAt: string;
        }
      >();
      const cap = 100_000;
      const decisions = await ctx.warden.store.audit.query({
        workspace,
        kinds: ['decision'],
        sinceMs: since,
        order: 'oldest',
        limit: cap,
      });
      for (const entry of decisions) {
        for (const hit of advisoriesOf(entry)) {
          const key = `${hit.rule}\u0000${hit.facet}\u0000${hit.wouldBe}`;
          const seen = counts.get(key) ?? {
            ...hit,
            count: 0,
            agents: new Set<string>(),
            lastAt: '',
          };
          seen.count += 1;
          seen.agents.add(String(entry.agentId));
          seen.lastAt = entry.occurredAt as string;
          counts.set(key, seen);
        }
      }
      return {
        since: new Date(since).toISOString(),
        decisions: decisions.length,
        truncated: decisions.length === cap,
        rules: [...counts.values()]
          .sort((a, b) => b.count - a.count)
          .map((r) => ({ ...r, agents: [...r.agents].sort() })),
      };
    },
  });
}
