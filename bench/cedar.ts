// Cedar side of the bench: the same rules as permit/forbid policies, and the
// two ways to ask (policy text per call, or a preparsed policy set).

import { ACTION_CLASSES, defaultDecision } from '@warden/engine';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import type {
  AuthorizationAnswer,
  AuthorizationCall,
  Context,
  PolicySet,
  StatefulAuthorizationCall,
} from '@cedar-policy/cedar-wasm/nodejs';
import type { BenchRule, ClassRequest, RuleSet } from './generate.js';
import { ARG_KEY } from './generate.js';

export const cedarVersion = cedar.getCedarVersion();

const RESOURCE = { type: 'Workspace', id: 'acme' } as const;

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A glob as a Cedar `like` pattern. `like` has one wildcard, `*`, which also
 * crosses `/`; `**` and a leading `**\/` become `*`. The bench's values are
 * chosen so this never changes an answer (see generate.ts).
 */
export function globToLike(glob: string): string {
  const body = glob.replace(/^\*\*\//, '*').replace(/\*\*/g, '*');
  return `"${body.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function matchExpr(attr: string, pattern: string): string {
  return pattern.includes('*')
    ? `context.${attr} like ${globToLike(pattern)}`
    : `context.${attr} == ${quote(pattern)}`;
}

/**
 * One rule as one policy. Cedar has no scope precedence: a forbid anywhere
 * overrides any permit, so a narrower allow cannot beat a wider deny, and
 * `prompt` (no Cedar equivalent) becomes `forbid`, as Warden's prompt is a
 * deny when no approver is connected.
 */
function policyOf(rule: BenchRule): string {
  const effect = rule.decision === 'allow' ? 'permit' : 'forbid';
  const principal =
    rule.scope.kind === 'agent' ? `principal == Agent::${quote(rule.scope.id)}` : 'principal';
  const conditions: string[] = [];
  if (rule.scope.kind === 'space') conditions.push(`context.space == ${quote(rule.scope.id)}`);
  let action: string;
  const { target } = rule;
  if (target.kind === 'command') {
    action = 'Action::"command"';
    conditions.push(`context.command like ${globToLike(`${target.prefix}*`)}`);
  } else {
    action = `Action::${quote(target.cls)}`;
    const key = ARG_KEY[target.cls];
    if (target.pattern !== undefined && key !== undefined)
      conditions.push(matchExpr(key === 'refs' ? 'ref' : 'path', target.pattern));
  }
  const when = conditions.length === 0 ? '' : ` when { ${conditions.join(' && ')} }`;
  return `${effect}(${principal}, action == ${action}, resource)${when};`;
}

/** Warden's built-in `allow` defaults as one permit. */
function defaultsPolicy(): string {
  const allowed = ACTION_CLASSES.filter((cls) => defaultDecision(cls) === 'allow');
  return `permit(principal, action in [${allowed.map((c) => `Action::${quote(c)}`).join(', ')}], resource);`;
}

/**
 * The rules by Warden rule id, plus `defaults`. Preparsing takes this form:
 * Cedar parses it faster than one text (about 8 s against 13 s at 50,000
 * rules in a fresh process), and its diagnostics then name Warden's rules.
 */
export function cedarPolicyRecord(set: RuleSet): Record<string, string> {
  const record: Record<string, string> = {};
  for (const rule of set.rules) record[rule.id] = policyOf(rule);
  record.defaults = defaultsPolicy();
  return record;
}

function contextOf(req: ClassRequest): Context {
  const context: Context = { space: req.space };
  if (req.arg !== undefined) context[req.arg.key === 'refs' ? 'ref' : 'path'] = req.arg.value;
  return context;
}

export function cedarCall(req: ClassRequest, policies: PolicySet): AuthorizationCall {
  return {
    principal: { type: 'Agent', id: req.agent },
    action: { type: 'Action', id: req.cls },
    resource: RESOURCE,
    context: contextOf(req),
    policies,
    entities: [],
  };
}

export function cedarStatefulCall(
  req: ClassRequest,
  policySetId: string,
): StatefulAuthorizationCall {
  return {
    principal: { type: 'Agent', id: req.agent },
    action: { type: 'Action', id: req.cls },
    resource: RESOURCE,
    context: contextOf(req),
    preparsedPolicySetId: policySetId,
    entities: [],
  };
}

function decisionOf(answer: AuthorizationAnswer): 'allow' | 'deny' {
  if (answer.type !== 'success')
    throw new Error(`cedar failed: ${answer.errors.map((e) => e.message).join('; ')}`);
  return answer.response.decision;
}

export function cedarAuthorize(call: AuthorizationCall): 'allow' | 'deny' {
  return decisionOf(cedar.isAuthorized(call));
}

export function cedarStatefulAuthorize(call: StatefulAuthorizationCall): 'allow' | 'deny' {
  return decisionOf(cedar.statefulIsAuthorized(call));
}

/** Parses the policies once into Cedar's thread-local cache under `id`. */
export function cedarPreparse(id: string, policies: Record<string, string>): void {
  const answer = cedar.preparsePolicySet(id, { staticPolicies: policies });
  if (answer.type !== 'success')
    throw new Error(`cedar preparse failed: ${answer.errors.map((e) => e.message).join('; ')}`);
}

/** Raw calls for the timing loop: the same work as above without the answer check. */
export const cedarRaw = {
  isAuthorized: cedar.isAuthorized,
  statefulIsAuthorized: cedar.statefulIsAuthorized,
};
