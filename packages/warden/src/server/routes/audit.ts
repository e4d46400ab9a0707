// `/v1/audit` (contracts §6, §8): read the audit log, and an adapter's report
// of how a call ended. The identity on every entry is the token's; a decision's
// call is reported once.

import { z } from 'zod';
import type { CallMatch } from '../../gate/completion.js';
import type { CallContext } from '../../gate/types.js';
import type { AuditKind, AuditStatus, JsonValue } from '../../store/types.js';
import { AUDIT_KINDS, AUDIT_STATUSES } from '../../store/types.js';
import type { Api } from '../api.js';
import { Reply } from '../api.js';
import type { ServerContext } from '../context.js';
import { agentCall, sourceOf, timeWindow, workspaceOf } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { given, limit, list, oneOrMore } from './query.js';
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
  completes: z
    .union([
      z.strictObject({ callId: z.string().min(1) }),
      z.strictObject({ callIdPrefix: z.string().min(1), callIdSuffix: z.string() }),
    ])
    .optional()
    .describe(
      "a runtime hook's completion: the decision is found by the call id it was asked with (or, for a runtime that sends none, by the id's start and end); `tool` names the call",
    ),
  input: z
    .unknown()
    .optional()
    .describe(
      "with `completes`: the call's arguments, recorded when no allowing decision covers it",
    ),
  ungated: z
    .string()
    .optional()
    .describe('with `completes`: why the hook let the call run without a decision'),
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

/** A runtime hook's completion (gate/completion.ts), one at a time per agent in this process. */
async function completion(
  ctx: ServerContext,
  context: CallContext,
  body: z.infer<typeof reportSchema>,
  match: CallMatch,
): Promise<Reply<CallEntryView>> {
  if (body.auditId !== undefined || body.callId !== undefined)
    throw badRequest(
      'completes',
      'a completion names its call in `completes`, not with `auditId` or `callId`',
    );
  if (body.tool === undefined) throw badRequest('tool', 'say which `tool` ran');
  const ending = body.arguments ?? {};
  if (typeof ending !== 'object' || ending === null || Array.isArray(ending))
    throw badRequest('arguments', "a completion's `arguments` say how the call ended: an object");
  if (body.status !== 'Ok' && body.status !== 'Error')
    throw badRequest('status', 'a call that ran ended `Ok` or `Error`');
  const tool = body.tool;
  const status = body.status;
  const recorded = await reportOnce(`${context.workspace}\u0000${context.agent}`, () =>
    ctx.warden.audit.recordCompletion(
      context,
      {
        match,
        tool,
        status,
        ending: ending as Record<string, JsonValue>,
        ...given(body, 'durationMs', 'error'),
        ...(body.input === undefined ? {} : { input: body.input as JsonValue }),
        ...(body.ungated === undefined ? {} : { ungated: body.ungated }),
      },
      ctx.clock(),
    ),
  );
  if (recorded.kind === 'reported')
    throw conflict(
      `the call of decision \`${String(recorded.entry.decisionId)}\` was reported already, as entry \`${recorded.entry.id}\``,
    );
  return new Reply(201, shownCallEntry(recorded.entry));
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
      const entries = await ctx.warden.audit.query({
        workspace,
        ...given(query, 'agent', 'tool'),
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
      if (body.completes !== undefined) return completion(ctx, context, body, body.completes);
      for (const key of ['input', 'ungated'] as const)
        if (body[key] !== undefined) throw badRequest(key, `\`${key}\` goes with \`completes\``);
      let callId = body.callId;
      let tool = body.tool;
      let decisionId: string | null = null;
      if (body.auditId !== undefined) {
        const decision = await ctx.warden.audit.decision(body.auditId);
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
          const reported = await ctx.warden.audit.ending(decisionId);
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
          ...given(body, 'error'),
        });
        return new Reply(201, shownCallEntry(entry));
      };
      const reported = decisionId;
      return reported === null ? report(null) : reportOnce(reported, () => report(reported));
    },
  });
}
