// A frozen agent — or every agent of a frozen workspace — is denied every
// call, at once and whatever else applies: the freeze is an operator's
// stop, not a rule, so no rule, remembered approval, mode, autonomy or
// override weighs against it. It is a fact the caller passes in, like the
// clock; where a freeze is kept and who may lift it is the caller's.

import type { Policy } from '../model/policy.js';
import type { FacetEntry } from '../model/result.js';

export interface Freeze {
  /** `agent`: this agent is frozen; `workspace`: every agent of the workspace is. */
  readonly scope: 'agent' | 'workspace';
  /** Who froze it. */
  readonly by: string;
  /** Their reason, or null. */
  readonly reason: string | null;
  /** When, in epoch milliseconds; null when the managed policy does not say. */
  readonly since: number | null;
  /** Written in the managed policy: only the installation operator lifts it. */
  readonly managed?: boolean;
}

/** A freeze the managed policy writes, with the agent it names (null: the whole workspace). */
export interface ManagedFreezeOf {
  readonly agent: string | null;
  readonly path: string;
  readonly freeze: Freeze;
}

/** Every freeze the managed policy writes for a workspace, in document order. */
export function managedFreezes(managed: Policy | null, workspace: string): ManagedFreezeOf[] {
  return (managed?.freeze ?? [])
    .filter((entry) => entry.workspace === workspace)
    .map((entry) => ({
      agent: entry.agent ?? null,
      path: entry.path,
      freeze: {
        scope: entry.agent === undefined ? 'workspace' : 'agent',
        by: `the managed policy (\`${entry.path}\`)`,
        reason: entry.reason ?? null,
        since: entry.sinceMs ?? null,
        managed: true,
      },
    }));
}

/**
 * The managed policy's freeze of this agent, else of its whole workspace;
 * null when it freezes neither.
 */
export function managedFreeze(
  managed: Policy | null,
  workspace: string,
  agent: string,
): Freeze | null {
  if (managed?.freeze === undefined) return null;
  const freezes = managedFreezes(managed, workspace);
  return (
    freezes.find((f) => f.agent === agent)?.freeze ??
    freezes.find((f) => f.agent === null)?.freeze ??
    null
  );
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
  const at = freeze.since === null ? '' : ` at ${new Date(freeze.since).toISOString()}`;
  return `frozen by ${freeze.by}${at}${why}`;
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
  return `denied: ${what} ${because(freeze)} (\`${freezeRule(freeze)}\` in ${freezeScope(freeze, agent)}; final, not overridable): every call is denied until ${freeze.managed === true ? 'the installation operator removes it from the managed policy' : 'an admin thaws it'}`;
}
