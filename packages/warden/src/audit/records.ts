// The entries Warden writes to its audit log, built from what Warden itself
// knows: the identity its adapter was configured with, its own clock and
// measurements (I1). Only `arguments` comes from the agent, and it is
// redacted before it is stored, as is everything else quoting the request.

import type { ActionRequest, DecisionResult } from '@warden/engine';
import type { AuditDraft, AuditKind, AuditStatus, JsonValue } from '../store/types.js';

/** Who acts, as Warden knows it: never taken from the agent or its tool arguments. */
export interface Stamp {
  readonly workspace: string;
  readonly agentId: string;
  readonly runId: string | null;
  readonly model: string | null;
  /** The choke point: `builtin`, `library`, `mcp-gateway`, `claude-code`, `http`, … */
  readonly source: string;
}

export type Redact = (
  value: unknown,
  basePath: string,
) => { value: unknown; paths: readonly string[] };

type Body = { [key: string]: JsonValue };

function json(value: unknown): JsonValue {
  return value === undefined ? null : (value as JsonValue);
}

function draft(
  kind: AuditKind,
  stamp: Stamp,
  ids: { id: string; callId: string | null; decisionId: string | null },
  tool: string | null,
  status: AuditStatus | null,
  occurredAt: string,
  body: Body,
): AuditDraft {
  return {
    id: ids.id,
    kind,
    workspace: stamp.workspace,
    agentId: stamp.agentId,
    runId: stamp.runId,
    callId: ids.callId,
    decisionId: ids.decisionId,
    tool,
    status,
    occurredAt,
    body,
  };
}

export interface CallRecord {
  readonly id: string;
  readonly callId: string;
  readonly decisionId: string | null;
  readonly tool: string;
  readonly arguments: unknown;
  readonly status: AuditStatus;
  readonly durationMs: number | null;
  readonly occurredAt: string;
  /** For `Error`, `Denied` and `NotFound`: what happened, in words. */
  readonly error?: string;
}

/** A tool call (contracts §6). */
export function callEntry(stamp: Stamp, call: CallRecord, redact: Redact): AuditDraft {
  const args = redact(call.arguments ?? null, 'arguments');
  const error = call.error === undefined ? null : redact(call.error, 'error');
  const redacted = [...args.paths, ...(error?.paths ?? [])];
  // Keys in canonical order (RFC 8785), so hashing the entry needs no sorted copy.
  const body: Body = {
    agentId: stamp.agentId,
    arguments: json(args.value),
    callId: call.callId,
    decisionId: call.decisionId,
    durationMs: call.durationMs,
    ...(error === null ? {} : { error: json(error.value) }),
    id: call.id,
    kind: 'call',
    model: stamp.model,
    occurredAt: call.occurredAt,
    ...(redacted.length === 0 ? {} : { redacted }),
    runId: stamp.runId,
    source: stamp.source,
    status: call.status,
    tool: call.tool,
    workspace: stamp.workspace,
  };
  return draft('call', stamp, call, call.tool, call.status, call.occurredAt, body);
}

export interface DecisionRecord {
  /** The entry's id: the decision's own, unless this entry records how a held decision ended. */
  readonly id?: string;
  readonly decisionId: string;
  readonly callId: string;
  readonly occurredAt: string;
  readonly request: ActionRequest | null;
  readonly result: DecisionResult;
  /** What the caller finally gets after approvals and overrides. */
  readonly outcome: 'allow' | 'ask' | 'deny';
  readonly policy: {
    readonly revision: number | null;
    readonly hash: string | null;
    readonly managedHash: string | null;
  };
  readonly approvalId?: string;
  /** How the approval that held this decision ended: its answer, who gave it and why. */
  readonly approval?: {
    readonly state: string;
    readonly answer: string | null;
    readonly by: string | null;
    readonly reason: string | null;
  };
  readonly override?: { readonly approvalId: string; readonly by: string; readonly reason: string };
  /** A fault that made the gate deny (fail-closed). */
  readonly failure?: string;
}

/**
 * The decision as recorded: the engine's answer (contracts §3) without what is
 * empty or false, so that a log of millions of decisions stays small. A
 * reader puts the defaults back: `enforcement` null, `overridable` false,
 * `prompts`/`advisories` [], `managed`/`managedSource` null.
 */
export function recordedDecision(result: DecisionResult): Body {
  // Keys in canonical order (RFC 8785), so hashing the entry needs no sorted copy;
  // assigned one by one, which is cheaper than spreading optional parts.
  const out: { [key: string]: JsonValue } = {};
  if (result.advisories.length > 0)
    out.advisories = result.advisories.map((a) => ({
      facet: a.facet,
      rule: a.rule,
      wouldBe: a.wouldBe,
    }));
  out.decision = result.decision;
  if (result.enforcement !== null) out.enforcement = result.enforcement;
  out.facets = result.facets.map(recordedFacet);
  if (result.managed !== null) out.managed = result.managed.map(recordedFacet);
  if (result.managedSource !== null) out.managedSource = result.managedSource;
  out.outcome = result.outcome;
  if (result.overridable) out.overridable = true;
  if (result.prompts.length > 0) out.prompts = [...result.prompts];
  out.reason = result.reason;
  out.rule = result.rule;
  out.scope = result.scope;
  if (result.transactional === true) out.transactional = true;
  return out;
}

function recordedFacet(entry: DecisionResult['facets'][number]): Body {
  const out: { [key: string]: JsonValue } = {};
  if (entry.because !== undefined) out.because = entry.because;
  out.decision = entry.decision;
  out.facet = entry.facet;
  if (entry.rule !== undefined) out.rule = entry.rule;
  if (entry.scope !== undefined) out.scope = entry.scope;
  return out;
}

/** The request as recorded: identity and tool stand in the entry itself. */
function recordedRequest(request: ActionRequest): Body {
  const out: { [key: string]: JsonValue } = {};
  if (request.actions !== undefined) out.actions = [...request.actions];
  const args = request.args;
  if (args !== undefined) {
    const a: { [key: string]: JsonValue } = {};
    if (args.cents !== undefined) a.cents = args.cents;
    if (args.count !== undefined) a.count = args.count;
    if (args.hosts !== undefined) a.hosts = [...args.hosts];
    if (args.paths !== undefined) a.paths = [...args.paths];
    if (args.refs !== undefined) a.refs = [...args.refs];
    out.args = a;
  }
  if (request.command !== undefined) out.command = request.command;
  if (request.mode !== undefined) out.mode = request.mode;
  if (request.space !== undefined) out.space = request.space;
  if (request.worktree !== undefined) out.worktree = request.worktree;
  return out;
}

/** A gate decision (G39): request, facets, deciding rules, advisories, outcome. */
export function decisionEntry(
  stamp: Stamp,
  record: DecisionRecord,
  tool: string | null,
  redact: Redact,
): AuditDraft {
  const request = redact(
    record.request === null ? null : recordedRequest(record.request),
    'request',
  );
  // The decision's text quotes only the request (and the policy): when the request held
  // nothing to redact and no command line whose words the engine re-renders, neither does it.
  const quotesNothing =
    record.request !== null &&
    record.failure === undefined &&
    request.paths.length === 0 &&
    record.request.command === undefined;
  const shown = recordedDecision(record.result);
  const decision = quotesNothing ? { value: shown, paths: [] } : redact(shown, 'decision');
  const redacted = [...request.paths, ...decision.paths];
  const id = record.id ?? record.decisionId;
  const body: Body = {
    agentId: stamp.agentId,
    ...(record.approval === undefined
      ? {}
      : {
          approval: {
            answer: record.approval.answer,
            by: record.approval.by,
            reason: record.approval.reason,
            state: record.approval.state,
          },
        }),
    ...(record.approvalId === undefined ? {} : { approvalId: record.approvalId }),
    callId: record.callId,
    decision: json(decision.value),
    ...(id === record.decisionId ? {} : { decisionId: record.decisionId }),
    ...(record.failure === undefined
      ? {}
      : { failure: json(redact(record.failure, 'failure').value) }),
    id,
    kind: 'decision',
    model: stamp.model,
    occurredAt: record.occurredAt,
    outcome: record.outcome,
    ...(record.override === undefined
      ? {}
      : {
          override: {
            approvalId: record.override.approvalId,
            by: record.override.by,
            reason: record.override.reason,
          },
        }),
    policy: {
      hash: record.policy.hash,
      managedHash: record.policy.managedHash,
      revision: record.policy.revision,
    },
    ...(redacted.length === 0 ? {} : { redacted }),
    request: json(request.value),
    runId: stamp.runId,
    source: stamp.source,
    tool,
    workspace: stamp.workspace,
  };
  return draft(
    'decision',
    stamp,
    { id, callId: record.callId, decisionId: record.decisionId },
    tool,
    null,
    record.occurredAt,
    body,
  );
}

export interface AnswerRecord {
  readonly id: string;
  readonly approvalId: string;
  readonly decisionId: string;
  readonly callId: string;
  readonly tool: string | null;
  /** An answer, or how the approval ended without one. */
  readonly answer:
    'once' | 'remember' | 'deny' | 'override' | 'timeout' | 'approver-gone' | 'cancelled';
  readonly by: string | null;
  readonly reason: string | null;
  readonly outcome: 'allow' | 'deny';
  readonly hours?: number;
  readonly scope?: string;
  readonly rules?: readonly string[];
  readonly occurredAt: string;
}

/** An approval's end: who answered and why, or why nobody did (G26, G39). */
export function approvalEntry(stamp: Stamp, record: AnswerRecord, redact: Redact): AuditDraft {
  const body: Body = {
    agentId: stamp.agentId,
    answer: record.answer,
    approvalId: record.approvalId,
    by: record.by,
    callId: record.callId,
    decisionId: record.decisionId,
    ...(record.hours === undefined ? {} : { hours: record.hours }),
    id: record.id,
    kind: 'approval',
    occurredAt: record.occurredAt,
    outcome: record.outcome,
    reason: record.reason === null ? null : json(redact(record.reason, 'reason').value),
    ...(record.rules === undefined ? {} : { rules: [...record.rules] }),
    runId: stamp.runId,
    ...(record.scope === undefined ? {} : { scope: record.scope }),
    tool: record.tool,
    workspace: stamp.workspace,
  };
  return draft(
    'approval',
    stamp,
    { id: record.id, callId: record.callId, decisionId: record.decisionId },
    record.tool,
    null,
    record.occurredAt,
    body,
  );
}

export interface ChangeRecord {
  readonly id: string;
  readonly workspace: string | null;
  readonly change:
    | 'policy-revision'
    | 'managed-revision'
    | 'rules-remembered'
    | 'rule-revoked'
    | 'agent-frozen'
    | 'agent-thawed'
    | 'tool-changed'
    | 'tool-pin-accepted';
  readonly by: string;
  readonly details: { readonly [key: string]: JsonValue };
  readonly occurredAt: string;
}

/** A change to what decides: a policy revision, remembered rules, a revocation, a freeze or thaw. */
export function changeEntry(record: ChangeRecord): AuditDraft {
  const body: Body = {
    by: record.by,
    change: record.change,
    details: record.details,
    id: record.id,
    kind: 'change',
    occurredAt: record.occurredAt,
    workspace: record.workspace,
  };
  return {
    id: record.id,
    kind: 'change',
    workspace: record.workspace,
    agentId: null,
    runId: null,
    callId: null,
    decisionId: null,
    tool: null,
    status: null,
    occurredAt: record.occurredAt,
    body,
  };
}
