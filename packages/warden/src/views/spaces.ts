// The spaces of a workspace and their autonomy dial as the API answers them
// (`/v1/spaces*`, G30–G32): each setting with what it means in plain words.
// No IO here.

import { AUTONOMY_LEVELS } from '@warden/engine';
import { z } from 'zod';
import type { Shown } from './fits.js';
import { revisionView } from './policy.js';

const autonomySchema = z.enum(AUTONOMY_LEVELS);

/** A space of the policy and its dial. */
export const spaceView = z.strictObject({
  id: z.string(),
  autonomy: autonomySchema.nullable().describe('as set; null: unset'),
  effective: autonomySchema.describe('as it acts: an unset dial behaves as `actWithApproval`'),
  meaning: z.string().describe('what the effective setting means, in plain words'),
});

/** `GET /v1/spaces`: the spaces, and every setting of the dial with its meaning. */
export const spaceListView = z.strictObject({
  spaces: z.array(spaceView),
  levels: z.array(z.strictObject({ level: autonomySchema, meaning: z.string() })),
});

/** `PUT /v1/spaces/:id`: the revision the setting made, and what it means. */
export const spaceSetView = revisionView.extend({
  space: z.string(),
  autonomy: autonomySchema.nullable().describe('as set; null: unset'),
  meaning: z.string(),
});

export type SpaceView = Shown<typeof spaceView>;
export type SpaceListView = Shown<typeof spaceListView>;
export type SpaceSetView = Shown<typeof spaceSetView>;
