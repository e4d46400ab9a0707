// Rules kept beside the policy (remembered approvals): their origin, their
// expiry at a given time, and revocation, once.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { HOUR, T0, iso, storedRule } from './fixtures.js';

export function ruleCases(open: Open): void {
  const rule = (id: string, expiresAt: string | null) => storedRule(id, { expiresAt });

  it('lists live rules with origin and expiry, and forgets expired ones at a given time (G12, G23)', async () => {
    const store = await open();
    await store.rules.add([rule('rem-1', iso(T0 + 8 * HOUR)), rule('rem-2', iso(T0 + HOUR))]);
    const all = await store.rules.list('acme');
    expect(all.map((r) => [r.id, r.origin, r.createdBy])).toEqual([
      ['rem-1', 'remembered', 'alice'],
      ['rem-2', 'remembered', 'alice'],
    ]);
    expect((await store.rules.list('acme', { at: T0 + 2 * HOUR })).map((r) => r.id)).toEqual([
      'rem-1',
    ]);
    expect(await store.stateVersion('acme')).toBe(1);
  });

  it('keeps a rule alive until its expiry: at that instant it has expired (G12)', async () => {
    const store = await open();
    await store.rules.add([rule('rem-1', iso(T0 + HOUR)), rule('rem-forever', null)]);
    expect((await store.rules.list('acme', { at: T0 + HOUR - 1 })).map((r) => r.id)).toEqual([
      'rem-1',
      'rem-forever',
    ]);
    expect((await store.rules.list('acme', { at: T0 + HOUR })).map((r) => r.id)).toEqual([
      'rem-forever',
    ]);
    // Without a time, an expired rule is still listed: only revocation takes it away.
    expect((await store.rules.list('acme')).map((r) => r.id)).toEqual(['rem-1', 'rem-forever']);
  });

  it('answers a rule as it was added, by workspace and id', async () => {
    const store = await open();
    const added = rule('rem-1', iso(T0 + HOUR));
    await store.rules.add([added, { ...rule('rem-2', null), origin: 'user', approvalId: null }]);
    expect(await store.rules.get('acme', 'rem-1')).toEqual({
      ...added,
      revokedAt: null,
      revokedBy: null,
    });
    expect((await store.rules.get('acme', 'rem-2'))?.approvalId).toBeNull();
    expect((await store.rules.get('acme', 'rem-2'))?.origin).toBe('user');
    expect(await store.rules.get('beta', 'rem-1')).toBeNull();
    expect(await store.rules.get('acme', 'rem-9')).toBeNull();
    expect(await store.rules.list('beta')).toEqual([]);
  });

  it('revokes a rule once; a second revocation finds nothing (G23)', async () => {
    const store = await open();
    await store.rules.add([rule('rem-1', null)]);
    const revoked = await store.rules.revoke('acme', 'rem-1', 'bob', T0 + 5);
    expect(revoked?.revokedBy).toBe('bob');
    expect(revoked?.revokedAt).toBe(iso(T0 + 5));
    expect(await store.rules.revoke('acme', 'rem-1', 'bob', T0 + 6)).toBeNull();
    expect(await store.rules.list('acme')).toEqual([]);
    expect((await store.rules.list('acme', { includeRevoked: true })).length).toBe(1);
    expect(await store.stateVersion('acme')).toBe(2);
  });

  it('revokes only in the rule’s own workspace, and finds no unknown rule (G23)', async () => {
    const store = await open();
    await store.rules.add([rule('rem-1', null)]);
    expect(await store.rules.revoke('beta', 'rem-1', 'bob', T0)).toBeNull();
    expect(await store.rules.revoke('acme', 'rem-9', 'bob', T0)).toBeNull();
    expect((await store.rules.list('acme')).map((r) => r.id)).toEqual(['rem-1']);
    expect(await store.stateVersion('acme')).toBe(1);
  });

  it('lists revoked rules with the live ones when asked, also at a given time', async () => {
    const store = await open();
    await store.rules.add([rule('rem-1', null), rule('rem-2', iso(T0 + HOUR))]);
    await store.rules.revoke('acme', 'rem-1', 'bob', T0 + 1);
    const all = await store.rules.list('acme', { includeRevoked: true });
    expect(all.map((r) => [r.id, r.revokedBy])).toEqual([
      ['rem-1', 'bob'],
      ['rem-2', null],
    ]);
    expect(
      (await store.rules.list('acme', { includeRevoked: true, at: T0 + 2 * HOUR })).map(
        (r) => r.id,
      ),
    ).toEqual(['rem-1']);
  });

  it('revokes a rule once when two store instances revoke it at the same time (G23)', async () => {
    const store = await open();
    const other = await open();
    await store.rules.add([rule('rem-1', null)]);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? store : other).rules.revoke('acme', 'rem-1', `admin-${i}`, T0 + i),
      ),
    );
    const won = results.filter((r) => r !== null);
    expect(won).toHaveLength(1);
    expect((await other.rules.get('acme', 'rem-1'))?.revokedBy).toBe(won[0]?.revokedBy);
  });
}
