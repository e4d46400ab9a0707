// API tokens by the hash of the token: found while not revoked (an expired
// one too: the server says when it expired), listed, revoked once.

import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { HOUR, T0, iso, token } from './fixtures.js';

/** As `tokenHash` makes it: the hex SHA-256 of the token. */
function hash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function tokenCases(open: Open): void {
  it('finds a token by its hash, with every field as added', async () => {
    const store = await open();
    const agent = token('tok_1', { space: 'payments', mode: 'review' });
    const admin = token('tok_2', {
      role: 'admin',
      workspace: null,
      agent: null,
      createdAt: iso(T0 + 1),
    });
    await store.tokens.add(agent, hash('wdn_agent'));
    await store.tokens.add(admin, hash('wdn_admin'));
    expect(await store.tokens.byHash(hash('wdn_agent'))).toEqual({ ...agent, revokedAt: null });
    expect(await store.tokens.byHash(hash('wdn_admin'))).toEqual({ ...admin, revokedAt: null });
    expect(await store.tokens.byHash(hash('wdn_other'))).toBeNull();
  });

  it('still finds an expired token, with the time it expired', async () => {
    const store = await open();
    await store.tokens.add(token('tok_1', { expiresAt: iso(T0 + HOUR) }), hash('wdn_1'));
    expect((await store.tokens.byHash(hash('wdn_1')))?.expiresAt).toBe(iso(T0 + HOUR));
  });

  it('revokes a token once: its hash finds nothing after, a second revocation is null', async () => {
    const store = await open();
    await store.tokens.add(token('tok_1'), hash('wdn_1'));
    await store.tokens.add(token('tok_2'), hash('wdn_2'));
    const revoked = await store.tokens.revoke('tok_1', T0 + 5);
    expect(revoked).toEqual({ ...token('tok_1'), revokedAt: iso(T0 + 5) });
    expect(await store.tokens.byHash(hash('wdn_1'))).toBeNull();
    expect(await store.tokens.revoke('tok_1', T0 + 6)).toBeNull();
    expect(await store.tokens.revoke('tok_9', T0 + 6)).toBeNull();
    expect((await store.tokens.byHash(hash('wdn_2')))?.id).toBe('tok_2');
  });

  it('lists every token, revoked ones with the time they were revoked', async () => {
    const store = await open();
    expect(await store.tokens.list()).toEqual([]);
    await store.tokens.add(token('tok_1'), hash('wdn_1'));
    await store.tokens.add(token('tok_2', { createdAt: iso(T0 + 1) }), hash('wdn_2'));
    await store.tokens.revoke('tok_1', T0 + 5);
    const listed = (await store.tokens.list()).sort((a, b) => a.id.localeCompare(b.id));
    expect(listed.map((t) => [t.id, t.revokedAt])).toEqual([
      ['tok_1', iso(T0 + 5)],
      ['tok_2', null],
    ]);
  });

  it('refuses a token revoked on one store instance on another at once, and revokes it once when both race', async () => {
    const store = await open();
    const other = await open();
    await store.tokens.add(token('tok_1'), hash('wdn_1'));
    expect((await other.tokens.byHash(hash('wdn_1')))?.id).toBe('tok_1');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? store : other).tokens.revoke('tok_1', T0 + i),
      ),
    );
    const won = results.filter((r) => r !== null);
    expect(won).toHaveLength(1);
    expect(await other.tokens.byHash(hash('wdn_1'))).toBeNull();
    expect((await store.tokens.list()).map((t) => t.revokedAt)).toEqual([won[0]?.revokedAt]);
  });
}
