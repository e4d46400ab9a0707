// A frozen agent — or every agent of a frozen workspace — is denied every
// call, at once and whatever else applies: the freeze is an operator's
// stop, not a rule, so no rule, remembered approval, mode, autonomy or
// override weighs against it. It is a fact the caller passes in, like the
// clock; where a freeze is kept and who may lift it is the caller's.

import type { FacetEntry } from '../model/result.js';

export interface Freeze {
  /** `agent`: this agent is frozen; `workspace`: every agent of the workspace is. */
  readonly scope: 'agent' | 'workspace';
  /** Who froze it. */
  readonly by: string;
  /** Their reason, or null. */
  readonly reason: string | null;
  /** When, in epoch milliseconds. */
  readonly since: number;
}

/** The deciding rule's name: `freeze:agent` or `freeze:workspace`. */
export function freezeRule(freeze: Freeze): string {
  return `freeze:${freeze.scope}`;
}

/** Where the freeze lives, as a decision's `scope` says it. */
export function freezeScope(freeze: Freeze, agent: string): string {
  return freeze.scope === 'agent' ? `agent:${agent}` : 'workspace';
}

function because(freeze: Freeze): string {
  const why = freeze.reason === null ? '' : `: ${freeze.reason}`;
  return `frozen by ${freeze.by} at ${new Date(freeze.since).toISOString()}${why}`;
}

/** The entry appended to `facets`, as the net's and the dial's are. */
export function freezeEntry(freeze: Freeze, agent: string): FacetEntry {
  return {
    facet: 'freeze',
    decision: 'deny',
    rule: freezeRule(freeze),
    scope: freezeScope(freeze, agent),
    because: because(freeze),
  };
}

/** The decision's reason: what is frozen, by whom and why, and that nothing lifts it but a thaw. */
export function freezeReason(freeze: Freeze, agent: string): string {
  const what =
    freeze.scope === 'agent' ? `agent \`${agent}\` is` : 'every agent of the workspace is';
  return `denied: ${what} ${because(freeze)} (\`${freezeRule(freeze)}\` in ${freezeScope(freeze, agent)}; final, not overridable): every call is denied until an admin thaws it`;
}
