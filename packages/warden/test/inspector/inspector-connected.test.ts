// `warden inspector --server URL --token T` (contracts §4, connected): the
// server's inspector, as the token's agent and nobody else (I1, I8), over
// the real binary, a real `warden serve` and the real MCP SDK client. Only a
// supervisor's agent token may ask; anything the server refuses, or a server
// that cannot be reached, is a refusal — never an empty answer.

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/instance/index.js';
import { defineTool } from '../../src/tools/registry.js';
import { BIN, warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import type { Served } from '../support/processes.js';
import { agentToken, api, cliToken, freePort, serve } from '../support/processes.js';
import { openTestWarden } from '../support/warden.js';

const SECRET = 'sk-live-connected-0123456789abcdef';

let data: string;
let server: Served;
let supToken: string;
let coderToken: string;
let viewerToken: string;

beforeAll(async () => {
  data = tempDir('warden-inspector-connected-');
  await createAgent(data, { id: 'sup', role: 'supervisor', workspace: 'acme' });
  await createAgent(data, {
    id: 'coder-1',
    role: 'coder',
    workspace: 'acme',
    tools: { web_fetch: { apiKey: SECRET } },
  });
  writeFileSync(join(data, 'agents', 'coder-1', 'Workspace', 'notes.md'), `key ${SECRET}\n`);
  const t = await openTestWarden(null, { data });
  const tools = t.warden.tools({ workspace: 'acme', agent: 'coder-1', source: 'test' });
  tools.register(
    defineTool({
      name: 'web_fetch',
      description: 'fails',
      readOnly: true,
      run: async () => {
        throw new Error('refused');
      },
    }),
  );
  for (let i = 0; i < 12; i += 1) await tools.call('web_fetch', {});
  await t.cleanup();
  supToken = agentToken(data, 'sup');
  coderToken = agentToken(data, 'coder-1');
  viewerToken = cliToken(['--data', data, '--role', 'viewer', '--name', 'val']).token;
  server = await serve(['--data', data]);
}, 120_000);

afterAll(async () => {
  await server.stop();
  rmSync(data, { recursive: true, force: true });
});

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first !== undefined && first.type === 'text' ? first.text : '';
}

async function connect(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'inspector', ...args],
    stderr: 'pipe',
    env: { PATH: process.env['PATH'] ?? '', WARDEN_LOG_LEVEL: 'silent' },
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'supervisor', version: '1' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('warden inspector --server (contracts §4)', () => {
  it('serves the six tools as the token’s supervisor, from the server’s data (A1, A4, I7)', async () => {
    const { client, stderr } = await connect(['--server', server.url, '--token', supToken]);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual([
        'list_agents',
        'list_files',
        'read_audit',
        'read_file',
        'read_receipts',
        'read_tasks',
      ]);
      const agents = JSON.parse(
        textOf((await client.callTool({ name: 'list_agents', arguments: {} })) as CallToolResult),
      ) as { agents: { id: string }[] };
      expect(agents.agents.map((a) => a.id)).toEqual(['coder-1']);
      const audit = JSON.parse(
        textOf(
          (await client.callTool({
            name: 'read_audit',
            arguments: { agent: 'coder-1', since: '24h', groupBy: 'tool,status' },
          })) as CallToolResult,
        ),
      ) as { groups: unknown[] };
      expect(audit.groups).toEqual([{ tool: 'web_fetch', status: 'Error', count: 12 }]);

      const settings = (await client.callTool({
        name: 'read_file',
        arguments: { agent: 'coder-1', path: 'AgentSettings.json' },
      })) as CallToolResult;
      expect(settings.isError).toBe(true);
      expect(textOf(settings)).toContain('not allowed');
      expect(textOf(settings)).not.toContain(SECRET);

      const notes = (await client.callTool({
        name: 'read_file',
        arguments: { agent: 'coder-1', path: 'Workspace/notes.md' },
      })) as CallToolResult;
      expect(notes.isError).not.toBe(true);
      expect(textOf(notes)).toContain('FOREIGN-DATA');
      expect(textOf(notes)).not.toContain(SECRET);

      const ghost = (await client.callTool({
        name: 'read_audit',
        arguments: { agent: 'sup' },
      })) as CallToolResult;
      expect(ghost.isError).toBe(true);
      expect(stderr()).toContain('for supervisor `sup`');
    } finally {
      await client.close();
    }
  });

  it('refuses to start for a token that is not a supervisor’s, or not an agent’s (I1)', () => {
    const coder = warden(['inspector', '--server', server.url, '--token', coderToken]);
    expect(coder.code).toBe(1);
    expect(coder.stderr).toContain('agent `coder-1` is not a supervisor of this instance');
    const viewer = warden(['inspector', '--server', server.url, '--token', viewerToken]);
    expect(viewer.code).toBe(1);
    expect(viewer.stderr).toContain('(HTTP 403)');
    const as = warden([
      'inspector',
      '--server',
      server.url,
      '--token',
      supToken,
      '--as',
      'coder-1',
    ]);
    expect(as.code).toBe(1);
    expect(as.stderr).toContain('the token is agent `sup`, not `coder-1`');
    for (const r of [coder, viewer, as]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses to start when the server cannot be reached, and says so', async () => {
    const port = await freePort();
    const down = warden(['inspector', '--server', `http://127.0.0.1:${port}`, '--token', supToken]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('nothing listens there');
    const noToken = warden(['inspector', '--server', server.url], { env: { WARDEN_TOKEN: '' } });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain("--token: give the supervisor's agent token");
  });

  it('answers over HTTP only to a supervisor’s agent token (G26)', async () => {
    expect((await api(server.url, viewerToken, 'GET', '/v1/inspector')).status).toBe(403);
    expect((await api(server.url, coderToken, 'GET', '/v1/inspector')).status).toBe(403);
    const ok = await api(server.url, supToken, 'GET', '/v1/inspector');
    expect(ok).toMatchObject({ status: 200, body: { supervisor: 'sup' } });
    const refused = await api(server.url, supToken, 'POST', '/v1/inspector/read_file', {
      agent: 'coder-1',
      path: '../AgentSettings.json',
    });
    expect(refused).toMatchObject({ status: 200, body: { ok: false } });
    expect(JSON.stringify(refused.body)).not.toContain(SECRET);
  });
});
