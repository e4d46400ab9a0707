// Long approval waits in connected mode (G22): the gateway asks the server
// with `POST /v1/decide?wait=0` and then waits for the human with
// `GET /v1/decide/:approvalId` (node's HTTP client: no 300 s headers
// timeout). While it waits, an agent that sent a `progressToken` gets MCP
// progress notifications, so a client that resets its request timeout on
// progress keeps waiting past its own timeout. An answer in time lets the call
// through; nobody answering is a deny; so is every failure of the wait.

import { writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../../src/gateway/config.js';
import { validateGatewayConfig } from '../../src/gateway/config.js';
import { connectedDecider } from '../../src/gateway/decider.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { mcpServer } from '../../src/gateway/upstream.js';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import { SDK, text } from '../support/gateway-client.js';
import type { Served, Spawned } from '../support/processes.js';
import {
  api,
  approverWatching,
  agentToken,
  dataToken,
  killAll,
  serve,
} from '../support/processes.js';

/** A downstream whose `remove` leaves a file `removed-N` behind, so a forwarded call is seen. */
const REMOVER = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Server } from '${SDK}/server/index.js';
import { StdioServerTransport } from '${SDK}/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '${SDK}/types.js';
const server = new Server({ name: 'remover', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{
  name: 'remove',
  inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
}] }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  writeFileSync(join(process.argv[2], 'removed-' + request.params.arguments.n), 'yes');
  return { content: [{ type: 'text', text: 'removed' }] };
});
await server.connect(new StdioServerTransport());
`;

const APPROVAL_TIMEOUT_SECONDS = 5;

function configFor(dir: string): GatewayConfig {
  writeFileSync(join(dir, 'remover.mjs'), REMOVER);
  const checked = validateGatewayConfig({
    agent: 'coder-1',
    workspace: 'acme',
    servers: {
      fx: {
        command: process.execPath,
        args: [join(dir, 'remover.mjs'), dir],
        sandbox: { write: [dir] },
      },
    },
    // fileDelete's built-in default is prompt.
    tools: { fx__remove: { actions: ['fileDelete'] } },
  });
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.config;
}

describe('connected: a call that waits for a human longer than the agent client would', () => {
  let dir: string;
  let server: Served;
  let approver: string;
  let gateway: Gateway;
  let client: Client;
  const spawned: Spawned[] = [];
  const logged: string[] = [];

  beforeAll(async () => {
    dir = tempDir('warden-gateway-approval-');
    const data = join(dir, 'data');
    writeFileSync(join(dir, 'policy.yaml'), 'version: 1\nworkspace: acme\nrules: []\n');
    expect(warden(['policy', 'apply', join(dir, 'policy.yaml'), '--data', data]).code).toBe(0);
    writeFileSync(
      join(dir, 'server.yaml'),
      `approvalTimeoutSeconds: ${APPROVAL_TIMEOUT_SECONDS}\n`,
    );
    const token = agentToken(data, 'coder-1', 'acme', 'gw');
    approver = dataToken(data, '--role', 'approver', '--name', 'bob');
    server = await serve(['--data', data, '--config', join(dir, 'server.yaml')]);
    spawned.push(server);
    await approverWatching(server.url, approver, spawned);
    const config = configFor(dir);
    const log = (line: string) => logged.push(line);
    gateway = await Gateway.start(config, connectedDecider(config, server.url, token, log), {
      timeoutMs: 10_000,
      log,
      progressMs: 250,
    });
    const [agentSide, gatewaySide] = InMemoryTransport.createLinkedPair();
    await mcpServer(gateway, 'test').connect(gatewaySide);
    client = new Client({ name: 'test-agent', version: '1' });
    await client.connect(agentSide);
  }, 60_000);

  afterAll(async () => {
    await client.close().catch(() => undefined);
    await gateway.close();
    await killAll(spawned);
  });

  /** The agent: an SDK client whose own request timeout (1 s) is far shorter than the wait. */
  function callWaiting(n: number, progress: Progress[]): Promise<CallToolResult> {
    return client.callTool({ name: 'fx__remove', arguments: { n } }, undefined, {
      timeout: 1000,
      resetTimeoutOnProgress: true,
      onprogress: (p) => progress.push(p),
    }) as Promise<CallToolResult>;
  }

  async function pendingApproval(): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const listed = await api(
        server.url,
        approver,
        'GET',
        '/v1/approvals?workspace=acme&state=pending',
      );
      const id = (listed.body.approvals as { id: string }[] | undefined)?.[0]?.id;
      if (id !== undefined) return id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('no pending approval');
  }

  it('G22: an approval given after 2.5 s (past the client timeout and many progress intervals) lets the call through', async () => {
    const progress: Progress[] = [];
    const started = Date.now();
    const pending = callWaiting(1, progress);
    const id = await pendingApproval();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2500 - (Date.now() - started))));
    const answered = await api(server.url, approver, 'POST', `/v1/approvals/${id}/answer`, {
      kind: 'once',
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const result = await pending;
    expect(result.isError, text(result)).not.toBe(true);
    expect(text(result)).toBe('removed');
    expect(existsSync(join(dir, 'removed-1'))).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress[0]?.message).toBe(
      `Warden: \`fx__remove\` waits for a human approval (${id}), 0 s so far`,
    );
    // Progress only grows (MCP), one step per notification.
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
  }, 30_000);

  it('G22: nobody answering within the approval timeout is a deny, still delivered to the waiting client', async () => {
    const progress: Progress[] = [];
    const started = Date.now();
    const result = await callWaiting(2, progress);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      `no answer within ${APPROVAL_TIMEOUT_SECONDS} s: a prompt nobody answers is a no`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(APPROVAL_TIMEOUT_SECONDS * 1000 - 500);
    expect(existsSync(join(dir, 'removed-2'))).toBe(false);
    expect(progress.length).toBeGreaterThanOrEqual(APPROVAL_TIMEOUT_SECONDS * 2);
  }, 30_000);
});

/** A stand-in for a Warden server, to see each request the decider makes and answer as a test needs. */
async function fakeServer(
  answer: (req: IncomingMessage, res: ServerResponse, seen: string[]) => void,
): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    req.resume();
    req.on('end', () => answer(req, res, seen));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const CONFIG: GatewayConfig = {
  agent: 'coder-1',
  workspace: 'acme',
  allowHosts: [],
  servers: [],
  tools: [],
};
const ASK = { tool: 'fx__remove', actions: ['fileDelete'], args: {}, arguments: {} };

describe('the connected decider waiting for an approval', () => {
  it('asks with wait=0, then waits with GET /v1/decide/:approvalId, asking again while it answers `ask`', async () => {
    const fake = await fakeServer((req, res, seen) => {
      if (req.method === 'POST')
        return json(res, 200, {
          outcome: 'ask',
          approvalId: 'A1',
          auditId: 'd1',
          callId: 'c1',
          reason: 'needs approval',
        });
      const gets = seen.filter((s) => s.startsWith('GET')).length;
      if (gets < 3) return json(res, 200, { outcome: 'ask', approvalId: 'A1', reason: 'pending' });
      return json(res, 200, { outcome: 'allow', reason: 'approved once by bob' });
    });
    try {
      const waited: string[] = [];
      const verdict = await connectedDecider(CONFIG, fake.url, 't', () => undefined).decide(ASK, {
        waiting: (id) => waited.push(id),
      });
      expect(verdict).toEqual({
        allow: true,
        reason: 'approved once by bob',
        auditId: 'd1',
        callId: 'c1',
      });
      expect(waited).toEqual(['A1']);
      expect(fake.seen).toEqual([
        'POST /v1/decide?wait=0',
        'GET /v1/decide/A1',
        'GET /v1/decide/A1',
        'GET /v1/decide/A1',
      ]);
    } finally {
      fake.server.close();
    }
  }, 20_000);

  it('contracts §4: a wait that fails — the agent cancels, the server drops the connection or refuses — is a deny', async () => {
    let mode: 'hold' | 'drop' | 'refuse' = 'hold';
    const fake = await fakeServer((req, res) => {
      if (req.method === 'POST') return json(res, 200, { outcome: 'ask', approvalId: 'A2' });
      if (mode === 'drop') return res.socket?.destroy();
      if (mode === 'refuse')
        return json(res, 404, { errors: [{ path: '', message: 'no prompt `A2` of this agent' }] });
      // hold: never answers
    });
    try {
      const decider = connectedDecider(CONFIG, fake.url, 't', () => undefined);
      const cancel = new AbortController();
      const held = decider.decide(ASK, {
        signal: cancel.signal,
        waiting: () => setTimeout(() => cancel.abort(), 200),
      });
      expect(await held).toMatchObject({
        allow: false,
        reason: 'the agent stopped waiting for the decision (it cancelled the call): denied',
      });
      mode = 'drop';
      expect(await decider.decide(ASK)).toMatchObject({
        allow: false,
        reason: expect.stringMatching(
          /^lost the Warden server at http:\/\/127\.0\.0\.1:\d+ while waiting for approval `A2` \(.+\): denied, fail-closed$/,
        ) as unknown as string,
      });
      mode = 'refuse';
      expect(await decider.decide(ASK)).toMatchObject({
        allow: false,
        reason:
          'the Warden server answered HTTP 404: no prompt `A2` of this agent: denied, fail-closed',
      });
    } finally {
      fake.server.closeAllConnections();
      fake.server.close();
    }
  }, 20_000);
});
