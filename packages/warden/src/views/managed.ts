// The managed layer as the API answers it (`/v1/managed`, G29): pinned by a
// file, stored here, or none. A stored revision is a policy revision
// (views/policy.ts). No IO here.

import { z } from 'zod';
import type { ManagedFile } from '../gate/snapshot.js';
import type { PolicyRevision } from '../store/types.js';
import type { Fits, Shown } from './fits.js';
import { revisionDocumentView, showRevisionDocument } from './policy.js';

/** A file pins the managed layer (WARDEN_MANAGED_POLICY or the configuration): read-only here. */
export const pinnedManagedView = z.strictObject({
  source: z.enum(['env', 'flag']),
  file: z.string(),
  readOnly: z.literal(true),
  rules: z.number().describe('how many rules it holds'),
  document: z.null(),
});

/** The managed layer stored here: its current revision, with its document. */
export const storedManagedView = revisionDocumentView.extend({
  source: z.literal('store'),
  readOnly: z.literal(false),
});

/** No managed layer: none is stored and no file pins one. */
export const noManagedView = z.strictObject({
  source: z.null(),
  readOnly: z.literal(false),
  document: z.null(),
});

export const managedView = z.union([pinnedManagedView, storedManagedView, noManagedView]);

export type ManagedView = Shown<typeof managedView>;

/** The stored managed layer as `GET /v1/managed` shows it. */
export function showStoredManaged(revision: PolicyRevision): ManagedView {
  return {
    source: 'store',
    readOnly: false,
    ...showRevisionDocument(revision),
  };
}

/** Fails to compile when the pinning file's source no longer fits what clients are shown (the revision is checked in views/policy.ts). */
export const managedSchemasFollowTheStore: [
  Fits<ManagedFile['source'], typeof pinnedManagedView.shape.source>,
] = [true];
