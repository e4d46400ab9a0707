// The gate: the one place every choke point asks (G1). It reads the current
// policy snapshot, asks the engine, runs the approval flow, records the
// decision in the audit log (G39) and answers — and when anything fails on
// the way, it answers deny with the reason (fail-closed).

import { issueText } from '@warden/engine';
import type { ActionRequest, Autonomy, ClassifierTable, DecideInput } from '@warden/engine';
import { checkRequestAgainstPolicy, explainDecision, validateRequest } from '@warden/engine';
import type { ApprovalBroker } from '../approvals/broker.js';
import type { Redact } from '../audit/records.js';
import { callEntry } from '../audit/records.js';
import type { AuditWriter } from '../audit/writer.js';
import { newId as ulid } from '../ids.js';
import type { AuditEntry, Store } from '../store/types.js';
import { ApprovalFlow } from './approval-flow.js';
import { Drafts } from './drafts.js';
import { GateFault, failClosed, faultMessage, within } from './fault.js';
import type { PolicySnapshot, PolicySource } from './snapshot.js';
import { freezeOf } from './snapshot.js';
import type {
  Base,
  CallContext,
  CallOutcome,
  DecideOptions,
  FailedCall,
  GateAsk,
  GateDecision,
} from './types.js';
import { stampFor, unrecorded, withIds } from './types.js';

/** A name: no control characters, no lone surrogates, not empty, not huge. */
const PRINTABLE = /^(?:[^\p{Cc}\p{Cs}]){1,256}$/u;

export type {
  ApprovalSummary,
  CallContext,
  CallOutcome,
  DecideOptions,
  GateAsk,
  GateDecision,
} from './types.js';
export { fingerprint, stampFor } from './types.js';

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
  /** How long reading the policy or recording a decision may take before the gate denies (default 10 s). */
  readonly deadlineMs?: number;
  readonly onFault?: (error: unknown, context: CallContext) => void;
}

export class Gate {
  readonly store: Store;
  readonly broker: ApprovalBroker;
  private readonly source: PolicySource;
  private readonly writer: AuditWriter;
  private readonly redact: Redact;
  private readonly clock: () => number;
  /** The classifier table decisions read commands with (the engine's own when undefined). */
  readonly classifier: ClassifierTable | undefined;
  private readonly faultRecordMs: number;
  private readonly deadlineMs: number;
  private readonly onFault: GateOptions['onFault'];
  private readonly ceilings = new Map<
    string,
    { readonly agent: string; readonly workspace: string; readonly autonomy: Autonomy | null }
  >();
  private readonly unknownRuns = new Map<string, number>();
  private readonly drafts: Drafts;
  private readonly flow: ApprovalFlow;

  constructor(options: GateOptions) {
    this.store = options.store;
    this.source = options.source;
    this.writer = options.writer;
    this.broker = options.broker;
    this.redact = options.redact;
    this.clock = options.clock ?? Date.now;
    this.classifier = options.classifier;
    this.faultRecordMs = options.faultRecordMs ?? 2000;
    this.deadlineMs = options.deadlineMs ?? 10_000;
    this.onFault = options.onFault;
    this.drafts = new Drafts(this.redact, this.clock);
    this.flow = new ApprovalFlow(
      this.store,
      this.broker,
      this.writer,
      this.drafts,
      this.source,
      this.redact,
      this.clock,
    );
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
      const current =
        this.source.peek?.(ctx.workspace) ??
        (await within(
          this.source.snapshot(ctx.workspace),
          this.deadlineMs,
          'store',
          'the policy store',
        ));
      snapshot = current;
      const built = this.request(ctx, ask, current);
      request = built;
      const input: { -readonly [K in keyof DecideInput]: DecideInput[K] } = {
        policy: current.compiled,
        managed: current.managed,
        managedSource: current.managedSource,
        request: built,
        at,
        approverConnected: false,
      };
      if (this.classifier !== undefined) input.classifier = this.classifier;
      // Beside the request, not in it (requests are closed): the engine makes it a human's call.
      if (ask.unsandboxed === true) input.unsandboxed = true;
      if (ask.transactional === true) input.transactional = true;
      if (ask.observed !== undefined) input.observed = ask.observed;
      const frozen = freezeOf(current, ctx.agent);
      if (frozen !== null) input.frozen = frozen;
      if (ctx.runId !== undefined) {
        const ceiling = await this.ceiling(ctx, ctx.runId);
        if (ceiling !== null)
          input.autonomyCeiling = { autonomy: ceiling, scope: `run:${ctx.runId}` };
      }
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
        ...(ask.unsandboxed === true ? { unsandboxed: true } : {}),
      };
      if (result.outcome === 'ask') return await this.flow.hold(base, explained, input, options);
      if (result.decision === 'deny' && result.overridable) return await this.flow.softDeny(base);
      const decision = this.drafts.decision(base, result.outcome);
      // Answered only once committed: the answer's `auditId` names a durable entry (contracts §8).
      await within(
        this.writer.append(
          result.outcome === 'deny'
            ? [decision, this.drafts.denied(base, result.reason)]
            : [decision],
        ),
        this.deadlineMs,
        'audit',
        'the audit log',
      );
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
  async awaitApproval(
    approvalId: string,
    signal?: AbortSignal,
    /** The caller: an approval of another agent or workspace is as unknown to it as a missing one. */
    context?: CallContext,
  ): Promise<GateDecision> {
    try {
      const approval = await this.store.approvals.get(approvalId);
      if (
        approval === null ||
        (context !== undefined &&
          (approval.workspace !== context.workspace || approval.agent !== context.agent))
      )
        throw new GateFault('approvals', `no approval \`${approvalId}\``);
      const settled = await this.broker.wait(approval, signal);
      return await this.flow.concluded(settled, settled.decision);
    } catch (error) {
      // Fail-closed: nothing the wait runs into is an allow. Nothing recorded this
      // answer, so it names no audit entry.
      const failure = faultMessage(error);
      return unrecorded(
        withIds(failClosed(error), approvalId, approvalId),
        `${failure}; this denial is not recorded in the audit log`,
      );
    }
  }

  /** Records how an allowed (or ungated) call ended: `Ok`, `Error`, … (contracts §6). */
  async complete(ctx: CallContext, outcome: CallOutcome): Promise<AuditEntry> {
    const at = this.clock();
    for (const [what, name] of [
      ['tool', outcome.tool],
      ['call id', outcome.callId],
    ] as const) {
      if (!PRINTABLE.test(name))
        throw new GateFault(
          'request-invalid',
          `the ${what} name holds a control character or a broken character`,
        );
    }
    // Resolves only once committed: the entry it returns is durable (contracts §8).
    const [entry] = await within(
      this.writer.append([
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
      ]),
      this.deadlineMs,
      'audit',
      'the audit log',
    );
    return entry as AuditEntry;
  }

  /** The policy snapshot a decision in this workspace would read now. */
  snapshot(workspace: string): Promise<PolicySnapshot> {
    return this.source.snapshot(workspace);
  }

  /**
   * A delegated run acts at most at the autonomy it was handed (G35); runs
   * never change it, so it is read once. A run of another agent or workspace
   * is a misconfigured adapter: denied. A run Warden does not know was not
   * delegated through it: no ceiling, looked up again after a second (a
   * delegation starts its run before the delegate's first call).
   */
  private async ceiling(ctx: CallContext, runId: string): Promise<Autonomy | null> {
    const known = this.ceilings.get(runId);
    if (known !== undefined && known.agent === ctx.agent && known.workspace === ctx.workspace)
      return known.autonomy;
    const unknownAt = this.unknownRuns.get(runId);
    if (unknownAt !== undefined && this.clock() - unknownAt < 1000) return null;
    let run;
    try {
      run = await this.store.runs.get(runId);
    } catch (error) {
      throw new GateFault('store', `cannot read run \`${runId}\`: ${(error as Error).message}`);
    }
    if (run === null) {
      if (this.unknownRuns.size >= 10_000) this.unknownRuns.clear();
      this.unknownRuns.set(runId, this.clock());
      return null;
    }
    this.unknownRuns.delete(runId);
    if (run.agent !== ctx.agent || run.workspace !== ctx.workspace)
      throw new GateFault(
        'request-invalid',
        `run \`${runId}\` belongs to \`${run.agent}\` in \`${run.workspace}\`, not to \`${ctx.agent}\` in \`${ctx.workspace}\``,
      );
    const autonomy = run.depth === 0 ? null : run.autonomy;
    if (this.ceilings.size >= 10_000)
      this.ceilings.delete(this.ceilings.keys().next().value as string);
    this.ceilings.set(runId, { agent: run.agent, workspace: run.workspace, autonomy });
    return autonomy;
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
    // Names are stored as they are: a control character or a broken surrogate in one
    // could not be stored (Postgres refuses NUL) or shown honestly.
    for (const [what, name] of [
      ['agent', ctx.agent],
      ['workspace', ctx.workspace],
      ['space', ctx.space],
      ['mode', ctx.mode],
      ['tool', ask.tool],
      ['call id', ask.callId],
      ['run id', ctx.runId],
    ] as const) {
      if (name !== undefined && !PRINTABLE.test(name))
        throw new GateFault(
          'request-invalid',
          `the ${what} name holds a control character or a broken character`,
        );
    }
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
      const list = issues.map(issueText).join('; ');
      throw new GateFault('request-invalid', `the request is not valid: ${list}`);
    }
    return validated.value;
  }

  private async failed(
    error: unknown,
    ctx: CallContext,
    partial: FailedCall,
  ): Promise<GateDecision> {
    try {
      this.onFault?.(error, ctx);
    } catch {
      // An observer's fault changes nothing about the answer.
    }
    const result = failClosed(error, partial.snapshot?.managedSource ?? null);
    const failure = faultMessage(error);
    const answer = withIds(result, partial.decisionId, partial.callId);
    // The denial is recorded before it is answered with an `auditId`; the store may be
    // what failed, so the attempt is bounded, and a denial that could not be written
    // is answered as such: no `auditId`, and a `failure` that says it is not recorded.
    // Its entry has an id of its own (the decision's own entry may still land, late, from
    // the attempt that failed), and the answer names that entry: an `auditId` always
    // names an entry that exists.
    let recorded: string;
    try {
      const [entry] = await within(
        this.writer.append([
          this.drafts.failure(partial, result, failure),
          this.drafts.call(partial, 'Denied', result.reason, partial.at),
        ]),
        this.faultRecordMs,
        'audit',
        'the audit log',
      );
      recorded = String(entry?.id ?? partial.decisionId);
    } catch (recordError) {
      const why = faultMessage(recordError);
      const said =
        why === failure
          ? `${failure}; this denial is not recorded in the audit log`
          : `${failure}; this denial is not recorded in the audit log either: ${why}`;
      return unrecorded({ ...answer, reason: `denied: ${said} (Warden fails closed)` }, said);
    }
    return { ...answer, auditId: recorded, failure };
  }
}
