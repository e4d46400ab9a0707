// What the gate does with a decision a human can change: a prompt with an
// approver connected is held as a pending approval until it is answered or
// ends (G22, G23); a soft deny is denied with an override request, and a
// granted override lets exactly that call through once (G26).

import type {
  ActionRequest,
  DecideInput,
  DecisionResult,
  Explained,
  RememberOffer,
} from '@warden/engine';
import type { Freeze } from '@warden/engine';
import { freezeReason, managedFreeze, rememberOffer } from '@warden/engine';
import type { ApprovalBroker } from '../approvals/broker.js';
import { stampOf } from '../approvals/broker.js';
import type { Redact } from '../audit/records.js';
import { decisionEntry } from '../audit/records.js';
import type { AuditWriter } from '../audit/writer.js';
import { newId } from '../ids.js';
import type { ApprovalRecord, JsonValue, NewApproval, Store } from '../store/types.js';
import type { Drafts } from './drafts.js';
import { GateFault } from './fault.js';
import type { PolicySource } from './snapshot.js';
import { freezeOf } from './snapshot.js';
import type { Base, DecideOptions, GateDecision } from './types.js';
import { fingerprint, withIds } from './types.js';

/** A caller's answer must reach it before it gives up: the time an answer may take, then. */
const ANSWER_MARGIN_MS = 1000;

/** How long a prompt stays open: the approval timeout, or less when the caller waits less. */
export function approvalTtl(timeoutMs: number, waitMs: number | undefined): number {
  if (waitMs === undefined) return timeoutMs;
  return Math.max(1000, Math.min(timeoutMs, waitMs - ANSWER_MARGIN_MS));
}
export class ApprovalFlow {
  constructor(
    private readonly store: Store,
    private readonly broker: ApprovalBroker,
    private readonly writer: AuditWriter,
    private readonly drafts: Drafts,
    private readonly source: PolicySource,
    private readonly redact: Redact,
    private readonly clock: () => number,
  ) {}

  private approval(
    base: Base,
    kind: 'prompt' | 'override',
    id: string,
    offer: RememberOffer | null,
    print: string,
    ttlMs: number,
  ): NewApproval {
    return {
      id,
      workspace: base.stamp.workspace,
      agent: base.stamp.agentId,
      kind,
      tool: base.tool,
      callId: base.callId,
      decisionId: base.decisionId,
      request: this.redact(base.request, 'request').value as ActionRequest,
      decision: this.redact(base.result, 'decision').value as DecisionResult,
      offer,
      fingerprint: print,
      arguments: this.redact(base.arguments ?? null, 'arguments').value as JsonValue,
      stamp: { runId: base.stamp.runId, model: base.stamp.model, source: base.stamp.source },
      createdAt: new Date(base.at).toISOString(),
      expiresAtMs: base.at + ttlMs,
    };
  }

  /** A prompt with an approver connected: pending until answered (G22, G23). */
  async hold(
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
    if (offer !== null) {
      // Rules are written from what the approver was shown: if that had to be redacted,
      // a rule written from it would not be the rule for this call.
      const shown = this.redact(offer, 'offer');
      if (shown.paths.length > 0)
        offer = {
          rememberable: false,
          why: 'only "approve once": the arguments hold a secret, which a remembered rule cannot name',
          facets: (shown.value as RememberOffer).facets,
          scopes: [],
        };
    }
    const approvalId = newId();
    const pending = this.approval(
      base,
      'prompt',
      approvalId,
      offer,
      fingerprint(base.request, base.tool, base.arguments, base.unsandboxed === true),
      approvalTtl(this.broker.timeoutMs, options.waitMs),
    );
    try {
      await this.broker.open(pending);
    } catch (error) {
      throw new GateFault('approvals', `cannot open an approval: ${(error as Error).message}`);
    }
    await this.writer.append([
      this.drafts.decision(base, 'ask', { approvalId }),
      this.drafts.call(base, 'Staged', undefined, base.at),
    ]);
    if (options.wait === false)
      return { ...withIds(base.result, base.decisionId, base.callId), approvalId };
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
  async concluded(settled: ApprovalRecord, result: DecisionResult): Promise<GateDecision> {
    const answer = settled.answer;
    // Rules an approver just remembered decide the next call, before any notice arrives.
    if (answer?.kind === 'remember') this.source.invalidate(settled.workspace);
    // A freeze thrown after the approval, before the call collects it, still stops the call.
    const frozen =
      settled.state === 'approved' ? await this.frozen(settled.workspace, settled.agent) : null;
    const approved = settled.state === 'approved' && frozen === null;
    let reason: string;
    if (frozen !== null && answer !== null) {
      reason = `denied: ${freezeReason(frozen, settled.agent)}; the approval by ${answer.by} came before the freeze, and no approval lifts it`;
    } else if (approved && answer !== null) {
      const how =
        answer.kind === 'remember' ? `for ${answer.hours ?? 0} h in ${answer.scope ?? ''}` : 'once';
      reason = `allowed: approved ${how} by ${answer.by}${answer.reason === null ? '' : `: ${answer.reason}`} (${result.reason})`;
    } else if (settled.state === 'denied' && answer !== null) {
      reason = `denied by ${answer.by}${answer.reason === null ? '' : `: ${answer.reason}`} (${result.reason})`;
    } else {
      reason = `denied: ${settled.closedReason ?? 'the approval ended'}: a prompt nobody answers is a no (${result.reason})`;
    }
    // How the held decision ended is durable before the caller may act on it (G39).
    const stamp = stampOf(settled);
    const entries = [
      decisionEntry(
        stamp,
        {
          id: newId(),
          decisionId: settled.decisionId,
          callId: settled.callId,
          occurredAt: new Date(this.clock()).toISOString(),
          request: settled.request,
          result,
          outcome: approved ? 'allow' : 'deny',
          policy: { revision: null, hash: null, managedHash: null },
          approvalId: settled.id,
          approval: {
            state: settled.state,
            answer: answer?.kind ?? null,
            by: answer?.by ?? null,
            reason: answer?.reason ?? settled.closedReason,
          },
        },
        settled.tool,
        this.redact,
      ),
    ];
    if (!approved) {
      const ids = {
        stamp,
        decisionId: settled.decisionId,
        callId: settled.callId,
        tool: settled.tool,
        arguments: settled.arguments,
      };
      entries.push(this.drafts.call(ids, 'Denied', reason));
    }
    await this.writer.append(entries);
    return {
      ...withIds(result, settled.decisionId, settled.callId),
      outcome: approved ? 'allow' : 'deny',
      reason,
      approvalId: settled.id,
      approval: {
        id: settled.id,
        state: settled.state,
        answer: settled.answer,
        closedReason: settled.closedReason,
      },
    };
  }

  /** The freeze that stops the agent now, stored or in the managed policy; null when none does. */
  private async frozen(workspace: string, agent: string): Promise<Freeze | null> {
    let snapshot;
    try {
      snapshot = await this.source.snapshot(workspace);
    } catch (error) {
      throw new GateFault(
        'store',
        `cannot tell whether agent \`${agent}\` is frozen: ${(error as Error).message}`,
      );
    }
    return (
      freezeOf(snapshot, agent) ?? managedFreeze(snapshot.managed?.policy ?? null, workspace, agent)
    );
  }

  /** A soft deny (G26): allowed once if an overrider granted it, else denied with an override request. */
  async softDeny(base: Base): Promise<GateDecision> {
    // An override is for exactly one call: one granted with the sandbox does not let it run without.
    const print = fingerprint(base.request, base.tool, base.arguments, base.unsandboxed === true);
    const workspace = base.stamp.workspace;
    const granted = await this.store.approvals.consumeOverride(
      workspace,
      print,
      base.at - this.broker.retryWindowMs,
      base.at,
    );
    const answered = withIds(base.result, base.decisionId, base.callId);
    if (granted !== null && granted.answer !== null) {
      const override = {
        approvalId: granted.id,
        by: granted.answer.by,
        reason: granted.answer.reason ?? '',
      };
      await this.writer.append([this.drafts.decision(base, 'allow', { override })]);
      return {
        ...answered,
        outcome: 'allow',
        reason: `allowed: overridden by ${override.by}: ${override.reason} (${base.result.reason})`,
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
      approvalId = newId();
      await this.broker.open(
        this.approval(base, 'override', approvalId, null, print, this.broker.overrideWindowMs),
      );
    }
    const reason = `${base.result.reason}: approval \`${approvalId}\``;
    await this.writer.append([
      this.drafts.decision(base, 'deny', { approvalId }),
      this.drafts.denied(base, reason),
    ]);
    return { ...answered, reason, approvalId };
  }
}
