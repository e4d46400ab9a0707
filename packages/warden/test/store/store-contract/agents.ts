// Agents registered in a workspace, with the space and mode they work in:
// upsert replaces, and a mode left out is none.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { T0, iso } from './fixtures.js';

const CODER = {
  workspace: 'acme',
  id: 'coder-1',
  name: 'Coder',
  role: 'coder',
  space: 'payments',
  model: 'm1',
};

export function agentCases(open: Open): void {
  it('upserts agents and lists them per workspace', async () => {
    const store = await open();
    await store.agents.upsert(CODER, T0);
    const updated = await store.agents.upsert({ ...CODER, space: 'web', model: 'm2' }, T0 + 10);
    expect(updated.space).toBe('web');
    expect(updated.createdAt).toBe(iso(T0));
    expect(updated.updatedAt).toBe(iso(T0 + 10));
    expect((await store.agents.list('acme')).map((a) => a.id)).toEqual(['coder-1']);
    expect(await store.agents.list('other')).toEqual([]);
  });

  it('answers an agent as registered, with null fields kept null', async () => {
    const store = await open();
    const bare = { workspace: 'acme', id: 'bot', name: null, role: null, space: null, model: null };
    const made = await store.agents.upsert(bare, T0);
    const expected = { ...bare, mode: null, createdAt: iso(T0), updatedAt: iso(T0) };
    expect(made).toEqual(expected);
    expect(await store.agents.get('acme', 'bot')).toEqual(expected);
    expect(await store.agents.get('acme', 'nobody')).toBeNull();
    expect(await store.agents.get('beta', 'bot')).toBeNull();
  });

  it('keeps the mode given, and a mode left out on a later upsert is none', async () => {
    const store = await open();
    expect((await store.agents.upsert({ ...CODER, mode: 'review' }, T0)).mode).toBe('review');
    expect((await store.agents.get('acme', 'coder-1'))?.mode).toBe('review');
    expect((await store.agents.upsert(CODER, T0 + 1)).mode).toBeNull();
    expect((await store.agents.upsert({ ...CODER, mode: 'ship' }, T0 + 2)).mode).toBe('ship');
    expect((await store.agents.upsert({ ...CODER, mode: null }, T0 + 3)).mode).toBeNull();
  });

  it('keeps one id in two workspaces as two agents', async () => {
    const store = await open();
    await store.agents.upsert(CODER, T0);
    await store.agents.upsert({ ...CODER, workspace: 'beta', space: null }, T0 + 1);
    await store.agents.upsert({ ...CODER, id: 'coder-2' }, T0 + 2);
    expect((await store.agents.list('acme')).map((a) => a.id).sort()).toEqual([
      'coder-1',
      'coder-2',
    ]);
    expect((await store.agents.list('beta')).map((a) => [a.id, a.space])).toEqual([
      ['coder-1', null],
    ]);
    expect((await store.agents.get('acme', 'coder-1'))?.space).toBe('payments');
  });

  it('shows an upsert on one store instance to another at once', async () => {
    const store = await open();
    const other = await open();
    await store.agents.upsert(CODER, T0);
    expect((await other.agents.get('acme', 'coder-1'))?.space).toBe('payments');
    await other.agents.upsert({ ...CODER, space: 'web' }, T0 + 1);
    expect((await store.agents.get('acme', 'coder-1'))?.space).toBe('web');
  });
}
