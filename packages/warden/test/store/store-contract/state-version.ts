// The counter every server's policy check compares: it grows with each
// change to a workspace's policy, rules or freezes, one counter per
// workspace and one for the managed layer, read alike by every instance.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { POLICY, T0, approval, storedRule } from './fixtures.js';

export function stateVersionCases(open: Open): void {
  it('starts at zero for a workspace never changed, and for the managed layer', async () => {
    const store = await open();
    expect(await store.stateVersion('acme')).toBe(0);
    expect(await store.stateVersion(null)).toBe(0);
  });

  it('grows with each change to a workspace’s policy, rules and freezes, and only that workspace’s', async () => {
    const store = await open();
    const seen = [await store.stateVersion('acme')];
    const grew = async () => {
      const now = await store.stateVersion('acme');
      expect(now).toBeGreaterThan(seen[seen.length - 1] as number);
      seen.push(now);
    };
    await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
    await grew();
    await store.rules.add([storedRule('rem-1')]);
    await grew();
    await store.rules.revoke('acme', 'rem-1', 'bob', T0 + 1);
    await grew();
    await store.approvals.create(approval('a-1'));
    await store.approvals.settle('a-1', {
      state: 'approved',
      answer: { kind: 'remember', by: 'alice', reason: null },
      closedReason: null,
      at: T0 + 2,
      rules: [storedRule('rem-2', { approvalId: 'a-1' })],
    });
    await grew();
    await store.freezes.freeze({ workspace: 'acme', agent: 'coder-1', by: 'a', reason: null }, T0);
    await grew();
    await store.freezes.thaw('acme', 'coder-1');
    await grew();
    expect(await store.stateVersion('beta')).toBe(0);
    expect(await store.stateVersion(null)).toBe(0);
  });

  it('grows the counter of each workspace a batch of rules names', async () => {
    const store = await open();
    await store.rules.add([storedRule('rem-1'), storedRule('rem-2', { workspace: 'beta' })]);
    expect(await store.stateVersion('acme')).toBeGreaterThan(0);
    expect(await store.stateVersion('beta')).toBeGreaterThan(0);
    expect(await store.stateVersion('gamma')).toBe(0);
  });

  it('keeps the managed layer’s counter apart from every workspace’s, also one named like it', async () => {
    const store = await open();
    await store.policies.putManaged({ document: { version: 1, rules: [] }, author: 'it', at: T0 });
    expect(await store.stateVersion(null)).toBe(1);
    for (const name of ['managed', '', 'workspace:', 'null'])
      expect(await store.stateVersion(name)).toBe(0);
    await store.policies.put('managed', { document: POLICY, author: 'ops', at: T0 });
    await store.policies.put('', { document: POLICY, author: 'ops', at: T0 });
    expect(await store.stateVersion(null)).toBe(1);
    expect(await store.stateVersion('managed')).toBe(1);
    expect(await store.stateVersion('')).toBe(1);
  });

  it('is read alike by every store instance, whichever made the change', async () => {
    const store = await open();
    const other = await open();
    await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
    await other.freezes.freeze({ workspace: 'acme', agent: null, by: 'a', reason: null }, T0);
    await other.policies.putManaged({ document: { version: 1, rules: [] }, author: 'it', at: T0 });
    expect(await store.stateVersion('acme')).toBe(await other.stateVersion('acme'));
    expect(await store.stateVersion('acme')).toBeGreaterThanOrEqual(2);
    expect(await store.stateVersion(null)).toBe(await other.stateVersion(null));
    expect(await store.stateVersion(null)).toBe(1);
  });

  it('counts every change when two store instances change one workspace at the same time', async () => {
    const store = await open();
    const other = await open();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? store : other).policies.put('acme', {
          document: POLICY,
          author: `w-${i}`,
          at: T0 + i,
        }),
      ),
    );
    expect(await store.stateVersion('acme')).toBeGreaterThanOrEqual(8);
  });
}
