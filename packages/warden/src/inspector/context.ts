// What each action is handed: the store's read side (so "read-only" is a
// type, STYLE 10), the supervisor's settings, the clock reading of this call,
// who may be seen, and how the answer is redacted and capped.

import type { InstanceAgent, InspectorSettings } from '../instance/index.js';
import type { StoreReader } from '../store/types.js';
import type { Fitting } from './answer.js';
import type { Audience } from './visibility.js';

/** The parts of the store's read side the inspector reads: evidence, nothing else. */
export type EvidenceReader = Pick<StoreReader, 'audit' | 'runs' | 'tasks'>;

export interface ActionContext {
  readonly store: EvidenceReader;
  readonly settings: InspectorSettings;
  readonly audience: Audience;
  readonly fitting: Fitting;
  /** The clock, read once for the call: relative windows and `overdue` agree. */
  readonly now: number;
}

/** The store filter that selects one agent's records: its id, and its workspace when its settings name one. */
export function agentScope(agent: InstanceAgent): {
  readonly agent: string;
  readonly workspace?: string;
} {
  return agent.workspace === null
    ? { agent: agent.id }
    : { agent: agent.id, workspace: agent.workspace };
}

/** How many to return: the asked `limit` (or `fallback`), never more than `maxAuditEntries`. */
export function cappedLimit(
  settings: InspectorSettings,
  asked: number | undefined,
  fallback: number,
): { readonly limit: number; readonly note?: string } {
  const max = settings.maxAuditEntries;
  const wanted = asked ?? Math.min(fallback, max);
  if (wanted <= max) return { limit: wanted };
  return {
    limit: max,
    note: `\`limit\` ${wanted} is above this supervisor's \`maxAuditEntries\` (${max}): at most ${max} are returned`,
  };
}
