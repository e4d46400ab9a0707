// The four guards at the `delegate_task` choke point (G33–G36, E40): depth,
// cycle, autonomy ceiling and budget frame. Pure: the gate reads the
// delegator's run from its store and passes it in.

import type { Autonomy } from '../model/decision.js';

export const DEFAULT_MAX_DEPTH = 3;

export const DELEGATION_GUARDS = ['depth', 'cycle', 'autonomy', 'budget'] as const;
export type DelegationGuard = (typeof DELEGATION_GUARDS)[number];

/** What the gate knows of the delegating run (E40). */
export interface DelegatorRun {
  readonly runId: string;
  readonly agent: string;
  /** The agents of the delegation chain so far, the delegator last. */
  readonly chain: readonly string[];
  /** 0 for a run nobody delegated. */
  readonly depth: number;
  /** The run's effective autonomy. */
  readonly autonomy: Autonomy;
  /** Cents left to spend or hand on; null when the run has no budget frame. */
  readonly remainingCents: number | null;
}

export interface DelegationAsk {
  readonly target: string;
  readonly budgetCents: number;
  /** An autonomy the delegator asks for; never above its own. */
  readonly autonomy?: Autonomy;
}

export interface DelegatedRun {
  readonly agent: string;
  readonly chain: readonly string[];
  readonly depth: number;
  readonly autonomy: Autonomy;
  readonly budgetCents: number;
}

export type DelegationVerdict =
  | { readonly ok: true; readonly run: DelegatedRun }
  | { readonly ok: false; readonly guard: DelegationGuard; readonly reason: string };

const LEVEL: Readonly<Record<Autonomy, number>> = {
  proposeOnly: 0,
  actWithApproval: 1,
  actFreely: 2,
};

/** The level of a setting; anything that is not one of the three counts as the lowest. */
function level(a: Autonomy): number {
  return LEVEL[a] ?? 0;
}

/** The lower of two autonomy levels (proposeOnly < actWithApproval < actFreely); an unknown value is proposeOnly. */
export function lowerAutonomy(a: Autonomy, b: Autonomy): Autonomy {
  const lower = level(a) <= level(b) ? a : b;
  return Object.hasOwn(LEVEL, lower) ? lower : 'proposeOnly';
}

function refuse(guard: DelegationGuard, reason: string): DelegationVerdict {
  return { ok: false, guard, reason: `delegation refused: ${guard}: ${reason}` };
}

/**
 * Runs the guards in order — depth, cycle, autonomy, budget — and answers the
 * delegate's run, or the first refusal with its numbers. `targetAutonomy` is
 * the target's own setting (its space's; unset is actWithApproval).
 */
export function checkDelegation(
  delegator: DelegatorRun,
  ask: DelegationAsk,
  targetAutonomy: Autonomy,
  maxDepth: number = DEFAULT_MAX_DEPTH,
): DelegationVerdict {
  const depth = delegator.depth + 1;
  if (depth > maxDepth) {
    return refuse(
      'depth',
      `run \`${delegator.runId}\` is at depth ${delegator.depth}; a delegate would be at depth ${depth}, and the limit is ${maxDepth}`,
    );
  }
  const chain = delegator.chain.includes(delegator.agent)
    ? delegator.chain
    : [...delegator.chain, delegator.agent];
  if (chain.includes(ask.target)) {
    return refuse(
      'cycle',
      `\`${ask.target}\` is already in the chain ${[...chain, ask.target].join(' → ')}`,
    );
  }
  if (ask.autonomy !== undefined && !Object.hasOwn(LEVEL, ask.autonomy)) {
    return refuse(
      'autonomy',
      `unknown autonomy \`${String(ask.autonomy)}\`: use \`proposeOnly\`, \`actWithApproval\` or \`actFreely\``,
    );
  }
  if (ask.autonomy !== undefined && level(ask.autonomy) > level(delegator.autonomy)) {
    return refuse(
      'autonomy',
      `\`${delegator.agent}\` acts at \`${delegator.autonomy}\` and cannot hand on \`${ask.autonomy}\``,
    );
  }
  if (!Number.isInteger(ask.budgetCents) || ask.budgetCents < 0) {
    return refuse(
      'budget',
      `the budget must be a non-negative whole number of cents, got ${ask.budgetCents}`,
    );
  }
  if (delegator.remainingCents !== null && ask.budgetCents > delegator.remainingCents) {
    return refuse(
      'budget',
      `asks ${ask.budgetCents} cents, and run \`${delegator.runId}\` of \`${delegator.agent}\` has ${delegator.remainingCents} cents left`,
    );
  }
  let autonomy = lowerAutonomy(targetAutonomy, delegator.autonomy);
  if (ask.autonomy !== undefined) autonomy = lowerAutonomy(autonomy, ask.autonomy);
  return {
    ok: true,
    run: {
      agent: ask.target,
      chain: [...chain, ask.target],
      depth,
      autonomy,
      budgetCents: ask.budgetCents,
    },
  };
}
