// Change notices between store instances (Postgres: LISTEN/NOTIFY, to every
// instance on the same database; SQLite: within the process). Every wait
// here is for a notice to arrive, never for time to pass: "nothing heard" is
// checked against a later notice that was heard, on the same channel.

import { expect, it } from 'vitest';
import type { StoreEvent } from '../../../src/store/types.js';
import { BACKENDS } from '../../support/backends.js';
import type { Open } from './fixtures.js';
import { POLICY, T0, approval, event, listen, storedRule } from './fixtures.js';

export function eventCases(open: Open): void {
  it('delivers a published event to a subscriber of another store instance, as published', async () => {
    const store = await open();
    const other = await open();
    const heard = listen(other);
    try {
      const withId: StoreEvent = { topic: 'approval', workspace: 'acme', id: 'a-1' };
      const withoutId: StoreEvent = { topic: 'presence', workspace: null };
      await store.events.publish(withId);
      await store.events.publish(withoutId);
      expect(await heard.until(event('approval', 'acme'))).toStrictEqual(withId);
      expect(await heard.until(event('presence', null))).toStrictEqual(withoutId);
    } finally {
      heard.stop();
    }
  });

  it('delivers to every subscriber, its own instance’s too, in the order published', async () => {
    const store = await open();
    const other = await open();
    const mine = listen(store);
    const theirs = listen(other);
    const also = listen(other);
    try {
      const sent = ['w-1', 'w-2', 'w-3'].map((workspace) => ({
        topic: 'agent' as const,
        workspace,
      }));
      for (const e of sent) await store.events.publish(e);
      for (const heard of [mine, theirs, also]) {
        await heard.until(event('agent', 'w-3'));
        expect(heard.seen.filter((e) => e.topic === 'agent')).toEqual(sent);
      }
    } finally {
      for (const heard of [mine, theirs, also]) heard.stop();
    }
  });

  it('stops delivering to a subscriber once it unsubscribes', async () => {
    const store = await open();
    const other = await open();
    const gone = listen(other);
    const stays = listen(other);
    try {
      await store.events.publish({ topic: 'policy', workspace: 'before' });
      await gone.until(event('policy', 'before'));
      gone.stop();
      await store.events.publish({ topic: 'policy', workspace: 'after' });
      await store.events.publish({ topic: 'policy', workspace: 'sentinel' });
      await stays.until(event('policy', 'sentinel'));
      expect(gone.seen).toEqual([{ topic: 'policy', workspace: 'before' }]);
      expect(stays.seen.map((e) => e.workspace)).toEqual(['before', 'after', 'sentinel']);
    } finally {
      stays.stop();
    }
  });

  it('keeps a subscriber hearing when another subscriber throws', async () => {
    const store = await open();
    const other = await open();
    const stop = other.events.subscribe(() => {
      throw new Error('a listener’s fault');
    });
    const heard = listen(other);
    try {
      await store.events.publish({ topic: 'policy', workspace: 'acme' });
      await heard.until(event('policy', 'acme'));
    } finally {
      stop();
      heard.stop();
    }
  });

  it('tells another store instance of each policy, rule and freeze change, by workspace', async () => {
    const store = await open();
    const other = await open();
    const heard = listen(other);
    try {
      await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
      expect(await heard.until(event('policy', 'acme'))).toStrictEqual({
        topic: 'policy',
        workspace: 'acme',
      });
      await store.policies.putManaged({
        document: { version: 1, rules: [] },
        author: 'it',
        at: T0,
      });
      await heard.until(event('policy', null));
      await store.rules.add([storedRule('rem-1', { workspace: 'w-rule' })]);
      await heard.until(event('policy', 'w-rule'));
      await store.rules.revoke('w-rule', 'rem-1', 'bob', T0 + 1);
      await heard.until(event('policy', 'w-rule'), 2);
      await store.freezes.freeze({ workspace: 'w-freeze', agent: null, by: 'a', reason: null }, T0);
      await heard.until(event('policy', 'w-freeze'));
      await store.freezes.thaw('w-freeze', null);
      await heard.until(event('policy', 'w-freeze'), 2);
      await store.approvals.create(approval('a-1'));
      await store.approvals.settle('a-1', {
        state: 'approved',
        answer: { kind: 'remember', by: 'alice', reason: null },
        closedReason: null,
        at: T0 + 1,
        rules: [storedRule('rem-2', { workspace: 'w-answer', approvalId: 'a-1' })],
      });
      await heard.until(event('policy', 'w-answer'));
    } finally {
      heard.stop();
    }
  });

  it('tells another store instance of an agent registered, with its id', async () => {
    const store = await open();
    const other = await open();
    const heard = listen(other);
    try {
      await store.agents.upsert(
        { workspace: 'acme', id: 'coder-1', name: null, role: null, space: null, model: null },
        T0,
      );
      expect(await heard.until(event('agent', 'acme'))).toStrictEqual({
        topic: 'agent',
        workspace: 'acme',
        id: 'coder-1',
      });
    } finally {
      heard.stop();
    }
  });

  it('tells another store instance of an approval created and settled, with its id', async () => {
    const store = await open();
    const other = await open();
    const heard = listen(other);
    try {
      await store.approvals.create(approval('a-1'));
      expect(await heard.until(event('approval', 'acme', 'a-1'))).toStrictEqual({
        topic: 'approval',
        workspace: 'acme',
        id: 'a-1',
      });
      await store.approvals.settle('a-1', {
        state: 'denied',
        answer: { kind: 'deny', by: 'alice', reason: null },
        closedReason: null,
        at: T0 + 1,
      });
      await heard.until(event('approval', 'acme', 'a-1'), 2);
    } finally {
      heard.stop();
    }
  });

  it('tells another store instance of an approver channel removed, with its id', async () => {
    const store = await open();
    const other = await open();
    const heard = listen(other);
    try {
      await store.presence.beat({
        id: 'p-1',
        workspace: 'acme',
        name: 'alice',
        roles: ['approver'],
        node: 'n1',
        lastSeenMs: T0,
      });
      await store.presence.remove('p-1');
      expect(await heard.until(event('presence', null, 'p-1'))).toStrictEqual({
        topic: 'presence',
        workspace: null,
        id: 'p-1',
      });
    } finally {
      heard.stop();
    }
  });

  it('keeps stores of other data apart: a store on other data hears none of this one’s events', async () => {
    const store = await open();
    const backend = BACKENDS.find((b) => b.name === store.backend);
    if (backend === undefined) throw new Error(`no test backend \`${store.backend}\``);
    const foreign = await backend.open();
    const heard = listen(foreign.store);
    const mine = listen(store);
    try {
      await store.events.publish({ topic: 'policy', workspace: 'mine' });
      await store.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
      // Heard here, so sent before the sentinel below.
      await mine.until(event('policy', 'acme'));
      await foreign.store.events.publish({ topic: 'policy', workspace: 'sentinel' });
      await heard.until(event('policy', 'sentinel'));
      expect(heard.seen).toEqual([{ topic: 'policy', workspace: 'sentinel' }]);
    } finally {
      heard.stop();
      mine.stop();
      await foreign.cleanup();
    }
  });
}
