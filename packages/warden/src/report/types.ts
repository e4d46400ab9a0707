// The report as data (I11): the evidence it reads, per observed agent, and
// the findings it draws — each a sentence with its numbers and the ids of the
// entries, runs and tasks behind it. The Markdown is rendered from this.

import type { AuditStatus } from '../store/types.js';
import type { Thresholds } from './thresholds.js';

export const FINDING_KINDS = [
  'errorStreak',
  'errorRate',
  'denialSpike',
  'repeatedCalls',
  'costOutlier',
  'tokenOutlier',
  'overdueTasks',
  'uncoveredCalls',
  'unreportedCalls',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export type Severity = 'critical' | 'warning';

/** Agent-written text shown as evidence: redacted, on one line, capped (see `quote.ts`). */
export interface QuotedData {
  /** What the text is: a call's arguments or a task's title. */
  readonly source: 'toolArguments' | 'taskTitle';
  /** The audit entry or task it comes from. */
  readonly id: string;
  readonly text: string;
}

export interface Evidence {
  readonly window: { readonly since: string; readonly until: string };
  /** The numbers the statement names, and the thresholds they crossed. */
  readonly counts: Readonly<Record<string, number>>;
  /** A few example audit entries, runs and tasks, oldest first. */
  readonly auditIds: readonly string[];
  readonly runIds: readonly string[];
  readonly taskIds: readonly string[];
  readonly quoted: readonly QuotedData[];
}

export interface Finding {
  readonly kind: FindingKind;
  readonly severity: Severity;
  readonly agent: string;
  readonly tool?: string;
  /** One sentence with the numbers; names only ids Warden stamped, never agent-written text. */
  readonly statement: string;
  readonly evidence: Evidence;
}

// ─── The evidence a report reads (gathered by `report.ts`) ─────────────────

/** A finished tool call (audit kind `call`; a `Staged` entry is left out: its final status follows). */
export interface CallFact {
  readonly id: string;
  readonly tool: string;
  readonly status: Exclude<AuditStatus, 'Staged'>;
  readonly at: number;
  /** SHA-256 of the arguments' canonical JSON: identical arguments, identical hash. */
  readonly argsHash: string;
  /** The arguments' canonical JSON (as stored, redacted when written), for quoting. */
  readonly args: string;
  /** The decision the call ran under; null when none allowed it. */
  readonly decisionId: string | null;
  /**
   * Reported as run although no decision allowed it (a choke point that
   * failed open, an adapter bypassed): a completion recorded `uncovered`.
   * A call that needed no decision (a read, a write inside the worktree) is not.
   */
  readonly uncovered: boolean;
}

/** A decision of the window that allowed a call (its final word, after any approval). */
export interface AllowedFact {
  /** The decision's id, which the call's report names. */
  readonly id: string;
  readonly tool: string;
  readonly at: number;
}

export interface CallCount {
  readonly tool: string;
  readonly status: Exclude<AuditStatus, 'Staged'>;
  readonly count: number;
}

export interface RunFact {
  readonly id: string;
  readonly startedAt: number;
  readonly costCents: number;
  /** Tokens in plus out. */
  readonly tokens: number;
  /** Started inside the window (else: history before it). */
  readonly inWindow: boolean;
}

/** An open task. */
export interface TaskFact {
  readonly id: string;
  readonly title: string;
  readonly dueAt: number | null;
}

export interface AgentEvidence {
  readonly agent: string;
  readonly workspace: string | null;
  /** The window's calls, oldest first as far as read (see `callsCapped`). */
  readonly calls: readonly CallFact[];
  /** More calls are in the window than were read: streaks and repeats saw only the oldest. */
  readonly callsCapped: boolean;
  /** Counts over the whole window, whatever the cap. */
  readonly counts: readonly CallCount[];
  /** `Denied` counts of the windows before this one, of the same length, the nearest first. */
  readonly deniedBaseline: readonly number[];
  readonly runs: readonly RunFact[];
  readonly tasks: readonly TaskFact[];
  /** The window's allowing decisions, oldest first (at most as many as calls are read). */
  readonly allowed: readonly AllowedFact[];
}

export interface FindingsInput {
  readonly window: { readonly sinceMs: number; readonly untilMs: number; readonly label: string };
  readonly agents: readonly AgentEvidence[];
}

// ─── The report ─────────────────────────────────────────────────────────────

export interface AgentSummary {
  readonly agent: string;
  readonly workspace: string | null;
  readonly calls: number;
  readonly statuses: Readonly<Record<Exclude<AuditStatus, 'Staged'>, number>>;
  readonly runs: number;
  readonly costCents: number;
  readonly tokens: number;
  readonly openTasks: number;
  readonly overdueTasks: number;
}

export const REPORT_VERSION = 1;

export interface ReportData {
  readonly version: typeof REPORT_VERSION;
  readonly supervisor: string;
  readonly workspace: string | null;
  readonly window: { readonly since: string; readonly until: string; readonly label: string };
  /** What the findings were computed from: never a workspace file. */
  readonly sources: readonly ['audit', 'runs', 'tasks'];
  readonly agents: readonly AgentSummary[];
  readonly findings: readonly Finding[];
  readonly thresholds: Thresholds;
  /** What the report could not fully see (caps, agents named but absent). */
  readonly notes: readonly string[];
}
