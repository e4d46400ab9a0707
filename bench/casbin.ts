// casbin side of the bench: the same rules as prioritised policy lines, so the
// first matching line decides, as Warden's narrowest scope does.

import { ACTION_CLASSES, defaultDecision } from '@warden/engine';
import { newEnforcer, newModelFromString, StringAdapter } from 'casbin';
import type { Enforcer } from 'casbin';
import type { BenchRule, ClassRequest, RuleSet } from './generate.js';

/*
 * `priority(p.eft) || deny` with a `priority` field: casbin sorts lines by
 * priority on load and the first line whose matcher holds decides; nothing
 * matching means deny. Unconstrained lines carry `*` as obj and skip the glob.
 */
export const CASBIN_MODEL = `
[request_definition]
r = sub, space, act, obj

[policy_definition]
p = priority, sub, space, act, obj, eft

[policy_effect]
e = priority(p.eft) || deny

[matchers]
m = r.act == p.act && (p.sub == "*" || r.sub == p.sub) && (p.space == "*" || r.space == p.space) && (p.obj == "*" || globMatch(r.obj, p.obj))
`;

const STRICT_ORDER = { deny: 0, prompt: 1, allow: 2 } as const;
const SCOPE_ORDER = { space: 0, agent: 1, workspace: 2 } as const;

/**
 * Warden's precedence as one number: narrower scope first, then constrained
 * before unconstrained, then strictest. `prompt` is `deny` here (Warden's
 * prompt is a deny when no approver is connected).
 */
function priorityOf(rule: BenchRule): number {
  const constrained = rule.target.kind === 'command' || rule.target.pattern !== undefined;
  return SCOPE_ORDER[rule.scope.kind] * 10 + (constrained ? 0 : 5) + STRICT_ORDER[rule.decision];
}

function lineOf(rule: BenchRule): string {
  const sub = rule.scope.kind === 'agent' ? rule.scope.id : '*';
  const space = rule.scope.kind === 'space' ? rule.scope.id : '*';
  const eft = rule.decision === 'allow' ? 'allow' : 'deny';
  const { target } = rule;
  const [act, obj] =
    target.kind === 'command'
      ? ['command', `${target.prefix}*`]
      : [target.cls, target.pattern ?? '*'];
  return `p, ${priorityOf(rule)}, ${sub}, ${space}, ${act}, ${obj}, ${eft}`;
}

/** The rules, then Warden's built-in `allow` defaults at the lowest priority. */
export function casbinPolicyText(set: RuleSet): string {
  const lines = set.rules.map(lineOf);
  for (const cls of ACTION_CLASSES) {
    if (defaultDecision(cls) === 'allow') lines.push(`p, 99, *, *, ${cls}, *, allow`);
  }
  return lines.join('\n');
}

export async function casbinEnforcer(set: RuleSet): Promise<Enforcer> {
  return newEnforcer(newModelFromString(CASBIN_MODEL), new StringAdapter(casbinPolicyText(set)));
}

/** The request tuple (sub, space, act, obj); obj is the ref or path, or empty. */
export function casbinArgs(req: ClassRequest): [string, string, string, string] {
  return [req.agent, req.space, req.cls, req.arg?.value ?? ''];
}
