// The gateway's face to the agent: an MCP server whose `tools/list` is the
// aggregated downstream tools and whose `tools/call` goes through the gate.
// On standard input/output by default (standard output is then the MCP
// channel: logs go to standard error), or Streamable HTTP on 127.0.0.1.

import { createServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from './gateway.js';

function mcpServer(gateway: Gateway, version: string): Server {
  // The low-level server: it passes the downstream tools' JSON schemas through unchanged.
  const server = new Server({ name: 'warden-gateway', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: gateway.tools() }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    gateway.call(request.params.name, request.params.arguments),
  );
  return server;
}

/** Serves on standard input/output; resolves when the agent closes the channel. */
export async function serveStdio(gateway: Gateway, version: string): Promise<void> {
  const server = mcpServer(gateway, version);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close().catch(() => undefined);
}

export interface HttpGateway {
  readonly url: string;
  close(): Promise<void>;
}

/** Streamable HTTP at `/mcp` on 127.0.0.1, stateless: each request is served by a fresh server. */
export async function serveHttp(
  gateway: Gateway,
  version: string,
  port: number,
): Promise<HttpGateway> {
  const http: HttpServer = createServer((req, res) => {
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
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
