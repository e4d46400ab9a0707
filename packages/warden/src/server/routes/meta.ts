// What the server says about itself (`/v1/openapi.json`, `/v1/me`,
// `/v1/workspaces`, `/v1/honesty`): the OpenAPI document of its routes, who the
// caller is, the workspaces it may see and the honesty matrix (G37).

import { detectHost, honestyMatrix } from '../../honesty/index.js';
import type { Api } from '../api.js';
import type { Permission } from '../auth.js';
import { can } from '../auth.js';
import type { Placement, ServerContext } from '../context.js';
import { placementOf } from '../context.js';
import type { Fits } from '../../views/fits.js';
import type { placementView } from '../../views/meta.js';
import {
  PERMISSIONS,
  honestyMatrixView,
  meView,
  openapiView,
  workspaceListView,
} from '../../views/meta.js';

/** Fails to compile when the server's permissions or placement no longer fit what `/v1/me` declares. */
export const meFollowsTheServer: [
  Fits<Permission, (typeof meView.shape.permissions)['element']>,
  [Permission] extends [(typeof PERMISSIONS)[number]] ? true : false,
  Fits<Placement, typeof placementView>,
] = [true, true, true];

export function metaRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;
  const matrix = honestyMatrix(detectHost(), { version: ctx.version });

  api.add({
    method: 'get',
    path: '/v1/openapi.json',
    summary: 'This API, as OpenAPI 3.1',
    permission: 'any',
    response: openapiView,
    responses: { 200: 'the OpenAPI document' },
    handler: () => Promise.resolve(api.openapi({ title: 'Warden', version: ctx.version })),
  });

  api.add({
    method: 'get',
    path: '/v1/me',
    summary: 'Who the token is: its name, role, bindings and expiry',
    permission: 'any',
    response: meView,
    responses: {
      200: 'the identity; for an `agent` token also `placement`: the space and mode it acts in now and where each comes from (`token`, `registration` or null)',
    },
    handler: async ({ identity }) => ({
      id: identity.id,
      name: identity.name,
      role: identity.role,
      workspace: identity.workspace,
      agent: identity.agent,
      space: identity.space,
      mode: identity.mode,
      permissions: PERMISSIONS.filter((p) => can(identity, p)),
      expiresAt: identity.expiresAt,
      ...(identity.role === 'agent' && identity.workspace !== null && identity.agent !== null
        ? { placement: await placementOf(ctx, identity.workspace, identity.agent, identity) }
        : {}),
    }),
  });

  api.add({
    method: 'get',
    path: '/v1/workspaces',
    summary: 'List the workspaces with a policy that this token may see',
    permission: 'read',
    response: workspaceListView,
    responses: { 200: '`{ workspaces: [{ workspace, revision }] }`' },
    handler: async ({ identity }) => {
      const all = await warden.policy.workspaces();
      const visible =
        identity.workspace === null ? all : all.filter((w) => w === identity.workspace);
      return { workspaces: await warden.policy.revisions(visible.sort()) };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/honesty',
    summary: 'Where rules are enforced: what each adapter lets Warden see and stop, on this host',
    permission: 'any',
    response: honestyMatrixView,
    responses: { 200: 'the honesty matrix' },
    handler: () => Promise.resolve(matrix),
  });
}
