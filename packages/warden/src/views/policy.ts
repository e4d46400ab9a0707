// A workspace's policy as the API answers it (`/v1/policy*`): its stored
// revisions, with or without their document, and what changed between two of
// them. No IO here.

import { z } from 'zod';
import type { policyDiff } from '../permissions/policy-diff.js';
import type { PolicyRevision } from '../store/types.js';
import type { Fits, Shown } from './fits.js';
import { shownFields } from './fits.js';

/** A stored revision of a workspace's policy, without its document. */
export const revisionView = z.strictObject({
  workspace: z.string(),
  revision: z.number(),
  hash: z.string().describe("lowercase hex SHA-256 of the document's canonical JSON"),
  author: z.string(),
  message: z.string().nullable(),
  createdAt: z.string(),
});

/** A stored revision with its policy document. */
export const revisionDocumentView = revisionView.extend({
  document: z.unknown().describe('the policy document'),
});

/** `GET /v1/policy/revisions`: newest first. */
export const revisionListView = z.strictObject({ revisions: z.array(revisionView) });

/** A part of a document (a rule, or a space or mode with its `name`) as written. */
const documentPart = z.record(z.string(), z.unknown());

/** What changed in one part of the document: by rule id, or by space or mode name. */
const changesView = z.strictObject({
  added: z.array(documentPart),
  removed: z.array(documentPart),
  changed: z.array(z.strictObject({ before: documentPart, after: documentPart })),
});

/** `GET /v1/policy/diff`: what changed from one revision to another. */
export const policyDiffView = z.strictObject({
  from: z.number(),
  to: z.number(),
  rules: changesView,
  spaces: changesView.describe('each space with its `name`'),
  modes: changesView.describe('each mode with its `name`'),
});

export type RevisionView = Shown<typeof revisionView>;
export type RevisionDocumentView = Shown<typeof revisionDocumentView>;
export type RevisionListView = Shown<typeof revisionListView>;
export type PolicyDiffView = Shown<typeof policyDiffView>;

/** A stored revision as the API shows it, without its document. */
export function showRevision(revision: PolicyRevision): RevisionView {
  return shownFields(revisionView, revision);
}

/** A stored revision as the API shows it, with its document. */
export function showRevisionDocument(revision: PolicyRevision): RevisionDocumentView {
  return { ...showRevision(revision), document: revision.document };
}

/** Fails to compile when the store's revision or the policy diff no longer fit what clients are shown. */
export const policySchemasFollowTheStore: [
  Fits<PolicyRevision, typeof revisionDocumentView>,
  Fits<Omit<PolicyRevision, 'document'>, typeof revisionView>,
  Fits<ReturnType<typeof policyDiff> & { from: number; to: number }, typeof policyDiffView>,
] = [true, true, true];

/** Each deny and prompt rule tried against the disguises of its target (`GET /v1/policy/proof`). */
export const proofView = z.strictObject({
  sandbox: z.strictObject({ backend: z.string().nullable() }),
  counts: z.record(z.string(), z.number()),
  rules: z.array(
    z.strictObject({
      rule: z.string(),
      path: z.string(),
      scope: z.string(),
      decision: z.string(),
      target: z.string(),
      verdict: z
        .enum(['holds', 'sandbox', 'weakened', 'bypassable', 'dead', 'unproved'])
        .describe(
          '`sandbox`: some disguise is seen only as starting a process; `weakened`: some asks instead of being denied',
        ),
      plain: z.string().nullable(),
      tried: z.number(),
      findings: z.array(
        z.strictObject({
          command: z.string(),
          kind: z.string(),
          how: z.string(),
          decision: z.string(),
          rule: z.string(),
          scope: z.string(),
          classes: z.array(z.string()),
          unreadable: z.boolean(),
          verdict: z.string(),
        }),
      ),
      sandboxCovers: z.boolean().nullable(),
      lint: z.array(
        z.strictObject({
          code: z.string(),
          path: z.string(),
          rule: z.string(),
          message: z.string(),
        }),
      ),
      note: z.string().optional(),
    }),
  ),
});
