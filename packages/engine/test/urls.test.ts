// Hosts of URLs are read exactly as a WHATWG URL parser reads them (E12), the
// parser Node's `fetch` uses: one reading for every tool that takes a URL —
// request hosts, rule patterns, and the URL arguments of curl, wget, git and
// the other network programs. A URL it cannot read is an unknown host.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE, analyzeCommand } from '../src/index.js';
import { normalizeHost, urlHostname } from '../src/match/hosts.js';
import { decideDocs } from './decide-docs.js';

/** What the WHATWG parser makes of a URL's host, reduced as E12 says (brackets and the trailing dot dropped). */
function whatwg(url: string): string | null {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return null;
  }
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

function decide(command: string, hosts: string[]) {
  return decideDocs(
    {
      version: 1,
      workspace: 'acme',
      rules: [
        { id: 'no-evil', action: 'networkEgress', decision: 'deny', when: { hosts } },
        { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
      ],
    },
    { workspace: 'acme', agent: 'a', command, worktree: '/srv/w' },
  );
}

function hostsOf(command: string): (string[] | null | undefined)[] {
  return analyzeCommand(command, DEFAULT_TABLE, '/srv/w')
    .units.flatMap((unit) => [...unit.effects])
    .filter((item) => item.cls === 'networkEgress')
    .map((item) => item.args.hosts);
}

describe('a URL host is read as the WHATWG URL parser reads it (E12)', () => {
  it.each([
    // The examples: a backslash ends the authority for special schemes.
    ['https://evil.com\\@example.org/', 'evil.com'],
    ['https:/evil.com', 'evil.com'],
    ['https:evil.com/x', 'evil.com'],
    ['https:\\\\evil.com\\x', 'evil.com'],
    ['http://user:pw@evil.com:8080/x', 'evil.com'],
    ['http://allowed.com@evil.com/', 'evil.com'],
    ['http://evil.com#@allowed.com/', 'evil.com'],
    ['http://evil.com?@allowed.com/', 'evil.com'],
    ['HTTP://EVIL.COM./', 'evil.com'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://[::1]:80/', '::1'],
    ['http://xn--bcher-kva.example/', 'xn--bcher-kva.example'],
    ['http://bücher.example/', 'xn--bcher-kva.example'],
    ['http://ex%61mple.com/', 'example.com'],
    ['ssh://git@Host.Example:22/r.git', 'host.example'],
    ['wss://evil.com/socket', 'evil.com'],
    ['ftp://evil.com/f', 'evil.com'],
  ])('`%s` is the host `%s`', (url, host) => {
    expect(normalizeHost(url)?.host).toBe(host);
  });

  it('agrees with the URL parser on every http(s) URL it can build (property)', () => {
    const piece = fc.stringMatching(/^[a-zA-Z0-9.:@\\/#?%[\]_-]{0,12}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('http://', 'https://', 'https:/', 'https:'),
        piece,
        piece,
        (scheme, a, b) => {
          const url = `${scheme}${a}${b}`;
          const expected = whatwg(url);
          const read = normalizeHost(url);
          // Either both read the same host, or ours refuses (an unknown host, never another one).
          if (read !== null) expect(read.host).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a URL without a scheme as curl does, as http', () => {
    expect(urlHostname('evil.com/x')).toBe('evil.com');
    expect(urlHostname('evil.com:8080/x')).toBe('evil.com');
    expect(urlHostname('user@evil.com')).toBe('evil.com');
    expect(normalizeHost('evil.com\\@allowed.com')?.host).toBe('evil.com');
  });

  it('a URL the parser cannot read, or one without a host, is no host (unknown, never guessed)', () => {
    for (const url of [
      'http://',
      'https://exa mple.com/',
      'http://[::1/',
      'file:///etc/passwd',
      'http://a%00b/',
    ])
      expect(normalizeHost(url), url).toBeNull();
  });
});

describe('every network program reads its URL the same way (E12, G14c)', () => {
  it.each([
    ["curl 'https://evil.com\\@example.org/'"],
    ['curl https:/evil.com'],
    ["wget 'https://evil.com\\@example.org/'"],
    ['wget https:/evil.com'],
    ["git clone 'https://evil.com\\@example.org/r.git'"],
    ["aria2c 'https://evil.com\\@example.org/f'"],
    ["http GET 'https://evil.com\\@example.org/'"],
    ['curl evil.com/x'],
    ['curl -x http://evil.com:3128 https://example.org/'],
  ])('`%s` is denied by a rule on evil.com', (command) => {
    const result = decide(command, ['evil.com']);
    expect(result.decision, JSON.stringify(hostsOf(command))).toBe('deny');
    expect(result.rule).toBe('no-evil');
  });

  it('the reading the decision used is the host the fetcher reaches, not the text after `@`', () => {
    // A rule on example.org does not hold for a URL that goes to evil.com.
    expect(decide("curl 'https://evil.com\\@example.org/'", ['example.org']).decision).toBe(
      'allow',
    );
  });

  it('a URL argument that cannot be read leaves the hosts unknown, so a host rule escalates (G18)', () => {
    expect(decide("curl 'http://[::1/'", ['evil.com']).decision).toBe('prompt');
  });
});
