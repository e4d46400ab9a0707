// The gate's public shapes: who calls (stamped by the adapter, never by the
// agent), what a call would do, and what the gate answers.

import { createHash } from 'node:crypto';
import type { ActionRequest, DecideInput, DecisionResult, RequestArgs } from '@warden/engine';
import { canonicalJson } from '@warden/engine';
import type { Stamp } from '../audit/records.js';
import type { ApprovalRecord, AuditStatus } from '../store/types.js';
import type { PolicySnapshot } from './snapshot.js';

/** Who is acting and where, as the adapter was configured: never read from tool arguments (I1). */
export interface CallContext {
  readonly workspace: string;
  readonly agent: string;
  readonly space?: string;
  readonly mode?: string;
  /** The choke point: `builtin`, `library`, `mcp-gateway`, `claude-code`, `http`, … */
  readonly source: string;
  readonly model?: string;
  readonly runId?: string;
  /** The absolute root relative paths refer to (E10). */
  readonly worktree?: string;
}

/** What a tool call would do, as its declaration and argument extractor say. */
export interface GateAsk {
  readonly tool?: string;
  /** Action classes (strings, so an unknown class is denied rather than a type error, E1). */
  readonly actions?: readonly string[];
  readonly command?: string;
  readonly args?: RequestArgs;
  /** The tool's own arguments, recorded (redacted) in the audit log. */
  readonly arguments?: unknown;
  /** The runtime's id for the call, when it has one; else Warden makes one. */
  readonly callId?: string;
  /**
   * The caller asks to run the command without the OS sandbox (Claude Code's
   * `dangerouslyDisableSandbox`). Such a call always needs a human: it
   * prompts even where the rules allow it, cannot be remembered, and no
   * autonomy level lifts it; a deny stays a deny.
   */
  readonly unsandboxed?: boolean;
  /**
   * The call will run over a copy-on-write layer and be decided on what it
   * does before that lands (E44): a command that cannot be read whole may run
   * so, without network, instead of asking for that alone.
   */
  readonly transactional?: boolean;
  /**
   * The request is what an allowed call was seen doing (E44), and its own
   * decision allowed these paths per class (null: any): not asked again.
   */
  readonly observed?: DecideInput['observed'];
}

export interface DecideOptions {
  /** Wait for a pending approval (default). With false, a prompt answers `ask` and its approval id. */
  readonly wait?: boolean;
  /** Aborting stops the wait: the approval is cancelled and the call denied. */
  readonly signal?: AbortSignal;
  /**
   * How long the caller waits for a human, from now: an approval ends a
   * second before that (never later than the approval timeout), so the
   * approver sees the caller's real deadline and an answer is never lost.
   */
  readonly waitMs?: number;
}

export interface ApprovalSummary {
  readonly id: string;
  readonly state: ApprovalRecord['state'];
  readonly answer: ApprovalRecord['answer'];
  readonly closedReason: string | null;
}

/** The engine's decision (contracts §3) plus what the gate did with it. */
export interface GateDecision extends DecisionResult {
  readonly decisionId: string;
  readonly callId: string;
  /**
   * The audit entry that records this decision; a finished call is reported
   * against it. Present only once that entry is committed: a decision without
   * it was not recorded (and is then always a deny with a `failure`).
   */
  readonly auditId?: string;
  readonly approvalId?: string;
  readonly approval?: ApprovalSummary;
  readonly override?: { readonly approvalId: string; readonly by: string; readonly reason: string };
  /** Set when a fault made the gate deny. */
  readonly failure?: string;
}

export interface CallOutcome {
  readonly callId: string;
  readonly decisionId: string | null;
  readonly tool: string;
  readonly arguments?: unknown;
  readonly status: AuditStatus;
  readonly durationMs: number | null;
  readonly error?: string;
}

export function stampFor(ctx: CallContext): Stamp {
  return {
    workspace: ctx.workspace,
    agentId: ctx.agent,
    runId: ctx.runId ?? null,
    model: ctx.model ?? null,
    source: ctx.source,
  };
}

/**
 * Identifies a call — its request, its tool, the tool's own arguments and
 * whether it asks to run without the sandbox — so a granted override lets
 * exactly that call through once (G26). Arguments that have no JSON form make
 * a print nothing else can match.
 */
export function fingerprint(
  request: ActionRequest,
  tool: string | null,
  args: unknown,
  unsandboxed = false,
): string {
  let text: string;
  try {
    // A sandboxed call's print is as it always was; an unsandboxed one's differs from it.
    text = canonicalJson(
      unsandboxed
        ? { arguments: args ?? null, request, tool, unsandboxed: true }
        : { arguments: args ?? null, request, tool },
    );
  } catch {
    text = `unmatchable:${Math.random()}:${Date.now()}`;
  }
  return createHash('sha256').update(text).digest('hex');
}

/** A fail-closed deny whose record could not be written: no `auditId`, and `failure` says so. */
export function unrecorded(decision: GateDecision, failure: string): GateDecision {
  const answer: { -readonly [K in keyof GateDecision]: GateDecision[K] } = {
    ...decision,
    outcome: 'deny',
    decision: 'deny',
    failure,
  };
  delete answer.auditId;
  return answer;
}

/** Whether an answer is backed by a committed audit entry (contracts §8: a 2xx means durable). */
export function isRecorded(decision: GateDecision): boolean {
  return typeof decision.auditId === 'string' && decision.auditId !== '';
}

/**
 * The gate's answer: the engine's result with the ids, written out field by
 * field — a spread or Object.assign of it costs a decision more than the engine does.
 */
export function withIds(r: DecisionResult, decisionId: string, callId: string): GateDecision {
  return {
    decision: r.decision,
    outcome: r.outcome,
    rule: r.rule,
    scope: r.scope,
    enforcement: r.enforcement,
    overridable: r.overridable,
    prompts: r.prompts,
    facets: r.facets,
    managed: r.managed,
    managedSource: r.managedSource,
    advisories: r.advisories,
    reason: r.reason,
    decisionId,
    callId,
    auditId: decisionId,
  };
}

export interface CallIds {
  readonly stamp: Stamp;
  readonly decisionId: string;
  readonly callId: string;
  readonly tool: string | null;
  readonly arguments: unknown;
}

export interface FailedCall extends CallIds {
  readonly at: number;
  readonly snapshot: PolicySnapshot | null;
  readonly request: ActionRequest | null;
}

export interface Base extends CallIds {
  readonly snapshot: PolicySnapshot;
  readonly request: ActionRequest;
  readonly result: DecisionResult;
  readonly at: number;
  /** The call asks to run without the OS sandbox (its decision says so too). */
  readonly unsandboxed?: boolean;
}
