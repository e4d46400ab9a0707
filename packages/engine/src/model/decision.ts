// Decisions, enforcement levels and their strictness order (G9, G10).

export const DECISIONS = ['allow', 'prompt', 'deny'] as const;
export type Decision = (typeof DECISIONS)[number];

/** What the agent gets: a prompt becomes `ask` only while an approver is connected (G22). */
export type Outcome = 'allow' | 'ask' | 'deny';

export const ENFORCEMENTS = ['advisory', 'soft', 'hard'] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

export const AUTONOMY_LEVELS = ['proposeOnly', 'actWithApproval', 'actFreely'] as const;
export type Autonomy = (typeof AUTONOMY_LEVELS)[number];

const STRICTNESS: Record<Decision, number> = { allow: 0, prompt: 1, deny: 2 };

export function strictness(decision: Decision): number {
  return STRICTNESS[decision];
}

/** The stricter of two decisions: deny > prompt > allow. */
export function stricter(a: Decision, b: Decision): Decision {
  return STRICTNESS[a] >= STRICTNESS[b] ? a : b;
}

export type DenyStrength = 'soft' | 'hard';

/** The stronger of two deny enforcements (null: no deny). */
export function strongest(a: DenyStrength | null, b: DenyStrength | null): DenyStrength | null {
  if (a === 'hard' || b === 'hard') return 'hard';
  return a ?? b;
}
