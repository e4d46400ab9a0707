// The one way out of a sandboxed command's network namespace (G2): an HTTP
// proxy on a Unix socket that lets through only the hosts a decision allowed
// (the hosts its command line names, and those the operator listed). Inside
// the sandbox `socat` bridges 127.0.0.1:3128 to the socket and the usual proxy
// variables point there; `CONNECT host:port` tunnels (HTTPS, and ssh through
// socat) and plain `http://` requests are both checked by host. Every refused
// connection is kept, one line each, for the run's record.
//
// A proxy knows nothing of the run it serves but its list, so a resident
// process can keep one per run and drop it when the run ends.

import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { chmod, rm } from 'node:fs/promises';
import { compileHostPatterns, hostInSet, normalizeHost } from '@warden/engine';

/** At most this many refusals are kept for the record. */
const MAX_REFUSED = 50;
/** The port the bridge inside the sandbox listens on. */
export const PROXY_PORT = 3128;

export interface EgressProxy {
  readonly socket: string;
  /** The connections refused so far, one line each. */
  refused(): readonly string[];
  close(): Promise<void>;
}

/** `host:port` of a CONNECT, or the host of an absolute URL; null when neither. */
function targetOf(req: IncomingMessage): { host: string; port: number } | null {
  if (req.method === 'CONNECT') {
    const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? '');
    return m === null ? null : { host: m[1] as string, port: Number(m[2]) };
  }
  try {
    const url = new URL(req.url ?? '');
    if (url.protocol !== 'http:') return null;
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) };
  } catch {
    return null;
  }
}

/** Starts a proxy on `socket` that lets through `allowed` hosts (`example.com`, `*.example.com`). */
export async function startEgressProxy(
  socket: string,
  allowed: readonly string[],
): Promise<EgressProxy> {
  const set = compileHostPatterns(allowed);
  const refused: string[] = [];
  const open = new Set<Socket>();
  const permitted = (host: string): boolean => {
    const value = normalizeHost(host);
    return value !== null && hostInSet(value, set);
  };
  const refuse = (what: string): void => {
    if (refused.length < MAX_REFUSED) refused.push(`a connection to ${what} was refused`);
  };
  const server: Server = createServer((req, res) => {
    const target = targetOf(req);
    if (target === null || !permitted(target.host)) {
      refuse(target === null ? String(req.url).slice(0, 200) : `${target.host}:${target.port}`);
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('Warden: this host is not allowed for this command\n');
      return;
    }
    const url = new URL(req.url ?? '');
    const upstream = httpRequest(
      {
        host: target.host,
        port: target.port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    const target = targetOf(req);
    if (target === null || !permitted(target.host)) {
      refuse(target === null ? String(req.url).slice(0, 200) : `${target.host}:${target.port}`);
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(target.port, target.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream));
    upstream.on('error', () => {
      client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
    });
  });
  await rm(socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(socket, 0o600);
  return {
    socket,
    refused: () => [...refused],
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socket, { force: true });
    },
  };
}
