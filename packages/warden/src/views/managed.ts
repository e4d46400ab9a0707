// The managed layer as the API answers it (`/v1/managed`, G29): pinned by a
// file, stored here, or none; and a stored revision. No IO here.

import { z } from 'zod';
import type { ManagedFile } from '../gate/snapshot.js';
import type { PolicyRevision } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

/** A stored revision of the managed layer, without its document. */
export const managedRevisionView = z.strictObject({
  workspace: z.string(),
  revision: z.number(),
  hash: z.string().describe("lowercase hex SHA-256 of the document's canonical JSON"),
  author: z.string(),
  message: z.string().nullable(),
  createdAt: z.string(),
});

/** A file pins the managed layer (WARDEN_MANAGED_POLICY or the configuration): read-only here. */
export const pinnedManagedView = z.strictObject({
  source: z.enum(['env', 'flag']),
  file: z.string(),
  readOnly: z.literal(true),
  rules: z.number().describe('how many rules it holds'),
  document: z.null(),
});

/** The managed layer stored here: its current revision, with its document. */
export const storedManagedView = managedRevisionView.extend({
  source: z.literal('store'),
  readOnly: z.literal(false),
  document: z.unknown().describe('the managed policy document'),
});

/** No managed layer: none is stored and no file pins one. */
export const noManagedView = z.strictObject({
  source: z.null(),
  readOnly: z.literal(false),
  document: z.null(),
});

export const managedView = z.union([pinnedManagedView, storedManagedView, noManagedView]);

export type ManagedRevisionView = Shown<typeof managedRevisionView>;
export type ManagedView = Shown<typeof managedView>;

/** A stored revision as the API shows it, without its document. */
export function showManagedRevision(revision: PolicyRevision): ManagedRevisionView {
  return {
    workspace: revision.workspace,
    revision: revision.revision,
    hash: revision.hash,
    author: revision.author,
    message: revision.message,
    createdAt: revision.createdAt,
  };
}

/** The stored managed layer as `GET /v1/managed` shows it. */
export function showStoredManaged(revision: PolicyRevision): ManagedView {
  return {
    source: 'store',
    readOnly: false,
    ...showManagedRevision(revision),
    document: revision.document,
  };
}

/** Fails to compile when the store's revision or the pinning file no longer fit what clients are shown. */
export const managedSchemasFollowTheStore: [
  Fits<Omit<PolicyRevision, 'document'>, typeof managedRevisionView>,
  Fits<ManagedFile['source'], typeof pinnedManagedView.shape.source>,
] = [true, true];
