// Policy documents as revisions: every write is a new revision with its
// author, so history and diffs come for free and nothing is rewritten.

import { createHash } from 'node:crypto';
import { canonicalJson } from '@warden/engine';
import type { JsonValue, PolicyRevision, PolicyStore, PolicyWrite, PutResult } from '../types.js';
import type { RevisionRow } from '../schema.js';
import type { Db, SqlContext } from './context.js';
import { bumpVersion, every, first, iso, lockKey, num } from './context.js';

/** The state-version key of the managed layer. */
const MANAGED_WORKSPACE = '';

type Table = 'policy_revisions' | 'managed_revisions';

export function documentHash(document: JsonValue): string {
  return createHash('sha256').update(canonicalJson(document)).digest('hex');
}

function fromRow(row: RevisionRow): PolicyRevision {
  return {
    workspace: row.workspace,
    revision: num(row.revision),
    document: JSON.parse(row.document) as JsonValue,
    hash: row.hash,
    author: row.author,
    message: row.message,
    createdAt: row.created_at,
  };
}

export class SqlPolicyStore implements PolicyStore {
  constructor(private readonly ctx: SqlContext) {}

  /** The revisions of a workspace, newest first. */
  private revisions(db: Db, table: Table, workspace: string) {
    return db
      .selectFrom(table)
      .selectAll()
      .where('workspace', '=', workspace)
      .orderBy('revision', 'desc');
  }

  async current(workspace: string): Promise<PolicyRevision | null> {
    return first(this.revisions(this.ctx.db, 'policy_revisions', workspace).limit(1), fromRow);
  }

  async revision(workspace: string, revision: number): Promise<PolicyRevision | null> {
    return first(
      this.ctx.db
        .selectFrom('policy_revisions')
        .selectAll()
        .where('workspace', '=', workspace)
        .where('revision', '=', revision),
      fromRow,
    );
  }

  history(workspace: string, limit = 100): Promise<PolicyRevision[]> {
    return this.list('policy_revisions', workspace, limit);
  }

  private async list(table: Table, workspace: string, limit: number): Promise<PolicyRevision[]> {
    return every(this.revisions(this.ctx.db, table, workspace).limit(limit), fromRow);
  }

  async workspaces(): Promise<string[]> {
    const rows = await this.ctx.db
      .selectFrom('policy_revisions')
      .select('workspace')
      .distinct()
      .orderBy('workspace')
      .execute();
    return rows.map((r) => r.workspace);
  }

  async currentManaged(): Promise<PolicyRevision | null> {
    return first(
      this.revisions(this.ctx.db, 'managed_revisions', MANAGED_WORKSPACE).limit(1),
      fromRow,
    );
  }

  managedHistory(limit = 100): Promise<PolicyRevision[]> {
    return this.list('managed_revisions', MANAGED_WORKSPACE, limit);
  }

  put(workspace: string, write: PolicyWrite): Promise<PutResult> {
    return this.write('policy_revisions', workspace, workspace, write);
  }

  putManaged(write: PolicyWrite): Promise<PutResult> {
    return this.write('managed_revisions', MANAGED_WORKSPACE, null, write);
  }

  private async write(
    table: Table,
    workspace: string,
    /** The workspace whose counter grows; null for the managed layer. */
    key: string | null,
    write: PolicyWrite,
  ): Promise<PutResult> {
    const result = await this.ctx.write(async (tx): Promise<PutResult> => {
      await lockKey(this.ctx, tx, `${table}:${workspace}`);
      const latest = await this.revisions(tx, table, workspace).limit(1).executeTakeFirst();
      const current = latest === undefined ? null : num(latest.revision);
      if (write.expected !== undefined && write.expected !== current) {
        return { ok: false, conflict: { current } };
      }
      const row: RevisionRow = {
        workspace,
        revision: (current ?? 0) + 1,
        document: JSON.stringify(write.document),
        hash: documentHash(write.document),
        author: write.author,
        message: write.message ?? null,
        created_at: iso(write.at),
      };
      await tx.insertInto(table).values(row).execute();
      await bumpVersion(tx, key);
      return { ok: true, revision: fromRow(row) };
    });
    if (result.ok) this.ctx.notify('policy', key);
    return result;
  }
}
