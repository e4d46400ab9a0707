// Which `Host` a request to `warden serve` may carry: the gateway's rule
// (gateway/hosts.ts) for the server. A web page can reach a server on
// 127.0.0.1 or on the LAN through DNS rebinding — a name the attacker
// controls is made to resolve to the server's address, and the browser sends
// that name in `Host` — so only these pass, each with the bound port: the
// loopback names, the address the server listens on (and, when that is every
// address, `0.0.0.0` or `::`, each address of this machine's interfaces),
// and the names an operator allowed (`allowHosts`, `--allow-host`,
// `WARDEN_ALLOW_HOSTS`), e.g. a reverse proxy's or a LAN name.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { hostPolicy, parseHostName } from '../gateway/hosts.js';
import type { HostName, HostPolicy } from '../gateway/hosts.js';
import { errorBody } from './errors.js';

export interface ServerHosts {
  /** Whether a `Host` header value names this server. */
  accepts(value: string | undefined): boolean;
  /** The accepted names, for the refusal. */
  accepted(): readonly string[];
}

const EVERY_ADDRESS = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

/** How long the list of this machine's addresses is trusted before it is read again. */
const INTERFACES_TTL_MS = 5000;

/** An address as a `Host` header carries it: an IPv6 one in brackets, lowercase. */
function hostForm(address: string): string {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  return (isIP(bare) === 6 ? `[${bare}]` : bare).toLowerCase();
}

/** Every address of this machine's interfaces, as `Host` names (a zoned link-local one is left out). */
export function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((entry) => entry.address)
    .filter((address) => !address.includes('%'))
    .map(hostForm);
}

/** A name with the bound port; on port 80 also without one (a `Host` header leaves the default out). */
function named(name: string, port: number): HostName[] {
  const parsed = parseHostName(name);
  if (parsed === null) return [];
  return port === 80 ? [{ name: parsed.name, port: null }] : [{ name: parsed.name, port }];
}

/**
 * The names a server listening on `bound` at `port` accepts, besides
 * `allowed`. `addresses` reads this machine's addresses (for a server that
 * listens on every address); a test gives its own.
 */
export function serverHosts(
  bound: string,
  port: number,
  allowed: readonly HostName[],
  addresses: () => readonly string[] = interfaceAddresses,
  clock: () => number = Date.now,
): ServerHosts {
  const everywhere = EVERY_ADDRESS.has(bound.replace(/^\[(.*)\]$/, '$1'));
  const fixed = [...allowed, ...named(hostForm(bound), port)];
  const base = hostPolicy(port, fixed);
  let machine: { policy: HostPolicy; at: number } | null = null;
  const machinePolicy = (): HostPolicy => {
    const now = clock();
    if (machine === null || now - machine.at > INTERFACES_TTL_MS) {
      const names = addresses().flatMap((address) => named(address, port));
      machine = { policy: hostPolicy(port, [...fixed, ...names]), at: now };
    }
    return machine.policy;
  };
  // The few names clients really send are remembered, so a request parses its `Host` once.
  const seen = new Set<string>();
  return {
    accepts(value) {
      if (value === undefined) return false;
      if (seen.has(value)) return true;
      const ok = base.host(value) || (everywhere && machinePolicy().host(value));
      if (ok && seen.size < 64) seen.add(value);
      return ok;
    },
    accepted: () => [...new Set((everywhere ? machinePolicy() : base).accepted)],
  };
}

/** The refusal of a request whose `Host` is `value`: the API's error shape, saying which name and how to allow it. */
export function hostRefusal(
  value: string | undefined,
  hosts: ServerHosts,
): { errors: { path: string; message: string }[] } {
  const accepted = hosts.accepted();
  const shown = accepted
    .slice(0, 12)
    .map((h) => `\`${h}\``)
    .join(', ');
  const more = accepted.length > 12 ? ` and ${accepted.length - 12} more` : '';
  const named =
    value === undefined
      ? 'is missing'
      : `\`${value.slice(0, 200)}${value.length > 200 ? '…' : ''}\` does not name this server`;
  return errorBody([
    {
      code: 'forbidden',
      path: 'host',
      message: `the Host header ${named}; it accepts ${shown}${more} (DNS-rebinding protection). Allow a name of your own, such as a reverse proxy's or a LAN name, with \`--allow-host NAME\`, \`WARDEN_ALLOW_HOSTS\` or \`allowHosts\` in the server configuration`,
    },
  ]);
}

/**
 * `listener` behind the `Host` check: a request whose `Host` does not name
 * the server is answered 403 before anything reads it — the API, the
 * console's files and the health checks alike, and a `Host` too malformed to
 * make a URL of too.
 */
export function guardHosts(hosts: () => ServerHosts, listener: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host;
    const current = hosts();
    if (current.accepts(host)) {
      listener(req, res);
      return;
    }
    const body = JSON.stringify(hostRefusal(host, current));
    res
      .writeHead(403, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  };
}
