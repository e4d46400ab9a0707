// A generated policy with spaces at every autonomy level, modes with presets,
// rules written for the workspace, for spaces and for agents, and twenty
// agents placed in its spaces and modes: what the matrix tests (in Node and
// in the browser) compare with the what-if check. The rules carry no `when`
// constraints: a request without arguments would leave them unknown, and a
// matrix cell lists such rules as exceptions rather than deciding by them.

import { ACTION_CLASSES } from '@warden/engine';
import fc from 'fast-check';

export const AUTONOMY = ['proposeOnly', 'actWithApproval', 'actFreely'] as const;
const DECISIONS = ['allow', 'prompt', 'deny'] as const;
export const SPACES = ['infra', 'payments', 'sandbox', 'docs'] as const;
export const MODES = ['review', 'ship', 'explore'] as const;
export const AGENTS = 20;

export interface Placed {
  readonly id: string;
  readonly space: string | null;
  readonly mode: string | null;
}

/**
 * A policy and its agents from `seed` (fast-check's `fc.sample`, so the same
 * seed gives the same policy). Every autonomy level has a space, and the first
 * agents are placed so that every space, every mode and "none" of each is
 * someone's placement; the rest are drawn.
 */
export function placedPolicy(seed: number): { policy: Record<string, unknown>; agents: Placed[] } {
  const draws = fc.sample(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
    seed,
    numRuns: 1000,
  });
  let next = 0;
  const random = (): number => draws[next++ % draws.length] as number;
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const ids = Array.from({ length: AGENTS }, (_, i) => `tester-${i}`);
  const scopes = ['workspace', ...SPACES.map((s) => `space:${s}`), ...ids.map((a) => `agent:${a}`)];
  const rules = Array.from({ length: 60 }, (_, i) => ({
    id: `r${i}`,
    scope: pick(scopes),
    action: pick(ACTION_CLASSES),
    decision: pick(DECISIONS),
  }));
  const policy = {
    version: 1,
    workspace: 'acme',
    // infra, payments and sandbox at the three levels; docs drawn.
    spaces: Object.fromEntries(
      SPACES.map((s, i) => [s, { autonomy: AUTONOMY[i] ?? pick(AUTONOMY) }]),
    ),
    modes: Object.fromEntries(
      MODES.map((m) => [
        m,
        {
          preset: Array.from({ length: 3 }, () => ({
            action: pick(ACTION_CLASSES),
            decision: pick(DECISIONS),
          })),
        },
      ]),
    ),
    rules,
  };
  const spaces = [...SPACES, null];
  const modes = [...MODES, null];
  const agents = ids.map((id, i) => ({
    id,
    space: i < spaces.length ? (spaces[i] ?? null) : random() < 0.8 ? pick(SPACES) : null,
    mode: i < modes.length ? (modes[i] ?? null) : random() < 0.6 ? pick(MODES) : null,
  }));
  return { policy, agents };
}
