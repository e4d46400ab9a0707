// `/v1/audit` (contracts §6, §8): read the audit log, and an adapter's report
// of how a call ended. The identity on every entry is the token's; a decision's
// call is reported once.

import { z } from 'zod';
import type { AuditKind, AuditStatus } from '../../store/types.js';
import { AUDIT_KINDS, AUDIT_STATUSES } from '../../store/types.js';
import type { Api } from '../api.js';
import { Reply } from '../api.js';
import type { ServerContext } from '../context.js';
import { agentCall, sourceOf, timeWindow, workspaceOf } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { limit, list, oneOrMore } from './query.js';
import type { CallEntryView } from '../../views/audit.js';
import { auditListView, callEntryView, shownCallEntry, shownEntry } from '../../views/audit.js';

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

const reportSchema = z.strictObject({
  auditId: z.string().optional().describe('the `auditId` decide answered, for a call it allowed'),
  callId: z.string().optional(),
  tool: z.string().optional().describe('for a call no decision covered'),
  arguments: z.unknown().optional(),
  status: z.enum(
    AUDIT_STATUSES.filter((s) => s !== 'Staged') as ['Ok', 'Error', 'Denied', 'NotFound'],
  ),
  durationMs: z.number().min(0).optional(),
  error: z.string().optional(),
});

/** Reports of one decision, one at a time in this process: a second one finds the first. */
const reporting = new Map<string, Promise<unknown>>();

async function reportOnce<T>(decisionId: string, report: () => Promise<T>): Promise<T> {
  const before = reporting.get(decisionId) ?? Promise.resolve();
  const mine = before.then(report, report);
  const settled = mine.catch(() => undefined);
  reporting.set(decisionId, settled);
  try {
    return await mine;
  } finally {
    if (reporting.get(decisionId) === settled) reporting.delete(decisionId);
  }
}

export function auditRoutes(api: Api, ctx: ServerContext): void {
  api.add({
    method: 'get',
    path: '/v1/audit',
    summary: 'Read audit entries, newest first',
    permission: 'read',
    query: auditQuery,
    response: auditListView,
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
      return { entries: entries.map(shownEntry) };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/audit',
    summary: 'Report how a call ended',
    permission: 'report',
    body: reportSchema,
    response: callEntryView,
    responses: {
      201: 'the entry, durable',
      400: 'not a report',
      404: 'no such decision of this agent',
      409: 'the call of this decision was reported already',
    },
    handler: async ({ c, identity, body }) => {
      const context = await agentCall(
        ctx,
        identity,
        {},
        {
          source: sourceOf(c.req.header('x-warden-adapter')),
        },
      );
      let callId = body.callId;
      let tool = body.tool;
      let decisionId: string | null = null;
      if (body.auditId !== undefined) {
        const [decision] = await ctx.warden.store.audit.query({
          decisionId: body.auditId,
          kinds: ['decision'],
          order: 'oldest',
          limit: 1,
        });
        if (
          decision === undefined ||
          decision.agentId !== identity.agent ||
          decision.workspace !== identity.workspace
        )
          throw notFound(`no decision \`${body.auditId}\` of this agent`);
        decisionId = body.auditId;
        callId ??= decision.callId as string;
        tool ??= (decision.tool as string | null) ?? undefined;
      }
      if (tool === undefined)
        throw badRequest('tool', 'say which `tool` ran, or give the `auditId` of its decision');
      const ran = tool;
      const report = async (decisionId: string | null): Promise<Reply<CallEntryView>> => {
        if (decisionId !== null) {
          // One decision, one call: how it ended is reported once (a held call's `Staged` aside).
          const [reported] = await ctx.warden.store.audit.query({
            decisionId,
            kinds: ['call'],
            statuses: AUDIT_STATUSES.filter((status) => status !== 'Staged'),
            limit: 1,
          });
          if (reported?.status === 'Denied')
            throw conflict(
              `decision \`${decisionId}\` denied its call, which therefore did not run (entry \`${reported.id}\`)`,
            );
          if (reported !== undefined)
            throw conflict(
              `the call of decision \`${decisionId}\` was reported already, as entry \`${reported.id}\``,
            );
        }
        const entry = await ctx.warden.gate.complete(context, {
          callId: callId ?? `c-${decisionId ?? Date.now().toString(36)}`,
          decisionId,
          tool: ran,
          arguments: body.arguments ?? null,
          status: body.status,
          durationMs: body.durationMs ?? null,
          ...(body.error === undefined ? {} : { error: body.error }),
        });
        return new Reply(201, shownCallEntry(entry));
      };
      const reported = decisionId;
      return reported === null ? report(null) : reportOnce(reported, () => report(reported));
    },
  });
}
