// `/v1/runs*`: what agents do (I2): runs with their steps, tokens and cost. An
// agent token reports on its own runs only; humans read.

import { z } from 'zod';
import type { RunRecord } from '../../store/types.js';
import type { Api } from '../api.js';
import { Reply } from '../api.js';
import type { Identity } from '../auth.js';
import { can, roleToken } from '../auth.js';
import type { ServerContext } from '../context.js';
import { agentCall, sees, timeWindow, workspaceOf } from '../context.js';
import { forbidden, notFound } from '../errors.js';
import { cents, given, limit } from './query.js';
import { runListView, runStepView, runView, runWithStepsView } from '../../views/runs.js';

/** A run the caller may see: an agent its own, a human any in its workspace. */
export async function runFor(
  ctx: ServerContext,
  identity: Identity,
  id: string,
): Promise<RunRecord> {
  const run = await ctx.warden.runs.get(id);
  const visible =
    run !== null &&
    sees(identity, run) &&
    (identity.role !== 'agent' || run.agent === identity.agent);
  if (!visible || run === null) throw notFound(`no run \`${id}\``);
  return run;
}

/** The calling agent's own run: only the agent of a run reports on it. */
export async function ownRun(
  ctx: ServerContext,
  identity: Identity,
  id: string,
): Promise<RunRecord> {
  if (identity.role !== 'agent')
    throw forbidden('only the agent of a run reports on it: that takes its `agent` token');
  return runFor(ctx, identity, id);
}

export function runRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'get',
    path: '/v1/runs',
    summary: 'Run receipts: steps, tokens, cost, linked task; newest first',
    permission: 'read',
    query: z.strictObject({
      workspace: z.string().optional(),
      agent: z.string().optional(),
      since: z.string().optional(),
      until: z.string().optional(),
      limit,
    }),
    response: runListView,
    responses: { 200: '`{ runs }`' },
    handler: async ({ identity, query }) => {
      const now = ctx.clock();
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const runs = await warden.runs.list({
        workspace,
        ...given(query, 'agent'),
        ...timeWindow(query, now),
        limit: query.limit ?? 100,
      });
      return { runs };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/runs/:id',
    summary: 'One run with its steps',
    permission: 'any',
    response: runWithStepsView,
    responses: { 200: 'the run and `stepList`', 404: 'no such run' },
    handler: async ({ identity, params }) => {
      if (!can(identity, 'read') && identity.role !== 'agent')
        throw forbidden(`${roleToken(identity.role)} may not read runs`);
      const run = await runFor(ctx, identity, params.id as string);
      return { ...run, stepList: await warden.runs.steps(run.id) };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/runs',
    summary: 'Start a run of the calling agent',
    permission: 'decide',
    body: z.strictObject({ taskId: z.string().optional(), budgetCents: cents.optional() }),
    response: runView,
    responses: { 201: 'the run' },
    handler: async ({ identity, body }) =>
      new Reply(
        201,
        await warden.startRun(await agentCall(ctx, identity), given(body, 'taskId', 'budgetCents')),
      ),
  });

  api.add({
    method: 'post',
    path: '/v1/runs/:id/steps',
    summary: "Add a step (tokens, cost) to the calling agent's run",
    permission: 'report',
    body: z.strictObject({
      kind: z.string().min(1).max(64),
      tool: z.string().optional(),
      tokensIn: cents.optional(),
      tokensOut: cents.optional(),
      costCents: cents.optional(),
      note: z.string().max(2000).optional(),
    }),
    response: runStepView,
    responses: { 201: 'the step', 404: 'no such run of this agent' },
    handler: async ({ identity, params, body }) => {
      const run = await ownRun(ctx, identity, params.id as string);
      return new Reply(
        201,
        await warden.recordStep(run.id, {
          kind: body.kind,
          ...given(body, 'tool', 'tokensIn', 'tokensOut', 'costCents', 'note'),
        }),
      );
    },
  });

  api.add({
    method: 'post',
    path: '/v1/runs/:id/finish',
    summary: "Finish the calling agent's run",
    permission: 'report',
    body: z.strictObject({ status: z.enum(['done', 'failed', 'cancelled']) }),
    response: runView,
    responses: { 200: 'the run', 404: 'no such run of this agent' },
    handler: async ({ identity, params, body }) => {
      const run = await ownRun(ctx, identity, params.id as string);
      const finished = await warden.runs.finish(run.id, body.status, ctx.clock());
      if (finished === null) throw notFound(`no run \`${run.id}\``);
      return finished;
    },
  });
}
