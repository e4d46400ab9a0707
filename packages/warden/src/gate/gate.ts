// The gate: the one place every choke point asks (G1). It reads the current
// policy snapshot, asks the engine, runs the approval flow, records the
// decision in the audit log (G39) and answers — and when anything fails on
// the way, it answers deny with the reason (fail-closed).

import { createHash } from 'node:crypto';
import type {
  ActionRequest,
  Autonomy,
  ClassifierTable,
  DecideInput,
  DecisionResult,
  Explained,
  RememberOffer,
  RequestArgs,
} from '@warden/engine';
import {
  canonicalJson,
  checkRequestAgainstPolicy,
  explainDecision,
  rememberOffer,
  validateRequest,
} from '@warden/engine';
import type { ApprovalBroker } from '../approvals/broker.js';
import type { Redact, Stamp } from '../audit/records.js';
import { callEntry, decisionEntry } from '../audit/records.js';
import type { AuditWriter } from '../audit/writer.js';
import type { ApprovalRecord, AuditDraft, AuditEntry, AuditStatus, Store } from '../store/types.js';
import { GateFault, failClosed, faultMessage } from './fault.js';
import type { PolicySnapshot, PolicySource } from './snapshot.js';
import { newId as ulid } from '../ids.js';

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
}

export interface DecideOptions {
  /** Wait for a pending approval (default). With false, a prompt answers `ask` and its approval id. */
  readonly wait?: boolean;
  /** Aborting stops the wait: the approval is cancelled and the call denied. */
  readonly signal?: AbortSignal;
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
  /** The audit entry that records this decision; a finished call is reported against it. */
  readonly auditId: string;
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

export interface GateOptions {
  readonly store: Store;
  readonly source: PolicySource;
  readonly writer: AuditWriter;
  readonly broker: ApprovalBroker;
  readonly redact: Redact;
  readonly clock?: () => number;
  readonly classifier?: ClassifierTable;
  /** How long a fail-closed denial waits to be recorded before it answers anyway. */
  readonly faultRecordMs?: number;
  readonly onFault?: (error: unknown, context: CallContext) => void;
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

/** Identifies a request, so a granted override lets exactly that call through once (G26). */
export function fingerprint(request: ActionRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

export class Gate {
  readonly store: Store;
  readonly broker: ApprovalBroker;
  private readonly source: PolicySource;
  private readonly writer: AuditWriter;
  private readonly redact: Redact;
  private readonly clock: () => number;
  private readonly classifier: ClassifierTable | undefined;
  private readonly faultRecordMs: number;
  private readonly onFault: GateOptions['onFault'];
  private readonly ceilings = new Map<string, Autonomy | null>();

  constructor(options: GateOptions) {
    this.store = options.store;
    this.source = options.source;
    this.writer = options.writer;
    this.broker = options.broker;
    this.redact = options.redact;
    this.clock = options.clock ?? Date.now;
    this.classifier = options.classifier;
    this.faultRecordMs = options.faultRecordMs ?? 2000;
    this.onFault = options.onFault;
  }

  /** May this call happen? Allow, deny — or, while an approver decides, wait (G22). */
  async decide(ctx: CallContext, ask: GateAsk, options: DecideOptions = {}): Promise<GateDecision> {
    const at = this.clock();
    const decisionId = ulid();
    const callId = ask.callId ?? ulid();
    const stamp = stampFor(ctx);
    let snapshot: PolicySnapshot | null = null;
    let request: ActionRequest | null = null;
    try {
      const current = await this.source.snapshot(ctx.workspace);
      snapshot = current;
      const built = this.request(ctx, ask, current);
      request = built;
      const input: DecideInput = {
        policy: current.compiled,
        managed: current.managed,
        managedSource: current.managedSource,
        request: built,
        at,
        approverConnected: false,
        ...(this.classifier === undefined ? {} : { classifier: this.classifier }),
        ...(ctx.runId === undefined ? {} : await this.ceiling(ctx.runId)),
      };
      let explained = explainDecision(input);
      if (explained.result.decision === 'prompt' && (await this.connected(ctx.workspace))) {
        explained = explainDecision({ ...input, approverConnected: true });
      }
      const result = explained.result;
      const base: Base = {
        stamp,
        snapshot: current,
        request: built,
        result,
        decisionId,
        callId,
        at,
        tool: ask.tool ?? null,
        arguments: ask.arguments,
      };
      if (result.outcome === 'ask') return await this.hold(base, explained, input, options);
      if (result.decision === 'deny' && result.overridable) return await this.softDeny(base);
      await this.writer.append([
        this.decisionDraft(base, result.outcome),
        ...(result.outcome === 'deny' ? [this.deniedCall(base, result.reason)] : []),
      ]);
      return withIds(result, decisionId, callId);
    } catch (error) {
      return this.failed(error, ctx, {
        stamp,
        snapshot,
        request,
        decisionId,
        callId,
        at,
        tool: ask.tool ?? null,
        arguments: ask.arguments,
      });
    }
  }

  /** Waits for an approval a decision left pending (`wait: false`), and answers the final decision. */
  async awaitApproval(approvalId: string, signal?: AbortSignal): Promise<GateDecision> {
    const approval = await this.store.approvals.get(approvalId);
    if (approval === null) throw new GateFault('approvals', `no approval \`${approvalId}\``);
    const settled = await this.broker.wait(approval, signal);
    return this.concluded(settled, settled.decision);
  }

  /** Records how an allowed (or ungated) call ended: `Ok`, `Error`, … (contracts §6). */
  async complete(ctx: CallContext, outcome: CallOutcome): Promise<AuditEntry> {
    const at = this.clock();
    const [entry] = await this.writer.append([
      callEntry(
        stampFor(ctx),
        {
          id: ulid(),
          callId: outcome.callId,
          decisionId: outcome.decisionId,
          tool: outcome.tool,
          arguments: outcome.arguments ?? null,
          status: outcome.status,
          durationMs: outcome.durationMs,
          occurredAt: new Date(at).toISOString(),
          ...(outcome.error === undefined ? {} : { error: outcome.error }),
        },
        this.redact,
      ),
    ]);
    return entry as AuditEntry;
  }

  /** The policy snapshot a decision in this workspace would read now. */
  snapshot(workspace: string): Promise<PolicySnapshot> {
    return this.source.snapshot(workspace);
  }

  /** A delegated run acts at most at the autonomy it was handed (G35); runs never change it. */
  private async ceiling(runId: string): Promise<Pick<DecideInput, 'autonomyCeiling'>> {
    let autonomy = this.ceilings.get(runId);
    if (autonomy === undefined) {
      let run;
      try {
        run = await this.store.runs.get(runId);
      } catch (error) {
        throw new GateFault('store', `cannot read run \`${runId}\`: ${(error as Error).message}`);
      }
      autonomy = run === null || run.depth === 0 ? null : run.autonomy;
      if (this.ceilings.size >= 10_000) this.ceilings.clear();
      this.ceilings.set(runId, autonomy);
    }
    return autonomy === null ? {} : { autonomyCeiling: { autonomy, scope: `run:${runId}` } };
  }

  private async connected(workspace: string): Promise<boolean> {
    try {
      return await this.broker.connected(workspace, 'approver');
    } catch (error) {
      throw new GateFault(
        'approvals',
        `cannot tell whether an approver is connected: ${(error as Error).message}`,
      );
    }
  }

  /** The engine's request, built from the adapter's identity and the tool's declaration (E1, E3, E31). */
  private request(ctx: CallContext, ask: GateAsk, snapshot: PolicySnapshot): ActionRequest {
    const raw: Record<string, unknown> = { workspace: ctx.workspace, agent: ctx.agent };
    if (ctx.space !== undefined) raw.space = ctx.space;
    if (ctx.mode !== undefined) raw.mode = ctx.mode;
    if (ask.tool !== undefined) raw.tool = ask.tool;
    if (ask.actions !== undefined) raw.actions = ask.actions;
    if (ask.command !== undefined) raw.command = ask.command;
    if (ctx.worktree !== undefined) raw.worktree = ctx.worktree;
    if (ask.args !== undefined) raw.args = ask.args;
    const validated = validateRequest(raw);
    const issues = validated.ok
      ? checkRequestAgainstPolicy(validated.value, snapshot.compiled.policy)
      : validated.issues;
    if (!validated.ok || issues.length > 0) {
      const list = issues
        .map((i) => `${i.path === '' ? '' : `${i.path}: `}${i.message}`)
        .join('; ');
      throw new GateFault('request-invalid', `the request is not valid: ${list}`);
    }
    return validated.value;
  }

  private decisionDraft(
    base: Base,
    outcome: 'allow' | 'ask' | 'deny',
    extra: Partial<{ approvalId: string; override: GateDecision['override'] }> = {},
  ): AuditDraft {
    return decisionEntry(
      base.stamp,
      {
        decisionId: base.decisionId,
        callId: base.callId,
        occurredAt: new Date(base.at).toISOString(),
        request: base.request,
        result: base.result,
        outcome,
        policy: {
          revision: base.snapshot.revision,
          hash: base.snapshot.hash,
          managedHash: base.snapshot.managedHash,
        },
        ...(extra.approvalId === undefined ? {} : { approvalId: extra.approvalId }),
        ...(extra.override === undefined ? {} : { override: extra.override }),
      },
      base.tool,
      this.redact,
    );
  }

  private callDraft(
    base: CallIds,
    status: AuditStatus,
    error: string | undefined,
    at = this.clock(),
  ): AuditDraft {
    return callEntry(
      base.stamp,
      {
        id: ulid(),
        callId: base.callId,
        decisionId: base.decisionId,
        tool: base.tool ?? '(none)',
        arguments: base.arguments ?? null,
        status,
        durationMs: null,
        occurredAt: new Date(at).toISOString(),
        ...(error === undefined ? {} : { error }),
      },
      this.redact,
    );
  }

  private deniedCall(base: Base, reason: string): AuditDraft {
    return this.callDraft(base, 'Denied', reason, base.at);
  }

  /** A prompt with an approver connected: pending until answered (G22, G23). */
  private async hold(
    base: Base,
    explained: Explained,
    input: DecideInput,
    options: DecideOptions,
  ): Promise<GateDecision> {
    let offer: RememberOffer | null;
    try {
      offer = rememberOffer(explained, input);
    } catch {
      offer = null; // without an offer, only "approve once" is possible
    }
    const approvalId = ulid();
    const createdAt = new Date(base.at).toISOString();
    const redactedRequest = this.redact(base.request, 'request').value as ActionRequest;
    const redactedDecision = this.redact(base.result, 'decision').value as DecisionResult;
    try {
      await this.broker.open({
        id: approvalId,
        workspace: base.stamp.workspace,
        agent: base.stamp.agentId,
        kind: 'prompt',
        tool: base.tool,
        callId: base.callId,
        decisionId: base.decisionId,
        request: redactedRequest,
        decision: redactedDecision,
        offer: offer === null ? null : (this.redact(offer, 'offer').value as RememberOffer),
        fingerprint: fingerprint(base.request),
        stamp: { runId: base.stamp.runId, model: base.stamp.model, source: base.stamp.source },
        createdAt,
        expiresAtMs: base.at + this.broker.timeoutMs,
      });
    } catch (error) {
      throw new GateFault('approvals', `cannot open an approval: ${(error as Error).message}`);
    }
    await this.writer.append([
      this.decisionDraft(base, 'ask', { approvalId }),
      this.callDraft(base, 'Staged', undefined, base.at),
    ]);
    if (options.wait === false) {
      return {
        ...base.result,
        decisionId: base.decisionId,
        callId: base.callId,
        auditId: base.decisionId,
        approvalId,
      };
    }
    const approval = await this.store.approvals.get(approvalId);
    if (approval === null)
      throw new GateFault('approvals', `approval \`${approvalId}\` vanished from the store`);
    let settled: ApprovalRecord;
    try {
      settled = await this.broker.wait(approval, options.signal);
    } catch (error) {
      throw new GateFault('approvals', `the approval broker failed: ${(error as Error).message}`);
    }
    return this.concluded(settled, base.result);
  }

  /** The final decision once an approval is settled; a denied call is recorded as `Denied`. */
  private async concluded(settled: ApprovalRecord, result: DecisionResult): Promise<GateDecision> {
    const approved = settled.state === 'approved';
    const answer = settled.answer;
    // Rules an approver just remembered decide the next call, before any notice arrives.
    if (answer?.kind === 'remember') this.source.invalidate(settled.workspace);
    let reason: string;
    if (approved && answer !== null) {
      const how =
        answer.kind === 'remember' ? `for ${answer.hours ?? 0} h in ${answer.scope ?? ''}` : 'once';
      reason = `allowed: approved ${how} by ${answer.by}${answer.reason === null ? '' : `: ${answer.reason}`} (${result.reason})`;
    } else if (settled.state === 'denied' && answer !== null) {
      reason = `denied by ${answer.by}${answer.reason === null ? '' : `: ${answer.reason}`} (${result.reason})`;
    } else {
      reason = `denied: ${settled.closedReason ?? 'the approval ended'}: a prompt nobody answers is a no (${result.reason})`;
    }
    if (!approved) {
      const stamp = {
        workspace: settled.workspace,
        agentId: settled.agent,
        runId: settled.stamp.runId,
        model: settled.stamp.model,
        source: settled.stamp.source,
      };
      await this.writer.append([
        this.callDraft(
          {
            stamp,
            decisionId: settled.decisionId,
            callId: settled.callId,
            tool: settled.tool,
            arguments: null,
          },
          'Denied',
          reason,
        ),
      ]);
    }
    return {
      ...result,
      outcome: approved ? 'allow' : 'deny',
      reason,
      decisionId: settled.decisionId,
      callId: settled.callId,
      auditId: settled.decisionId,
      approvalId: settled.id,
      approval: {
        id: settled.id,
        state: settled.state,
        answer: settled.answer,
        closedReason: settled.closedReason,
      },
    };
  }

  /** A soft deny (G26): allowed once if an overrider granted it, else denied with an override request. */
  private async softDeny(base: Base): Promise<GateDecision> {
    const print = fingerprint(base.request);
    const workspace = base.stamp.workspace;
    const granted = await this.store.approvals.consumeOverride(
      workspace,
      print,
      base.at - this.broker.retryWindowMs,
      base.at,
    );
    if (granted !== null && granted.answer !== null) {
      const override = {
        approvalId: granted.id,
        by: granted.answer.by,
        reason: granted.answer.reason ?? '',
      };
      await this.writer.append([this.decisionDraft(base, 'allow', { override })]);
      return {
        ...base.result,
        outcome: 'allow',
        reason: `allowed: overridden by ${override.by}: ${override.reason} (${base.result.reason})`,
        decisionId: base.decisionId,
        callId: base.callId,
        auditId: base.decisionId,
        override,
      };
    }
    const [open] = await this.store.approvals.list({
      workspace,
      kind: 'override',
      state: 'pending',
      fingerprint: print,
      limit: 1,
    });
    let approvalId = open?.id;
    if (approvalId === undefined) {
      approvalId = ulid();
      await this.broker.open({
        id: approvalId,
        workspace,
        agent: base.stamp.agentId,
        kind: 'override',
        tool: base.tool,
        callId: base.callId,
        decisionId: base.decisionId,
        request: this.redact(base.request, 'request').value as ActionRequest,
        decision: this.redact(base.result, 'decision').value as DecisionResult,
        offer: null,
        fingerprint: print,
        stamp: { runId: base.stamp.runId, model: base.stamp.model, source: base.stamp.source },
        createdAt: new Date(base.at).toISOString(),
        expiresAtMs: base.at + this.broker.overrideWindowMs,
      });
    }
    const reason = `${base.result.reason}: approval \`${approvalId}\``;
    await this.writer.append([
      this.decisionDraft(base, 'deny', { approvalId }),
      this.deniedCall(base, reason),
    ]);
    return {
      ...base.result,
      reason,
      decisionId: base.decisionId,
      callId: base.callId,
      auditId: base.decisionId,
      approvalId,
    };
  }

  private async failed(
    error: unknown,
    ctx: CallContext,
    partial: FailedCall,
  ): Promise<GateDecision> {
    this.onFault?.(error, ctx);
    const result = failClosed(error, partial.snapshot?.managedSource ?? null);
    const failure = faultMessage(error);
    // Recording the denial is attempted, briefly: the store may be what failed.
    const record = this.writer
      .append([
        decisionEntry(
          partial.stamp,
          {
            decisionId: partial.decisionId,
            callId: partial.callId,
            occurredAt: new Date(partial.at).toISOString(),
            request: partial.request,
            result,
            outcome: 'deny',
            policy: {
              revision: partial.snapshot?.revision ?? null,
              hash: partial.snapshot?.hash ?? null,
              managedHash: partial.snapshot?.managedHash ?? null,
            },
            failure,
          },
          partial.tool,
          this.redact,
        ),
        this.callDraft(partial, 'Denied', result.reason, partial.at),
      ])
      .catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      record,
      new Promise((resolve) => (timer = setTimeout(resolve, this.faultRecordMs))),
    ]);
    clearTimeout(timer);
    return {
      ...result,
      decisionId: partial.decisionId,
      callId: partial.callId,
      auditId: partial.decisionId,
      failure,
    };
  }
}

/**
 * The gate's answer: the engine's result with the ids, written out field by
 * field — a spread or Object.assign of it costs a decision more than the engine does.
 */
function withIds(r: DecisionResult, decisionId: string, callId: string): GateDecision {
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

interface CallIds {
  readonly stamp: Stamp;
  readonly decisionId: string;
  readonly callId: string;
  readonly tool: string | null;
  readonly arguments: unknown;
}

interface FailedCall extends CallIds {
  readonly at: number;
  readonly snapshot: PolicySnapshot | null;
  readonly request: ActionRequest | null;
}

interface Base extends CallIds {
  readonly snapshot: PolicySnapshot;
  readonly request: ActionRequest;
  readonly result: DecisionResult;
  readonly at: number;
}
