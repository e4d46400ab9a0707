// `/v1/freeze` and `/v1/freezes`: the kill switch for a whole workspace, and
// every freeze in force. One agent's freeze is under `/v1/agents/:id/freeze`.

import { z } from 'zod';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { workspaceOf } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { freezeListView, freezeView, frozenView } from '../../views/freezes.js';
import { freezeBody } from './agents.js';

export function freezeRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'get',
    path: '/v1/freezes',
    summary: 'The freezes in force: frozen agents and frozen workspaces',
    permission: 'read',
    query: z.strictObject({ workspace: z.string().optional() }),
    response: freezeListView,
    responses: {
      200: "`{ freezes }`, of the workspace: the managed policy's (`managed: true`) first",
    },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      return { freezes: await warden.freezes(workspace) };
    },
  });

  api.add({
    method: 'put',
    path: '/v1/freeze',
    summary:
      'Freeze a whole workspace: every decision for every agent of it is a hard deny from now on, and all waiting prompts are denied',
    permission: 'policy',
    query: z.strictObject({ workspace: z.string().optional() }),
    body: freezeBody,
    response: frozenView,
    responses: { 200: '`{ freeze, denied }`: the freeze in force and the approvals it denied' },
    handler: async ({ identity, query, body }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      return warden.freeze(workspace, null, identity.name, body.reason ?? null);
    },
  });

  api.add({
    method: 'delete',
    path: '/v1/freeze',
    summary: 'Thaw a frozen workspace (agents frozen one by one stay frozen)',
    permission: 'policy',
    query: z.strictObject({ workspace: z.string().optional() }),
    response: freezeView,
    responses: {
      200: 'the freeze that ended',
      404: 'the workspace is not frozen',
      409: 'only the managed policy freezes it',
    },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const thawed = await warden.thaw(workspace, null, identity.name);
      if (thawed === null) {
        const refusal = await warden.managedThawRefusal(workspace, null);
        if (refusal !== null) throw conflict(refusal);
        throw notFound(`workspace \`${workspace}\` is not frozen`);
      }
      return thawed;
    },
  });
}
