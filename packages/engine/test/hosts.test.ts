// Host names (E12, E30): the shortcut for plain lowercase names answers exactly
// what the URL parser answers, so hosts compare the same whichever path reads them.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeHost } from '../src/match/hosts.js';

/** What the URL parser makes of a host, the long way round. */
function viaUrl(text: string): string | null {
  try {
    const host = new URL(`http://${text}/`).hostname;
    return host.endsWith('.') ? host.slice(0, -1) : host;
  } catch {
    return null;
  }
}

const label = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);

describe('host names (E12)', () => {
  it('reads a plain lowercase name as the URL parser does', () => {
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), (labels) => {
        const name = labels.join('.');
        const read = normalizeHost(name);
        const expected = viaUrl(name);
        if (read === null) return; // refused: the long path refuses what the URL parser cannot read
        expect(read.host).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('still refuses what is no host, and reads IPs and punycode the long way', () => {
    expect(normalizeHost('example.123')).toBeNull();
    expect(normalizeHost('xn--a')).toBeNull();
    expect(normalizeHost('1.2.3.4')).toEqual({ host: '1.2.3.4', ip: true });
    expect(normalizeHost('API.GitHub.com')).toEqual({ host: 'api.github.com', ip: false });
    expect(normalizeHost('api.github.com')).toEqual({ host: 'api.github.com', ip: false });
  });
});
