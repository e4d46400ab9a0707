// What advisory rules would have blocked (G25): each decision records the
// advisory rules that would have changed it; counted here per rule, facet and
// would-be decision, with the agents they concern and the last time.

import type { Decision } from '@warden/engine';
import type { AuditEntry } from '../store/types.js';

export interface AdvisoryHit {
  readonly rule: string;
  readonly facet: string;
  readonly wouldBe: Decision;
}

export interface AdvisoryCount extends AdvisoryHit {
  readonly count: number;
  readonly agents: readonly string[];
  readonly lastAt: string;
}

/** The advisory rules a recorded decision names (none for another entry). */
export function advisoriesOf(entry: AuditEntry): AdvisoryHit[] {
  const decision = entry.decision as { advisories?: AdvisoryHit[] } | null;
  return decision?.advisories ?? [];
}

/** Each advisory hit over `decisions` (oldest first), most frequent first. */
export function countAdvisories(decisions: readonly AuditEntry[]): AdvisoryCount[] {
  const counts = new Map<
    string,
    AdvisoryHit & { count: number; agents: Set<string>; lastAt: string }
  >();
  for (const entry of decisions) {
    for (const hit of advisoriesOf(entry)) {
      const key = `${hit.rule}\u0000${hit.facet}\u0000${hit.wouldBe}`;
      const seen = counts.get(key) ?? {
        ...hit,
        count: 0,
        agents: new Set<string>(),
        lastAt: '',
      };
      seen.count += 1;
      seen.agents.add(String(entry.agentId));
      seen.lastAt = entry.occurredAt as string;
      counts.set(key, seen);
    }
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count)
    .map((r) => ({ ...r, agents: [...r.agents].sort() }));
}
