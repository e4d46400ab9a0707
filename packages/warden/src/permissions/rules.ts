// A rule as people read it: its fields, where it comes from, and its sentence
// (G19); and what each autonomy setting means in plain words (G32). The API
// and the console show rules and dials only through these.

import type { Policy } from '@warden/engine';
import { allRules, describeRule } from '@warden/engine';

/** What the dial means, in plain words, wherever it is set (G32). */
export const AUTONOMY_MEANING: Readonly<Record<string, string>> = {
  proposeOnly: 'every gated tool call is denied; agents here propose and do not act',
  actWithApproval: 'a prompt waits for a connected human approver; with none, it is denied',
  actFreely:
    'every prompt is allowed without asking anyone — only an explicit deny still stops a call (and a managed prompt, an unverifiable deny, an unreadable command)',
};

/** The dial as it acts: an unset one behaves as `actWithApproval`. */
export function effectiveAutonomy<A extends string>(
  autonomy: A | null | undefined,
): A | 'actWithApproval' {
  return autonomy ?? 'actWithApproval';
}

type Rule = Policy['rules'][number];

/** A rule as the API shows it: its fields, its origin, and its sentence (G19). */
export function ruleFacts(
  rule: Rule,
  workspace: string | undefined,
  layer: 'workspace' | 'managed',
) {
  return {
    id: rule.id,
    scope: rule.scope,
    ...(rule.action === undefined ? {} : { action: rule.action }),
    ...(rule.command === undefined ? {} : { command: rule.command }),
    decision: rule.decision,
    enforcement: rule.enforcement,
    ...(rule.when === undefined ? {} : { when: rule.when }),
    origin: layer === 'managed' ? 'managed' : rule.origin,
    expiresAt: rule.expiresAt ?? null,
    ...(rule.note === undefined ? {} : { note: rule.note }),
    sentence: describeRule(rule, workspace, layer === 'managed'),
    layer,
    readOnly: layer === 'managed',
  };
}

/** Every rule of one layer, each saying whether it can be revoked (a remembered one, G23). */
export function ruleList(
  policy: Policy,
  layer: 'workspace' | 'managed',
  revocable: ReadonlySet<string>,
) {
  return allRules(policy).map((rule) => ({
    ...ruleFacts(rule, policy.workspace, layer),
    revocable: revocable.has(rule.id),
  }));
}
