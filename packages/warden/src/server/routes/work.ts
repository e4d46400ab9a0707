// What agents do and should do (I2): runs with their steps, tokens and cost,
// delegation between agents (G33–G36), the taskboard, and the agents
// themselves. An agent token reports for its own runs only; humans read.

import { AUTONOMY_LEVELS } from '@warden/engine';
import { z } from 'zod';
import { listInstanceAgents } from '../../instance/index.js';
import { newId } from '../../ids.js';
import type { RunRecord } from '../../store/types.js';
import type { Api } from '../api.js';
import { Reply } from '../api.js';
import type { Identity } from '../auth.js';
import { can, roleToken } from '../auth.js';
import type { ServerContext } from '../context.js';
import { agentCall, timeParam, timeWindow, workspaceOf } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';

const limit = z.coerce.number().int().min(1).max(1000).optional();
const cents = z.number().int().min(0);

export function workRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  /** A run the caller may see: an agent its own, a human any in its workspace. */
  const runFor = async (identity: Identity, id: string): Promise<RunRecord> => {
    const run = await warden.store.runs.get(id);
    const visible =
      run !== null &&
      (identity.workspace === null || run.workspace === identity.workspace) &&
      (identity.role !== 'agent' || run.agent === identity.agent);
    if (!visible || run === null) throw notFound(`no run \`${id}\``);
    return run;
  };
  const ownRun = async (identity: Identity, id: string): Promise<RunRecord> => {
    if (identity.role !== 'agent')
      throw forbidden('only the agent of a run reports on it: that takes its `agent` token');
    return runFor(identity, id);
  };

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
    responses: { 200: '`{ runs }`' },
    handler: async ({ identity, query }) => {
      const now = ctx.clock();
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const runs = await warden.store.runs.list({
        workspace,
        ...(query.agent === undefined ? {} : { agent: query.agent }),
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
    responses: { 200: 'the run and `steps`', 404: 'no such run' },
    handler: async ({ identity, params }) => {
      if (!can(identity, 'read') && identity.role !== 'agent')
        throw forbidden(`${roleToken(identity.role)} may not read runs`);
      const run = await runFor(identity, params.id as string);
      return { ...run, stepList: await warden.store.runs.steps(run.id) };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/runs',
    summary: 'Start a run of the calling agent',
    permission: 'decide',
    body: z.strictObject({ taskId: z.string().optional(), budgetCents: cents.optional() }),
    responses: { 201: 'the run' },
    handler: async ({ identity, body }) =>
      new Reply(
        201,
        await warden.startRun(await agentCall(ctx, identity), {
          ...(body.taskId === undefined ? {} : { taskId: body.taskId }),
          ...(body.budgetCents === undefined ? {} : { budgetCents: body.budgetCents }),
        }),
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
    responses: { 201: 'the step', 404: 'no such run of this agent' },
    handler: async ({ identity, params, body }) => {
      const run = await ownRun(identity, params.id as string);
      return new Reply(
        201,
        await warden.recordStep(run.id, {
          kind: body.kind,
          ...(body.tool === undefined ? {} : { tool: body.tool }),
          ...(body.tokensIn === undefined ? {} : { tokensIn: body.tokensIn }),
          ...(body.tokensOut === undefined ? {} : { tokensOut: body.tokensOut }),
          ...(body.costCents === undefined ? {} : { costCents: body.costCents }),
          ...(body.note === undefined ? {} : { note: body.note }),
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
    responses: { 200: 'the run' },
    handler: async ({ identity, params, body }) => {
      const run = await ownRun(identity, params.id as string);
      return warden.store.runs.finish(run.id, body.status, ctx.clock());
    },
  });

  api.add({
    method: 'post',
    path: '/v1/delegate',
    summary:
      'Delegate a task from one of the calling agent’s runs (depth, cycle, autonomy, budget guards)',
    permission: 'decide',
    body: z.strictObject({
      runId: z.string(),
      target: z.string().min(1),
      budgetCents: cents,
      autonomy: z.enum(AUTONOMY_LEVELS).optional(),
      taskId: z.string().optional(),
    }),
    responses: {
      200: '`{ ok: true, run }` or `{ ok: false, guard, reason }` — the reason verbatim',
      503: '`{ ok: false, guard, reason, failure }`: refused, and the attempt could not be recorded',
    },
    handler: async ({ c, identity, body }) => {
      await ownRun(identity, body.runId);
      const result = await warden.delegate(
        { ...(await agentCall(ctx, identity)), runId: body.runId },
        {
          target: body.target,
          budgetCents: body.budgetCents,
          ...(body.autonomy === undefined ? {} : { autonomy: body.autonomy }),
          ...(body.taskId === undefined ? {} : { taskId: body.taskId }),
        },
      );
      // A 2xx means durable (contracts §8): a refusal nobody could record is a 503.
      return !result.ok && result.failure !== undefined ? c.json(result, 503) : result;
    },
  });

  api.add({
    method: 'get',
    path: '/v1/tasks',
    summary: 'The taskboard: open, done or overdue tasks',
    permission: 'any',
    query: z.strictObject({
      workspace: z.string().optional(),
      agent: z.string().optional(),
      state: z.enum(['open', 'done', 'overdue']).optional(),
      limit,
    }),
    responses: { 200: '`{ tasks }`' },
    handler: async ({ identity, query }) => {
      if (identity.role === 'agent' && query.agent !== undefined && query.agent !== identity.agent)
        throw forbidden(
          `an \`agent\` token reads the tasks of its own agent only, not those of \`${query.agent}\``,
        );
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const agent = identity.role === 'agent' ? (identity.agent as string) : query.agent;
      const tasks = await warden.store.tasks.list({
        workspace,
        ...(agent === undefined ? {} : { agent }),
        ...(query.state === undefined ? {} : { state: query.state }),
        at: ctx.clock(),
        limit: query.limit ?? 200,
      });
      return { tasks };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/tasks',
    summary: 'Put a task on an agent’s board',
    permission: 'policy',
    body: z.strictObject({
      workspace: z.string().optional(),
      agent: z.string().min(1),
      title: z.string().min(1).max(500),
      dueAt: z.string().optional().describe('ISO 8601 with a zone'),
      note: z.string().max(5000).optional(),
    }),
    responses: { 201: 'the task' },
    handler: async ({ identity, body }) => {
      const workspace = await workspaceOf(ctx, identity, body.workspace);
      if (body.dueAt !== undefined) timeParam('dueAt', body.dueAt, ctx.clock());
      return new Reply(
        201,
        await warden.store.tasks.create({
          id: `t-${newId().toLowerCase()}`,
          workspace,
          agent: body.agent,
          title: body.title,
          dueAt: body.dueAt === undefined ? null : new Date(Date.parse(body.dueAt)).toISOString(),
          createdAt: new Date(ctx.clock()).toISOString(),
          note: body.note ?? null,
        }),
      );
    },
  });

  api.add({
    method: 'patch',
    path: '/v1/tasks/:id',
    summary: 'Mark a task done or open again (the agent its own, an admin any)',
    permission: 'any',
    body: z.strictObject({ state: z.enum(['open', 'done']) }),
    responses: { 200: 'the task', 404: 'no such task' },
    handler: async ({ identity, params, body }) => {
      const task = await warden.store.tasks.get(params.id as string, ctx.clock());
      const mine =
        task !== null &&
        (identity.workspace === null || task.workspace === identity.workspace) &&
        (identity.role === 'agent' ? task.agent === identity.agent : can(identity, 'policy'));
      if (!mine || task === null)
        throw notFound(`no task \`${params.id ?? ''}\` this token may change`);
      return warden.store.tasks.update(task.id, { state: body.state }, ctx.clock());
    },
  });

  api.add({
    method: 'get',
    path: '/v1/agents',
    summary: 'The agents of a workspace',
    permission: 'read',
    query: z.strictObject({ workspace: z.string().optional() }),
    responses: {
      200: '`{ agents }`: the registered ones and those of the data folder (`<data>/agents/<id>/`) that work in the workspace, each with `registered`, `tools` (from its settings, or null) and `lastActivity` (its newest audit entry)',
    },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const registered = await warden.store.agents.list(workspace);
      // Agents on disk belong to the workspace their settings name (or to every one, when none is named).
      const onDisk = (await listInstanceAgents(warden.data)).filter(
        (a) => a.workspace === null || a.workspace === workspace,
      );
      const byId = new Map(onDisk.map((a) => [a.id, a]));
      const ids = [...new Set([...registered.map((a) => a.id), ...onDisk.map((a) => a.id)])].sort();
      const agents = await Promise.all(
        ids.map(async (id) => {
          const record = registered.find((a) => a.id === id);
          const folder = byId.get(id);
          const [newest] = await warden.store.audit.query({ workspace, agent: id, limit: 1 });
          const at = newest?.['occurredAt'];
          return {
            workspace,
            id,
            name: record?.name ?? folder?.settings?.name ?? null,
            role: record?.role ?? folder?.role ?? null,
            space: record?.space ?? null,
            mode: record?.mode ?? null,
            model: record?.model ?? folder?.settings?.model ?? null,
            createdAt: record?.createdAt ?? null,
            updatedAt: record?.updatedAt ?? null,
            registered: record !== undefined,
            tools: folder === undefined ? null : folder.tools,
            lastActivity: typeof at === 'string' ? at : null,
          };
        }),
      );
      return { agents };
    },
  });

  api.add({
    method: 'put',
    path: '/v1/agents/:id',
    summary:
      'Register or change an agent: name, role, the space and mode it acts in (when its token binds none), model',
    permission: 'policy',
    query: z.strictObject({ workspace: z.string().optional() }),
    body: z.strictObject({
      name: z.string().max(200).nullable().optional(),
      role: z.string().max(200).nullable().optional(),
      space: z
        .string()
        .min(1)
        .max(256)
        .nullable()
        .optional()
        .describe('the space (and with it the autonomy) an agent token bound to no space acts in'),
      mode: z
        .string()
        .min(1)
        .max(256)
        .nullable()
        .optional()
        .describe('the mode (and with it the command net) an agent token bound to no mode acts in'),
      model: z.string().max(200).nullable().optional(),
    }),
    responses: { 200: 'the agent' },
    handler: async ({ identity, query, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const id = params.id as string;
      if (!/^[^\p{Cc}\s][^\p{Cc}]{0,255}$/u.test(id))
        throw badRequest('id', `\`${id}\` is not a valid agent id`);
      return warden.store.agents.upsert(
        {
          workspace,
          id,
          name: body.name ?? null,
          role: body.role ?? null,
          space: body.space ?? null,
          mode: body.mode ?? null,
          model: body.model ?? null,
        },
        ctx.clock(),
      );
    },
  });
}
