// Agents known to a workspace, with the space they work in (their autonomy,
// E40), the mode they work in (its command net) — an agent token bound to no
// space or mode acts in these (contracts §8) — and their model, which the
// audit stamps on their calls.

import { CompiledQuery } from 'kysely';
import type { AgentRecord, AgentStore } from '../types.js';
import type { Database } from '../schema.js';
import type { SqlContext } from './context.js';
import { every, iso } from './context.js';

function fromRow(row: Database['agents']): AgentRecord {
  return {
    workspace: row.workspace,
    id: row.id,
    name: row.name,
    role: row.role,
    space: row.space,
    mode: row.mode,
    model: row.model,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class SqlAgentStore implements AgentStore {
  /** The SQL of `get`, which every agent request runs (its registration): built once, then only re-bound. */
  private getSql: string | null = null;

  constructor(private readonly ctx: SqlContext) {}

  async upsert(
    agent: Omit<AgentRecord, 'createdAt' | 'updatedAt' | 'mode'> & {
      readonly mode?: string | null;
    },
    at: number,
  ): Promise<AgentRecord> {
    const now = iso(at);
    const fields = {
      name: agent.name,
      role: agent.role,
      space: agent.space,
      mode: agent.mode ?? null,
      model: agent.model,
    };
    await this.ctx.write((tx) =>
      tx
        .insertInto('agents')
        .values({
          workspace: agent.workspace,
          id: agent.id,
          ...fields,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['workspace', 'id']).doUpdateSet({ ...fields, updated_at: now }),
        )
        .execute(),
    );
    // Servers keep registrations a moment (store/registrations.ts): this one changed.
    this.ctx.notify('agent', agent.workspace, agent.id);
    return (await this.get(agent.workspace, agent.id)) as AgentRecord;
  }

  async get(workspace: string, id: string): Promise<AgentRecord | null> {
    this.getSql ??= this.ctx.db
      .selectFrom('agents')
      .selectAll()
      .where('workspace', '=', '')
      .where('id', '=', '')
      .compile().sql;
    const { rows } = await this.ctx.db.executeQuery(
      CompiledQuery.raw(this.getSql, [workspace, id]) as CompiledQuery<Database['agents']>,
    );
    const row = rows[0];
    return row === undefined ? null : fromRow(row);
  }

  async list(workspace: string): Promise<AgentRecord[]> {
    return every(
      this.ctx.db.selectFrom('agents').selectAll().where('workspace', '=', workspace).orderBy('id'),
      fromRow,
    );
  }
}
