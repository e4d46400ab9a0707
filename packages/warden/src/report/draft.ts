// What a detector hands back before the report orders it: a finding without
// its window (the same for all) and with severity already judged.

import type { Thresholds } from './thresholds.js';
import type { RedactText } from './quote.js';
import type { CallFact, FindingKind, FindingsInput, QuotedData } from './types.js';
import { compareText } from './format.js';

export interface Draft {
  readonly kind: FindingKind;
  readonly agent: string;
  readonly tool?: string;
  readonly critical: boolean;
  readonly statement: string;
  readonly counts: Readonly<Record<string, number>>;
  readonly auditIds?: readonly string[];
  readonly runIds?: readonly string[];
  readonly taskIds?: readonly string[];
  readonly quoted?: readonly QuotedData[];
}

export interface DetectContext {
  readonly window: FindingsInput['window'];
  readonly thresholds: Thresholds;
  readonly redact: RedactText;
  /** How many example ids a finding names. */
  readonly examples: number;
  /** How long a quote of agent-written text may be. */
  readonly quoteChars: number;
}

/** Calls in time order, ties broken by id: the order the data was written in never matters. */
export function chronological(calls: readonly CallFact[]): CallFact[] {
  return [...calls].sort((a, b) => a.at - b.at || compareText(a.id, b.id));
}

/** Calls grouped by a key, each group in time order, the groups by key. */
export function groupBy<T extends CallFact>(
  calls: readonly T[],
  key: (call: T) => string,
): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const call of chronological(calls) as T[]) {
    const k = key(call);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [call]);
    else list.push(call);
  }
  return [...groups.entries()].sort(([a], [b]) => compareText(a, b));
}

/** Whether a measure reached `criticalFactor` × the threshold it crossed. */
export function isCritical(ctx: DetectContext, measure: number, threshold: number): boolean {
  return measure >= ctx.thresholds.severity.criticalFactor * threshold;
}
