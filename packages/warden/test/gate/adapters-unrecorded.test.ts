// The adapters against a server that could not record a decision, or that
// misbehaves on the wire: the hook and the gateway treat a 503 (or a
// `failure` without `auditId`) as a deny that says it was not recorded
// (contracts §8); the hook's `--timeout` bounds the whole exchange, reading a
// slowly dripped answer included, and an answer over its size cap is a deny
// (G37: a hook that hangs lets the call through). Text that is not valid
// Unicode is refused at the hook's input and in the gateway's tool arguments.
// Real local HTTP servers play the Warden server.

import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { unrecordedDenial, GateFault } from '../../src/gate/fault.js';
import type { GatewayConfig } from '../../src/gateway/config.js';
import { connectedDecider } from '../../src/gateway/decider.js';
import { MAX_ANSWER_BYTES } from '../../src/hook/post.js';
import { answerHook } from '../../src/hook/run.js';
import type { HookOptions } from '../../src/hook/run.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function fake(handler: Handler): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method ?? ''} ${req.url ?? ''}`);
    req.resume();
    req.on('end', () => handler(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

/** What a Warden server answers when the database is gone: a 503 deny, not recorded. */
const NOT_RECORDED = unrecordedDenial(
  new GateFault('audit', 'the audit log could not be written: Connection terminated unexpectedly'),
);

const BASH = JSON.stringify({
  hook_event_name: 'PreToolUse',
  cwd: '/srv/projects',
  tool_name: 'Bash',
  tool_input: { command: 'git push origin feature/x' },
  tool_use_id: 'toolu_1',
});

async function runHook(url: string, stdin: string, options: Partial<HookOptions> = {}) {
  const answer = await answerHook(
    { stdin: () => Promise.resolve(stdin), out: () => undefined, env: {} },
    { server: url, token: 't', ...options },
  );
  if (!('hookSpecificOutput' in answer))
    throw new Error('a `PreToolUse` call answered as a completion');
  return answer.hookSpecificOutput;
}

const CONFIG: GatewayConfig = {
  agent: 'coder-1',
  workspace: 'acme',
  allowHosts: [],
  servers: [],
  tools: [],
};
const ASK = { tool: 'fs__write', actions: ['fileWriteOutsideWorktree'], args: {}, arguments: {} };

describe('an unrecorded decision is a deny (contracts §8)', () => {
  it('the hook denies a 503 answer and says the decision was not recorded', async () => {
    const server = await fake((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify(NOT_RECORDED));
    });
    const out = await runHook(server.url, BASH);
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('could not record this decision');
    expect(out.permissionDecisionReason).toContain('not recorded');
  });

  it('the hook denies an allow that carries a failure and no auditId', async () => {
    const server = await fake((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ outcome: 'allow', reason: 'allowed', failure: 'not recorded' }));
    });
    const out = await runHook(server.url, BASH);
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('could not record this decision');
  });

  it('the gateway denies a 503 answer and says the decision was not recorded', async () => {
    const server = await fake((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify(NOT_RECORDED));
    });
    const verdict = await connectedDecider(CONFIG, server.url, 't', () => undefined).decide(ASK);
    expect(verdict.allow).toBe(false);
    expect(verdict.auditId).toBeNull();
    expect(verdict.reason).toContain('could not record this decision');
    expect(verdict.reason).toContain('not recorded');
  });

  it('the gateway denies an allow that carries a failure and no auditId', async () => {
    const server = await fake((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ outcome: 'allow', reason: 'allowed', failure: 'not recorded' }));
    });
    const verdict = await connectedDecider(CONFIG, server.url, 't', () => undefined).decide(ASK);
    expect(verdict.allow).toBe(false);
  });
});

describe('the hook bounds the whole exchange (G37)', () => {
  it('denies at --timeout when the server drips its answer a byte at a time', async () => {
    const timers: NodeJS.Timeout[] = [];
    const server = await fake((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"outcome":"allow","reason":"');
      const drip = setInterval(() => res.write('a'), 50);
      timers.push(drip);
      res.on('close', () => clearInterval(drip));
    });
    const started = Date.now();
    try {
      const out = await runHook(server.url, BASH, { timeout: '1' });
      expect(out.permissionDecision).toBe('deny');
      expect(out.permissionDecisionReason).toContain('no decision within 1 s');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });

  it('denies an answer larger than its size cap, without reading it all', async () => {
    const server = await fake((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < MAX_ANSWER_BYTES * 4) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('{"outcome":"allow","reason":"allowed","auditId":"d1"}');
      };
      res.on('error', () => undefined);
      more();
    });
    const out = await runHook(server.url, BASH, { timeout: '10' });
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('larger than');
  });

  it('still allows a well-formed, recorded allow (the bound does not cost a normal answer)', async () => {
    const server = await fake((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ outcome: 'allow', reason: 'allowed: ok', auditId: 'd1' }));
    });
    const out = await runHook(server.url, BASH, { timeout: '5' });
    expect(out.permissionDecision).toBe('allow');
  });
});

describe('text that is not valid Unicode is refused at the adapters', () => {
  it('the hook denies an input holding a lone surrogate, and asks no server', async () => {
    const server = await fake((_req, res) => res.writeHead(500).end());
    const broken = BASH.replace('feature/x', 'feature/\\udfff');
    expect(JSON.parse(broken).tool_input.command).toContain('\udfff');
    const out = await runHook(server.url, broken);
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('not valid Unicode');
    expect(out.permissionDecisionReason).toContain('tool_input.command');
    expect(server.hits).toEqual([]);
  });

  it('the gateway denies tool arguments holding a lone surrogate (in a value or a key), and asks no server', async () => {
    const server = await fake((_req, res) => res.writeHead(500).end());
    const decider = connectedDecider(CONFIG, server.url, 't', () => undefined);
    for (const args of [{ path: 'a\udfffb' }, { nested: [{ ['\ud800']: 1 }] }]) {
      const verdict = await decider.decide({ ...ASK, arguments: args });
      expect(verdict.allow).toBe(false);
      expect(verdict.reason).toContain('not valid Unicode');
    }
    expect(server.hits).toEqual([]);
  });
});
