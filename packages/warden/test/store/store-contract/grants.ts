// Claims of `warden exec` grants: a decision's run is claimed once, by one
// caller, on every store instance at once, and stays claimed.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { T0 } from './fixtures.js';

export function grantCases(open: Open): void {
  it('G2: claims a grant once, whoever comes second loses, also from a second store instance', async () => {
    const store = await open();
    const at = new Date(T0);
    const again = await open();
    const claims = await Promise.all([
      ...Array.from({ length: 4 }, () => store.grants.claim('d-1', at)),
      ...Array.from({ length: 4 }, () => again.grants.claim('d-1', at)),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await again.grants.claim('d-1', at)).toBe(false);
    expect(await store.grants.claim('d-2', at)).toBe(true);
  });

  it('G2: keeps a claim after the instance that made it closed, whatever the time given', async () => {
    const store = await open();
    const first = await open();
    expect(await first.grants.claim('d-1', new Date(T0))).toBe(true);
    await first.close();
    expect(await store.grants.claim('d-1', new Date(T0 + 60_000))).toBe(false);
    const later = await open();
    expect(await later.grants.claim('d-1', new Date(T0))).toBe(false);
    expect(await later.grants.claim('d-3', new Date(T0))).toBe(true);
  });
}
