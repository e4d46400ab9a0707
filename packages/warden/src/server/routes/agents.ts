// `/v1/agents*`: the agents of a workspace — the registered ones and those of
// the data folder — their registration (the space and mode an agent token
// bound to none acts in), and the kill switch: freezing one agent.

import { z } from 'zod';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { workspaceOf } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { freezeView, frozenView } from '../../views/freezes.js';
import type { AgentView } from '../../views/agents.js';
import { agentListView, agentRecordView } from '../../views/agents.js';

/** A freeze's reason: shown to the agent in every deny, so one line of reasonable length. */
export const freezeBody = z.strictObject({
  reason: z
    .string()
    .max(500)
    .regex(/^[^\p{Cc}]*$/u, 'a reason is one line of text')
    .optional()
    .describe('why: shown to the agent in every deny'),
});

export function agentRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'put',
    path: '/v1/agents/:id/freeze',
    summary:
      'Freeze an agent (the kill switch): every decision for it is a hard deny from now on, and its waiting prompts are denied',
    permission: 'policy',
    query: z.strictObject({ workspace: z.string().optional() }),
    body: freezeBody,
    response: frozenView,
    responses: {
      200: '`{ freeze, denied }`: the freeze in force (an agent frozen already keeps its first freeze) and the waiting approvals it denied',
    },
    handler: async ({ identity, query, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const id = params.id as string;
      if (!/^[^\p{Cc}\s][^\p{Cc}]{0,255}$/u.test(id))
        throw badRequest('id', `\`${id}\` is not a valid agent id`);
      return warden.freeze(workspace, id, identity.name, body.reason ?? null);
    },
  });

  api.add({
    method: 'delete',
    path: '/v1/agents/:id/freeze',
    summary: 'Thaw a frozen agent: its calls are decided by the policy again',
    permission: 'policy',
    query: z.strictObject({ workspace: z.string().optional() }),
    response: freezeView,
    responses: {
      200: 'the freeze that ended',
      404: 'the agent is not frozen',
      409: 'only the managed policy freezes it',
    },
    handler: async ({ identity, query, params }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const id = params.id as string;
      const thawed = await warden.thaw(workspace, id, identity.name);
      if (thawed === null) {
        const refusal = await warden.managedThawRefusal(workspace, id);
        if (refusal !== null) throw conflict(refusal);
        throw notFound(`agent \`${id}\` is not frozen in workspace \`${workspace}\``);
      }
      return thawed;
    },
  });

  api.add({
    method: 'get',
    path: '/v1/agents',
    summary: 'The agents of a workspace',
    permission: 'read',
    query: z.strictObject({ workspace: z.string().optional() }),
    response: agentListView,
    responses: {
      200: '`{ agents }`: the registered ones and those of the data folder (`<data>/agents/<id>/`) that work in the workspace, each with `registered`, `tools` (from its settings, or null) and `lastActivity` (its newest audit entry)',
    },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const agents = (await warden.agents.list(workspace)).map(
        ({ id, record, folder, lastActivity }): AgentView => ({
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
          lastActivity,
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
    response: agentRecordView,
    responses: { 200: 'the agent' },
    handler: async ({ identity, query, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const id = params.id as string;
      if (!/^[^\p{Cc}\s][^\p{Cc}]{0,255}$/u.test(id))
        throw badRequest('id', `\`${id}\` is not a valid agent id`);
      return warden.agents.register(
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
