// What the server says about itself (`/v1/openapi.json`, `/v1/me`,
// `/v1/workspaces`, `/v1/honesty`): the caller's identity and placement, the
// workspaces it may see, and the honesty matrix (G37). No IO here.

import { z } from 'zod';
import type { HonestyMatrix } from '../honesty/index.js';
import { MATRIX_COLUMNS } from '../honesty/index.js';
import type { TokenRecord } from '../store/types.js';
import { ROLES } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

/** `GET /v1/openapi.json`: the OpenAPI 3.1 document, made from the routes' own schemas. */
export const openapiView = z.record(z.string(), z.unknown());

/** Every permission a role may grant (the server's `Permission`; the route checks they agree). */
export const PERMISSIONS = [
  'decide',
  'report',
  'inspect',
  'read',
  'policy',
  'answer',
  'override',
  'tokens',
] as const;

const placedBySchema = z
  .enum(['token', 'registration'])
  .nullable()
  .describe('where it comes from: the token binds it, the registration names it, or none');

/** Where an agent acts (contracts §8): the space and mode, and where each comes from. */
export const placementView = z.strictObject({
  space: z.string().nullable(),
  spaceBy: placedBySchema,
  mode: z.string().nullable(),
  modeBy: placedBySchema,
});

/** A token's identity: its name, role and bindings. */
export const identityView = z.strictObject({
  id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  workspace: z.string().nullable(),
  agent: z.string().nullable(),
  space: z.string().nullable(),
  mode: z.string().nullable(),
});

/** `GET /v1/me`: who the token is. */
export const meView = identityView.extend({
  permissions: z.array(z.enum(PERMISSIONS)).describe("the permissions the token's role grants"),
  expiresAt: z
    .string()
    .nullable()
    .describe('when the token stops being accepted (ISO 8601); null: it does not expire'),
  placement: placementView.optional().describe('for an `agent` token bound to a workspace'),
});

export const workspaceListView = z.strictObject({
  workspaces: z.array(
    z.strictObject({
      workspace: z.string(),
      revision: z.number().nullable().describe('its current policy revision'),
    }),
  ),
});

const cellView = z.strictObject({
  value: z.union([z.boolean(), z.literal('partial')]),
  note: z.string().describe('one sentence that states exactly what holds'),
});

export const adapterRowView = z.strictObject({
  adapter: z.string(),
  title: z.string(),
  available: z.boolean().describe('whether this build contains the adapter'),
  verifiedWith: z.string(),
  basis: z.string(),
  cells: z.strictObject(
    Object.fromEntries(MATRIX_COLUMNS.map((column) => [column, cellView])) as Record<
      (typeof MATRIX_COLUMNS)[number],
      typeof cellView
    >,
  ),
});

/** `GET /v1/honesty`: what each adapter lets Warden see and stop, on this host (G37). */
export const honestyMatrixView = z.strictObject({
  host: z.strictObject({
    platform: z.string(),
    bwrap: z.string().nullable(),
    socat: z.string().nullable(),
    unshare: z.string().nullable().optional(),
    sandboxExec: z.string().nullable().optional(),
    sandboxBackend: z.boolean(),
    backend: z.string().nullable(),
    transactional: z.boolean(),
    floorMissing: z.boolean(),
    statement: z.string(),
  }),
  adapters: z.array(adapterRowView),
});

export type OpenapiView = Shown<typeof openapiView>;
export type MeView = Shown<typeof meView>;
export type PlacementView = Shown<typeof placementView>;
export type WorkspaceListView = Shown<typeof workspaceListView>;
export type HonestyMatrixView = Shown<typeof honestyMatrixView>;

/** Fails to compile when the token or the honesty matrix no longer fit what clients are shown. */
export const metaSchemasFollowTheServer: [
  Fits<Omit<TokenRecord, 'createdAt' | 'createdBy' | 'revokedAt'>, typeof identityView>,
  Fits<HonestyMatrix, typeof honestyMatrixView>,
] = [true, true];
