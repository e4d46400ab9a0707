// The AgentInspector through the server (contracts §4: `warden inspector
// --server URL` with the supervisor's token): the token's agent is the
// supervisor, so no one can ask as another; the server answers from its own
// data folder and store, with its redactor, exactly what the local inspector
// would. A supervisor that is not one (no `tools.agentInspector`, bad
// settings) is refused with every problem.

import { z } from 'zod';
import type { Api } from '../api.js';
import type { Identity } from '../auth.js';
import type { ServerContext } from '../context.js';
import { forbidden } from '../errors.js';

/** The action's arguments as the caller sent them: the inspector validates them itself. */
const argumentsSchema = z.record(z.string(), z.unknown());

async function inspectorFor(ctx: ServerContext, identity: Identity) {
  const supervisor = identity.agent;
  if (supervisor === null) throw forbidden('this token names no agent: it cannot be a supervisor');
  const made = await ctx.warden.inspector(supervisor);
  if (!made.ok)
    throw forbidden(
      `agent \`${supervisor}\` is not a supervisor of this instance: ${made.problems.join('; ')}`,
    );
  return made;
}

export function inspectorRoutes(api: Api, ctx: ServerContext): void {
  api.add({
    method: 'get',
    path: '/v1/inspector',
    summary: "Read the token's supervisor and its inspector settings",
    permission: 'inspect',
    responses: {
      200: '`{ supervisor, settings, warnings }`',
      403: 'the token is not a supervisor of this instance',
    },
    handler: async ({ identity }) => {
      const made = await inspectorFor(ctx, identity);
      return {
        supervisor: made.inspector.supervisor,
        settings: made.inspector.settings,
        warnings: made.warnings,
      };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/inspector/:action',
    summary: 'Call one AgentInspector action as the token’s supervisor',
    permission: 'inspect',
    body: argumentsSchema,
    responses: {
      200: '`{ ok: true, text }` (the answer as the local inspector sends it) or `{ ok: false, error }` (a refusal, saying why)',
      403: 'the token is not a supervisor of this instance',
    },
    handler: async ({ identity, params, body }) => {
      const made = await inspectorFor(ctx, identity);
      const answer = await made.inspector.call(params.action as string, body);
      return answer.ok ? { ok: true, text: answer.text } : { ok: false, error: answer.error };
    },
  });
}
