// `warden gateway --http PORT` against DNS rebinding: a request whose `Host`
// is not a loopback name with the bound port (nor a name the operator
// allowed) or whose `Origin` is another site's is refused with 403 and a
// JSON-RPC error before the MCP server reads it. Raw HTTP requests, as a
// browser tricked by a rebinding name would send them.

import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGateway } from '../../src/cli/commands/gateway.js';
import type { Io } from '../../src/cli/io.js';
import { validateGatewayConfig } from '../../src/gateway/config.js';
import { hostNameProblem, hostPolicy, parseHostName } from '../../src/gateway/hosts.js';
import type { HostName } from '../../src/gateway/hosts.js';
import { tempDir } from '../support/backends.js';
import { SDK } from '../support/gateway-client.js';
import type { Spawned } from '../support/processes.js';
import { freePort, spawnWarden } from '../support/processes.js';

const TINY_SERVER = `
import { Server } from '${SDK}/server/index.js';
import { StdioServerTransport } from '${SDK}/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '${SDK}/types.js';
const server = new Server({ name: 'tiny', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'peek', inputSchema: { type: 'object', properties: {} } }],
}));
server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'peeked' }] }));
await server.connect(new StdioServerTransport());
`;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

interface Raw {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: string;
}

/** One raw POST to the gateway with exactly the headers given (node sets no Host of its own then). */
function post(port: number, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': String(Buffer.byteLength(INITIALIZE)),
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }),
        );
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

let gateway: Spawned;
let port: number;

beforeAll(async () => {
  const dir = tempDir('warden-gateway-http-');
  writeFileSync(join(dir, 'tiny.mjs'), TINY_SERVER);
  writeFileSync(join(dir, 'policy.yaml'), 'version: 1\nworkspace: acme\nrules: []\n');
  writeFileSync(
    join(dir, 'gateway.json'),
    JSON.stringify({
      agent: 'coder-1',
      workspace: 'acme',
      allowHosts: ['gw.test', 'proxy.test:8443'],
      servers: { tiny: { command: process.execPath, args: [join(dir, 'tiny.mjs')] } },
      tools: { tiny__peek: { readOnly: true } },
    }),
  );
  port = await freePort();
  gateway = spawnWarden([
    'gateway',
    '--config',
    join(dir, 'gateway.json'),
    '--policy',
    join(dir, 'policy.yaml'),
    '--data',
    join(dir, 'data'),
    '--http',
    String(port),
  ]);
  await gateway.waitFor(`http://127.0.0.1:${port}/mcp`, { stream: 'stderr', timeoutMs: 30_000 });
}, 60_000);

afterAll(async () => {
  await gateway.stop('SIGKILL');
});

describe('contracts §4 `warden gateway --http PORT`: DNS-rebinding protection', () => {
  it('a Host that is not this gateway gets 403 with a JSON-RPC error that says why', async () => {
    const refused = await post(port, { host: 'evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.type).toBe('application/json');
    const body = JSON.parse(refused.body) as {
      jsonrpc: string;
      id: unknown;
      error: { code: number; message: string };
    };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(body.error.message).toBe(
      `Warden gateway: refused: the Host header \`evil.example\` does not name this gateway; it accepts \`localhost:${port}\`, \`127.0.0.1:${port}\`, \`[::1]:${port}\`, \`gw.test\`, \`proxy.test:8443\` (DNS-rebinding protection). Allow a name of your own, such as a reverse proxy's, with \`--allow-host NAME\` or \`allowHosts\` in the gateway configuration`,
    );
    // The rebinding name with the right port, a loopback name with another port, and junk.
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      'localhost',
      `localhost.evil.example:${port}`,
      'proxy.test:443',
      'a b',
    ]) {
      const answer = await post(port, { host });
      expect(answer.status, host).toBe(403);
      expect(answer.body, host).toContain('DNS-rebinding protection');
    }
    expect(gateway.stdout()).toBe('');
  });

  it('loopback names with the bound port, and the allowed names, reach the MCP server', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      'gw.test',
      `gw.test:${port}`,
      'proxy.test:8443',
    ]) {
      const answer = await post(port, { host });
      expect(answer.status, `${host}: ${answer.body}`).toBe(200);
      expect(answer.body, host).toContain('"serverInfo"');
    }
  });

  it("an Origin that is another site's page gets 403, this gateway's own passes", async () => {
    const other = await post(port, { host: `127.0.0.1:${port}`, origin: 'http://evil.example' });
    expect(other.status).toBe(403);
    expect(JSON.parse(other.body)).toMatchObject({
      error: { message: expect.stringContaining('the Origin header `http://evil.example`') },
    });
    expect((await post(port, { host: `127.0.0.1:${port}`, origin: 'null' })).status).toBe(403);
    const own = await post(port, {
      host: `127.0.0.1:${port}`,
      origin: `http://localhost:${port}`,
    });
    expect(own.status, own.body).toBe(200);
  });
});

describe('which names pass (the Host check itself)', () => {
  const names = (...texts: string[]) => texts.map((t) => parseHostName(t) as HostName);

  it('loopback needs the bound port (none only on 80); an allowed name without a port takes any', () => {
    const policy = hostPolicy(8080, names('gw.test', 'proxy.test:8443'));
    expect(policy.host('127.0.0.1:8080')).toBe(true);
    expect(policy.host('[::1]:8080')).toBe(true);
    expect(policy.host('127.0.0.1')).toBe(false);
    expect(policy.host(undefined)).toBe(false);
    expect(policy.host('gw.test:1234')).toBe(true);
    expect(policy.host('proxy.test')).toBe(false);
    expect(hostPolicy(80, []).host('localhost')).toBe(true);
    expect(policy.origin(undefined)).toBe(true);
    expect(policy.origin('https://gw.test')).toBe(true);
    expect(policy.origin('file://x')).toBe(false);
  });

  it('contracts §7: an allowed name is a host name, not a URL; the configuration lists a bad one with its path', () => {
    expect(hostNameProblem('gw.test:8443')).toBeNull();
    expect(hostNameProblem('[::1]:9')).toBeNull();
    expect(hostNameProblem('http://gw.test')).toContain('is a URL');
    expect(hostNameProblem('gw.test:99999')).toContain('not a host name');
    const checked = validateGatewayConfig({
      agent: 'a',
      workspace: 'w',
      allowHosts: ['ok.test', 'https://x.test/mcp', 7],
      servers: { s: { url: 'http://127.0.0.1:9/mcp' } },
      tools: {},
    });
    expect(checked.ok).toBe(false);
    const problems = checked.ok ? [] : checked.problems;
    expect(problems.map((p) => p.path)).toEqual(
      expect.arrayContaining(['allowHosts[1]', 'allowHosts[2]']),
    );
  });

  it('contracts §4: --allow-host: a URL, or the flag without --http, is a usage error (exit 1) before anything starts', async () => {
    const dir = tempDir('warden-gateway-http-');
    const config = join(dir, 'gateway.json');
    writeFileSync(
      config,
      JSON.stringify({
        agent: 'a',
        workspace: 'acme',
        servers: { s: { url: 'http://127.0.0.1:9/mcp' } },
        tools: {},
      }),
    );
    let err = '';
    const io: Io = {
      out: () => undefined,
      err: (text) => {
        err += text;
      },
      stdin: () => '',
      env: {},
      now: () => 0,
      color: false,
    };
    const code = await runGateway(
      io,
      { config, policy: join(dir, 'policy.yaml'), allowHost: ['http://gw.test/'] },
      '0',
    );
    expect(code).toBe(1);
    expect(err).toContain('error: --allow-host: only with `--http PORT`');
    expect(err).toContain('error: --allow-host: `http://gw.test/` is a URL');
  });
});
