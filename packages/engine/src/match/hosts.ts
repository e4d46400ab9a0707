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

/** The host a URL or host name names, or null when it is not a valid host. */
export function normalizeHost(input: string): HostValue | null {
  if (input.length <= 253 && PLAIN_HOST.test(input)) return { host: input, ip: false };
  let text = input.trim();
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(text);
  if (scheme !== null) text = text.slice(scheme[0].length);
  text = text.split(/[/?#]/, 1)[0] ?? '';
  const at = text.lastIndexOf('@');
  if (at >= 0) text = text.slice(at + 1);
  let ipv6 = false;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return null;
    const rest = text.slice(close + 1);
    if (rest !== '' && !/^:\d*$/.test(rest)) return null;
    text = text.slice(1, close);
    ipv6 = true;
  } else if ((text.match(/:/g) ?? []).length >= 2) {
    ipv6 = true;
  } else {
    const colon = text.indexOf(':');
    if (colon >= 0) {
      if (!/^\d*$/.test(text.slice(colon + 1))) return null;
      text = text.slice(0, colon);
    }
  }
  if (ipv6) return canonicalHost(`[${text}]`, true);
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (text === '') return null;
  return canonicalHost(text, false);
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
