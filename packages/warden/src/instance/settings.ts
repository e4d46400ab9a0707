// An agent's `AgentSettings.json` (inspector.md §2): its role, the workspace it
// works in, and its tools with their settings — credentials among them, which
// is why the inspector never reads this file (I3) and the redactor learns its
// values. Read and validated here, once, for every caller.

import { z } from 'zod';

/** An agent id: a folder name under `<data>/agents/`, safe on every file system. */
export const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why `id` cannot name an agent, or `null` when it can. */
export function agentIdProblem(id: string): string | null {
  if (AGENT_ID.test(id) && !id.endsWith('.') && id.toLowerCase() !== 'con')
    return id.includes('..') ? `agent id \`${id}\` may not contain \`..\`` : null;
  return `agent id \`${id}\` must be 1–64 letters, digits, \`.\`, \`_\` or \`-\`, starting with a letter or digit`;
}

/** The inspector's settings (inspector.md §4), under `tools.agentInspector`. */
export const InspectorSettingsSchema = z.strictObject({
  /** Empty or absent: every agent of the instance (I8, I9). */
  observableAgents: z.array(z.string().min(1)).default([]),
  /** `false`: evidence only; `list_files` and `read_file` are refused. */
  allowFileAccess: z.boolean().default(true),
  /** Cap per file, in KiB (I7). */
  maxFileKb: z.number().int().positive().max(1024).default(64),
  /** Cap on entries per audit query; group counts cover the whole window. */
  maxAuditEntries: z.number().int().positive().max(10_000).default(200),
});
export type InspectorSettings = z.infer<typeof InspectorSettingsSchema>;

export const DEFAULT_INSPECTOR_SETTINGS: InspectorSettings = InspectorSettingsSchema.parse({});

/** The file as a whole: known fields checked, anything else (tool settings) kept as written. */
export const AgentSettingsSchema = z.looseObject({
  /** What the agent is for: `coder`, `supervisor`, … */
  role: z.string().min(1).optional(),
  /** The workspace its audit entries, runs and tasks belong to. */
  workspace: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  /** Tool name → that tool's settings (credentials included). */
  tools: z.record(z.string().min(1), z.unknown()).default({}),
});
export type AgentSettings = z.infer<typeof AgentSettingsSchema>;

export type SettingsResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly string[] };

function problemsOf(error: z.ZodError, base: string): string[] {
  return error.issues.map((i) => {
    const path = [base, ...i.path.map(String)].filter((p) => p !== '').join('.');
    return `${path === '' ? 'settings' : path}: ${i.message}`;
  });
}

/** Parses the text of an `AgentSettings.json`. */
export function parseAgentSettings(text: string): SettingsResult<AgentSettings> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [`not JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  const parsed = AgentSettingsSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: problemsOf(parsed.error, '') };
  return { ok: true, value: parsed.data };
}

/** The inspector's settings in an agent's settings (defaults where absent). */
export function inspectorSettings(settings: AgentSettings): SettingsResult<InspectorSettings> {
  const raw = settings.tools['agentInspector'];
  if (raw === undefined) return { ok: true, value: DEFAULT_INSPECTOR_SETTINGS };
  const parsed = InspectorSettingsSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, problems: problemsOf(parsed.error, 'tools.agentInspector') };
  return { ok: true, value: parsed.data };
}
