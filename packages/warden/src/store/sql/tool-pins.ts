// Tool pins: each downstream tool of the gateway by the hash of its
// definition, as first mapped; a different definition waits as the pending
// one until an admin accepts it (a "rug pull" is refused meanwhile).

import type { JsonValue, ToolPinRecord, ToolPinStore } from '../types.js';
import type { Database } from '../schema.js';
import type { Db, SqlContext } from './context.js';
import { every, first, iso, lockKey, parseJson } from './context.js';

function fromRow(row: Database['tool_pins']): ToolPinRecord {
  return {
    workspace: row.workspace,
    tool: row.tool,
    hash: row.hash,
    definition: parseJson<JsonValue>(row.definition) as JsonValue,
    pinnedAt: row.pinned_at,
    pinnedBy: row.pinned_by,
    pending:
      row.pending_hash === null
        ? null
        : {
            hash: row.pending_hash,
            definition: parseJson<JsonValue>(row.pending_definition) as JsonValue,
            seenAt: row.pending_at ?? row.pinned_at,
          },
  };
}

/** The pin of one tool in one workspace, read inside a write or out of one. */
function pinOf(db: Db, workspace: string, tool: string) {
  return db
    .selectFrom('tool_pins')
    .selectAll()
    .where('workspace', '=', workspace)
    .where('tool', '=', tool);
}

export class SqlToolPinStore implements ToolPinStore {
  constructor(private readonly ctx: SqlContext) {}

  async get(workspace: string, tool: string): Promise<ToolPinRecord | null> {
    return first(pinOf(this.ctx.db, workspace, tool), fromRow);
  }

  async list(workspace: string): Promise<ToolPinRecord[]> {
    return every(
      this.ctx.db
        .selectFrom('tool_pins')
        .selectAll()
        .where('workspace', '=', workspace)
        .orderBy('tool'),
      fromRow,
    );
  }

  async see(
    workspace: string,
    tool: string,
    seen: { readonly hash: string; readonly definition: JsonValue; readonly by: string },
    at: number,
  ): Promise<{ readonly pin: ToolPinRecord; readonly newlyPending: boolean }> {
    return this.ctx.write(async (tx) => {
      await lockKey(this.ctx, tx, `tool-pin:${workspace}:${tool}`);
      const found = await pinOf(tx, workspace, tool).executeTakeFirst();
      const definition = JSON.stringify(seen.definition);
      if (found === undefined) {
        const row: Database['tool_pins'] = {
          workspace,
          tool,
          hash: seen.hash,
          definition,
          pinned_at: iso(at),
          pinned_by: seen.by,
          pending_hash: null,
          pending_definition: null,
          pending_at: null,
        };
        await tx.insertInto('tool_pins').values(row).execute();
        return { pin: fromRow(row), newlyPending: false };
      }
      if (found.hash === seen.hash || found.pending_hash === seen.hash)
        return { pin: fromRow(found), newlyPending: false };
      const pending = {
        pending_hash: seen.hash,
        pending_definition: definition,
        pending_at: iso(at),
      };
      await tx
        .updateTable('tool_pins')
        .set(pending)
        .where('workspace', '=', workspace)
        .where('tool', '=', tool)
        .execute();
      return { pin: fromRow({ ...found, ...pending }), newlyPending: true };
    });
  }

  async accept(
    workspace: string,
    tool: string,
    by: string,
    at: number,
    reviewed?: string,
  ): Promise<ToolPinRecord | null | { readonly changed: string }> {
    return this.ctx.write(async (tx) => {
      await lockKey(this.ctx, tx, `tool-pin:${workspace}:${tool}`);
      const found = await pinOf(tx, workspace, tool).executeTakeFirst();
      if (found === undefined || found.pending_hash === null || found.pending_definition === null)
        return null;
      if (reviewed !== undefined && !found.pending_hash.startsWith(reviewed))
        return { changed: found.pending_hash };
      const accepted: Database['tool_pins'] = {
        ...found,
        hash: found.pending_hash,
        definition: found.pending_definition,
        pinned_at: iso(at),
        pinned_by: by,
        pending_hash: null,
        pending_definition: null,
        pending_at: null,
      };
      await tx
        .updateTable('tool_pins')
        .set({
          hash: accepted.hash,
          definition: accepted.definition,
          pinned_at: accepted.pinned_at,
          pinned_by: accepted.pinned_by,
          pending_hash: null,
          pending_definition: null,
          pending_at: null,
        })
        .where('workspace', '=', workspace)
        .where('tool', '=', tool)
        .execute();
      return fromRow(accepted);
    });
  }
}
