// Why this file exists: API tokens (contracts §8) are a capability of the
// `Warden` facade (`warden.tokens`): the server's auth looks a presented
// token up here, admins list, make and revoke them here. The token's rules
// (how it is made and hashed, what may bind it) stay in `server/auth.ts`,
// which the CLI shares; this is the one way the server reaches the records.

import type { TokenRequest } from '../tokens.js';
import { createToken, expiredAt, tokenHash } from '../tokens.js';
import type { Store, TokenRecord } from '../store/types.js';

export class Tokens {
  constructor(
    private readonly parts: { readonly store: Pick<Store, 'tokens'>; readonly clock: () => number },
  ) {}

  /** The token a presented secret is; null when it is not known (a revoked one is answered). */
  byHash(hash: string): Promise<TokenRecord | null> {
    return this.parts.store.tokens.byHash(hash);
  }

  /** The token a presented secret is, by the secret itself. */
  bySecret(secret: string): Promise<TokenRecord | null> {
    return this.byHash(tokenHash(secret));
  }

  /** Every token, revoked ones too (never their secrets). */
  list(): Promise<TokenRecord[]> {
    return this.parts.store.tokens.list();
  }

  /** One token; null when there is no such token. */
  async get(id: string): Promise<TokenRecord | null> {
    return (await this.list()).find((t) => t.id === id) ?? null;
  }

  /** Makes a token and stores its hash; the token itself is answered once and kept nowhere. */
  create(request: TokenRequest): ReturnType<typeof createToken> {
    return createToken(this.parts.store.tokens, request);
  }

  /** Revokes a token; null when there is no such token. */
  revoke(id: string, at: number = this.parts.clock()): Promise<TokenRecord | null> {
    return this.parts.store.tokens.revoke(id, at);
  }

  /** How many tokens of each role are in force (neither revoked nor expired) at `at`. */
  async activeByRole(at: number): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const t of await this.list())
      if (t.revokedAt === null && expiredAt(t, at) === null)
        counts[t.role] = (counts[t.role] ?? 0) + 1;
    return counts;
  }
}
