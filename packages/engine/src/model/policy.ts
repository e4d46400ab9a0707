// The validated shape of a policy document (contracts §1). Documents are parsed
// and checked by `document/`; everything downstream relies on these invariants.

import type { ActionClass } from './classes.js';
import type { Autonomy, Decision, Enforcement } from './decision.js';

export const ORIGINS = ['user', 'template', 'remembered', 'managed'] as const;
export type Origin = (typeof ORIGINS)[number];

/** `workspace`, `agent:<id>`, `space:<id>`, or `mode:<name>` for preset rules. */
export type ScopeName = string;

export interface Constraints {
  readonly paths?: readonly string[];
  readonly refs?: readonly string[];
  readonly hosts?: readonly string[];
  readonly commands?: readonly string[];
  readonly maxCount?: number;
  readonly maxCents?: number;
}

export const CONSTRAINT_KEYS = [
  'paths',
  'refs',
  'hosts',
  'commands',
  'maxCount',
  'maxCents',
] as const;
export type ConstraintKey = (typeof CONSTRAINT_KEYS)[number];

/** A call an example names: a command line, or a request without its workspace. */
export type RuleExample = string | { readonly [key: string]: unknown };

export interface RuleExamples {
  readonly allow?: readonly RuleExample[];
  readonly prompt?: readonly RuleExample[];
  readonly deny?: readonly RuleExample[];
}

export interface Rule {
  readonly id: string;
  /** Whether the id was generated (E4) rather than written in the document. */
  readonly generatedId: boolean;
  readonly scope: ScopeName;
  readonly action?: ActionClass;
  /** The command prefix as written, and its words as the shell reads them. */
  readonly command?: string;
  readonly commandWords?: readonly string[];
  readonly decision: Decision;
  readonly enforcement: Enforcement;
  readonly when?: Constraints;
  readonly expiresAt?: string;
  /** `expiresAt` as epoch milliseconds; the rule is alive while `at < expiresAtMs` (E13). */
  readonly expiresAtMs?: number;
  readonly origin: Origin;
  readonly note?: string;
  /**
   * Calls the policy must decide as listed — a command line, or a request
   * without its workspace — checked whenever the policy is loaded.
   */
  readonly examples?: RuleExamples;
  /** Where the rule stands in its document, e.g. `rules[3]` or `modes.review.preset[0]`. */
  readonly path: string;
}

export interface ModeSettings {
  readonly preset: readonly Rule[];
  readonly commandNet: readonly string[];
}

export interface SpaceSettings {
  readonly autonomy?: Autonomy;
}

export type PolicyKind = 'workspace' | 'managed';

/**
 * A freeze the installation operator writes into the managed policy: every
 * call of the workspace (or of one agent in it) is denied while it stands,
 * and no admin of the workspace can lift it.
 */
export interface ManagedFreeze {
  readonly workspace: string;
  /** Absent: every agent of the workspace. */
  readonly agent?: string;
  readonly reason?: string;
  /** When it took effect, as written, and as epoch milliseconds. */
  readonly since?: string;
  readonly sinceMs?: number;
  /** Where it stands in the document, e.g. `freeze[0]`. */
  readonly path: string;
}

export interface Policy {
  readonly kind: PolicyKind;
  readonly version: 1;
  /** Absent only in a managed policy, which applies to every workspace. */
  readonly workspace?: string;
  readonly spaces: Readonly<Record<string, SpaceSettings>>;
  readonly modes: Readonly<Record<string, ModeSettings>>;
  readonly rules: readonly Rule[];
  /**
   * Paths added to (or, with `!`, taken out of) the shipped list of paths
   * that change what later commands run (E44); absent when the document has none.
   */
  readonly controlPaths?: readonly string[];
  /** Only in a managed policy: the workspaces and agents it freezes. */
  readonly freeze?: readonly ManagedFreeze[];
}

/** Every rule of a policy, preset rules included, in document order. */
export function allRules(policy: Policy): Rule[] {
  const rules = [...policy.rules];
  for (const mode of Object.values(policy.modes)) rules.push(...mode.preset);
  return rules;
}
