// Warnings about rules that can never decide, or never for some requests: a
// valid policy can still hold dead rules, and a dead rule is usually a
// mistake its author wants to hear about.

import type { Policy, Rule } from '../model/policy.js';
import { allRules } from '../model/policy.js';
import { canonicalJson } from '../util/canonical-json.js';

export type WarningCode =
  'duplicate' | 'contradictory' | 'unreachable' | 'shadowed' | 'expired' | 'matches-nothing';

export interface LintWarning {
  readonly code: WarningCode;
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

function key(rule: Rule): string {
  return rule.action !== undefined
    ? `class:${rule.action}`
    : `command:${rule.commandWords?.join(' ') ?? ''}`;
}

function whenKey(rule: Rule): string {
  return rule.when === undefined ? '' : canonicalJson(rule.when);
}

function label(rule: Rule): string {
  return `\`${rule.id}\` (${rule.path})`;
}

function subject(rule: Rule): string {
  return rule.action !== undefined
    ? `\`${rule.action}\``
    : `\`${rule.commandWords?.join(' ') ?? ''}\``;
}

/** Whether `narrow` (an unconstrained rule) matches every request `wide` matches, for the same facet. */
function covers(narrow: Rule, wide: Rule): boolean {
  if (narrow.action !== undefined) return narrow.action === wide.action;
  const a = narrow.commandWords ?? [];
  const b = wide.commandWords ?? [];
  if (wide.action !== undefined || a.length > b.length) return false;
  // An allow does not match look-alike programs that a restrictive rule does (G14c).
  if (narrow.decision === 'allow' && wide.decision !== 'allow') return false;
  return a.every((word, i) => word === b[i]);
}

const STRICT: Record<string, number> = { allow: 0, prompt: 1, deny: 2 };

/** Strictness with a hard deny above a soft one. */
function score(rule: Rule): number {
  return (STRICT[rule.decision] ?? 0) * 2 + (rule.enforcement === 'hard' ? 1 : 0);
}

export function lintPolicy(policy: Policy, at: number): LintWarning[] {
  const warnings: LintWarning[] = [];
  const rules = allRules(policy);
  const live = rules.filter(
    (r) => r.enforcement !== 'advisory' && (r.expiresAtMs === undefined || at < r.expiresAtMs),
  );

  for (const rule of rules) {
    if (rule.expiresAtMs !== undefined && at >= rule.expiresAtMs) {
      warnings.push({
        code: 'expired',
        path: rule.path,
        rule: rule.id,
        message: `rule ${label(rule)} expired at ${rule.expiresAt ?? ''}: it no longer takes part in any decision`,
      });
    }
    for (const k of ['paths', 'refs', 'hosts', 'commands'] as const) {
      const values = rule.when?.[k];
      if (values !== undefined && values.every((v) => v.startsWith('!'))) {
        warnings.push({
          code: 'matches-nothing',
          path: `${rule.path}.when.${k}`,
          rule: rule.id,
          message: `\`${k}\` of rule ${label(rule)} holds only negated patterns, so it matches nothing: add a positive pattern such as \`**\``,
        });
      }
    }
  }

  // Same scope, same facet, same constraints: the stricter decides and the other never does (G9).
  const groups = new Map<string, Rule[]>();
  for (const rule of live) {
    const group = `${rule.scope}\u0000${key(rule)}\u0000${whenKey(rule)}`;
    const list = groups.get(group);
    if (list === undefined) groups.set(group, [rule]);
    else list.push(rule);
  }
  for (const list of groups.values()) {
    if (list.length < 2) continue;
    const winner = list.reduce((a, b) => (score(b) > score(a) ? b : a));
    for (const rule of list) {
      if (rule === winner) continue;
      // A cap reads the other way round for an allow (G17): `allow up to N` and `prompt above N`
      // divide the requests between them.
      const capped = rule.when?.maxCount !== undefined || rule.when?.maxCents !== undefined;
      if (capped && (rule.decision === 'allow') !== (winner.decision === 'allow')) continue;
      if (rule.decision === winner.decision && rule.enforcement === winner.enforcement) {
        warnings.push({
          code: 'duplicate',
          path: rule.path,
          rule: rule.id,
          message: `rule ${label(rule)} repeats ${label(winner)}: same scope, ${subject(rule)}, constraints and decision`,
        });
      } else {
        warnings.push({
          code: 'contradictory',
          path: rule.path,
          rule: rule.id,
          message: `rule ${label(rule)} contradicts ${label(winner)} at equal specificity: the stricter \`${winner.decision}\` wins, so this \`${rule.decision}\` never decides`,
        });
      }
    }
  }

  // A broader rule in a narrower scope decides first (G8).
  const unconstrained = live.filter((r) => r.when === undefined);
  for (const rule of live) {
    if (rule.scope.startsWith('mode:')) {
      const blocker = unconstrained.find((w) => w.scope === 'workspace' && covers(w, rule));
      if (blocker !== undefined) {
        warnings.push({
          code: 'unreachable',
          path: rule.path,
          rule: rule.id,
          message: `rule ${label(rule)} can never decide: the workspace rule ${label(blocker)} decides ${subject(rule)} for every request first`,
        });
      }
      continue;
    }
    const narrower =
      rule.scope === 'workspace'
        ? ['agent:', 'space:']
        : rule.scope.startsWith('agent:')
          ? ['space:']
          : [];
    const first = unconstrained.filter(
      (other) =>
        other !== rule && narrower.some((p) => other.scope.startsWith(p)) && covers(other, rule),
    );
    if (first.length > 0) warnings.push(shadowed(rule, first));
  }
  return warnings;
}

/** How many of the scopes that shadow a rule its warning names; the rest are counted. */
const NAMED_SCOPES = 3;

/**
 * One warning per shadowed rule, however many narrower scopes decide first: a policy of
 * 500 rules over 30 scopes would otherwise warn thousands of times about the same thing.
 */
function shadowed(rule: Rule, first: readonly Rule[]): LintWarning {
  const [only] = first;
  if (first.length === 1 && only !== undefined) {
    return {
      code: 'shadowed',
      path: rule.path,
      rule: rule.id,
      message: `rule ${label(rule)} never decides in ${only.scope}: the broader rule ${label(only)} there decides ${subject(rule)} first`,
    };
  }
  const scopes = [...new Set(first.map((r) => r.scope))];
  const where = scopes.length === 1 ? (scopes[0] ?? '') : `${scopes.length} scopes`;
  const named = first.slice(0, NAMED_SCOPES).map((r) => `${label(r)} in ${r.scope}`);
  const more = first.length - named.length;
  return {
    code: 'shadowed',
    path: rule.path,
    rule: rule.id,
    message: `rule ${label(rule)} never decides in ${where}: broader rules there decide ${subject(rule)} first — ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
  };
}
