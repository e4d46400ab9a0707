// `hideDenied: true` in the gateway's configuration: the tools acting in a
// class every call of which the policy denies for this agent are left out of
// `tools/list`, so the model never plans with them (G20). Hiding grants and
// records nothing: a call to a hidden tool is still decided, and denied, as
// before; what the policy or a freeze changes shows at the next listing.

import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { validateGatewayConfig } from '../../src/gateway/config.js';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import { eventually } from '../support/warden.js';
import type { Closable } from '../support/gateway-client.js';
import {
  SDK,
  call,
  calls,
  cleanEnv,
  closeAll,
  exported,
  gatewayAgent,
  standalone,
  text,
  writeDownstream,
  writeGateway,
} from '../support/gateway-client.js';
import type { Served } from '../support/processes.js';
import { agentToken, api, dataToken, serve } from '../support/processes.js';

const SERVER = `
import { Server } from '${SDK}/server/index.js';
import { StdioServerTransport } from '${SDK}/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '${SDK}/types.js';
const tool = (name) => ({ name, description: name, inputSchema: { type: 'object', properties: {} } });
const server = new Server({ name: 'fx', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: ['note', 'push', 'peek'].map(tool) }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: 'text', text: 'done ' + request.params.name }],
}));
await server.connect(new StdioServerTransport());
`;

const POLICY = `version: 1
workspace: acme
rules:
  - { id: notes, action: workspaceMutation, decision: allow }
  - { id: no-push, action: gitPush, decision: deny }
`;

function setup(hideDenied: boolean) {
  const dir = tempDir('warden-gateway-hide-');
  const script = writeDownstream(dir, 'fx.mjs', SERVER);
  return writeGateway(dir, POLICY, {
    hideDenied,
    servers: { fx: { command: process.execPath, args: [script] } },
    tools: {
      fx__peek: { readOnly: true },
      fx__note: { actions: ['workspaceMutation'] },
      fx__push: { actions: ['gitPush'] },
    },
  });
}

const open: Closable[] = [];
const running: Served[] = [];
afterEach(async () => {
  await closeAll(open);
  await Promise.all(running.splice(0).map((s) => s.stop('SIGTERM')));
});

const names = async (client: Awaited<ReturnType<typeof gatewayAgent>>['client']) =>
  (await client.listTools()).tools.map((t) => t.name).sort();

describe('warden gateway with hideDenied', () => {
  it('standalone: a tool whose class the policy denies outright is not listed, and a call to it is still denied', async () => {
    const s = setup(true);
    const agent = await gatewayAgent(standalone(s), open);
    expect(await names(agent.client)).toEqual(['fx__note', 'fx__peek']);
    // Standard error and the answer come through different pipes: the line may arrive just after.
    const said = await eventually(
      async () => agent.stderr().includes('hidden from tools/list') && agent.stderr(),
      15_000,
    );
    expect(said).toContain('`fx__push`');
    const refused = await call(agent.client, 'fx__push');
    expect(text(refused)).toContain('no-push');
    expect(text(await call(agent.client, 'fx__note'))).toBe('done note');
    await closeAll(open);
    const entries = exported(s.data);
    expect(calls(entries, 'fx__push').map((e) => e.status)).toEqual(['Denied']);

    // Without the option every mapped tool is listed, as before.
    const plain = setup(false);
    const all = await gatewayAgent(standalone(plain), open);
    expect(await names(all.client)).toEqual(['fx__note', 'fx__peek', 'fx__push']);
  }, 60_000);

  it('connected: the server says what is denied outright; a freeze hides every gated tool at the next listing', async () => {
    const s = setup(true);
    const applied = warden(['policy', 'apply', s.policy, '--data', s.data], { env: cleanEnv() });
    expect(applied.code, applied.stderr).toBe(0);
    const token = agentToken(s.data, 'coder-1');
    const admin = dataToken(s.data, '--role', 'admin', '--name', 'ada');
    const server = await serve(['--data', s.data]);
    running.push(server);
    const agent = await gatewayAgent(
      ['--config', s.config, '--server', server.url, '--token', token],
      open,
    );
    expect(await names(agent.client)).toEqual(['fx__note', 'fx__peek']);

    const frozen = await api(server.url, admin, 'PUT', '/v1/agents/coder-1/freeze', {
      reason: 'incident',
    });
    expect(frozen.status).toBe(200);
    expect(await names(agent.client)).toEqual(['fx__peek']);
    expect(text(await call(agent.client, 'fx__note'))).toContain('frozen');
    expect((await api(server.url, admin, 'DELETE', '/v1/agents/coder-1/freeze')).status).toBe(200);
    expect(await names(agent.client)).toEqual(['fx__note', 'fx__peek']);
  }, 60_000);
});

describe('the hideDenied setting', () => {
  it('is a boolean; anything else is named as a problem', () => {
    const base = {
      agent: 'a',
      workspace: 'w',
      servers: { s: { url: 'http://127.0.0.1:9/mcp' } },
      tools: {},
    };
    const on = validateGatewayConfig({ ...base, hideDenied: true });
    expect(on.ok && on.config.hideDenied).toBe(true);
    const off = validateGatewayConfig(base);
    expect(off.ok && off.config.hideDenied).toBeUndefined();
    const bad = validateGatewayConfig({ ...base, hideDenied: 'yes' });
    expect(bad.ok ? [] : bad.problems).toEqual([
      expect.objectContaining({ path: 'hideDenied', message: expect.stringContaining('`true`') }),
    ]);
  });
});

describe('GET /v1/permissions/outright', () => {
  it('answers the calling agent where it acts, and only to an agent token', async () => {
    const s = setup(true);
    const doc = `${POLICY}spaces:\n  locked: { autonomy: proposeOnly }\n`;
    writeFileSync(s.policy, doc);
    expect(warden(['policy', 'apply', s.policy, '--data', s.data], { env: cleanEnv() }).code).toBe(
      0,
    );
    const token = agentToken(s.data, 'coder-1');
    const locked = dataToken(
      s.data,
      '--role',
      'agent',
      '--name',
      'locked-1',
      '--workspace',
      'acme',
      '--agent',
      'locked-1',
      '--space',
      'locked',
    );
    const viewer = dataToken(s.data, '--role', 'viewer', '--name', 'vic');
    const server = await serve(['--data', s.data]);
    running.push(server);

    const own = await api(server.url, token, 'GET', '/v1/permissions/outright');
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ agent: 'coder-1', space: null, mode: null });
    expect(own.body.classes).toEqual([
      expect.objectContaining({ class: 'gitPush', rule: 'no-push', scope: 'workspace' }),
    ]);
    const inLocked = await api(server.url, locked, 'GET', '/v1/permissions/outright');
    expect(inLocked.body).toMatchObject({ agent: 'locked-1', space: 'locked' });
    const lockedClasses = (inLocked.body.classes as { class: string; rule: string }[]).map(
      (c) => c.class,
    );
    expect(lockedClasses).toContain('workspaceMutation');
    expect(lockedClasses).toContain('gitPush');

    const refused = await api(server.url, viewer, 'GET', '/v1/permissions/outright');
    expect(refused.status).toBe(403);
    // Nothing was recorded: the log holds no decision.
    const listed = await api(
      server.url,
      dataToken(s.data, '--role', 'admin', '--name', 'ada'),
      'GET',
      '/v1/audit',
    );
    expect(
      (listed.body.entries as { kind: string }[]).filter((e) => e.kind === 'decision'),
    ).toEqual([]);
  }, 60_000);
});
