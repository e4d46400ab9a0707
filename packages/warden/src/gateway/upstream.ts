// The gateway's face to the agent: an MCP server whose `tools/list` is the
// aggregated downstream tools and whose `tools/call` goes through the gate.
// On standard input/output by default (standard output is then the MCP
// channel: logs go to standard error), or Streamable HTTP on 127.0.0.1, where
// a request whose `Host` (or `Origin`) is not this gateway is refused before
// anything reads it (DNS rebinding). While a call waits for a human approval,
// the agent gets MCP progress notifications if it sent a `progressToken`, so
// a client that resets its request timeout on progress keeps waiting.

import { createServer } from 'node:http';
import type { Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from './gateway.js';
import type { HostName } from './hosts.js';
import { hostPolicy } from './hosts.js';

/** The gateway's MCP server; exported for tests that connect to it in memory. */
export function mcpServer(
  gateway: Gateway,
  version: string,
  options: { readonly listChanged?: boolean } = {},
): Server {
  // The low-level server: it passes the downstream tools' JSON schemas through unchanged.
  const server = new Server(
    { name: 'warden-gateway', version },
    { capabilities: { tools: options.listChanged === true ? { listChanged: true } : {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: await gateway.listTools(),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const token = request.params._meta?.progressToken;
    let progress = 0;
    return gateway.call(request.params.name, request.params.arguments, {
      signal: extra.signal,
      // Only a client that asked for progress gets it (MCP: the token names the request).
      ...(token === undefined
        ? {}
        : {
            progress: (message: string) => {
              progress += 1;
              extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress, message },
                })
                .catch(() => undefined);
            },
          }),
    });
  });
  return server;
}

/** Serves on standard input/output; resolves when the agent closes the channel. */
export async function serveStdio(gateway: Gateway, version: string): Promise<void> {
  // One agent holds this channel for its whole session: it is told when a restarted
  // downstream changed the tools it can call (Streamable HTTP here is stateless: no one to tell).
  const server = mcpServer(gateway, version, { listChanged: true });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(new StdioServerTransport());
  const off = gateway.onToolsChanged(() => {
    server.sendToolListChanged().catch(() => undefined);
  });
  await closed;
  off();
  await server.close().catch(() => undefined);
}

export interface HttpGateway {
  readonly url: string;
  close(): Promise<void>;
}

/** A JSON-RPC error answer, as the MCP SDK gives for a request it refuses before reading it. */
function refuse(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(`${JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null })}\n`);
}

/**
 * Streamable HTTP at `/mcp` on 127.0.0.1, stateless: each request is served by
 * a fresh server. A request whose `Host` is not a loopback name with the
 * bound port, nor one of `allowHosts`, or whose `Origin` is another site's, is
 * refused with 403 (DNS-rebinding protection).
 */
export async function serveHttp(
  gateway: Gateway,
  version: string,
  port: number,
  options: { readonly allowHosts?: readonly HostName[] } = {},
): Promise<HttpGateway> {
  let hosts = hostPolicy(port, options.allowHosts ?? []);
  const http: HttpServer = createServer((req, res) => {
    const host = req.headers.host;
    if (!hosts.host(host)) {
      const named =
        host === undefined ? 'is missing' : `\`${host.slice(0, 200)}\` does not name this gateway`;
      const accepted = hosts.accepted.map((h) => `\`${h}\``).join(', ');
      refuse(
        res,
        403,
        `Warden gateway: refused: the Host header ${named}; it accepts ${accepted} (DNS-rebinding protection). Allow a name of your own, such as a reverse proxy's, with \`--allow-host NAME\` or \`allowHosts\` in the gateway configuration`,
      );
      return;
    }
    const origin = req.headers.origin;
    if (!hosts.origin(origin)) {
      refuse(
        res,
        403,
        `Warden gateway: refused: the Origin header \`${String(origin).slice(0, 200)}\` is another site's page, not this gateway (DNS-rebinding protection)`,
      );
      return;
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('the MCP endpoint is /mcp\n');
      return;
    }
    if (req.method !== 'POST') {
      res
        .writeHead(405, { allow: 'POST', 'content-type': 'text/plain' })
        .end('this gateway answers POST only (stateless)\n');
      return;
    }
    const server = mcpServer(gateway, version);
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent)
          res
            .writeHead(500, { 'content-type': 'text/plain' })
            .end(`${error instanceof Error ? error.message : String(error)}\n`);
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  // Port 0 picked a free port: the Host a client sends carries that one.
  if (address.port !== port) hosts = hostPolicy(address.port, options.allowHosts ?? []);
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
