// Tool pins as the API answers them (`/v1/tool-pins*`): each downstream tool
// of the gateway by the hash of its definition, and a changed definition
// waiting for an admin. No IO here.

import { z } from 'zod';
import type { ToolPinRecord } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

/**
 * The hash of a reviewed definition an admin accepts: all 64 hex digits, or at least the 12 the
 * lists show.
 */
export const REVIEWED_HASH = /^[0-9a-f]{12,64}$/;

/** A definition as the downstream server gave it: name, description, input schema. */
const json = z.unknown();

export const toolPinView = z.strictObject({
  workspace: z.string(),
  tool: z.string().describe('the exposed name, `<server>__<tool>`'),
  hash: z.string(),
  definition: json,
  pinnedAt: z.string(),
  pinnedBy: z.string(),
  pending: z
    .strictObject({ hash: z.string(), definition: json, seenAt: z.string() })
    .nullable()
    .describe('a changed definition, refused until an admin accepts it'),
});

export const toolPinListView = z.strictObject({ pins: z.array(toolPinView) });

export const pinCheckView = z.union([
  z.strictObject({ ok: z.literal(true) }),
  z.strictObject({ ok: z.literal(false), reason: z.string() }),
]);

export type ToolPinView = Shown<typeof toolPinView>;
export type ToolPinListView = Shown<typeof toolPinListView>;

/** Fails to compile when the store's pin no longer fits what clients are shown. */
export const toolPinSchemasFollowTheStore: [Fits<ToolPinRecord, typeof toolPinView>] = [true];
