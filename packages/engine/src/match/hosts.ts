// Network hosts (E12, E30): URLs reduce to their host; brackets, a trailing dot
// and ports are dropped; names compare case-insensitively in punycode;
// `*.x` means any subdomain of `x` and never an IP literal.

export interface HostValue {
  readonly host: string;
  readonly ip: boolean;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * A plain lowercase host name whose last label starts with a letter and no
 * label is punycode: the URL parser would hand it back unchanged (nothing to
 * encode or validate, no IPv4 reading), so it
 * need not be asked — hosts are read on every networkEgress decision.
 */
const PLAIN_HOST =
  /^(?!(?:.*\.)?xn--)(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?\.)*[a-z](?:[a-z0-9_-]*[a-z0-9_])?$/;

/** A scheme followed by `//`: a URL with an authority, whatever the scheme. */
const WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/** The WHATWG special schemes: a URL parser reads their host even after `https:` or `https:/`. */
const SPECIAL_SCHEME = /^(?:https?|wss?|ftp|file):/i;

/**
 * The host part of a URL exactly as a WHATWG URL parser (Node's `URL`, which
 * `fetch` uses) reads it, or null when it cannot parse it or it has no host.
 * `https://evil.com\@example.org/` is `evil.com` and `https:/evil.com` is
 * `evil.com`. Text without a scheme is read as an `http` URL, the way curl
 * guesses (`evil.com/x`, `host:8080`). IPv6 addresses keep their brackets.
 */
export function urlHostname(text: string): string | null {
  const input = text.trim();
  const url = WITH_AUTHORITY.test(input) || SPECIAL_SCHEME.test(input) ? input : `http://${input}`;
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return null;
  }
  return hostname === '' ? null : hostname;
}

/** The host a URL or host name names, or null when it is not a valid host (E12). */
export function normalizeHost(input: string): HostValue | null {
  if (input.length <= 253 && PLAIN_HOST.test(input)) return { host: input, ip: false };
  const text = input.trim();
  // A bare IPv6 address (`::1`, `fe80::1`) is not a URL without its brackets.
  if (/^[0-9A-Fa-f:.]+$/.test(text) && (text.match(/:/g) ?? []).length >= 2) {
    return canonicalHost(`[${text}]`, true);
  }
  const hostname = urlHostname(text);
  if (hostname === null) return null;
  if (hostname.startsWith('[')) return { host: hostname.slice(1, -1), ip: true };
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name === '') return null;
  // Hosts of other schemes (`ssh://`) are opaque to the URL parser: read them as a web host.
  if (WITH_AUTHORITY.test(text) && !SPECIAL_SCHEME.test(text)) return canonicalHost(name, false);
  // The parser has already made a special URL's host canonical (lowercase, punycode, IPv4).
  if (!/^[a-z0-9_.-]+$/.test(name)) return null;
  return { host: name, ip: IPV4.test(name) };
}

function canonicalHost(text: string, ipv6: boolean): HostValue | null {
  if (/[\s%\\]/.test(text)) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${text}/`).hostname;
  } catch {
    return null;
  }
  if (ipv6) return { host: hostname.replace(/^\[|\]$/g, ''), ip: true };
  if (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  if (hostname === '' || !/^[a-z0-9_.-]+$/.test(hostname)) return null;
  return { host: hostname, ip: IPV4.test(hostname) };
}

export interface HostPattern {
  readonly source: string;
  /** `*.x`: any subdomain of `suffix`. */
  readonly wildcard: boolean;
  readonly host: string;
}

export interface HostPatternSet {
  readonly positives: readonly HostPattern[];
  readonly negatives: readonly HostPattern[];
}

/** Parses one rule pattern; returns a problem message instead when it is not valid. */
export function parseHostPattern(raw: string): HostPattern | string {
  const body = raw.startsWith('!') ? raw.slice(1) : raw;
  if (body === '') return raw === '!' ? 'a lone `!` negates nothing' : 'empty host';
  if (body.trim() === '*') return '`*` alone matches every host: omit `hosts` instead';
  const wildcard = body.startsWith('*.');
  const rest = wildcard ? body.slice(2) : body;
  if (rest.includes('*')) return 'a wildcard stands only at the start, as in `*.example.com`';
  const value = normalizeHost(rest);
  if (value === null) return `\`${body}\` is not a valid host`;
  if (wildcard && value.ip) return 'a wildcard never matches an IP address';
  return { source: body, wildcard, host: value.host };
}

export function compileHostPatterns(patterns: readonly string[]): HostPatternSet {
  const positives: HostPattern[] = [];
  const negatives: HostPattern[] = [];
  for (const raw of patterns) {
    const parsed = parseHostPattern(raw);
    if (typeof parsed === 'string') continue; // validation has reported it
    (raw.startsWith('!') ? negatives : positives).push(parsed);
  }
  return { positives, negatives };
}

function hostMatches(pattern: HostPattern, value: HostValue): boolean {
  if (!pattern.wildcard) return pattern.host === value.host;
  return !value.ip && value.host.endsWith(`.${pattern.host}`);
}

export function hostInSet(value: HostValue, set: HostPatternSet): boolean {
  return (
    set.positives.some((pattern) => hostMatches(pattern, value)) &&
    !set.negatives.some((pattern) => hostMatches(pattern, value))
  );
}
