// `/v1/spaces*`: the spaces and their autonomy dial, with what each setting
// means (G30–G32); setting a dial writes a new policy revision.

import { AUTONOMY_LEVELS } from '@warden/engine';
import type { Autonomy } from '@warden/engine';
import { z } from 'zod';
import { AUTONOMY_MEANING, effectiveAutonomy } from '../../permissions/rules.js';
import type { JsonValue } from '../../store/types.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { workspaceOf } from '../context.js';
import { conflict, invalid, within } from '../errors.js';
import { currentRevision } from './policy.js';
import { workspaceQuery } from './query.js';
import { showRevision } from '../../views/policy.js';
import type { SpaceView } from '../../views/spaces.js';
import { spaceListView, spaceSetView } from '../../views/spaces.js';

/** What a setting of the dial means, in plain words (G32). */
function meaningOf(level: Autonomy): string {
  const meaning: string | undefined = AUTONOMY_MEANING[level];
  if (meaning === undefined) throw new Error(`no meaning is written for autonomy \`${level}\``);
  return meaning;
}

export function spaceRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;
  const current = (workspace: string) => currentRevision(ctx, workspace);

  api.add({
    method: 'get',
    path: '/v1/spaces',
    summary: 'The spaces and their autonomy, with what each setting means',
    permission: 'read',
    query: workspaceQuery,
    response: spaceListView,
    responses: { 200: '`{ spaces, levels }`' },
    handler: async ({ identity, query }) => {
      const revision = await current(await workspaceOf(ctx, identity, query.workspace));
      // A stored document was validated before it was written: its dials are autonomy levels.
      const spaces =
        (revision.document as { spaces?: Record<string, { autonomy?: Autonomy }> }).spaces ?? {};
      return {
        spaces: Object.entries(spaces).map(([id, settings]): SpaceView => {
          const autonomy = settings.autonomy ?? null;
          return {
            id,
            autonomy,
            effective: effectiveAutonomy(autonomy),
            meaning: meaningOf(effectiveAutonomy(autonomy)),
          };
        }),
        levels: AUTONOMY_LEVELS.map((level) => ({ level, meaning: meaningOf(level) })),
      };
    },
  });

  api.add({
    method: 'put',
    path: '/v1/spaces/:id',
    summary: "Set a space's autonomy (a new policy revision)",
    permission: 'policy',
    query: workspaceQuery,
    body: z.strictObject({
      autonomy: z
        .enum(AUTONOMY_LEVELS)
        .nullable()
        .describe('null: unset, which behaves as actWithApproval'),
    }),
    response: spaceSetView,
    responses: {
      200: 'the new revision and what the setting means',
      422: 'the policy would not be valid',
    },
    handler: async ({ identity, query, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const revision = await current(workspace);
      const document = structuredClone(revision.document) as {
        spaces?: Record<string, Record<string, JsonValue>>;
      };
      const id = params.id as string;
      const spaces = (document.spaces ??= {});
      const settings = { ...(spaces[id] ?? {}) };
      if (body.autonomy === null) delete settings.autonomy;
      else settings.autonomy = body.autonomy;
      spaces[id] = settings;
      const written = await warden.putPolicy(document, {
        author: identity.name,
        message: `space ${id}: autonomy ${body.autonomy ?? 'unset'}`,
        expected: revision.revision,
      });
      if (!written.ok && 'conflict' in written)
        throw conflict('the policy changed meanwhile: try again');
      if (!written.ok) throw invalid(within('document', written.issues));
      return {
        ...showRevision(written.revision),
        space: id,
        autonomy: body.autonomy,
        meaning: meaningOf(effectiveAutonomy(body.autonomy)),
      };
    },
  });
}
