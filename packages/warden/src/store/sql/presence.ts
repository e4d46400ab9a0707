// Which approvers hold a live channel, seen from every process (G22): each
// channel beats every second or so; one not seen for a few seconds is gone.

import type { ApproverRole, Presence, PresenceStore } from '../types.js';
import type { SqlContext } from './context.js';
import { num } from './context.js';

export class SqlPresenceStore implements PresenceStore {
  constructor(private readonly ctx: SqlContext) {}

  async beat(presence: Presence): Promise<void> {
    const fields = {
      workspace: presence.workspace,
      name: presence.name,
      roles: JSON.stringify(presence.roles),
      node: presence.node,
      last_seen_ms: presence.lastSeenMs,
    };
    await this.ctx.write((tx) =>
      tx
        .insertInto('approver_presence')
        .values({ id: presence.id, ...fields })
        .onConflict((oc) => oc.column('id').doUpdateSet(fields))
        .execute(),
    );
  }

  async remove(id: string): Promise<void> {
    await this.ctx.write((tx) => tx.deleteFrom('approver_presence').where('id', '=', id).execute());
    this.ctx.notify('presence', null, id);
  }

  async live(workspace: string, role: ApproverRole, sinceMs: number): Promise<Presence[]> {
    const rows = await this.ctx.db
      .selectFrom('approver_presence')
      .selectAll()
      .where('last_seen_ms', '>=', sinceMs)
      .where((eb) => eb.or([eb('workspace', 'is', null), eb('workspace', '=', workspace)]))
      .execute();
    return rows
      .map((row) => ({
        id: row.id,
        workspace: row.workspace,
        name: row.name,
        roles: JSON.parse(row.roles) as ApproverRole[],
        node: row.node,
        lastSeenMs: num(row.last_seen_ms),
      }))
      .filter((p) => p.roles.includes(role));
  }
}
