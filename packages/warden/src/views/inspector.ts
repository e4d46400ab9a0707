// The AgentInspector through the server (`/v1/inspector*`, contracts §4): the
// supervisor and its settings, and an action's answer as the local inspector
// sends it. No IO here.

import { z } from 'zod';
import type { InspectorAnswer } from '../inspector/answer.js';
import type { InspectorSettings } from '../instance/index.js';
import type { Fits, Shown } from './fits.js';

/** `tools.agentInspector` of the supervisor's settings, with the defaults filled in (inspector.md §4). */
export const inspectorSettingsView = z.strictObject({
  observableAgents: z
    .array(z.string())
    .describe('the agents it may observe; empty: every agent of the instance'),
  allowFileAccess: z.boolean(),
  maxFileKb: z.number(),
  maxAuditEntries: z.number(),
});

export const inspectorView = z.strictObject({
  supervisor: z.string(),
  settings: inspectorSettingsView,
  warnings: z.array(z.string()),
});

/** An action's answer: the text the local inspector sends (indented JSON), or why it refused. */
export const inspectorAnswerView = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    text: z.string().describe("the action's answer as indented JSON, redacted and capped"),
  }),
  z.strictObject({ ok: z.literal(false), error: z.string() }),
]);

export type InspectorSettingsView = Shown<typeof inspectorSettingsView>;
export type InspectorView = Shown<typeof inspectorView>;
export type InspectorAnswerView = Shown<typeof inspectorAnswerView>;

/** What the server sends of an answer: its text, not the value it was written from. */
export function showInspectorAnswer(answer: InspectorAnswer): InspectorAnswerView {
  return answer.ok ? { ok: true, text: answer.text } : { ok: false, error: answer.error };
}

/** Fails to compile when the inspector's settings no longer fit what clients are shown. */
export const inspectorSchemasFollowTheInspector: [
  Fits<InspectorSettings, typeof inspectorSettingsView>,
] = [true];
