// Freezes as the API answers them (`/v1/agents/:id/freeze`, `/v1/freeze`,
// `/v1/freezes`): who stopped an agent or a workspace, when and why. No IO here.

import { z } from 'zod';
import type { FreezeRecord } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

export const freezeView = z.strictObject({
  workspace: z.string(),
  agent: z.string().nullable().describe('null: every agent of the workspace'),
  by: z.string(),
  reason: z.string().nullable(),
  frozenAt: z.string(),
});

export const frozenView = z.strictObject({
  freeze: freezeView,
  denied: z.array(z.string()).describe('the waiting approvals the freeze denied'),
});

/** A freeze as listed: an admin's, or one the managed policy writes, which no admin lifts. */
export const listedFreezeView = freezeView.extend({
  frozenAt: z.string().nullable().describe('null: the managed policy does not say since when'),
  managed: z
    .boolean()
    .describe('written in the managed policy: only the installation operator lifts it'),
});

export const freezeListView = z.strictObject({
  freezes: z.array(listedFreezeView).describe("the managed policy's first, then the admins'"),
});

export type FreezeView = Shown<typeof freezeView>;
export type ListedFreezeView = Shown<typeof listedFreezeView>;
export type FrozenView = Shown<typeof frozenView>;
export type FreezeListView = Shown<typeof freezeListView>;

/** Fails to compile when the store's freeze no longer fits what clients are shown. */
export const freezeSchemasFollowTheStore: [Fits<FreezeRecord, typeof freezeView>] = [true];
