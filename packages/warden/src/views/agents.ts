// The agents of a workspace as the API answers them (`/v1/agents*`): the
// registered ones and those of the data folder, and a registration. No IO here.

import { z } from 'zod';
import type { AgentRecord } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

/** An agent's registration (`PUT /v1/agents/:id`): the space and mode a token bound to none acts in. */
export const agentRecordView = z.strictObject({
  workspace: z.string(),
  id: z.string(),
  name: z.string().nullable(),
  role: z.string().nullable(),
  space: z.string().nullable(),
  mode: z.string().nullable(),
  model: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** An agent of the workspace, registered or only on disk (`<data>/agents/<id>/`). */
export const agentView = agentRecordView.extend({
  createdAt: z.string().nullable().describe('null: not registered'),
  updatedAt: z.string().nullable(),
  registered: z.boolean(),
  tools: z
    .array(z.string())
    .nullable()
    .describe('the tools its settings name; null: it has no folder in the data folder'),
  lastActivity: z.string().nullable().describe('when its newest audit entry occurred'),
});

export const agentListView = z.strictObject({ agents: z.array(agentView) });

export type AgentRecordView = Shown<typeof agentRecordView>;
export type AgentView = Shown<typeof agentView>;
export type AgentListView = Shown<typeof agentListView>;

/** Fails to compile when the store's agent no longer fits what clients are shown. */
export const agentSchemasFollowTheStore: [Fits<AgentRecord, typeof agentRecordView>] = [true];
