// Freezes (the kill switch): an agent, or a whole workspace, an admin
// stopped. Each change grows the workspace's counter and tells the policy
// caches, so a server's next decision for it reads the freeze.

import type { FreezeRecord, FreezeStore } from '../types.js';
import type { Database } from '../schema.js';
import type { Db, SqlContext } from './context.js';
import { bumpVersion, every, iso, lockKey, whereGiven } from './context.js';

/** The whole workspace, in the `agent` column (part of the key, so not null). */
const WHOLE = '';

function fromRow(row: Database['freezes']): FreezeRecord {
  return {
    workspace: row.workspace,
    agent: row.agent === WHOLE ? null : row.agent,
    by: row.frozen_by,
    reason: row.reason,
    frozenAt: row.frozen_at,
  };
}

/** The freeze of one agent (or of the whole workspace) in a workspace. */
function freezeOf(db: Db, workspace: string, agent: string) {
  return db
    .selectFrom('freezes')
    .selectAll()
    .where('workspace', '=', workspace)
    .where('agent', '=', agent);
}

export class SqlFreezeStore implements FreezeStore {
  constructor(private readonly ctx: SqlContext) {}

  async list(workspace?: string): Promise<FreezeRecord[]> {
    const query = whereGiven(this.ctx.db.selectFrom('freezes').selectAll(), { workspace });
    return every(query.orderBy('workspace').orderBy('agent'), fromRow);
  }

  async freeze(freeze: Omit<FreezeRecord, 'frozenAt'>, at: number): Promise<FreezeRecord> {
    const agent = freeze.agent ?? WHOLE;
    const row = await this.ctx.write(async (tx) => {
      await lockKey(this.ctx, tx, `freeze:${freeze.workspace}`);
      await tx
        .insertInto('freezes')
        .values({
          workspace: freeze.workspace,
          agent,
          frozen_by: freeze.by,
          reason: freeze.reason,
          frozen_at: iso(at),
        })
        .onConflict((oc) => oc.columns(['workspace', 'agent']).doNothing())
        .execute();
      await bumpVersion(tx, freeze.workspace);
      return freezeOf(tx, freeze.workspace, agent).executeTakeFirstOrThrow();
    });
    this.ctx.notify('policy', freeze.workspace);
    return fromRow(row);
  }

  async thaw(workspace: string, agent: string | null): Promise<FreezeRecord | null> {
    const key = agent ?? WHOLE;
    const row = await this.ctx.write(async (tx) => {
      await lockKey(this.ctx, tx, `freeze:${workspace}`);
      const found = await freezeOf(tx, workspace, key).executeTakeFirst();
      if (found === undefined) return null;
      await tx
        .deleteFrom('freezes')
        .where('workspace', '=', workspace)
        .where('agent', '=', key)
        .execute();
      await bumpVersion(tx, workspace);
      return found;
    });
    if (row !== null) this.ctx.notify('policy', workspace);
    return row === null ? null : fromRow(row);
  }
}
