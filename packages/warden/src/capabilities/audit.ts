// Why this file exists: the audit log is written by the gate and the change
// log, but read by many: the server's listings, the permissions views, how a
// call ended and whether it was reported already. Those reads are one
// capability of the `Warden` facade (`warden.audit`), so what "the decision
// of a call" or "its reported ending" means is said here once.

import type { Gate } from '../gate/gate.js';
import type { Completion, Recorded } from '../gate/completion.js';
import { recordCompletion } from '../gate/completion.js';
import type { DecidedCall } from '../gate/effects.js';
import { decidedCall } from '../gate/effects.js';
import type { CallContext } from '../gate/types.js';
import type { AuditEntry, AuditFilter, AuditStatus, Store } from '../store/types.js';
import { AUDIT_STATUSES } from '../store/types.js';

/** The statuses that say how a call ended (a held call's `Staged` is not an ending). */
const ENDINGS: readonly AuditStatus[] = AUDIT_STATUSES.filter((status) => status !== 'Staged');

export class AuditLog {
  constructor(
    private readonly parts: { readonly store: Pick<Store, 'audit'>; readonly gate: Gate },
  ) {}

  /** The entries the filter picks (newest first unless it says otherwise). */
  query(filter: AuditFilter): Promise<AuditEntry[]> {
    return this.parts.store.audit.query(filter);
  }

  /** The first entry of a decision; undefined when there is no such decision. */
  async decision(decisionId: string): Promise<AuditEntry | undefined> {
    const [decision] = await this.query({
      decisionId,
      kinds: ['decision'],
      order: 'oldest',
      limit: 1,
    });
    return decision;
  }

  /** How the call of a decision ended, as reported; undefined while it is not. */
  async ending(decisionId: string): Promise<AuditEntry | undefined> {
    const [reported] = await this.query({
      decisionId,
      kinds: ['call'],
      statuses: ENDINGS,
      limit: 1,
    });
    return reported;
  }

  /** The entry of a granted run that started under a decision; undefined when none did. */
  async started(decisionId: string): Promise<AuditEntry | undefined> {
    const [started] = await this.query({
      decisionId,
      kinds: ['call'],
      statuses: ['Staged'],
      limit: 1,
    });
    return started;
  }

  /** The call a decision allowed, with its context; a problem when it allowed none. */
  decidedCall(
    auditId: string,
  ): Promise<{ ok: true; call: DecidedCall } | { ok: false; problem: string }> {
    return decidedCall(this.parts.store.audit, auditId);
  }

  /** Records how a call ended, matched to its decision (or reported already). */
  recordCompletion(context: CallContext, completion: Completion, at: number): Promise<Recorded> {
    return recordCompletion(this.parts.gate, this.parts.store.audit, context, completion, at);
  }
}
