// Prompts and overrides: created pending, settled exactly once (also when two
// store instances race), answers only before expiry, and a granted override
// used once by its own request.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { T0, approval, iso, storedRule } from './fixtures.js';

export function approvalCases(open: Open): void {
  it('keeps a new approval as created, pending, with nothing answered yet', async () => {
    const store = await open();
    const created = approval('a-1', 'prompt', {
      offer: { rememberable: false, why: 'the ref is unknown', facets: [], scopes: [] },
      stamp: { runId: null, model: null, source: 'gateway' },
    });
    await store.approvals.create(created);
    expect(await store.approvals.get('a-1')).toEqual({
      ...created,
      state: 'pending',
      answer: null,
      answeredAt: null,
      closedReason: null,
      usedAt: null,
    });
    expect(await store.approvals.get('a-9')).toBeNull();
  });

  it('settles a pending approval exactly once, whoever comes second loses (G22)', async () => {
    const store = await open();
    await store.approvals.create(approval('a-1'));
    expect(
      (await store.approvals.list({ workspace: 'acme', state: 'pending' })).map((a) => a.id),
    ).toEqual(['a-1']);
    const won = await store.approvals.settle('a-1', {
      state: 'approved',
      answer: { kind: 'once', by: 'alice', reason: null },
      closedReason: null,
      at: T0 + 5,
    });
    expect(won?.state).toBe('approved');
    expect(won?.answer?.by).toBe('alice');
    expect(won?.answeredAt).toBe(iso(T0 + 5));
    const lost = await store.approvals.settle('a-1', {
      state: 'expired',
      answer: null,
      closedReason: 'no answer in time',
      at: T0 + 6,
    });
    expect(lost).toBeNull();
    expect((await store.approvals.get('a-1'))?.state).toBe('approved');
    expect(
      await store.approvals.settle('a-9', {
        state: 'denied',
        answer: { kind: 'deny', by: 'alice', reason: null },
        closedReason: null,
        at: T0,
      }),
    ).toBeNull();
  });

  it('settles exactly once when two store instances race to answer and to time out (G22)', async () => {
    const store = await open();
    const other = await open();
    await store.approvals.create(approval('a-1'));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? store : other).approvals.settle(
          'a-1',
          i % 4 === 3
            ? { state: 'expired', answer: null, closedReason: 'no answer in time', at: T0 + i }
            : {
                state: i % 4 === 0 ? 'approved' : 'denied',
                answer: { kind: i % 4 === 0 ? 'once' : 'deny', by: `approver-${i}`, reason: null },
                closedReason: null,
                at: T0 + i,
                beforeExpiry: true,
              },
        ),
      ),
    );
    const won = results.filter((r) => r !== null);
    expect(won).toHaveLength(1);
    const stored = await other.approvals.get('a-1');
    expect(stored?.state).toBe(won[0]?.state);
    expect(stored?.answer).toEqual(won[0]?.answer);
    expect(stored?.answeredAt).toBe(won[0]?.answeredAt);
  });

  it('settles an answer only before the approval expires, and its rules only with it (G22, G23)', async () => {
    const store = await open();
    await store.approvals.create(approval('a-2'));
    const rule = storedRule('rem-1', {
      rule: { id: 'rem-1', action: 'gitPush', decision: 'allow', origin: 'remembered' },
      scope: 'workspace',
      approvalId: 'a-2',
    });
    const answer = { kind: 'remember' as const, by: 'alice', reason: null };
    const late = await store.approvals.settle('a-2', {
      state: 'approved',
      answer,
      closedReason: null,
      at: T0 + 60_000,
      beforeExpiry: true,
      rules: [rule],
    });
    expect(late).toBeNull();
    expect(await store.rules.list('acme')).toEqual([]);
    const version = await store.stateVersion('acme');
    const settled = await store.approvals.settle('a-2', {
      state: 'approved',
      answer,
      closedReason: null,
      at: T0 + 1000,
      beforeExpiry: true,
      rules: [rule],
    });
    expect(settled?.state).toBe('approved');
    expect((await store.rules.list('acme')).map((r) => r.id)).toEqual(['rem-1']);
    expect(await store.stateVersion('acme')).toBe(version + 1);
    expect((await store.approvals.get('a-2'))?.arguments).toEqual({ ref: 'x' });
  });

  it('ends an expired approval by its timeout, with the reason and no answer (G22)', async () => {
    const store = await open();
    await store.approvals.create(approval('a-1'));
    const ended = await store.approvals.settle('a-1', {
      state: 'expired',
      answer: null,
      closedReason: 'no answer in time',
      at: T0 + 120_000,
    });
    expect(ended).toMatchObject({
      state: 'expired',
      answer: null,
      answeredAt: iso(T0 + 120_000),
      closedReason: 'no answer in time',
    });
  });

  it('keeps the answer as given: remember with its hours, scope and rules', async () => {
    const store = await open();
    await store.approvals.create(approval('a-1'));
    const answer = {
      kind: 'remember' as const,
      by: 'alice',
      reason: 'release week',
      hours: 8,
      scope: 'agent:coder-1',
      rules: ['rem-1'],
    };
    await store.approvals.settle('a-1', {
      state: 'approved',
      answer,
      closedReason: null,
      at: T0 + 1,
    });
    expect((await store.approvals.get('a-1'))?.answer).toEqual(answer);
  });

  it('lists by workspace, state, agent, kind and fingerprint, newest first, within a limit', async () => {
    const store = await open();
    await store.approvals.create(approval('a-1', 'prompt', { createdAt: iso(T0) }));
    await store.approvals.create(
      approval('a-2', 'prompt', { createdAt: iso(T0 + 1), agent: 'coder-2' }),
    );
    await store.approvals.create(
      approval('o-1', 'override', { createdAt: iso(T0 + 2), fingerprint: 'fp-2' }),
    );
    await store.approvals.create(
      approval('b-1', 'prompt', { createdAt: iso(T0 + 3), workspace: 'beta' }),
    );
    await store.approvals.settle('a-1', {
      state: 'denied',
      answer: { kind: 'deny', by: 'alice', reason: null },
      closedReason: null,
      at: T0 + 10,
    });
    const ids = async (filter: Parameters<typeof store.approvals.list>[0]) =>
      (await store.approvals.list(filter)).map((a) => a.id);
    expect(await ids(undefined)).toEqual(['b-1', 'o-1', 'a-2', 'a-1']);
    expect(await ids({ workspace: 'acme' })).toEqual(['o-1', 'a-2', 'a-1']);
    expect(await ids({ workspace: 'acme', state: 'pending' })).toEqual(['o-1', 'a-2']);
    expect(await ids({ state: 'denied' })).toEqual(['a-1']);
    expect(await ids({ agent: 'coder-2' })).toEqual(['a-2']);
    expect(await ids({ kind: 'override' })).toEqual(['o-1']);
    expect(await ids({ fingerprint: 'fp-1', workspace: 'acme' })).toEqual(['a-2', 'a-1']);
    expect(await ids({ limit: 2 })).toEqual(['b-1', 'o-1']);
    expect(await ids({ workspace: 'gamma' })).toEqual([]);
  });

  it('lets a granted override through once, and only for its own request (G26)', async () => {
    const store = await open();
    await store.approvals.create(approval('o-1', 'override'));
    await store.approvals.settle('o-1', {
      state: 'approved',
      answer: { kind: 'override', by: 'olga', reason: 'hotfix' },
      closedReason: null,
      at: T0 + 10,
    });
    expect(await store.approvals.consumeOverride('acme', 'other', T0, T0 + 20)).toBeNull();
    expect(await store.approvals.consumeOverride('acme', 'fp-1', T0 + 11, T0 + 20)).toBeNull();
    expect(await store.approvals.consumeOverride('beta', 'fp-1', T0, T0 + 20)).toBeNull();
    const used = await store.approvals.consumeOverride('acme', 'fp-1', T0, T0 + 20);
    expect(used?.id).toBe('o-1');
    expect(used?.usedAt).toBe(iso(T0 + 20));
    expect(await store.approvals.consumeOverride('acme', 'fp-1', T0, T0 + 21)).toBeNull();
  });

  it('takes no override that was not granted, nor a granted prompt (G26)', async () => {
    const store = await open();
    await store.approvals.create(approval('o-denied', 'override'));
    await store.approvals.settle('o-denied', {
      state: 'denied',
      answer: { kind: 'deny', by: 'olga', reason: null },
      closedReason: null,
      at: T0 + 1,
    });
    await store.approvals.create(approval('o-pending', 'override'));
    await store.approvals.create(approval('a-1', 'prompt'));
    await store.approvals.settle('a-1', {
      state: 'approved',
      answer: { kind: 'once', by: 'alice', reason: null },
      closedReason: null,
      at: T0 + 2,
    });
    expect(await store.approvals.consumeOverride('acme', 'fp-1', T0, T0 + 3)).toBeNull();
  });

  it('lets a granted override through once when two store instances race for it (G26)', async () => {
    const store = await open();
    const other = await open();
    await store.approvals.create(approval('o-1', 'override'));
    await store.approvals.settle('o-1', {
      state: 'approved',
      answer: { kind: 'override', by: 'olga', reason: 'hotfix' },
      closedReason: null,
      at: T0 + 10,
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? store : other).approvals.consumeOverride('acme', 'fp-1', T0, T0 + 20 + i),
      ),
    );
    const used = results.filter((r) => r !== null);
    expect(used.map((r) => r?.id)).toEqual(['o-1']);
    expect((await store.approvals.get('o-1'))?.usedAt).toBe(used[0]?.usedAt);
  });
}
