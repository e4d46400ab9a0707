// Claims of `warden exec` grants: the first insert of a decision's row wins,
// on SQLite and Postgres alike, so two runs started with one grant (or a run
// started again after the first was killed) never both run.

import type { GrantStore } from '../types.js';
import type { SqlContext } from './context.js';

export class SqlGrantStore implements GrantStore {
  constructor(private readonly ctx: SqlContext) {}

  async claim(decisionId: string, at: Date): Promise<boolean> {
    const inserted = await this.ctx.write((tx) =>
      tx
        .insertInto('grant_claims')
        .values({ decision_id: decisionId, claimed_at: at.toISOString() })
        .onConflict((oc) => oc.column('decision_id').doNothing())
        .executeTakeFirst(),
    );
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
