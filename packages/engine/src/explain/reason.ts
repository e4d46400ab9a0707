// The decision's reason in one line (G19, contracts §3): it names the deciding
// rule, its scope and, for a constraint, the attribute and request value.

import type { Autonomy } from '../model/decision.js';
import type { ActionRequest } from '../model/request.js';
import type { DecisionResult } from '../model/result.js';
import type { FacetOutcome, NetHit } from '../resolve/decide.js';
import { SANDBOX_BECAUSE, SANDBOX_OFF } from '../resolve/unsandboxed.js';

export interface ReasonInput {
  readonly result: Omit<DecisionResult, 'reason'>;
  readonly outcomes: readonly FacetOutcome[];
  readonly namedBy: FacetOutcome | null;
  readonly net: NetHit | null;
  readonly autonomy: Autonomy | null;
  readonly request: ActionRequest;
  /** The scope of a ceiling that lowered the dial (a delegated run), or null. */
  readonly limitedBy?: string | null;
  /** The call asks to run without the OS sandbox. */
  readonly unsandboxed?: boolean;
}

function facetSentence(outcome: FacetOutcome): string {
  const held = outcome.shown.heldBack;
  const sentence = facetSentenceAlone(outcome);
  return held === undefined
    ? sentence
    : `${sentence} (the remembered approval \`${held.rule}\` in ${held.scope} does not lift a deny of the standing policy)`;
}

function facetSentenceAlone(outcome: FacetOutcome): string {
  const shown = outcome.shown;
  const name = `\`${outcome.facet.name}\``;
  const who = `rule \`${shown.ruleName ?? ''}\` in ${shown.scope ?? ''}`;
  switch (shown.via) {
    case 'default':
      return `${name}: ${shown.decision ?? ''} by the built-in default \`${shown.ruleName ?? ''}\``;
    case 'unparseable':
      return `${name} cannot be read with confidence (${outcome.unparseableReason ?? 'unparseable'}), so \`unparseable\` asks`;
    case 'control':
      return `${name}: \`${shown.controlPath ?? ''}\` changes what later commands run, so the built-in default \`${shown.ruleName ?? ''}\` asks`;
    case 'transactional':
      return `${name} cannot be read with confidence (${outcome.unparseableReason ?? 'unparseable'}): it runs transactionally, without network, and what it does is decided before it lands`;
    case 'escalation':
      return `${name}: ${outcome.because ?? 'an argument is unknown'}, so ${who} cannot be verified`;
    case 'rule': {
      const text = outcome.because;
      return text === undefined ? `${name} by ${who}` : `${name}: ${text} of ${who}`;
    }
  }
}

export function renderReason(input: ReasonInput): string {
  if (input.unsandboxed !== true) return ruled(input);
  const { result, autonomy, request } = input;
  const tail = waiting(result);
  if (result.rule === SANDBOX_OFF) {
    const dial =
      autonomy === 'actFreely'
        ? ` (space \`${request.space ?? ''}\` is set to actFreely, which does not pre-approve it)`
        : '';
    return `needs approval: ${SANDBOX_BECAUSE} (\`${SANDBOX_OFF}\` in default): the rules allow it, yet a call outside the sandbox needs a human each time, and an approval holds for this call only${dial}; ${tail}`;
  }
  if (result.decision === 'prompt')
    return `${asking(input.outcomes)}; and ${SANDBOX_BECAUSE} (\`${SANDBOX_OFF}\`), which needs a human each time: an approval holds for this call only; ${tail}`;
  return `${ruled(input)}; ${SANDBOX_BECAUSE} as well`;
}

function asking(outcomes: readonly FacetOutcome[]): string {
  const sentences = outcomes.filter((o) => o.final === 'prompt').map(facetSentence);
  return `needs approval: ${sentences.join('; ')}`;
}

function waiting(result: ReasonInput['result']): string {
  return result.outcome === 'ask'
    ? 'waiting for an approver'
    : 'no approver is connected, so it is denied (fail-closed)';
}

/** The reason the rules, the net and the dial give. */
function ruled(input: ReasonInput): string {
  const { result, outcomes, namedBy, net, autonomy, request } = input;
  const space = `\`${request.space ?? ''}\``;
  const limitedBy = input.limitedBy ?? null;
  if (net !== null) {
    return `denied: \`${net.command}\` matches \`${net.entry}\` of the command net of mode \`${net.mode}\` (\`${result.rule}\` in ${result.scope}; final, not overridable)`;
  }
  if (autonomy === 'proposeOnly') {
    if (limitedBy !== null)
      return `denied: ${limitedBy} acts at most at proposeOnly, the autonomy of its delegator (\`${result.rule}\` in ${result.scope}): it proposes and does not act`;
    return `denied: space ${space} is set to proposeOnly (\`${result.rule}\` in ${result.scope}): agents there propose and do not act`;
  }
  if (result.decision === 'allow') {
    if (result.rule === 'autonomy:actFreely') {
      const approved = outcomes.filter((o) => o.preApproved).map((o) => `\`${o.facet.name}\``);
      return `allowed: space ${space} is set to actFreely (\`${result.rule}\` in ${result.scope}), which pre-approves the prompt of ${approved.join(', ')} without asking anyone`;
    }
    if (result.rule === 'observed')
      return `allowed: what the command did lies within what its own decision allowed (${outcomes
        .filter((o) => o.observed)
        .map((o) => `\`${o.facet.name}\``)
        .join(', ')}), so it is not asked again`;
    if (namedBy === null) return 'allowed';
    // Name the deciding facet first, then every other facet a rule allowed, or that runs
    // transactionally.
    const others = outcomes.filter(
      (o) =>
        o !== namedBy &&
        o.final === 'allow' &&
        (o.shown.via === 'rule' || o.shown.via === 'transactional'),
    );
    return `allowed: ${[namedBy, ...others].map(facetSentence).join('; ')}`;
  }
  if (result.decision === 'deny') {
    if (namedBy === null) return 'denied';
    const kept = namedBy.keptDeny
      ? ` (space ${space} is set to actFreely, which does not pre-approve what cannot be verified)`
      : '';
    const lead = namedBy.keptDeny
      ? `denied: rule \`${result.rule}\` in ${result.scope} would deny \`${namedBy.facet.name}\` and ${namedBy.because ?? 'an argument is unknown'}`
      : `denied: ${facetSentence(namedBy)}`;
    const soft = result.overridable ? ' (soft: an overrider may override it with a reason)' : '';
    return `${lead}${kept}${soft}`;
  }
  return `${asking(outcomes)}; ${waiting(result)}`;
}
