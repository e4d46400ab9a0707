// The AgentInspector through the server (contracts §4: `warden inspector
// --server URL` with the supervisor's token): the token's agent is the
// supervisor, so no one can ask as another; the server answers from its own
// data folder and store, with its redactor, exactly what the local inspector
// would. A supervisor that is not one (no `tools.agentInspector`, bad
// settings) is refused with every problem. No answer, and no error, shows
// where the server keeps its data: the folder's path reads `<data>`.

import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { GateFault } from '../../gate/fault.js';
import type { Api } from '../api.js';
import type { Identity } from '../auth.js';
import type { ServerContext } from '../context.js';
import { ApiError, forbidden } from '../errors.js';
import { inspectorAnswerView, inspectorView, showInspectorAnswer } from '../../views/inspector.js';

/** The data folder's path as a caller must not see it: absolute, and with links resolved. */
function dataPaths(data: string): string[] {
  const paths = new Set([resolve(data)]);
  try {
    paths.add(realpathSync(data));
  } catch {
    // A folder whose links cannot be resolved is hidden as an absolute path.
  }
  // The longest first, so that a path containing another is replaced whole; `/` is not hidden.
  return [...paths].filter((p) => p.length > 1).sort((a, b) => b.length - a.length);
}

/** Every string in `value` with the data folder's path replaced by `<data>`. */
export function hideDataPath(value: unknown, paths: readonly string[]): unknown {
  if (typeof value === 'string')
    return paths.reduce((text, path) => text.split(path).join('<data>'), value);
  if (Array.isArray(value)) return value.map((v) => hideDataPath(v, paths));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hideDataPath(v, paths)]));
  return value;
}

/**
 * Runs an inspector route and hides the data path in its answer and in the
 * errors it throws: only strings change, so the answer keeps its shape.
 */
async function hiding<T>(ctx: ServerContext, answer: () => Promise<T>): Promise<T> {
  const paths = dataPaths(ctx.warden.data);
  try {
    return hideDataPath(await answer(), paths) as T;
  } catch (error) {
    if (error instanceof ApiError)
      throw new ApiError(
        error.status,
        error.problems.map((p) => ({
          ...p,
          path: hideDataPath(p.path, paths) as string,
          message: hideDataPath(p.message, paths) as string,
        })),
      );
    if (error instanceof GateFault)
      throw new GateFault(error.code, hideDataPath(error.message, paths) as string);
    // Any other error keeps its kind (the server maps a store fault to 503), not the path.
    if (error instanceof Error) error.message = hideDataPath(error.message, paths) as string;
    throw error;
  }
}

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
    response: inspectorView,
    responses: {
      200: '`{ supervisor, settings, warnings }`',
      403: 'the token is not a supervisor of this instance',
    },
    handler: ({ identity }) =>
      hiding(ctx, async () => {
        const made = await inspectorFor(ctx, identity);
        return {
          supervisor: made.inspector.supervisor,
          settings: made.inspector.settings,
          warnings: made.warnings,
        };
      }),
  });

  api.add({
    method: 'post',
    path: '/v1/inspector/:action',
    summary: 'Call one AgentInspector action as the token’s supervisor',
    permission: 'inspect',
    body: argumentsSchema,
    response: inspectorAnswerView,
    responses: {
      200: '`{ ok: true, text }` (the answer as the local inspector sends it) or `{ ok: false, error }` (a refusal, saying why)',
      403: 'the token is not a supervisor of this instance',
    },
    handler: ({ identity, params, body }) =>
      hiding(ctx, async () => {
        const made = await inspectorFor(ctx, identity);
        const answer = await made.inspector.call(params.action as string, body);
        return showInspectorAnswer(answer);
      }),
  });
}
