// Rules kept beside the standing policy: remembered approvals with their
// origin, expiry and revocation (G23, G24). The policy document itself is
// never rewritten by them.

import type { JsonValue, NewStoredRule, RuleStore, StoredOrigin, StoredRule } from '../types.js';
import type { Database } from '../schema.js';
import type { SqlContext } from './context.js';
import { bumpVersion, every, first, iso, num } from './context.js';

type Row = Database['stored_rules'];

function fromRow(row: Row): StoredRule {
  return {
    id: row.id,
    workspace: row.workspace,
    rule: JSON.parse(row.rule) as { [key: string]: JsonValue },
    scope: row.scope,
    origin: row.origin as StoredOrigin,
    createdAt: row.created_at,
    createdBy: row.created_by,
    expiresAt: row.expires_at,
    approvalId: row.approval_id,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_by,
  };
}

/** A new stored rule as its row. */
export function storedRuleRow(r: NewStoredRule): Row {
  return {
    id: r.id,
    workspace: r.workspace,
    scope: r.scope,
    origin: r.origin,
    rule: JSON.stringify(r.rule),
    created_at: r.createdAt,
    created_by: r.createdBy,
    expires_at: r.expiresAt,
    expires_at_ms: r.expiresAt === null ? null : Date.parse(r.expiresAt),
    approval_id: r.approvalId,
    revoked_at: null,
    revoked_by: null,
  };
}

export class SqlRuleStore implements RuleStore {
  constructor(private readonly ctx: SqlContext) {}

  async add(rules: readonly NewStoredRule[]): Promise<void> {
    if (rules.length === 0) return;
    const workspaces = [...new Set(rules.map((r) => r.workspace))];
    await this.ctx.write(async (tx) => {
      await tx.insertInto('stored_rules').values(rules.map(storedRuleRow)).execute();
      for (const workspace of workspaces) await bumpVersion(tx, workspace);
    });
    for (const workspace of workspaces) this.ctx.notify('policy', workspace);
  }

  async list(
    workspace: string,
    options: { readonly at?: number; readonly includeRevoked?: boolean } = {},
  ): Promise<StoredRule[]> {
    let query = this.ctx.db
      .selectFrom('stored_rules')
      .selectAll()
      .where('workspace', '=', workspace);
    if (options.includeRevoked !== true) query = query.where('revoked_at', 'is', null);
    if (options.at !== undefined) {
      const at = options.at;
      query = query.where((eb) =>
        eb.or([eb('expires_at_ms', 'is', null), eb('expires_at_ms', '>', at)]),
      );
    }
    return every(query.orderBy('created_at').orderBy('id'), fromRow);
  }

  async get(workspace: string, id: string): Promise<StoredRule | null> {
    return first(
      this.ctx.db
        .selectFrom('stored_rules')
        .selectAll()
        .where('workspace', '=', workspace)
        .where('id', '=', id),
      fromRow,
    );
  }

  async revoke(workspace: string, id: string, by: string, at: number): Promise<StoredRule | null> {
    const revoked = await this.ctx.write(async (tx) => {
      const result = await tx
        .updateTable('stored_rules')
        .set({ revoked_at: iso(at), revoked_by: by })
        .where('workspace', '=', workspace)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (num(result.numUpdatedRows) === 0) return false;
      await bumpVersion(tx, workspace);
      return true;
    });
    if (!revoked) return null;
    this.ctx.notify('policy', workspace);
    return this.get(workspace, id);
  }
}
