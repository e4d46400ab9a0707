// Policy documents as numbered revisions, per workspace and for the managed
// layer: history, the expected-revision check, and writers racing on two
// store instances.

import { createHash } from 'node:crypto';
import { canonicalJson } from '@warden/engine';
import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { POLICY, T0, iso } from './fixtures.js';

export function policyCases(open: Open): void {
  it('keeps every write as a numbered revision with its author and hash', async () => {
    const store = await open();
    const first = await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
    const second = await store.policies.put('acme', {
      document: { ...POLICY, spaces: { payments: { autonomy: 'actFreely' } } },
      author: 'lead',
      message: 'payments may act freely',
      at: T0 + 1,
    });
    expect(first.ok && second.ok).toBe(true);
    const current = await store.policies.current('acme');
    expect(current?.revision).toBe(2);
    expect(current?.author).toBe('lead');
    expect(current?.message).toBe('payments may act freely');
    expect(current?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await store.policies.revision('acme', 1))?.document).toEqual(POLICY);
    expect((await store.policies.history('acme')).map((r) => r.revision)).toEqual([2, 1]);
    expect(await store.policies.workspaces()).toEqual(['acme']);
  });

  it('answers a revision as it was written: a message left out is null, the hash is of the canonical JSON', async () => {
    const store = await open();
    const document = { workspace: 'acme', version: 1, rules: [] };
    const put = await store.policies.put('acme', { document, author: 'ops', at: T0 });
    const expected = {
      workspace: 'acme',
      revision: 1,
      document,
      hash: createHash('sha256').update(canonicalJson(document)).digest('hex'),
      author: 'ops',
      message: null,
      createdAt: iso(T0),
    };
    expect(put).toEqual({ ok: true, revision: expected });
    expect(await store.policies.current('acme')).toEqual(expected);
    expect(await store.policies.revision('acme', 1)).toEqual(expected);
    // Key order is not part of a document: the same document, the same hash.
    const reordered = await store.policies.put('acme', {
      document: { rules: [], version: 1, workspace: 'acme' },
      author: 'ops',
      at: T0 + 1,
    });
    expect(reordered.ok && reordered.revision.hash).toBe(expected.hash);
  });

  it('answers nothing before the first write', async () => {
    const store = await open();
    expect(await store.policies.current('acme')).toBeNull();
    expect(await store.policies.revision('acme', 1)).toBeNull();
    expect(await store.policies.history('acme')).toEqual([]);
    expect(await store.policies.workspaces()).toEqual([]);
    expect(await store.policies.currentManaged()).toBeNull();
    expect(await store.policies.managedHistory()).toEqual([]);
  });

  it('refuses a write that expects a revision that is no longer current', async () => {
    const store = await open();
    await store.policies.put('acme', { document: POLICY, author: 'a', at: T0 });
    const stale = await store.policies.put('acme', {
      document: POLICY,
      author: 'b',
      expected: null,
      at: T0,
    });
    expect(stale).toEqual({ ok: false, conflict: { current: 1 } });
    const fresh = await store.policies.put('acme', {
      document: POLICY,
      author: 'b',
      expected: 1,
      at: T0,
    });
    expect(fresh.ok).toBe(true);
    expect(
      await store.policies.put('acme', { document: POLICY, author: 'c', expected: 7, at: T0 }),
    ).toEqual({ ok: false, conflict: { current: 2 } });
    expect((await store.policies.history('acme')).map((r) => r.author)).toEqual(['b', 'a']);
  });

  it('keeps each workspace its own history, newest first, within a limit', async () => {
    const store = await open();
    for (let i = 1; i <= 5; i += 1)
      await store.policies.put('acme', { document: POLICY, author: `ops-${i}`, at: T0 + i });
    await store.policies.put('beta', {
      document: { ...POLICY, workspace: 'beta' },
      author: 'ops',
      at: T0,
    });
    expect((await store.policies.history('acme', 2)).map((r) => r.revision)).toEqual([5, 4]);
    expect((await store.policies.history('beta')).map((r) => [r.workspace, r.revision])).toEqual([
      ['beta', 1],
    ]);
    expect(await store.policies.revision('beta', 2)).toBeNull();
    expect([...(await store.policies.workspaces())].sort()).toEqual(['acme', 'beta']);
  });

  it('keeps the managed layer apart from every workspace, and counts changes per key', async () => {
    const store = await open();
    expect(await store.stateVersion('acme')).toBe(0);
    await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
    await store.policies.putManaged({
      document: { version: 1, rules: [] },
      author: 'it',
      at: T0,
    });
    expect(await store.stateVersion('acme')).toBe(1);
    expect(await store.stateVersion(null)).toBe(1);
    expect((await store.policies.currentManaged())?.revision).toBe(1);
    expect(await store.policies.workspaces()).toEqual(['acme']);
  });

  it('keeps managed revisions in a history of their own, with the same expected-revision check', async () => {
    const store = await open();
    const managed = { version: 1, rules: [] };
    await store.policies.putManaged({ document: managed, author: 'it', at: T0 });
    await store.policies.putManaged({
      document: managed,
      author: 'it',
      message: 'again',
      expected: 1,
      at: T0 + 1,
    });
    expect(
      await store.policies.putManaged({ document: managed, author: 'x', expected: null, at: T0 }),
    ).toEqual({ ok: false, conflict: { current: 2 } });
    expect((await store.policies.managedHistory()).map((r) => [r.revision, r.message])).toEqual([
      [2, 'again'],
      [1, null],
    ]);
    expect((await store.policies.managedHistory(1)).map((r) => r.revision)).toEqual([2]);
    expect((await store.policies.currentManaged())?.document).toEqual(managed);
    expect(await store.policies.current('acme')).toBeNull();
  });

  it('lets exactly one writer win an expected revision when two store instances race', async () => {
    const store = await open();
    const other = await open();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? store : other).policies.put('acme', {
          document: POLICY,
          author: `writer-${i}`,
          expected: null,
          at: T0 + i,
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(
      Array.from({ length: 7 }, () => ({ ok: false, conflict: { current: 1 } })),
    );
    expect(await other.policies.history('acme')).toHaveLength(1);
  });

  it('numbers concurrent writes from two store instances without a gap or a repeat', async () => {
    const store = await open();
    const other = await open();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? store : other).policies.put('acme', {
          document: POLICY,
          author: `writer-${i}`,
          at: T0 + i,
        }),
      ),
    );
    const revisions = results.map((r) => (r.ok ? r.revision.revision : 0)).sort((a, b) => a - b);
    expect(revisions).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await store.policies.current('acme'))?.revision).toBe(10);
    expect(await store.stateVersion('acme')).toBeGreaterThanOrEqual(10);
  });
}
