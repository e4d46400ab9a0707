// API tokens, hashed at rest (contracts §8): the token itself is shown once
// when it is made and never stored; a request's token is found by its hash.

import type { Role, TokenRecord, TokenStore } from '../types.js';
import type { Database } from '../schema.js';
import type { SqlContext } from './context.js';
import { every, first, iso, num } from './context.js';

function fromRow(row: Database['api_tokens']): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    workspace: row.workspace,
    agent: row.agent,
    space: row.space,
    mode: row.mode,
    createdAt: row.created_at,
    createdBy: row.created_by,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
  };
}

export class SqlTokenStore implements TokenStore {
  constructor(private readonly ctx: SqlContext) {}

  async add(token: Omit<TokenRecord, 'revokedAt'>, hash: string): Promise<void> {
    await this.ctx.write((tx) =>
      tx
        .insertInto('api_tokens')
        .values({
          id: token.id,
          hash,
          name: token.name,
          role: token.role,
          workspace: token.workspace,
          agent: token.agent,
          space: token.space,
          mode: token.mode,
          created_at: token.createdAt,
          created_by: token.createdBy,
          revoked_at: null,
          expires_at: token.expiresAt,
        })
        .execute(),
    );
  }

  async byHash(hash: string): Promise<TokenRecord | null> {
    return first(
      this.ctx.db
        .selectFrom('api_tokens')
        .selectAll()
        .where('hash', '=', hash)
        .where('revoked_at', 'is', null),
      fromRow,
    );
  }

  async list(): Promise<TokenRecord[]> {
    return every(
      this.ctx.db.selectFrom('api_tokens').selectAll().orderBy('created_at').orderBy('id'),
      fromRow,
    );
  }

  async revoke(id: string, at: number): Promise<TokenRecord | null> {
    const changed = await this.ctx.write(async (tx) => {
      const result = await tx
        .updateTable('api_tokens')
        .set({ revoked_at: iso(at) })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return num(result.numUpdatedRows) > 0;
    });
    if (!changed) return null;
    return first(this.ctx.db.selectFrom('api_tokens').selectAll().where('id', '=', id), fromRow);
  }
}
