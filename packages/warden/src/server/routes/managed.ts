// `/v1/managed`: the managed layer (G29), stored and written here unless a
// file (WARDEN_MANAGED_POLICY or the configuration) pins it read-only.

import { z } from 'zod';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { given } from './query.js';
import { conflict, forbidden, invalid, within } from '../errors.js';
import { managedView, showStoredManaged } from '../../views/managed.js';
import { revisionView, showRevision } from '../../views/policy.js';

export function managedRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'get',
    path: '/v1/managed',
    summary: 'The managed layer, and where it comes from',
    permission: 'read',
    response: managedView,
    responses: { 200: '`{ source, readOnly, document }`' },
    handler: async () => {
      const pinned = warden.managedFile;
      if (pinned !== null) {
        const snapshot = (await warden.policy.workspaces())[0];
        const rules =
          snapshot === undefined
            ? []
            : ((await warden.gate.snapshot(snapshot)).managed?.policy.rules.length ?? 0);
        return { source: pinned.source, file: pinned.file, readOnly: true, rules, document: null };
      }
      const stored = await warden.policy.currentManaged();
      return stored === null
        ? { source: null, readOnly: false, document: null }
        : showStoredManaged(stored);
    },
  });

  api.add({
    method: 'put',
    path: '/v1/managed',
    summary: 'Write a new revision of the stored managed layer',
    permission: 'policy',
    body: z.strictObject({ document: z.unknown(), message: z.string().max(500).optional() }),
    response: revisionView,
    responses: {
      200: 'the new revision',
      409: 'WARDEN_MANAGED_POLICY pins the managed layer',
      422: 'not valid',
    },
    handler: async ({ identity, body }) => {
      if (identity.workspace !== null)
        throw forbidden(
          'the managed layer applies to every workspace: a token bound to one may not write it',
        );
      if (warden.managedFile !== null)
        throw conflict(
          `the managed layer is the file \`${warden.managedFile.file}\` (${warden.managedFile.source === 'env' ? 'WARDEN_MANAGED_POLICY' : 'configured'}): it cannot be changed here`,
        );
      const written = await warden.putManagedPolicy(body.document, {
        author: identity.name,
        ...given(body, 'message'),
      });
      if (!written.ok && 'conflict' in written)
        throw conflict('the managed layer changed meanwhile: try again');
      if (!written.ok) throw invalid(within('document', written.issues));
      return showRevision(written.revision);
    },
  });
}
