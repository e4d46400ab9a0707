// The fixed routes an adapter talks to (contracts §8): decide, report a
// finished call, and the what-if check that answers what decide would. The
// identity on every decision and entry is the token's, and the space and mode
// the token's or the agent's registration; a body that names another agent,
// workspace, space or mode is refused (I1).

import type { RequestArgs } from '@warden/engine';
import {
  checkRequestAgainstPolicy,
  explainDecision,
  parseTimestamp,
  validateRequest,
} from '@warden/engine';
import type { Context } from 'hono';
import { z } from 'zod';
import { GateFault } from '../../gate/fault.js';
import type { GateDecision } from '../../gate/types.js';
import { isRecorded } from '../../gate/types.js';
import { AUDIT_STATUSES } from '../../store/types.js';
import type { Api } from '../api.js';
import { Reply } from '../api.js';
import { agentCall, placementOf, sourceOf, workspaceOf } from '../context.js';
import type { ServerContext } from '../context.js';
import { badRequest, conflict, forbidden, invalid, notFound } from '../errors.js';
import { grantKey, issueGrant } from '../../sandbox/grant.js';
import { grantedRun } from '../../sandbox/profile.js';

const names = z.array(z.string()).describe('a list of names');

export const requestArgsSchema = z.strictObject({
  paths: names.optional(),
  refs: names.optional(),
  hosts: names.optional(),
  count: z.number().int().min(0).optional(),
  cents: z.number().int().min(0).optional(),
});

/** An action request (contracts §2); for an agent token, who acts and where come from the token or its registration. */
export const requestSchema = z.strictObject({
  workspace: z.string().optional().describe("an agent token's own; another is refused"),
  agent: z.string().optional().describe("an agent token's own; another is refused"),
  space: z
    .string()
    .optional()
    .describe(
      "for an agent token: its token's space, else its registered one; left out, that one; another is refused",
    ),
  mode: z
    .string()
    .optional()
    .describe(
      "for an agent token: its token's mode, else its registered one; left out, that one; another is refused",
    ),
  tool: z.string().optional(),
  actions: z.array(z.string()).optional(),
  command: z.string().optional(),
  worktree: z.string().optional(),
  args: requestArgsSchema.optional(),
});

const decideSchema = requestSchema.extend({
  arguments: z
    .unknown()
    .optional()
    .describe("the tool's own arguments, recorded (redacted) in the audit log"),
  callId: z.string().optional().describe("the runtime's id for the call"),
  unsandboxed: z
    .boolean()
    .optional()
    .describe(
      'true: the command asks to run without the OS sandbox; it then always needs a human (never remembered, never lifted by autonomy)',
    ),
  grant: z
    .boolean()
    .optional()
    .describe(
      'true: an allowed `command` comes with a `grant` that lets `warden exec --grant` run it once under the sandbox made from this decision',
    ),
});

const execStartSchema = z.strictObject({
  grant: z.string().max(512).describe('the `grant` decide answered with'),
  command: z.string().describe('the command line, exactly as decided'),
  worktree: z.string().describe('the worktree, exactly as decided'),
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

const whatIfSchema = z.strictObject({
  request: requestSchema,
  approver: z
    .enum(['connected', 'none'])
    .optional()
    .describe('default: whether one is connected now'),
  at: z
    .string()
    .optional()
    .describe('the time of the decision, ISO 8601 with a zone (default: now)'),
});

/**
 * A decision as the answer: 200 only when its audit entry is committed (contracts §8:
 * a 2xx means durable); a denial that could not be recorded is a 503 that says so.
 */
function answered(c: Context, decision: GateDecision): unknown {
  return isRecorded(decision) ? decision : c.json(decision, 503);
}

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

export function decideRoutes(api: Api, ctx: ServerContext): void {
  api.add({
    method: 'post',
    path: '/v1/decide',
    summary: 'Decide a request: allow, ask a human, or deny',
    permission: 'decide',
    body: decideSchema,
    query: z.strictObject({
      wait: z.enum(['0', '1']).optional().describe('`0`: answer at once with `ask`'),
    }),
    responses: {
      200: 'the decision (contracts §3) with `auditId`; durable when answered',
      400: 'not a request',
      403: 'the body names another workspace, agent, space or mode than its token or registration',
      503: 'a deny that could not be recorded: the decision without `auditId`, and `failure` says why',
    },
    handler: async ({ c, identity, body, query }) => {
      const context = await agentCall(ctx, identity, body, {
        worktree: body.worktree,
        source: sourceOf(c.req.header('x-warden-adapter')),
      });
      const decision = await ctx.warden.gate.decide(
        context,
        {
          ...(body.tool === undefined ? {} : { tool: body.tool }),
          ...(body.actions === undefined ? {} : { actions: body.actions }),
          ...(body.command === undefined ? {} : { command: body.command }),
          ...(body.args === undefined ? {} : { args: body.args as RequestArgs }),
          ...(body.arguments === undefined ? {} : { arguments: body.arguments }),
          ...(body.callId === undefined ? {} : { callId: body.callId }),
          ...(body.unsandboxed === true ? { unsandboxed: true } : {}),
        },
        {
          wait: query.wait !== '0',
          // Read only when the call waits for an approver: made on demand, it costs nothing otherwise.
          get signal() {
            return c.req.raw.signal;
          },
        },
      );
      if (
        body.grant === true &&
        decision.outcome === 'allow' &&
        isRecorded(decision) &&
        body.command !== undefined &&
        body.worktree !== undefined
      ) {
        const key = await grantKey(ctx.warden.store.secrets);
        const grant = issueGrant(key, {
          auditId: decision.auditId as string,
          command: body.command,
          worktree: body.worktree,
          at: Date.now(),
        });
        return { ...decision, grant };
      }
      return answered(c, decision);
    },
  });

  api.add({
    method: 'post',
    path: '/v1/exec/start',
    summary: 'The sandbox profile a granted command runs under, made from its decision',
    permission: 'decide',
    body: execStartSchema,
    responses: {
      200: '`auditId`, `callId` and `profile` (worktree, write, hosts, denyRead)',
      400: 'not a grant request',
      403: 'the grant does not verify, has expired, ran already, or is not this agent’s',
    },
    handler: async ({ identity, body }) => {
      const checked = await grantedRun(
        {
          secrets: ctx.warden.store.secrets,
          audit: ctx.warden.store.audit,
          snapshot: (workspace) => ctx.warden.gate.snapshot(workspace),
          ...(ctx.sandboxDenyRead === undefined ? {} : { denyRead: ctx.sandboxDenyRead }),
        },
        body.grant,
        { command: body.command, worktree: body.worktree, at: Date.now() },
      );
      if (!checked.ok) throw forbidden(checked.problem);
      const { run } = checked;
      if (run.workspace !== identity.workspace || run.agent !== identity.agent)
        throw forbidden(`decision \`${run.auditId}\` is not this agent's`);
      return { auditId: run.auditId, callId: run.callId, profile: run.profile };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/decide/:approvalId',
    summary: 'Wait for the decision of a request that was answered with `ask`',
    permission: 'decide',
    responses: { 200: 'the final decision', 404: 'no prompt of this agent with this id' },
    handler: async ({ c, identity, params }) => {
      const id = params.approvalId as string;
      const approval = await ctx.warden.store.approvals.get(id).catch((error: unknown) => {
        throw new GateFault('store', `cannot read approval \`${id}\`: ${(error as Error).message}`);
      });
      // Only a prompt answered `ask` is waited for here. A soft deny's override is used by
      // retrying the call (G26): waited for here too, one override would let two calls through.
      if (
        approval === null ||
        approval.kind !== 'prompt' ||
        approval.workspace !== identity.workspace ||
        approval.agent !== identity.agent
      )
        throw notFound(`no prompt \`${id}\` of this agent to wait for`);
      return answered(
        c,
        await ctx.warden.gate.awaitApproval(id, c.req.raw.signal, await agentCall(ctx, identity)),
      );
    },
  });

  api.add({
    method: 'post',
    path: '/v1/audit',
    summary: 'Report how a call ended',
    permission: 'report',
    body: reportSchema,
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
      const report = async (decisionId: string | null): Promise<Reply> => {
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
        return new Reply(201, entry);
      };
      const reported = decisionId;
      return reported === null ? report(null) : reportOnce(reported, () => report(reported));
    },
  });

  api.add({
    method: 'post',
    path: '/v1/what-if',
    summary: 'The what-if check: the decision a request would get now, and why (G38)',
    permission: 'any',
    body: whatIfSchema,
    responses: { 200: 'the decision (contracts §3)', 422: 'the request is not valid' },
    handler: async ({ identity, body }) => {
      const request = { ...body.request };
      if (identity.role === 'agent') {
        // An agent asks what decide would answer it: the same identity, space and mode.
        const context = await agentCall(ctx, identity, request);
        request.workspace = context.workspace;
        request.agent = context.agent;
        if (context.space !== undefined) request.space = context.space;
        if (context.mode !== undefined) request.mode = context.mode;
      } else {
        // A human may ask about any space and mode; one left out is the agent's registered one, as decide would use.
        request.workspace = await workspaceOf(ctx, identity, request.workspace);
        if (
          request.agent !== undefined &&
          (request.space === undefined || request.mode === undefined)
        ) {
          const placed = await placementOf(ctx, request.workspace, request.agent);
          if (request.space === undefined && placed.space !== null) request.space = placed.space;
          if (request.mode === undefined && placed.mode !== null) request.mode = placed.mode;
        }
      }
      const validated = validateRequest(request);
      if (!validated.ok)
        throw invalid(
          validated.issues.map((i) => ({
            path: `request${i.path === '' ? '' : `.${i.path}`}`,
            message: i.message,
          })),
        );
      const snapshot = await ctx.warden.gate.snapshot(validated.value.workspace);
      const mismatch = checkRequestAgainstPolicy(validated.value, snapshot.compiled.policy);
      if (mismatch.length > 0)
        throw invalid(mismatch.map((i) => ({ path: `request.${i.path}`, message: i.message })));
      let at = ctx.clock();
      if (body.at !== undefined) {
        const parsed = parseTimestamp(body.at);
        if (typeof parsed !== 'number') throw badRequest('at', parsed.problem);
        at = parsed;
      }
      const approverConnected =
        body.approver === undefined
          ? await ctx.warden.approvals.connected(validated.value.workspace)
          : body.approver === 'connected';
      return explainDecision({
        policy: snapshot.compiled,
        managed: snapshot.managed,
        managedSource: snapshot.managedSource,
        request: validated.value,
        at,
        approverConnected,
      }).result;
    },
  });
}
