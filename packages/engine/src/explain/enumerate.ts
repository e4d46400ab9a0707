// The whole policy, enumerated for one agent (G20): per class what it may do,
// with the constrained exceptions, before the agent runs.

import type { CompiledLayer, CompiledPolicy, CompiledRule } from '../compile/compile.js';
import type { ActionClass } from '../model/classes.js';
import { ACTION_CLASSES, defaultDecision } from '../model/classes.js';
import type { Autonomy, Decision } from '../model/decision.js';
import { strictness } from '../model/decision.js';
import { describeRule } from './sentences.js';

export interface EnumerateInput {
  readonly policy: CompiledPolicy;
  readonly managed?: CompiledPolicy | null;
  readonly agent: string;
  readonly space?: string;
  readonly mode?: string;
  readonly at: number;
}

export interface RuleRef {
  readonly rule: string;
  readonly scope: string;
  readonly decision: Decision;
  readonly enforcement: string;
  readonly sentence: string;
}

export interface ClassPermission {
  readonly class: ActionClass;
  /** What a request of this class gets when no constrained rule applies, before the dial. */
  readonly decision: Decision;
  readonly rule: string;
  readonly scope: string;
  /** After the autonomy dial. */
  readonly effective: Decision;
  /** Constrained rules that decide instead when their conditions hold. */
  readonly exceptions: readonly RuleRef[];
}

export interface Enumeration {
  readonly workspace: string;
  readonly agent: string;
  readonly space: string | null;
  readonly mode: string | null;
  readonly autonomy: Autonomy;
  readonly classes: readonly ClassPermission[];
  readonly commands: readonly RuleRef[];
  readonly commandNet: readonly string[];
  readonly advisory: readonly RuleRef[];
}

function alive(rule: CompiledRule, at: number): boolean {
  return rule.expiresAtMs === null || at < rule.expiresAtMs;
}

function ref(rule: CompiledRule, prefix: string, workspace: string | undefined): RuleRef {
  return {
    rule: rule.rule.id,
    scope: `${prefix}${rule.rule.scope}`,
    decision: rule.rule.decision,
    enforcement: rule.rule.enforcement,
    sentence: describeRule(rule.rule, workspace, prefix !== ''),
  };
}

interface Baseline {
  readonly decision: Decision;
  readonly rule: string;
  readonly scope: string;
  /** How many scopes of the chain come before and including the deciding one. */
  readonly depth: number;
  /** Decided by a remembered rule (G23). */
  readonly remembered: boolean;
}

function baseline(
  layer: CompiledLayer,
  cls: ActionClass,
  chain: readonly string[],
  at: number,
  prefix: string,
  standing = false,
): Baseline | null {
  for (let i = 0; i < chain.length; i++) {
    const scope = chain[i] as string;
    const rules = (layer.scopes.get(scope)?.classRules(cls) ?? []).filter(
      (r) => !r.constrained && !r.advisory && alive(r, at) && !(standing && r.remembered),
    );
    if (rules.length === 0) continue;
    const best = rules.reduce((a, b) => (b.rank > a.rank ? b : a));
    return {
      decision: best.rule.decision,
      rule: best.rule.id,
      scope: `${prefix}${scope}`,
      depth: i + 1,
      remembered: best.remembered,
    };
  }
  return null;
}

export function enumerate(input: EnumerateInput): Enumeration {
  const { policy, at } = input;
  const managed = input.managed ?? null;
  const workspace = policy.policy.workspace;
  const chain: string[] = [];
  if (input.space !== undefined) chain.push(`space:${input.space}`);
  chain.push(`agent:${input.agent}`, 'workspace');
  const ownChain = input.mode === undefined ? chain : [...chain, `mode:${input.mode}`];
  const autonomy: Autonomy =
    (input.space === undefined ? undefined : policy.autonomy.get(input.space)) ?? 'actWithApproval';

  const classes: ClassPermission[] = ACTION_CLASSES.map((cls) => {
    const fallback: Baseline = {
      decision: defaultDecision(cls),
      rule: `default:${cls}`,
      scope: 'default',
      depth: ownChain.length,
      remembered: false,
    };
    const withRemembered = baseline(policy.layer, cls, ownChain, at, '') ?? fallback;
    // E41: a remembered rule never beats a deny of the standing policy. Where one decides,
    // the standing policy's own baseline is read too: its deny stands, and the constrained
    // denies before it still bite.
    const standing = withRemembered.remembered
      ? (baseline(policy.layer, cls, ownChain, at, '', true) ?? fallback)
      : withRemembered;
    const own = standing.decision === 'deny' ? standing : withRemembered;
    const pinned = managed === null ? null : baseline(managed.layer, cls, chain, at, 'managed:');
    const shown =
      pinned !== null && strictness(pinned.decision) >= strictness(own.decision) ? pinned : own;
    const exceptions: RuleRef[] = [];
    ownChain.slice(0, Math.max(own.depth, standing.depth)).forEach((scope, index) => {
      for (const rule of policy.layer.scopes.get(scope)?.classRules(cls) ?? []) {
        if (!rule.constrained || rule.advisory || !alive(rule, at)) continue;
        // Under a standing deny, a remembered allow lifts nothing; past the remembered
        // baseline only the standing denies still apply (E41).
        if (own.decision === 'deny' && rule.remembered && rule.decision === 'allow') continue;
        if (index >= own.depth && (rule.remembered || rule.decision !== 'deny')) continue;
        exceptions.push(ref(rule, '', workspace));
      }
    });
    if (managed !== null) {
      chain.slice(0, pinned?.depth ?? chain.length).forEach((scope) => {
        for (const rule of managed.layer.scopes.get(scope)?.classRules(cls) ?? []) {
          if (rule.constrained && !rule.advisory && alive(rule, at))
            exceptions.push(ref(rule, 'managed:', workspace));
        }
      });
    }
    let effective = shown.decision;
    if (autonomy === 'proposeOnly') effective = 'deny';
    else if (autonomy === 'actFreely' && effective === 'prompt' && pinned?.decision !== 'prompt')
      effective = 'allow';
    return {
      class: cls,
      decision: shown.decision,
      rule: shown.rule,
      scope: shown.scope,
      effective,
      exceptions,
    };
  });

  const commands: RuleRef[] = [];
  const advisory: RuleRef[] = [];
  const collect = (layer: CompiledLayer, scopes: readonly string[], prefix: string): void => {
    for (const scope of scopes) {
      const bucket = layer.scopes.get(scope);
      if (bucket === undefined) continue;
      for (const list of bucket.commands.values()) {
        for (const rule of list) {
          if (!alive(rule, at)) continue;
          (rule.advisory ? advisory : commands).push(ref(rule, prefix, workspace));
        }
      }
      for (const list of bucket.classLists()) {
        for (const rule of list)
          if (rule.advisory && alive(rule, at)) advisory.push(ref(rule, prefix, workspace));
      }
    }
  };
  collect(policy.layer, ownChain, '');
  if (managed !== null) collect(managed.layer, chain, 'managed:');

  return {
    workspace: workspace ?? '',
    agent: input.agent,
    space: input.space ?? null,
    mode: input.mode ?? null,
    autonomy,
    classes,
    commands,
    commandNet:
      input.mode === undefined ? [] : (policy.nets.get(input.mode) ?? []).map((n) => n.entry),
    advisory,
  };
}
