// Fewer prompts, not less safety: prompts a human answered "approve once"
// again and again become suggested rules. Each suggestion is a scope's rules
// from the approvals' own offers ("approve for N hours" would have written
// them), shared by at least `min` approvals, with its blast radius: the past
// decisions of the workspace it would have turned into allows. A scope whose
// rules meet a deny of the standing policy is never suggested — a standing
// allow in a narrower scope could lift that deny, a remembered one cannot —
// so accepting a suggestion only answers what humans kept answering yes to.
// Pure: approvals, decisions and the policy come in.

import { createHash } from 'node:crypto';
import type { ActionRequest, CompiledPolicy, RuleDraft } from '@warden/engine';
import {
  allRules,
  canonicalJson,
  compilePolicy,
  explainDecision,
  validateRequest,
  withRules,
} from '@warden/engine';
import type { CellChange } from '../permissions/matrix.js';
import type { ApprovalRecord, JsonValue } from '../store/types.js';

export interface PastDecision {
  /** The decision's id. */
  readonly id: string;
  readonly agent: string;
  readonly tool: string | null;
  /** Its final outcome: `allow`, `ask` or `deny`. */
  readonly outcome: string;
  /** The request as recorded; null when none was. */
  readonly request: JsonValue | null;
}

export interface Suggestion {
  /** Stable for the same scope and rules: accepting names it. */
  readonly id: string;
  readonly scope: string;
  /** The allow rules, as "approve for N hours" would have written them (without an expiry). */
  readonly rules: readonly { readonly [key: string]: unknown }[];
  /** How many prompts these rules would have answered that a human approved once. */
  readonly approvals: number;
  readonly approvalIds: readonly string[];
  readonly agents: readonly string[];
  readonly tools: readonly string[];
  readonly firstAt: string;
  readonly lastAt: string;
  readonly blastRadius: {
    /** Past decisions that were not allowed and would have been with these rules. */
    readonly wouldAllow: number;
    /** Of those, how many had been denied, not asked. */
    readonly wereDenied: number;
    /** How many past decisions were looked at. */
    readonly looked: number;
    /** The cells of the permissions matrix the rules change (what a class gets in a scope). */
    readonly cells: readonly CellChange[];
    readonly examples: readonly {
      readonly decisionId: string;
      readonly agent: string;
      readonly tool: string | null;
      readonly was: string;
    }[];
  };
}

export interface SuggestOptions {
  /** Approvals answered once that a suggestion needs at least (default 3). */
  readonly min?: number;
  readonly at: number;
  /** Example ids per suggestion (default 5). */
  readonly examples?: number;
  /** The matrix cells the policy with the suggested rules changes; none when not given. */
  readonly cells?: (withRules: CompiledPolicy) => readonly CellChange[];
}

interface Group {
  readonly scope: string;
  readonly rules: readonly RuleDraft[];
  readonly approvals: ApprovalRecord[];
}

function suggestionId(scope: string, rules: readonly RuleDraft[]): string {
  return `sug-${createHash('sha256')
    .update(canonicalJson({ scope, rules } as unknown as JsonValue))
    .digest('hex')
    .slice(0, 12)}`;
}

/** The rules written into a policy document: the drafts in their scope. */
export function suggestedRules(
  suggestion: Pick<Suggestion, 'id' | 'scope' | 'rules' | 'approvals'>,
): Record<string, unknown>[] {
  return suggestion.rules.map((draft, i) => ({
    id: `${suggestion.id}-${i + 1}`,
    ...(suggestion.scope === 'workspace' ? {} : { scope: suggestion.scope }),
    ...(JSON.parse(JSON.stringify(draft)) as Record<string, unknown>),
    note: `suggested from ${suggestion.approvals} prompts approved once`,
  }));
}

function blastRadius(
  approved: ReadonlySet<string>,
  policy: CompiledPolicy,
  with_: CompiledPolicy,
  decisions: readonly PastDecision[],
  options: SuggestOptions,
): Suggestion['blastRadius'] {
  const { at } = options;
  const examples = options.examples ?? 5;
  let wouldAllow = 0;
  let wereDenied = 0;
  let looked = 0;
  const shown: Suggestion['blastRadius']['examples'][number][] = [];
  for (const past of decisions) {
    if (past.outcome === 'allow' || past.request === null || approved.has(past.id)) continue;
    const request = validateRequest(past.request);
    if (!request.ok) continue;
    looked += 1;
    const decide = (p: CompiledPolicy) =>
      explainDecision({
        policy: p,
        request: request.value as ActionRequest,
        at,
        approverConnected: false,
      }).result.decision;
    if (decide(with_) !== 'allow') continue;
    const now = decide(policy);
    if (now === 'allow') continue;
    wouldAllow += 1;
    if (past.outcome === 'deny' && now === 'deny') wereDenied += 1;
    if (shown.length < examples)
      shown.push({ decisionId: past.id, agent: past.agent, tool: past.tool, was: past.outcome });
  }
  return {
    wouldAllow,
    wereDenied,
    looked,
    cells: options.cells?.(with_) ?? [],
    examples: shown,
  };
}

/**
 * The suggestions the approvals support, most approvals first. `policy` is
 * the workspace's policy as decisions read it now; `decisions` the recent
 * decisions the blast radius is measured on.
 */
export function suggestRules(
  approvals: readonly ApprovalRecord[],
  policy: CompiledPolicy,
  decisions: readonly PastDecision[],
  options: SuggestOptions,
): Suggestion[] {
  const min = Math.max(1, options.min ?? 3);
  // A decision that asked and was approved was allowed in the end, whatever its entry says.
  const approved = new Set(
    approvals.filter((a) => a.state === 'approved').map((a) => a.decisionId),
  );
  const groups = new Map<string, Group>();
  for (const approval of approvals) {
    if (approval.state !== 'approved' || approval.answer?.kind !== 'once') continue;
    const offer = approval.offer;
    if (offer === null || !offer.rememberable) continue;
    for (const scope of offer.scopes) {
      // Only rules that lift the whole prompt and meet no standing deny.
      if (!scope.effective || (scope.staysDenied?.length ?? 0) > 0 || scope.rules.length === 0)
        continue;
      const key = canonicalJson({ scope: scope.scope, rules: scope.rules } as unknown as JsonValue);
      const group = groups.get(key) ?? { scope: scope.scope, rules: scope.rules, approvals: [] };
      group.approvals.push(approval);
      groups.set(key, group);
    }
  }
  const suggestions: Suggestion[] = [];
  for (const group of groups.values()) {
    if (group.approvals.length < min) continue;
    const id = suggestionId(group.scope, group.rules);
    // Accepted already: its rules are in the policy.
    if (allRules(policy.policy).some((r) => r.id.startsWith(`${id}-`))) continue;
    const added = withRules(
      policy.policy,
      suggestedRules({
        id,
        scope: group.scope,
        rules: group.rules.map((draft) => ({ ...draft })),
        approvals: group.approvals.length,
      }),
    );
    if (!added.ok) continue;
    const sorted = [...group.approvals].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    suggestions.push({
      id,
      scope: group.scope,
      rules: group.rules.map((draft) => ({ ...draft })),
      approvals: sorted.length,
      approvalIds: sorted.slice(-(options.examples ?? 5)).map((a) => a.id),
      agents: [...new Set(sorted.map((a) => a.agent))].sort(),
      tools: [...new Set(sorted.map((a) => a.tool ?? ''))].filter((t) => t !== '').sort(),
      firstAt: (sorted[0] as ApprovalRecord).createdAt,
      lastAt: (sorted[sorted.length - 1] as ApprovalRecord).createdAt,
      blastRadius: blastRadius(approved, policy, compilePolicy(added.policy), decisions, options),
    });
  }
  return suggestions.sort(
    (a, b) =>
      b.approvals - a.approvals || a.scope.localeCompare(b.scope) || a.id.localeCompare(b.id),
  );
}
