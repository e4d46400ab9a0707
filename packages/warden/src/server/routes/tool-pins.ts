// `/v1/tool-pins*`: the gateway's downstream tools pinned by definition. A
// connected gateway reports each tool it lists (an agent token); a changed
// definition is refused until an admin accepts it.

import { z } from 'zod';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { agentCall, workspaceOf } from '../context.js';
import { conflict, notFound } from '../errors.js';
import {
  REVIEWED_HASH,
  pinCheckView,
  toolPinListView,
  toolPinView,
} from '../../views/tool-pins.js';

/** An exposed tool name: `<server>__<tool>`, one line. */
const toolName = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[^\p{Cc}]+$/u, 'a tool name is one line of text');

export function toolPinRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'post',
    path: '/v1/tool-pins/check',
    summary:
      "Report a downstream tool's definition as the gateway lists it: pinned the first time, refused once it differs",
    permission: 'decide',
    body: z.strictObject({
      tool: toolName,
      definition: z.strictObject({
        name: z.string().min(1).max(512),
        description: z.string().max(100_000).nullable(),
        inputSchema: z.unknown(),
      }),
    }),
    response: pinCheckView,
    responses: {
      200: '`{ ok: true }` when the definition is the pinned one (or was pinned now), else `{ ok: false, reason }`',
    },
    handler: async ({ identity, body }) => {
      const call = await agentCall(ctx, identity);
      return warden.seeTool(
        call.workspace,
        body.tool,
        {
          name: body.definition.name,
          description: body.definition.description,
          inputSchema: (body.definition.inputSchema ?? null) as never,
        },
        `gateway:${call.agent}`,
      );
    },
  });

  api.add({
    method: 'get',
    path: '/v1/tool-pins',
    summary: "The gateway's pinned tools, and the changed definitions waiting for an admin",
    permission: 'read',
    query: z.strictObject({ workspace: z.string().optional() }),
    response: toolPinListView,
    responses: { 200: '`{ pins }`, by tool name' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      return { pins: await warden.toolPins.list(workspace) };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/tool-pins/accept',
    summary: "Accept a tool's changed definition: the gateway lets it through again",
    permission: 'policy',
    query: z.strictObject({ workspace: z.string().optional() }),
    body: z.strictObject({
      tool: toolName,
      hash: z
        .string()
        .regex(
          REVIEWED_HASH,
          'the SHA-256 hash of a definition as `GET /v1/tool-pins` lists it, or at least its first 12 hex digits',
        )
        .optional()
        .describe(
          'the hash of the changed definition that was reviewed: another one is not accepted',
        ),
    }),
    response: toolPinView,
    responses: {
      200: 'the pin, now of the new definition',
      404: 'no changed definition waits',
      409: 'the definition waiting is not the one reviewed (`hash`)',
    },
    handler: async ({ identity, query, body }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const accepted = await warden.acceptTool(workspace, body.tool, identity.name, body.hash);
      if (accepted === null)
        throw notFound(
          `no changed definition of \`${body.tool}\` waits in workspace \`${workspace}\``,
        );
      if ('changed' in accepted)
        throw conflict(
          `the definition of \`${body.tool}\` waiting now (${accepted.changed.slice(0, 12)}) is not the one reviewed (${(body.hash ?? '').slice(0, 12)}): read it, then accept that one`,
        );
      return accepted;
    },
  });
}
