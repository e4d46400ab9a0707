// Warden side of the bench: turns the neutral rule set into a policy document
// and requests, and wraps validate + compile + decide.

import { compilePolicy, decide, validatePolicy, validateRequest } from '@warden/engine';
import type { ActionRequest, CompiledPolicy, DecisionResult } from '@warden/engine';
import type { BenchRule, ClassRequest, RuleSet, ShellRequest } from './generate.js';
import { ARG_KEY } from './generate.js';

function scopeName(rule: BenchRule): string {
  const { scope } = rule;
  return scope.kind === 'workspace' ? 'workspace' : `${scope.kind}:${scope.id}`;
}

export function wardenDocument(set: RuleSet): Record<string, unknown> {
  const spaces: Record<string, { autonomy: string }> = {};
  for (const space of set.spaces) spaces[space] = { autonomy: 'actWithApproval' };
  const rules = set.rules.map((rule) => {
    const base = { id: rule.id, scope: scopeName(rule), decision: rule.decision };
    const { target } = rule;
    if (target.kind === 'command') return { ...base, command: target.prefix };
    const key = ARG_KEY[target.cls];
    if (target.pattern === undefined || key === undefined) return { ...base, action: target.cls };
    return { ...base, action: target.cls, when: { [key]: [target.pattern] } };
  });
  return { version: 1, workspace: set.workspace, spaces, rules };
}

export function compileWarden(doc: unknown): CompiledPolicy {
  const validated = validatePolicy(doc, 'workspace');
  if (!validated.ok) {
    const first = validated.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`);
    throw new Error(`generated Warden policy is invalid: ${first.join('; ')}`);
  }
  return compilePolicy(validated.value);
}

/** One validatePolicy + compilePolicy of `doc`, timed in two parts (milliseconds). */
export function timeWardenCompile(doc: unknown): { validateMs: number; compileMs: number } {
  const start = process.hrtime.bigint();
  const validated = validatePolicy(doc, 'workspace');
  const mid = process.hrtime.bigint();
  if (!validated.ok) throw new Error('generated Warden policy is invalid');
  const compiled = compilePolicy(validated.value);
  const end = process.hrtime.bigint();
  if (compiled.layer.scopes.size === 0) throw new Error('compiled policy has no scopes');
  return { validateMs: Number(mid - start) / 1e6, compileMs: Number(end - mid) / 1e6 };
}

function validated(raw: unknown): ActionRequest {
  const result = validateRequest(raw);
  if (!result.ok) throw new Error(`generated request is invalid: ${JSON.stringify(raw)}`);
  return result.value;
}

export function wardenClassRequest(set: RuleSet, req: ClassRequest): ActionRequest {
  return validated({
    workspace: set.workspace,
    agent: req.agent,
    space: req.space,
    actions: [req.cls],
    ...(req.arg !== undefined ? { args: { [req.arg.key]: [req.arg.value] } } : {}),
  });
}

export function wardenShellRequest(set: RuleSet, req: ShellRequest): ActionRequest {
  return validated({
    workspace: set.workspace,
    agent: req.agent,
    space: req.space,
    command: req.command,
  });
}

/** One decision; `at` is fixed by the caller so the clock is not part of the measurement. */
export function wardenDecide(
  policy: CompiledPolicy,
  request: ActionRequest,
  at: number,
): DecisionResult {
  return decide({ policy, request, at, approverConnected: false });
}
