// `/v1/decide` (contracts §8): decide an adapter's request, and wait for the
// decision of one answered with `ask`. The identity on every decision is the
// token's, and the space and mode the token's or the agent's registration; a
// body that names another agent, workspace, space or mode is refused (I1).

import type { RequestArgs } from '@warden/engine';
import type { Context } from 'hono';
import { z } from 'zod';
import { GateFault } from '../../gate/fault.js';
import type { GateDecision } from '../../gate/types.js';
import { isRecorded } from '../../gate/types.js';
import { issueGrant } from '../../sandbox/grant.js';
import type { Api } from '../api.js';
import { agentCall, sourceOf } from '../context.js';
import type { ServerContext } from '../context.js';
import { given } from './query.js';
import { badRequest, notFound } from '../errors.js';
import { decideAnswerView, gateDecisionView } from '../../views/decision.js';

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
  transactional: z
    .boolean()
    .optional()
    .describe(
      'true (with `grant`): the command will run over a copy-on-write layer and be decided on what it does before that lands, so a command that cannot be read whole may run so, without network',
    ),
});

/** The header an adapter says with how many seconds it waits for a human (its own deadline). */
export const WAIT_HEADER = 'x-warden-wait';

/** The caller's wait in milliseconds; undefined when it does not say; a bad value is a 400. */
function callerWait(header: string | undefined): number | undefined {
  if (header === undefined || header === '') return undefined;
  const seconds = Number(header);
  if (!/^\d+(\.\d+)?$/.test(header.trim()) || !(seconds > 0) || seconds > 86_400)
    throw badRequest(
      'X-Warden-Wait',
      `\`${header.slice(0, 40)}\` is not a number of seconds between 0 and 86400`,
    );
  return Math.round(seconds * 1000);
}

/**
 * A decision as the answer: 200 only when its audit entry is committed (contracts §8:
 * a 2xx means durable); a denial that could not be recorded is a 503 that says so.
 */
function answered(c: Context, decision: GateDecision): GateDecision | Response {
  return isRecorded(decision) ? decision : c.json(decision, 503);
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
    response: decideAnswerView,
    responses: {
      200: 'the decision with `auditId`; durable when answered',
      400: 'not a request',
      403: 'the body names another workspace, agent, space or mode than its token or registration',
      503: 'a deny that could not be recorded: the decision without `auditId`, and `failure` says why',
    },
    handler: async ({ c, identity, body, query }) => {
      const waitMs = callerWait(c.req.header(WAIT_HEADER));
      const context = await agentCall(ctx, identity, body, {
        worktree: body.worktree,
        source: sourceOf(c.req.header('x-warden-adapter')),
      });
      const decision = await ctx.warden.gate.decide(
        context,
        {
          ...given(body, 'tool', 'actions', 'command'),
          ...(body.args === undefined ? {} : { args: body.args as RequestArgs }),
          ...given(body, 'arguments', 'callId'),
          ...(body.unsandboxed === true ? { unsandboxed: true } : {}),
          // Only a granted run is held to a layer: `warden exec` reads the recorded decision.
          ...(body.transactional === true && body.grant === true ? { transactional: true } : {}),
        },
        {
          wait: query.wait !== '0',
          ...(waitMs === undefined ? {} : { waitMs }),
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
        const key = await ctx.warden.grants.key();
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
    method: 'get',
    path: '/v1/decide/:approvalId',
    summary: 'Wait for the decision of a request that was answered with `ask`',
    permission: 'decide',
    response: gateDecisionView,
    responses: {
      200: 'the final decision',
      404: 'no prompt of this agent with this id',
      503: 'a deny that could not be recorded',
    },
    handler: async ({ c, identity, params }) => {
      const id = params.approvalId as string;
      const approval = await ctx.warden.approvals.get(id).catch((error: unknown) => {
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
}
