// `/v1/what-if`: the what-if check (G38) answers what decide would, and why,
// without deciding anything: for an agent as its token places it, for a human
// about any agent, space and mode.

import {
  checkRequestAgainstPolicy,
  explainDecision,
  parseTimestamp,
  validateRequest,
} from '@warden/engine';
import { z } from 'zod';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { agentCall, placementOf, workspaceOf } from '../context.js';
import { badRequest, invalid, within } from '../errors.js';
import { requestSchema } from './decide.js';
import { whatIfView } from '../../views/what-if.js';

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

export function whatIfRoutes(api: Api, ctx: ServerContext): void {
  api.add({
    method: 'post',
    path: '/v1/what-if',
    summary: 'The what-if check: the decision a request would get now, and why',
    permission: 'any',
    body: whatIfSchema,
    response: whatIfView,
    responses: { 200: 'the decision', 422: 'the request is not valid' },
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
      if (!validated.ok) throw invalid(within('request', validated.issues));
      const snapshot = await ctx.warden.gate.snapshot(validated.value.workspace);
      const mismatch = checkRequestAgainstPolicy(validated.value, snapshot.compiled.policy);
      if (mismatch.length > 0) throw invalid(within('request', mismatch));
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
