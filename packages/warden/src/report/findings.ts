// The deterministic supervisor report's judgement (I11): findings computed
// from evidence alone — the audit log, run receipts, the taskboard — against
// documented thresholds. Pure: the same evidence, window and thresholds give
// the same findings in the same order, whatever order the data was written in.

import type { DetectContext, Draft } from './draft.js';
import { compareText, iso } from './format.js';
import { costOutliers, overdueTasks, tokenOutliers } from './findings-work.js';
import {
  denialSpikes,
  errorRates,
  errorStreaks,
  repeatedCalls,
  uncoveredCalls,
  unreportedCalls,
} from './findings-calls.js';
import type { RedactText } from './quote.js';
import { DEFAULT_QUOTE_CHARS, defaultRedact } from './quote.js';
import type { Thresholds } from './thresholds.js';
import { DEFAULT_THRESHOLDS } from './thresholds.js';
import type { AgentEvidence, Finding, FindingsInput } from './types.js';
import { FINDING_KINDS } from './types.js';

export interface FindingsOptions {
  readonly thresholds?: Thresholds;
  /** Redacts agent-written text before it is quoted (default: the pattern redactor). */
  readonly redact?: RedactText;
  /** Example ids per finding (default 3). */
  readonly examples?: number;
  /** Characters per quote of agent-written text (default 80). */
  readonly quoteChars?: number;
}

const DETECTORS: readonly ((ctx: DetectContext, agent: AgentEvidence) => Draft[])[] = [
  errorStreaks,
  errorRates,
  denialSpikes,
  repeatedCalls,
  costOutliers,
  tokenOutliers,
  overdueTasks,
  uncoveredCalls,
  unreportedCalls,
];

const KIND_ORDER = new Map(FINDING_KINDS.map((kind, i) => [kind, i]));

/** Critical first; then by kind, agent, tool and sentence, so the order never depends on input order. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    (a.severity === b.severity ? 0 : a.severity === 'critical' ? -1 : 1) ||
    (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0) ||
    compareText(a.agent, b.agent) ||
    compareText(a.tool ?? '', b.tool ?? '') ||
    compareText(a.statement, b.statement)
  );
}

export function computeFindings(input: FindingsInput, options: FindingsOptions = {}): Finding[] {
  const ctx: DetectContext = {
    window: input.window,
    thresholds: options.thresholds ?? DEFAULT_THRESHOLDS,
    redact: options.redact ?? defaultRedact,
    examples: Math.max(1, options.examples ?? 3),
    quoteChars: Math.max(8, options.quoteChars ?? DEFAULT_QUOTE_CHARS),
  };
  const window = { since: iso(input.window.sinceMs), until: iso(input.window.untilMs) };
  const findings: Finding[] = [];
  for (const agent of input.agents) {
    for (const detect of DETECTORS) {
      for (const d of detect(ctx, agent)) {
        findings.push({
          kind: d.kind,
          severity: d.critical ? 'critical' : 'warning',
          agent: d.agent,
          ...(d.tool === undefined ? {} : { tool: d.tool }),
          statement: d.statement,
          evidence: {
            window,
            counts: d.counts,
            auditIds: d.auditIds ?? [],
            runIds: d.runIds ?? [],
            taskIds: d.taskIds ?? [],
            quoted: d.quoted ?? [],
          },
        });
      }
    }
  }
  return findings.sort(compareFindings);
}
