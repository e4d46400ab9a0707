// Keys the deployment makes for itself: made once by whichever store
// instance needs one first, then the same for every instance.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';

export function secretCases(open: Open): void {
  it('makes a secret when there is none, and keeps it: make is not called again', async () => {
    const store = await open();
    let made = 0;
    const make = () => `key-${++made}`;
    expect(await store.secrets.ensure('grant-key', make)).toBe('key-1');
    expect(await store.secrets.ensure('grant-key', make)).toBe('key-1');
    expect(made).toBe(1);
  });

  it('keeps each name its own secret', async () => {
    const store = await open();
    expect(await store.secrets.ensure('grant-key', () => 'one')).toBe('one');
    expect(await store.secrets.ensure('session-key', () => 'two')).toBe('two');
    expect(await store.secrets.ensure('grant-key', () => 'three')).toBe('one');
  });

  it('answers another store instance the secret made first, without making its own', async () => {
    const store = await open();
    await store.secrets.ensure('grant-key', () => 'first');
    const other = await open();
    let called = false;
    expect(
      await other.secrets.ensure('grant-key', () => {
        called = true;
        return 'second';
      }),
    ).toBe('first');
    expect(called).toBe(false);
  });

  it('gives every store instance one secret when they make it at the same time', async () => {
    const store = await open();
    const other = await open();
    const third = await open();
    const values = await Promise.all(
      [store, other, third, store, other].map((s, i) =>
        s.secrets.ensure('grant-key', () => `key-${i}`),
      ),
    );
    expect(new Set(values).size).toBe(1);
    const again = await open();
    expect(await again.secrets.ensure('grant-key', () => 'late')).toBe(values[0]);
  });
}
