// The store as a whole: what it says of itself (backend, location), that it
// migrates on start, and that closing one instance leaves the others working.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { POLICY, T0 } from './fixtures.js';

export function lifecycleCases(open: Open): void {
  it('migrates on start, and opening again finds the schema current', async () => {
    await open();
    const again = await open();
    expect(await again.audit.head()).toEqual({ seq: 0, hash: '0'.repeat(64) });
  });

  it('names its backend, and where its data lives without a password', async () => {
    const store = await open();
    expect(['sqlite', 'postgres']).toContain(store.backend);
    if (store.backend === 'sqlite') expect(store.location).toMatch(/warden\.db$/);
    else {
      const url = new URL(store.location.split(' ')[0] ?? '');
      expect(url.protocol).toMatch(/^postgres(ql)?:$/);
      expect(['', '***']).toContain(decodeURIComponent(url.password));
    }
  });

  it('closes once: closing again resolves, and another instance on the same data keeps working', async () => {
    const store = await open();
    const other = await open();
    await other.policies.put('acme', { document: POLICY, author: 'ops', at: T0 });
    await other.close();
    await other.close();
    expect((await store.policies.current('acme'))?.author).toBe('ops');
    await store.policies.put('acme', { document: POLICY, author: 'lead', at: T0 + 1 });
    const third = await open();
    expect((await third.policies.current('acme'))?.revision).toBe(2);
  });
}
