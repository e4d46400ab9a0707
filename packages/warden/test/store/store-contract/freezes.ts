// The kill switch: an agent or a whole workspace frozen until thawed. The
// first freeze is kept, each freeze and thaw grows the workspace's counter
// (so every server's next policy check reads it), and two store instances
// racing freeze or thaw once.

import { expect, it } from 'vitest';
import type { FreezeRecord } from '../../../src/store/types.js';
import type { Open } from './fixtures.js';
import { T0, iso } from './fixtures.js';

/** The freezes in a fixed order: the interface promises none. */
function sorted(freezes: readonly FreezeRecord[]): FreezeRecord[] {
  const key = (f: FreezeRecord) => `${f.workspace}\u0000${f.agent ?? ''}`;
  return [...freezes].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export function freezeCases(open: Open): void {
  it('freezes an agent and a whole workspace, and answers each freeze as made', async () => {
    const store = await open();
    const agent = await store.freezes.freeze(
      { workspace: 'acme', agent: 'coder-1', by: 'alice', reason: 'pushing secrets' },
      T0,
    );
    expect(agent).toEqual({
      workspace: 'acme',
      agent: 'coder-1',
      by: 'alice',
      reason: 'pushing secrets',
      frozenAt: iso(T0),
    });
    const whole = await store.freezes.freeze(
      { workspace: 'acme', agent: null, by: 'bob', reason: null },
      T0 + 1,
    );
    expect(whole).toEqual({
      workspace: 'acme',
      agent: null,
      by: 'bob',
      reason: null,
      frozenAt: iso(T0 + 1),
    });
    expect(sorted(await store.freezes.list('acme'))).toEqual([whole, agent]);
  });

  it('keeps an agent frozen already as it was: its first freeze stays', async () => {
    const store = await open();
    const first = await store.freezes.freeze(
      { workspace: 'acme', agent: 'coder-1', by: 'alice', reason: 'first' },
      T0,
    );
    const again = await store.freezes.freeze(
      { workspace: 'acme', agent: 'coder-1', by: 'bob', reason: 'second' },
      T0 + 5,
    );
    expect(again).toEqual(first);
    const wholeFirst = await store.freezes.freeze(
      { workspace: 'acme', agent: null, by: 'alice', reason: null },
      T0,
    );
    expect(
      await store.freezes.freeze(
        { workspace: 'acme', agent: null, by: 'bob', reason: 'x' },
        T0 + 5,
      ),
    ).toEqual(wholeFirst);
    expect(sorted(await store.freezes.list('acme'))).toEqual([wholeFirst, first]);
  });

  it('lists the freezes of one workspace, or of all', async () => {
    const store = await open();
    expect(await store.freezes.list()).toEqual([]);
    expect(await store.freezes.list('acme')).toEqual([]);
    await store.freezes.freeze({ workspace: 'acme', agent: 'coder-1', by: 'a', reason: null }, T0);
    await store.freezes.freeze({ workspace: 'beta', agent: null, by: 'a', reason: null }, T0);
    await store.freezes.freeze({ workspace: 'beta', agent: 'coder-1', by: 'a', reason: null }, T0);
    expect((await store.freezes.list('acme')).map((f) => [f.workspace, f.agent])).toEqual([
      ['acme', 'coder-1'],
    ]);
    expect(sorted(await store.freezes.list('beta')).map((f) => f.agent)).toEqual([null, 'coder-1']);
    expect(sorted(await store.freezes.list()).map((f) => [f.workspace, f.agent])).toEqual([
      ['acme', 'coder-1'],
      ['beta', null],
      ['beta', 'coder-1'],
    ]);
    expect(await store.freezes.list('gamma')).toEqual([]);
  });

  it('thaws an agent and the workspace apart, answering the freeze it ended; null when there was none', async () => {
    const store = await open();
    const agent = await store.freezes.freeze(
      { workspace: 'acme', agent: 'coder-1', by: 'alice', reason: 'r' },
      T0,
    );
    const whole = await store.freezes.freeze(
      { workspace: 'acme', agent: null, by: 'bob', reason: null },
      T0 + 1,
    );
    expect(await store.freezes.thaw('acme', 'coder-2')).toBeNull();
    expect(await store.freezes.thaw('beta', 'coder-1')).toBeNull();
    expect(await store.freezes.thaw('acme', null)).toEqual(whole);
    expect(await store.freezes.list('acme')).toEqual([agent]);
    expect(await store.freezes.thaw('acme', null)).toBeNull();
    expect(await store.freezes.thaw('acme', 'coder-1')).toEqual(agent);
    expect(await store.freezes.list()).toEqual([]);
    expect(await store.freezes.thaw('acme', 'coder-1')).toBeNull();
  });

  it('freezes anew after a thaw, with the new freeze’s author and time', async () => {
    const store = await open();
    await store.freezes.freeze({ workspace: 'acme', agent: 'coder-1', by: 'a', reason: 'x' }, T0);
    await store.freezes.thaw('acme', 'coder-1');
    const again = await store.freezes.freeze(
      { workspace: 'acme', agent: 'coder-1', by: 'b', reason: null },
      T0 + 9,
    );
    expect(again).toMatchObject({ by: 'b', reason: null, frozenAt: iso(T0 + 9) });
  });

  it('grows the workspace’s counter with a freeze and a thaw, and no other workspace’s', async () => {
    const store = await open();
    const before = await store.stateVersion('acme');
    await store.freezes.freeze({ workspace: 'acme', agent: 'coder-1', by: 'a', reason: null }, T0);
    const frozen = await store.stateVersion('acme');
    expect(frozen).toBeGreaterThan(before);
    await store.freezes.freeze({ workspace: 'acme', agent: null, by: 'a', reason: null }, T0);
    const whole = await store.stateVersion('acme');
    expect(whole).toBeGreaterThan(frozen);
    await store.freezes.thaw('acme', 'coder-1');
    expect(await store.stateVersion('acme')).toBeGreaterThan(whole);
    expect(await store.stateVersion('beta')).toBe(0);
    expect(await store.stateVersion(null)).toBe(0);
  });

  it('shows a freeze made on one store instance to another, counter and all', async () => {
    const store = await open();
    const other = await open();
    const before = await other.stateVersion('acme');
    const made = await store.freezes.freeze(
      { workspace: 'acme', agent: 'coder-1', by: 'a', reason: null },
      T0,
    );
    expect(await other.stateVersion('acme')).toBeGreaterThan(before);
    expect(await other.freezes.list('acme')).toEqual([made]);
    expect(await other.freezes.thaw('acme', 'coder-1')).toEqual(made);
    expect(await store.freezes.list('acme')).toEqual([]);
  });

  it('freezes once when two store instances freeze at the same time: every caller gets the freeze kept', async () => {
    const store = await open();
    const other = await open();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? store : other).freezes.freeze(
          { workspace: 'acme', agent: 'coder-1', by: `admin-${i}`, reason: `reason ${i}` },
          T0 + i,
        ),
      ),
    );
    const kept = await store.freezes.list('acme');
    expect(kept).toHaveLength(1);
    expect(results).toEqual(Array.from({ length: 6 }, () => kept[0]));
  });

  it('thaws once when two store instances thaw at the same time', async () => {
    const store = await open();
    const other = await open();
    const made = await store.freezes.freeze(
      { workspace: 'acme', agent: null, by: 'a', reason: null },
      T0,
    );
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? store : other).freezes.thaw('acme', null)),
    );
    expect(results.filter((r) => r !== null)).toEqual([made]);
    expect(await other.freezes.list()).toEqual([]);
  });
}
