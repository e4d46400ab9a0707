// API tokens as the API answers them (`/v1/tokens*`): a token's name, role and
// bindings, never its secret, except once in the answer that makes it. No IO here.

import { z } from 'zod';
import type { TokenRecord } from '../store/types.js';
import { ROLES } from '../store/types.js';
import type { Fits, Shown } from './fits.js';
import { shownFields } from './fits.js';

/** A token as an admin sees it: everything but its secret. */
export const tokenView = z.strictObject({
  id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  workspace: z.string().nullable().describe('null: every workspace (human roles only)'),
  agent: z.string().nullable().describe('agent tokens: the agent every request is stamped with'),
  space: z.string().nullable(),
  mode: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  revokedAt: z.string().nullable(),
  expiresAt: z
    .string()
    .nullable()
    .describe('when the token stops being accepted (ISO 8601, UTC); null: it does not expire'),
});

/** `GET /v1/tokens`. */
export const tokenListView = z.strictObject({ tokens: z.array(tokenView) });

/** `POST /v1/tokens`: the new token's secret, answered here and nowhere else, and its record. */
export const madeTokenView = z.strictObject({
  token: z.string().describe('the secret: it is not stored and cannot be read again'),
  record: tokenView,
});

export type TokenView = Shown<typeof tokenView>;
export type TokenListView = Shown<typeof tokenListView>;
export type MadeTokenView = Shown<typeof madeTokenView>;

/** A stored token as the API shows it (its hash never leaves the store). */
export function showToken(record: TokenRecord): TokenView {
  return shownFields(tokenView, record);
}

/** Fails to compile when the store's token no longer fits what admins are shown. */
export const tokenSchemasFollowTheStore: [Fits<TokenRecord, typeof tokenView>] = [true];
