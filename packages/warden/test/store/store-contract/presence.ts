// Approvers' live channels, seen from every store instance: beat, live by
// workspace, role and time, and remove.

import { expect, it } from 'vitest';
import type { Presence } from '../../../src/store/types.js';
import type { Open } from './fixtures.js';
import { T0 } from './fixtures.js';

const ALICE: Presence = {
  id: 'p-1',
  workspace: 'acme',
  name: 'alice',
  roles: ['approver'],
  node: 'n1',
  lastSeenMs: T0,
};

export function presenceCases(open: Open): void {
  it('sees approvers whose channel beat recently, per role and workspace (G22)', async () => {
    const store = await open();
    await store.presence.beat(ALICE);
    await store.presence.beat({
      id: 'p-2',
      workspace: null,
      name: 'olga',
      roles: ['approver', 'overrider'],
      node: 'n2',
      lastSeenMs: T0 - 10_000,
    });
    expect((await store.presence.live('acme', 'approver', T0 - 5000)).map((p) => p.name)).toEqual([
      'alice',
    ]);
    expect((await store.presence.live('other', 'approver', T0 - 5000)).map((p) => p.name)).toEqual(
      [],
    );
    await store.presence.beat({
      id: 'p-2',
      workspace: null,
      name: 'olga',
      roles: ['approver', 'overrider'],
      node: 'n2',
      lastSeenMs: T0,
    });
    expect((await store.presence.live('other', 'overrider', T0 - 5000)).map((p) => p.name)).toEqual(
      ['olga'],
    );
    await store.presence.remove('p-1');
    expect((await store.presence.live('acme', 'approver', T0 - 5000)).map((p) => p.name)).toEqual([
      'olga',
    ]);
  });

  it('answers a channel as it beat, and a channel seen at the very instant asked for is live (G22)', async () => {
    const store = await open();
    await store.presence.beat(ALICE);
    expect(await store.presence.live('acme', 'approver', T0)).toEqual([ALICE]);
    expect(await store.presence.live('acme', 'approver', T0 + 1)).toEqual([]);
    expect(await store.presence.live('acme', 'overrider', T0)).toEqual([]);
  });

  it('replaces what a channel said with its latest beat (G22)', async () => {
    const store = await open();
    await store.presence.beat(ALICE);
    const moved: Presence = {
      ...ALICE,
      workspace: 'beta',
      roles: ['approver', 'overrider'],
      node: 'n3',
      lastSeenMs: T0 + 1000,
    };
    await store.presence.beat(moved);
    expect(await store.presence.live('acme', 'approver', T0 - 5000)).toEqual([]);
    expect(await store.presence.live('beta', 'overrider', T0)).toEqual([moved]);
  });

  it('shows a beat and a removal on one store instance to another, and a removal of no channel is harmless (G22)', async () => {
    const store = await open();
    const other = await open();
    await store.presence.beat(ALICE);
    expect((await other.presence.live('acme', 'approver', T0)).map((p) => p.id)).toEqual(['p-1']);
    await other.presence.remove('p-1');
    await other.presence.remove('p-9');
    expect(await store.presence.live('acme', 'approver', T0 - 5000)).toEqual([]);
  });
}
