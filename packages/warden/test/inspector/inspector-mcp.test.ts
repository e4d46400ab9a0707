// The inspector's two faces (contracts §5): an MCP server — in memory, and as
// `warden inspector --data DIR --as AGENT_ID` spawned by the real SDK client
// over stdio — and six read-only tools for the in-process registry. A refused
// call is a tool error (`isError: true`) that says why; the command refuses
// to start for anything but a valid supervisor of the instance.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { runInspector } from '../../src/cli/commands/inspector.js';
import type { Inspector } from '../../src/inspector/index.js';
import {
  INSPECTOR_ACTIONS,
  inspectorMcpServer,
  inspectorTools,
  loadSupervisor,
} from '../../src/inspector/index.js';
import { auditLog } from '../support/warden.js';
import { BIN } from '../helpers.js';
import type { TestInstance } from '../support/inspector-instance.js';
import {
  INJECTION,
  MINUTE,
  NOW,
  OTHER_SECRET,
  SECRET,
  SUPERVISOR,
  makeInstance,
  recordCall,
  supervisorSettings,
} from '../support/inspector-instance.js';

let t: TestInstance;
let inspector: Inspector;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  t = await makeInstance('mcp');
  for (let i = 0; i < 143; i += 1)
    await recordCall(t, 'a1', NOW - (i + 1) * MINUTE, { tool: 'web_fetch', status: 'Error' });
  await t.warden.store.tasks.create({
    id: 't1',
    workspace: 'acme',
    agent: 'a1',
    title: 'Fix the fetcher',
    // Overdue against any clock: the spawned inspector reads the real one.
    dueAt: '2000-01-01T00:00:00.000Z',
    createdAt: new Date(NOW - 120 * MINUTE).toISOString(),
    note: null,
  });
  t.at(NOW - 90 * MINUTE);
  const run = await t.warden.startRun(
    { workspace: 'acme', agent: 'a1', source: 'library' },
    { id: 'r1', taskId: 't1' },
  );
  await t.warden.recordStep(run.id, { kind: 'model', tokensIn: 300, tokensOut: 40, costCents: 9 });
  inspector = t.inspector();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
});
afterAll(() => t.cleanup());

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function inMemory(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = inspectorMcpServer(inspector, 'test');
  await server.connect(serverSide);
  const client = new Client({ name: 'supervisor', version: '1' });
  await client.connect(clientSide);
  open.push(client, server);
  return client;
}

describe('the MCP server (contracts §5)', () => {
  it('§5, I4: lists exactly the six tools, read-only, with their input schemas', async () => {
    const client = await inMemory();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...INSPECTOR_ACTIONS]);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.inputSchema.type).toBe('object');
    }
    const audit = tools.find((tool) => tool.name === 'read_audit');
    expect(audit?.inputSchema.required).toEqual(['agent']);
    expect(Object.keys(audit?.inputSchema.properties ?? {})).toEqual([
      'agent',
      'since',
      'until',
      'status',
      'tool',
      'limit',
      'groupBy',
    ]);
  });

  it('§1: read_audit says it is the entry point; the instructions give the order of evidence', async () => {
    const client = await inMemory();
    const { tools } = await client.listTools();
    const audit = tools.find((tool) => tool.name === 'read_audit');
    expect(audit?.description).toMatch(/^START HERE/);
    expect(audit?.description).toContain('groupBy');
    expect(tools.find((tool) => tool.name === 'read_file')?.description).toContain('foreign-data');
    expect(client.getInstructions()).toMatch(
      /`read_audit`.*`read_receipts`.*`read_tasks`.*files last/s,
    );
  });

  it('A4: answers a grouped read_audit as JSON text', async () => {
    const client = await inMemory();
    const result = await call(client, 'read_audit', {
      agent: 'a1',
      since: '24h',
      groupBy: 'tool,status',
    });
    expect(result.isError).toBeFalsy();
    const value = JSON.parse(text(result)) as { groups: unknown[] };
    expect(value.groups).toEqual([{ tool: 'web_fetch', status: 'Error', count: 143 }]);
  });

  it.each([
    ['read_file', { agent: 'a1', path: '../AgentSettings.json' }, /climbs out of the root/],
    ['read_file', { agent: 'hidden', path: 'Workspace/h.md' }, /^no agent `hidden` is visible/],
    ['read_audit', { agent: 'a1', status: 'Broken' }, /^invalid arguments for `read_audit`/],
    ['read_audit', {}, /`agent`: required/],
    ['write_file', { agent: 'a1', path: 'Workspace/x', content: 'x' }, /^no action `write_file`/],
    ['read_file', { agent: 'a1', path: 'Workspace/\udfff.md' }, /not valid Unicode/],
    ['read_audit', { agent: 'a\ud800', tool: 'x' }, /at `agent`.*not valid Unicode/],
  ])(
    '§5, A1, I8: a refused %s call is a tool error that says why (%j)',
    async (name, args, message) => {
      const client = await inMemory();
      const result = await call(client, name, args);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(message);
      expect(text(result)).not.toContain(SECRET);
    },
  );
});

describe('the in-process tools', () => {
  it('I4: are six read-only tools a registry records but does not gate (I4)', async () => {
    const registry = t.warden.tools({ workspace: 'acme', agent: SUPERVISOR, source: 'library' });
    for (const tool of inspectorTools(inspector)) registry.register(tool);
    expect(registry.list().map((tool) => [tool.name, tool.readOnly, tool.actions])).toEqual(
      INSPECTOR_ACTIONS.map((name) => [name, true, []]),
    );
    const counted = await registry.call('read_audit', {
      agent: 'a1',
      since: '24h',
      groupBy: 'tool,status',
    });
    expect(counted.ok && counted.value).toMatchObject({
      groups: [{ tool: 'web_fetch', status: 'Error', count: 143 }],
    });
    const refused = await registry.call('read_file', { agent: 'a1', path: 'AgentSettings.json' });
    expect(refused).toMatchObject({ ok: false, status: 'Denied' });
    await t.warden.writer.drain();
    const mine = (await auditLog(t.warden.store)).filter((e) => e.agentId === SUPERVISOR);
    expect(mine.map((e) => [e.tool, e.status])).toEqual([
      ['read_audit', 'Ok'],
      ['read_file', 'Denied'],
    ]);
  });
});

/** The environment a spawned inspector gets: this one, without any store or server of ours. */
function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('WARDEN_') && key !== 'DATABASE_URL')
      env[key] = value;
  return env;
}

/** The real SDK client spawning the inspector over stdio. */
async function spawned(args: readonly string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    env: childEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'supervisor', version: '1' });
  await client.connect(transport);
  open.push(client);
  return { client, stderr: () => stderr };
}

/** `warden inspector --data DIR --as ID`, as an MCP client configuration would start it. */
function command(data: string, as: string): string[] {
  return [BIN, 'inspector', '--data', data, '--as', as];
}

/** Calls all six tools as a supervisor would, in the order of the evidence. */
async function allSix(client: Client): Promise<Record<string, CallToolResult>> {
  return {
    list_agents: await call(client, 'list_agents'),
    // An absolute window: the spawned inspector reads the real clock, not the test's.
    read_audit: await call(client, 'read_audit', {
      agent: 'a1',
      since: new Date(NOW - 24 * 60 * MINUTE).toISOString(),
      groupBy: 'tool,status',
    }),
    read_receipts: await call(client, 'read_receipts', { agent: 'a1' }),
    read_tasks: await call(client, 'read_tasks', { agent: 'a1', state: 'overdue' }),
    list_files: await call(client, 'list_files', { agent: 'a1' }),
    read_file: await call(client, 'read_file', { agent: 'a1', path: 'Workspace/injected.md' }),
  };
}

function expectSixAnswers(results: Record<string, CallToolResult>): void {
  for (const [name, result] of Object.entries(results)) {
    expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
    expect(text(result)).not.toContain(SECRET);
    expect(text(result)).not.toContain(OTHER_SECRET);
  }
  const json = (name: string) =>
    JSON.parse(text(results[name] as CallToolResult)) as Record<string, unknown>;
  expect((json('list_agents').agents as { id: string }[]).map((a) => a.id)).toEqual(['a1', 'a2']);
  expect(json('read_audit').groups).toEqual([{ tool: 'web_fetch', status: 'Error', count: 143 }]);
  expect(json('read_receipts').runs).toMatchObject([{ id: 'r1', tokensIn: 300, costCents: 9 }]);
  expect(json('read_tasks').tasks).toMatchObject([{ id: 't1', overdue: true }]);
  expect((json('list_files').entries as { name: string }[]).map((e) => e.name)).toContain(
    'report.md',
  );
  const file = json('read_file');
  expect(String(file.content)).toContain(INJECTION);
  expect(String(file.content).endsWith((file.foreignData as { end: string }).end)).toBe(true);
}

describe('end to end: the SDK client spawns the inspector on stdio', () => {
  it('the command serves all six tools; refusals are tool errors (A1, A4, A5, I8)', async () => {
    const { client, stderr } = await spawned(command(t.data, SUPERVISOR));
    expectSixAnswers(await allSix(client));
    const refused = await call(client, 'read_file', { agent: 'a1', path: 'AgentSettings.json' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/not allowed: allowed are only `Workspace\/\*\*`/);
    const hidden = await call(client, 'read_audit', { agent: 'hidden' });
    expect(text(hidden)).toBe(
      text(await call(client, 'read_audit', { agent: 'ghost' })).replace('ghost', 'hidden'),
    );
    expect(stderr()).toContain('serving the AgentInspector for supervisor `sup`');
  });

  it('A1, A4, A5: `warden inspector --data DIR --as sup` serves all six tools', async () => {
    const { client } = await spawned([BIN, 'inspector', '--data', t.data, '--as', SUPERVISOR]);
    expectSixAnswers(await allSix(client));
  });

  it('I7: a supervisor with a tool that acts is served, with a warning on standard error', async () => {
    const folder = join(t.agents, 'boss');
    mkdirSync(join(folder, 'Workspace'), { recursive: true });
    writeFileSync(
      join(folder, 'AgentSettings.json'),
      JSON.stringify({
        role: 'supervisor',
        tools: { agentInspector: { observableAgents: ['a1'] }, run_command: {} },
      }),
    );
    const { client, stderr } = await spawned(command(t.data, 'boss'));
    const listed = await call(client, 'list_agents');
    expect(JSON.parse(text(listed)).agents.map((a: { id: string }) => a.id)).toEqual(['a1']);
    expect(stderr()).toMatch(/warning: supervisor `boss` has tool `run_command`, which declares/);
  });
});

describe('`warden inspector` refuses to start without a valid supervisor', () => {
  function io(): { io: Io; err: () => string; out: () => string } {
    let err = '';
    let out = '';
    return {
      io: {
        out: (s) => {
          out += s;
        },
        err: (s) => {
          err += s;
        },
        stdin: () => '',
        env: {},
        now: () => NOW,
        color: false,
      },
      err: () => err,
      out: () => out,
    };
  }

  function agentWith(id: string, settings: string): void {
    mkdirSync(join(t.agents, id, 'Workspace'), { recursive: true });
    writeFileSync(join(t.agents, id, 'AgentSettings.json'), settings);
  }

  it.each([
    ['no `--as`', () => ({ data: t.data }), /^error: --as: name the supervisor/],
    [
      'an `--as` that is no agent',
      () => ({ data: t.data, as: 'nobody' }),
      /^error: --as: `nobody` is not an agent of the instance/,
    ],
    [
      'an `--as` that is no agent id',
      () => ({ data: t.data, as: '../a1' }),
      /^error: --as: agent id `..\/a1` must be/,
    ],
    [
      'a `--data` that is no folder',
      () => ({ data: join(t.data, 'missing'), as: SUPERVISOR }),
      /^error: --data: .* is not a folder/,
    ],
    [
      'an agent without the inspector tool',
      () => ({ data: t.data, as: 'a1' }),
      /^error: --as: agent `a1` has no `agentInspector` tool/,
    ],
  ])('§4: refuses %s', async (_what, options, message) => {
    const out = io();
    expect(await runInspector(out.io, options(), 'test')).toBe(1);
    expect(out.err()).toMatch(message);
    expect(out.out()).toBe('');
  });

  it('§4: lists every problem of invalid inspector settings', async () => {
    agentWith(
      'bad-sup',
      supervisorSettings({
        observableAgents: 'a1',
        maxFileKb: 0,
        allowFileAccess: 'yes',
        extra: 1,
      }),
    );
    const out = io();
    expect(await runInspector(out.io, { data: t.data, as: 'bad-sup' }, 'test')).toBe(1);
    const lines = out.err().trim().split('\n');
    expect(lines.length).toBe(4);
    for (const field of ['observableAgents', 'maxFileKb', 'allowFileAccess', 'extra'])
      expect(out.err()).toContain(field);
    expect(
      lines.every((line) => line.startsWith('error: --as: agent `bad-sup`: tools.agentInspector')),
    ).toBe(true);
  });

  it('I3: settings that are not JSON are refused without quoting them', async () => {
    agentWith(
      'broken-sup',
      `{"role":"supervisor","tools":{"agentInspector":{}},"apiKey":${SECRET}}`,
    );
    const out = io();
    expect(await runInspector(out.io, { data: t.data, as: 'broken-sup' }, 'test')).toBe(1);
    expect(out.err()).toMatch(/AgentSettings.json: not JSON/);
    expect(out.err()).not.toContain(SECRET);
    expect(out.err()).not.toContain('SECRET');
  });

  it('I8: warns when the supervisor names itself or an agent that does not exist', async () => {
    agentWith('self-sup', supervisorSettings({ observableAgents: ['self-sup', 'a1', 'nobody'] }));
    const loaded = await loadSupervisor(t.data, 'self-sup');
    expect(loaded.ok && loaded.warnings).toEqual([
      '`observableAgents` of `self-sup` names `self-sup` itself: a supervisor never inspects itself, so that entry changes nothing',
      '`observableAgents` of `self-sup` names `nobody`, which is not an agent of this instance (yet)',
    ]);
  });
});
