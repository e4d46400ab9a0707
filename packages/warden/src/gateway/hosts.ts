// Which `Host` (and `Origin`) a request to the gateway's Streamable HTTP
// endpoint may carry. The gateway listens on 127.0.0.1, but a web page can
// still reach it through DNS rebinding: a name the attacker controls is made
// to resolve to 127.0.0.1, and the browser sends the request with that name
// in `Host`. So only the loopback names with the bound port pass — plus the
// names an operator allowed (`--allow-host NAME`, or `allowHosts` in the
// configuration), e.g. for a reverse proxy in front of the gateway.

export interface HostName {
  /** Lowercase; an IPv6 address keeps its brackets (`[::1]`). */
  readonly name: string;
  /** null when none was given. */
  readonly port: number | null;
}

const LABEL = '[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?';
const HOST = new RegExp(`^(\\[[0-9a-f:.]+\\]|${LABEL}(?:\\.${LABEL})*)(?::(\\d{1,5}))?$`, 'i');

/** `name`, `name:port`, `[v6]` or `[v6]:port`, as a `Host` header carries it; null when it is none. */
export function parseHostName(text: string): HostName | null {
  const match = HOST.exec(text.trim());
  if (match === null) return null;
  const name = (match[1] as string).toLowerCase();
  if (match[2] === undefined) return { name, port: null };
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { name, port } : null;
}

/** Why `text` cannot be an allowed host name, or null when it can. */
export function hostNameProblem(text: string): string | null {
  if (parseHostName(text) !== null) return null;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
    ? `\`${text}\` is a URL: give the host name alone (optionally with \`:PORT\`), as a \`Host\` header carries it`
    : `\`${text}\` is not a host name (\`name\`, \`name:PORT\` or \`[::1]:PORT\`)`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface HostPolicy {
  /** Whether a `Host` header value names this gateway. */
  host(value: string | undefined): boolean;
  /** Whether an `Origin` header value (absent: not a browser) comes from a page of this gateway. */
  origin(value: string | undefined): boolean;
  /** The accepted names, for messages. */
  readonly accepted: readonly string[];
}

/**
 * The loopback names pass with the bound port (without one only on port 80,
 * the default a `Host` header leaves out); an allowed name without a port
 * passes with any port or none, one with a port only with that port.
 */
export function hostPolicy(port: number, allowed: readonly HostName[]): HostPolicy {
  const host = (value: string | undefined): boolean => {
    if (value === undefined) return false;
    const given = parseHostName(value);
    if (given === null) return false;
    if (LOOPBACK.has(given.name) && (given.port === port || (given.port === null && port === 80)))
      return true;
    return allowed.some(
      (entry) => entry.name === given.name && (entry.port === null || entry.port === given.port),
    );
  };
  return {
    host,
    origin: (value) => {
      if (value === undefined) return true;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return false; // `null` (an opaque origin) and anything else unreadable
      }
      return (url.protocol === 'http:' || url.protocol === 'https:') && host(url.host);
    },
    accepted: [
      ...[...LOOPBACK].map((name) => `${name}:${port}`),
      ...allowed.map((entry) => (entry.port === null ? entry.name : `${entry.name}:${entry.port}`)),
    ],
  };
}
