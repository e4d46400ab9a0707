// The audit entries one gated call leaves behind (G39, contracts §6): its
// decision, and a call entry when the call is held (`Staged`) or refused
// (`Denied`). Built from the gate's own facts; redacted before they are stored.

import type { DecisionResult } from '@warden/engine';
import type { Redact } from '../audit/records.js';
import { callEntry, decisionEntry } from '../audit/records.js';
import { newId } from '../ids.js';
import type { AuditDraft, AuditStatus } from '../store/types.js';
import type { Base, CallIds, FailedCall, GateDecision } from './types.js';

export interface DecisionExtra {
  readonly approvalId?: string;
  readonly override?: GateDecision['override'];
}

export class Drafts {
  constructor(
    private readonly redact: Redact,
    private readonly clock: () => number,
  ) {}

  decision(base: Base, outcome: 'allow' | 'ask' | 'deny', extra: DecisionExtra = {}): AuditDraft {
    const record = {
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
    };
    if (extra.approvalId === undefined && extra.override === undefined)
      return decisionEntry(base.stamp, record, base.tool, this.redact);
    return decisionEntry(
      base.stamp,
      {
        ...record,
        ...(extra.approvalId === undefined ? {} : { approvalId: extra.approvalId }),
        ...(extra.override === undefined ? {} : { override: extra.override }),
      },
      base.tool,
      this.redact,
    );
  }

  /**
   * The decision of a call the gate could not decide (fail-closed). Its entry
   * has an id of its own: the fault may strike after the decision's first entry.
   */
  failure(call: FailedCall, result: DecisionResult, failure: string): AuditDraft {
    return decisionEntry(
      call.stamp,
      {
        id: newId(),
        decisionId: call.decisionId,
        callId: call.callId,
        occurredAt: new Date(call.at).toISOString(),
        request: call.request,
        result,
        outcome: 'deny',
        policy: {
          revision: call.snapshot?.revision ?? null,
          hash: call.snapshot?.hash ?? null,
          managedHash: call.snapshot?.managedHash ?? null,
        },
        failure,
      },
      call.tool,
      this.redact,
    );
  }

  call(
    base: CallIds,
    status: AuditStatus,
    error: string | undefined,
    at = this.clock(),
  ): AuditDraft {
    return callEntry(
      base.stamp,
      {
        id: newId(),
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

  denied(base: Base, reason: string): AuditDraft {
    return this.call(base, 'Denied', reason, base.at);
  }
}
