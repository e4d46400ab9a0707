// Pending approvals and their answers. An approval leaves `pending` exactly
// once: settling is a conditional update, so two approvers (or an approver and
// the timeout) racing in two processes cannot both win.

import type { ActionRequest, DecisionResult, RememberOffer } from '@warden/engine';
import type {
  ApprovalAnswer,
  ApprovalFilter,
  ApprovalKind,
  ApprovalRecord,
  ApprovalSettle,
  ApprovalState,
  ApprovalStore,
  JsonValue,
  NewApproval,
} from '../types.js';
import type { Database } from '../schema.js';
import type { SqlContext } from './context.js';
import {
  bumpVersion,
  every,
  first,
  iso,
  newestFirst,
  num,
  parseJson,
  whereGiven,
} from './context.js';
import { storedRuleRow } from './rules.js';

type Row = Database['approvals'];

function fromRow(row: Row): ApprovalRecord {
  return {
    id: row.id,
    workspace: row.workspace,
    agent: row.agent,
    kind: row.kind as ApprovalKind,
    state: row.state as ApprovalState,
    tool: row.tool,
    callId: row.call_id,
    decisionId: row.decision_id,
    request: JSON.parse(row.request) as ActionRequest,
    decision: JSON.parse(row.decision) as DecisionResult,
    offer: parseJson<RememberOffer>(row.offer),
    fingerprint: row.fingerprint,
    arguments: JSON.parse(row.arguments) as JsonValue,
    stamp: JSON.parse(row.stamp) as ApprovalRecord['stamp'],
    createdAt: row.created_at,
    expiresAtMs: num(row.expires_at_ms),
    answer: parseJson<ApprovalAnswer>(row.answer),
    answeredAt: row.answered_at,
    closedReason: row.closed_reason,
    usedAt: row.used_at,
  };
}

export class SqlApprovalStore implements ApprovalStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(a: NewApproval): Promise<void> {
    await this.ctx.write((tx) =>
      tx
        .insertInto('approvals')
        .values({
          id: a.id,
          workspace: a.workspace,
          agent: a.agent,
          kind: a.kind,
          state: 'pending',
          tool: a.tool,
          call_id: a.callId,
          decision_id: a.decisionId,
          request: JSON.stringify(a.request),
          decision: JSON.stringify(a.decision),
          offer: a.offer === null ? null : JSON.stringify(a.offer),
          fingerprint: a.fingerprint,
          arguments: JSON.stringify(a.arguments),
          stamp: JSON.stringify(a.stamp),
          created_at: a.createdAt,
          created_at_ms: Date.parse(a.createdAt),
          expires_at_ms: a.expiresAtMs,
          answer: null,
          answered_at: null,
          answered_at_ms: null,
          closed_reason: null,
          used_at: null,
        })
        .execute(),
    );
    this.ctx.notify('approval', a.workspace, a.id);
  }

  async get(id: string): Promise<ApprovalRecord | null> {
    return first(this.ctx.db.selectFrom('approvals').selectAll().where('id', '=', id), fromRow);
  }

  async list(filter: ApprovalFilter = {}): Promise<ApprovalRecord[]> {
    const query = whereGiven(this.ctx.db.selectFrom('approvals').selectAll(), {
      workspace: filter.workspace,
      state: filter.state,
      agent: filter.agent,
      kind: filter.kind,
      fingerprint: filter.fingerprint,
    });
    return every(newestFirst(query, 'created_at_ms', filter.limit ?? 100), fromRow);
  }

  async settle(id: string, s: ApprovalSettle): Promise<ApprovalRecord | null> {
    const rules = s.rules ?? [];
    const changed = await this.ctx.write(async (tx) => {
      let update = tx
        .updateTable('approvals')
        .set({
          state: s.state,
          answer: s.answer === null ? null : JSON.stringify(s.answer),
          answered_at: iso(s.at),
          answered_at_ms: s.at,
          closed_reason: s.closedReason,
        })
        .where('id', '=', id)
        .where('state', '=', 'pending');
      if (s.beforeExpiry === true) update = update.where('expires_at_ms', '>', s.at);
      const result = await update.executeTakeFirst();
      if (num(result.numUpdatedRows) === 0) return null;
      if (rules.length > 0) {
        await tx.insertInto('stored_rules').values(rules.map(storedRuleRow)).execute();
        for (const workspace of new Set(rules.map((r) => r.workspace)))
          await bumpVersion(tx, workspace);
      }
      return true;
    });
    if (changed === null) return null;
    for (const workspace of new Set(rules.map((r) => r.workspace)))
      this.ctx.notify('policy', workspace);
    const record = await this.get(id);
    if (record !== null) this.ctx.notify('approval', record.workspace, id);
    return record;
  }

  async consumeOverride(
    workspace: string,
    fingerprint: string,
    notBeforeMs: number,
    at: number,
  ): Promise<ApprovalRecord | null> {
    const id = await this.ctx.write(async (tx) => {
      const candidates = await tx
        .selectFrom('approvals')
        .select('id')
        .where('workspace', '=', workspace)
        .where('fingerprint', '=', fingerprint)
        .where('kind', '=', 'override')
        .where('state', '=', 'approved')
        .where('used_at', 'is', null)
        .where('answered_at_ms', '>=', notBeforeMs)
        .orderBy('answered_at_ms')
        .execute();
      for (const { id: candidate } of candidates) {
        const result = await tx
          .updateTable('approvals')
          .set({ used_at: iso(at) })
          .where('id', '=', candidate)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (num(result.numUpdatedRows) > 0) return candidate;
      }
      return null;
    });
    return id === null ? null : this.get(id);
  }
}
