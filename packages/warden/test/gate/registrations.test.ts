// Where an agent is registered is kept as long as a policy snapshot is
// trusted (contracts §8): a change made through this process holds from the
// next request on, one from elsewhere within the refresh interval, and a read
// that a change overtook is never kept.

import { describe, expect, it } from 'vitest';
import { Registrations } from '../../src/store/registrations.js';
import type { AgentRecord, StoreEvent } from '../../src/store/types.js';

function fakeStore() {
  const rows = new Map<string, { space: string | null; mode: string | null }>();
  const listeners = new Set<(event: StoreEvent) => void>();
  let reads = 0;
  let gate: Promise<void> | null = null;
  const store = {
    agents: {
      async get(workspace: string, id: string): Promise<AgentRecord | null> {
        reads += 1;
        const row = rows.get(`${workspace}/${id}`);
        if (gate !== null) await gate;
        return row === undefined ? null : ({ workspace, id, ...row } as unknown as AgentRecord);
      },
    },
    events: {
      publish: async (event: StoreEvent) => {
        for (const l of listeners) l(event);
      },
      subscribe: (listener: (event: StoreEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
  return {
    store: store as never,
    set: (agent: string, space: string | null, mode: string | null = null) =>
      rows.set(`ws/${agent}`, { space, mode }),
    notify: (agent: string) => store.events.publish({ topic: 'agent', workspace: 'ws', id: agent }),
    reads: () => reads,
    hold: () => {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    listeners: () => listeners.size,
  };
}

describe('agent registrations, kept a moment (contracts §8)', () => {
  it('answers from what it kept until the refresh interval is up, then reads again', async () => {
    const f = fakeStore();
    let now = 1000;
    const r = new Registrations(f.store, () => now, 250);
    f.set('a', 'strict', 'review');
    expect(await r.get('ws', 'a')).toEqual({ space: 'strict', mode: 'review' });
    f.set('a', 'sandbox');
    now += 249;
    expect(await r.get('ws', 'a')).toEqual({ space: 'strict', mode: 'review' });
    expect(f.reads()).toBe(1);
    now += 1;
    expect(await r.get('ws', 'a')).toEqual({ space: 'sandbox', mode: null });
    expect(f.reads()).toBe(2);
    // An agent with no registration acts in none.
    expect(await r.get('ws', 'nobody')).toEqual({ space: null, mode: null });
  });

  it('a change notice holds from the next request on', async () => {
    const f = fakeStore();
    const r = new Registrations(f.store, () => 0, 60_000);
    f.set('a', 'sandbox');
    expect((await r.get('ws', 'a')).space).toBe('sandbox');
    f.set('a', 'strict');
    await f.notify('a');
    expect((await r.get('ws', 'a')).space).toBe('strict');
  });

  it('a read that a change overtook is answered but not kept', async () => {
    const f = fakeStore();
    const r = new Registrations(f.store, () => 0, 60_000);
    f.set('a', 'sandbox');
    const release = f.hold();
    const stale = r.get('ws', 'a');
    f.set('a', 'strict');
    await f.notify('a');
    release();
    expect((await stale).space).toBe('sandbox');
    expect((await r.get('ws', 'a')).space).toBe('strict');
  });

  it('reads one agent once however many requests wait for it, and stops listening when closed', async () => {
    const f = fakeStore();
    const r = new Registrations(f.store, () => 0, 60_000);
    f.set('a', 'strict');
    const release = f.hold();
    const many = Array.from({ length: 20 }, () => r.get('ws', 'a'));
    release();
    expect((await Promise.all(many)).every((p) => p.space === 'strict')).toBe(true);
    expect(f.reads()).toBe(1);
    expect(f.listeners()).toBe(1);
    r.close();
    expect(f.listeners()).toBe(0);
  });

  it('a failed read is not kept: the next request reads again', async () => {
    const f = fakeStore();
    let fail = true;
    const store = {
      ...(f.store as object),
      agents: {
        get: async () => {
          if (fail) throw new Error('database gone');
          return null;
        },
      },
    };
    const r = new Registrations(store as never, () => 0, 60_000);
    await expect(r.get('ws', 'a')).rejects.toThrow('database gone');
    fail = false;
    expect(await r.get('ws', 'a')).toEqual({ space: null, mode: null });
  });
});
