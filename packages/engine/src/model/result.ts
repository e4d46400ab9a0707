// The decision as data (contracts §3): what every adapter, the CLI, the UI and
// the audit log receive. Sentences are rendered from it, not stored in it.

import type { Decision, Outcome } from './decision.js';

export interface FacetEntry {
  readonly facet: string;
  readonly decision: Decision | null;
  readonly scope?: string;
  readonly rule?: string;
  readonly because?: string;
}

export interface AdvisoryHit {
  readonly rule: string;
  readonly facet: string;
  readonly wouldBe: Decision;
}

/** Where the managed layer came from (E31): `--managed`, `WARDEN_MANAGED_POLICY`, the store, or none. */
export type ManagedSource = 'flag' | 'env' | 'store' | null;

export interface DecisionResult {
  /**
   * Set when the allow rests on running the call transactionally (E44): it may
   * run only over a copy-on-write layer, without network, and what it does is
   * decided before it lands.
   */
  readonly transactional?: true;
  readonly decision: Decision;
  readonly outcome: Outcome;
  readonly rule: string;
  readonly scope: string;
  readonly enforcement: 'soft' | 'hard' | null;
  readonly overridable: boolean;
  readonly prompts: readonly string[];
  readonly facets: readonly FacetEntry[];
  readonly managed: readonly FacetEntry[] | null;
  readonly managedSource: ManagedSource;
  readonly advisories: readonly AdvisoryHit[];
  readonly reason: string;
}
