// `/v1/policy*`: read the policy, its revisions and their differences; write
// a new revision (validated whole, G24: never a silent rewrite).

import { DEFAULT_TABLE, validatePolicy } from '@warden/engine';
import { ProofCache } from '../../policy/proofs.js';
import { detectHost, sandboxBackend } from '../../honesty/host.js';
import { z } from 'zod';
import { policyDiff } from '../../permissions/policy-diff.js';
import type { PolicyRevision } from '../../store/types.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { workspaceOf } from '../context.js';
import { conflict, invalid, notFound, within } from '../errors.js';
import { given, limit, workspaceQuery } from './query.js';
import {
  policyDiffView,
  proofView,
  revisionDocumentView,
  revisionListView,
  revisionView,
  showRevision,
  showRevisionDocument,
} from '../../views/policy.js';

/** The current revision of a workspace's policy; 404 when none is stored. */
export async function currentRevision(
  ctx: ServerContext,
  workspace: string,
): Promise<PolicyRevision> {
  const revision = await ctx.warden.policy.current(workspace);
  if (revision === null) throw notFound(`no policy is stored for workspace \`${workspace}\``);
  return revision;
}

export function policyRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;
  // Proved off the decisions' thread, once per policy (and minute).
  const proofs = new ProofCache();
  const current = (workspace: string) => currentRevision(ctx, workspace);

  api.add({
    method: 'get',
    path: '/v1/policy',
    summary: 'Read the current policy revision',
    permission: 'read',
    query: workspaceQuery,
    response: revisionDocumentView,
    responses: { 200: 'the revision with its document', 404: 'no policy yet' },
    handler: async ({ identity, query }) =>
      showRevisionDocument(await current(await workspaceOf(ctx, identity, query.workspace))),
  });

  api.add({
    method: 'put',
    path: '/v1/policy',
    summary: 'Write a new revision of the policy',
    permission: 'policy',
    body: z.strictObject({
      document: z.unknown().describe('the policy document'),
      message: z.string().max(500).optional(),
      expectedRevision: z
        .number()
        .int()
        .min(0)
        .nullable()
        .optional()
        .describe('write only if this is still current (null: only if none)'),
    }),
    response: revisionView,
    responses: {
      200: 'the new revision',
      403: 'another workspace',
      409: 'not the expected revision',
      422: 'the document is not valid',
    },
    handler: async ({ identity, body }) => {
      const validated = validatePolicy(body.document, 'workspace');
      if (!validated.ok) throw invalid(within('document', validated.issues));
      await workspaceOf(ctx, identity, validated.value.workspace);
      const written = await warden.putPolicy(body.document, {
        author: identity.name,
        ...given(body, 'message'),
        ...(body.expectedRevision === undefined ? {} : { expected: body.expectedRevision }),
      });
      if (!written.ok && 'conflict' in written)
        throw conflict(
          `the policy is at revision ${written.conflict.current ?? 'none'}, not at the expected one: read it again`,
        );
      if (!written.ok) throw invalid(within('document', written.issues));
      return showRevision(written.revision);
    },
  });

  api.add({
    method: 'get',
    path: '/v1/policy/revisions',
    summary: 'List the revisions of the policy, newest first',
    permission: 'read',
    query: z.strictObject({
      workspace: z.string().optional(),
      limit,
    }),
    response: revisionListView,
    responses: { 200: '`{ revisions }`' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const revisions = await warden.policy.history(workspace, query.limit ?? 100);
      return { revisions: revisions.map(showRevision) };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/policy/revisions/:revision',
    summary: 'Read one revision of the policy',
    permission: 'read',
    query: workspaceQuery,
    response: revisionDocumentView,
    responses: { 200: 'the revision with its document', 404: 'no such revision' },
    handler: async ({ identity, query, params }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const n = Number(params.revision);
      const revision = Number.isInteger(n) ? await warden.policy.revision(workspace, n) : null;
      if (revision === null)
        throw notFound(
          `no revision \`${params.revision ?? ''}\` of the policy of \`${workspace}\``,
        );
      return showRevisionDocument(revision);
    },
  });

  api.add({
    method: 'get',
    path: '/v1/policy/diff',
    summary: 'What changed between two revisions: rules, spaces and modes',
    permission: 'read',
    query: z.strictObject({
      workspace: z.string().optional(),
      from: z.coerce.number().int().min(1),
      to: z.coerce.number().int().min(1).optional().describe('default: the current revision'),
    }),
    response: policyDiffView,
    responses: { 200: 'the difference', 404: 'no such revision' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const to =
        query.to === undefined
          ? await current(workspace)
          : await warden.policy.revision(workspace, query.to);
      const from = await warden.policy.revision(workspace, query.from);
      if (from === null || to === null)
        throw notFound(
          `no revision \`${from === null ? query.from : (query.to ?? '')}\` of the policy of \`${workspace}\``,
        );
      return { from: from.revision, to: to.revision, ...policyDiff(from.document, to.document) };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/policy/proof',
    summary:
      'Every deny and prompt rule tried against the disguises of its target: holds, needs the sandbox, asks instead of denying, bypassable, dead',
    permission: 'read',
    query: workspaceQuery,
    response: proofView,
    responses: { 200: 'a proof per rule, and the counts per verdict' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const snapshot = await warden.gate.snapshot(workspace);
      // The host fact is found here and handed to the engine, which never looks.
      return proofs.prove(`${workspace}\u0000${snapshot.hash}`, {
        policy: snapshot.compiled.policy,
        classifier: warden.classifier ?? DEFAULT_TABLE,
        at: ctx.clock(),
        sandbox: { backend: sandboxBackend(detectHost()) },
      });
    },
  });
}
