// `warden gateway` end to end: the real MCP SDK client as the agent, the real
// `warden` binary as the gateway, and the real filesystem and memory MCP
// servers downstream. Standalone (a policy file; prompts are denied, G22) and
// connected (a real `warden serve` with an approver), both recorded in the
// audit log; the ratchet (G5) and validation (contracts §7) at start.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import type { Closable, Entry } from '../support/gateway-client.js';
import {
  call,
  calls,
  cleanEnv,
  closeAll,
  exported,
  gatewayAgent,
  SDK,
  standalone,
  text,
  writeDownstream,
  writeGateway,
} from '../support/gateway-client.js';
import type { Spawned } from '../support/processes.js';
import {
  api,
  approverWatching,
  agentToken,
  dataToken,
  freePort,
  killAll,
  serve,
  spawnWarden,
} from '../support/processes.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const MODULES = join(ROOT, 'node_modules', '@modelcontextprotocol');
const FS_SERVER = join(MODULES, 'server-filesystem', 'dist', 'index.js');
const MEMORY_SERVER = join(MODULES, 'server-memory', 'dist', 'index.js');

const POLICY = `version: 1
workspace: acme
rules:
  - id: keep-protected
    action: fileWriteOutsideWorktree
    decision: deny
    when:
      paths: ["protected/**"]
`;

/** A downstream that can hang or crash in the middle of a call. */
const FAULTY_SERVER = `
import { Server } from '${SDK}/server/index.js';
import { StdioServerTransport } from '${SDK}/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '${SDK}/types.js';
const server = new Server({ name: 'faulty', version: '1' }, { capabilities: { tools: {} } });
const schema = { type: 'object', properties: {} };
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [
  { name: 'hang', inputSchema: schema },
  { name: 'crash', inputSchema: schema },
  { name: 'fail', inputSchema: schema },
  { name: 'peek', inputSchema: schema, annotations: { readOnlyHint: true } },
] }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  if (request.params.name === 'hang') return new Promise(() => {});
  if (request.params.name === 'crash') process.exit(7);
  if (request.params.name === 'fail') throw new Error('it broke');
  return { content: [{ type: 'text', text: 'peeked' }] };
});
await server.connect(new StdioServerTransport());
`;

const READS = {
  'fs__read_*': { readOnly: true },
  'fs__list_*': { readOnly: true },
  fs__get_file_info: { readOnly: true },
  fs__search_files: { readOnly: true },
  fs__directory_tree: { readOnly: true },
  mem__read_graph: { readOnly: true },
  mem__search_nodes: { readOnly: true },
  mem__open_nodes: { readOnly: true },
};

const WRITES = {
  fs__write_file: { actions: ['fileWriteOutsideWorktree'], args: { paths: ['path'] } },
  fs__edit_file: { actions: ['fileWriteOutsideWorktree'], args: { paths: ['path'] } },
  fs__create_directory: { actions: ['fileWriteOutsideWorktree'], args: { paths: ['path'] } },
  fs__move_file: { actions: ['fileDelete'], args: { paths: ['source', 'destination'] } },
  'mem__*': { actions: ['workspaceMutation'] },
};

interface Setup {
  readonly dir: string;
  readonly work: string;
  readonly data: string;
  readonly policy: string;
  readonly config: string;
}

function setup(
  tools: Record<string, unknown> = { ...READS, ...WRITES },
  servers?: Record<string, unknown>,
): Setup {
  const dir = tempDir('warden-gateway-');
  const work = join(dir, 'work');
  mkdirSync(work);
  const files = writeGateway(dir, POLICY, {
    worktree: work,
    servers: servers ?? {
      // Each server writes only where its entry says (G2): the worktree, the memory file's folder.
      fs: { command: process.execPath, args: [FS_SERVER, work], sandbox: { write: [work] } },
      mem: {
        command: process.execPath,
        args: [MEMORY_SERVER],
        env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
        sandbox: { write: [dir] },
      },
    },
    tools,
  });
  return { ...files, work };
}

const open: Closable[] = [];
const spawned: Spawned[] = [];

afterEach(async () => {
  await closeAll(open);
  await killAll(spawned);
});

/** The agent: the SDK client spawning `warden gateway` on stdio, closed after the test. */
const agent = (args: readonly string[]) => gatewayAgent(args, open);

describe('warden gateway, standalone', () => {
  it('G1, E10, contracts §7: reads pass, an allowed write runs, a denied write answers the reason; all audited', async () => {
    const s = setup();
    const { client } = await agent(standalone(s));
    const names = (await client.listTools()).tools.map((t) => t.name);
    // Aggregated and namespaced: both servers, every tool as <server>__<tool>.
    expect(names).toEqual(
      expect.arrayContaining([
        'fs__read_text_file',
        'fs__write_file',
        'mem__create_entities',
        'mem__read_graph',
      ]),
    );
    expect(names.every((n) => n.startsWith('fs__') || n.startsWith('mem__'))).toBe(true);

    const wrote = await call(client, 'fs__write_file', {
      path: join(s.work, 'notes.txt'),
      content: 'hello',
    });
    expect(wrote.isError, text(wrote)).not.toBe(true);
    expect(readFileSync(join(s.work, 'notes.txt'), 'utf8')).toBe('hello');
    const read = await call(client, 'fs__read_text_file', { path: join(s.work, 'notes.txt') });
    expect(text(read)).toContain('hello');

    // E10: the absolute argument under the worktree is matched as `protected/secret.txt`.
    const denied = await call(client, 'fs__write_file', {
      path: join(s.work, 'protected', 'secret.txt'),
      content: 'x',
    });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain('keep-protected');
    expect(existsSync(join(s.work, 'protected', 'secret.txt'))).toBe(false);

    const remembered = await call(client, 'mem__create_entities', {
      entities: [{ name: 'gateway', entityType: 'thing', observations: ['seen'] }],
    });
    expect(remembered.isError, text(remembered)).not.toBe(true);
    expect(text(await call(client, 'mem__read_graph', {}))).toContain('gateway');

    const entries = exported(s.data);
    expect(entries.every((e) => e.source === 'mcp-gateway' && e.agentId === 'coder-1')).toBe(true);
    const writes = calls(entries, 'fs__write_file');
    expect(writes.map((e) => e.status)).toEqual(['Ok', 'Denied']);
    expect(writes[0]?.decisionId).toEqual(expect.any(String));
    expect(writes[0]?.durationMs).toEqual(expect.any(Number));
    const reads = calls(entries, 'fs__read_text_file');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ status: 'Ok', decisionId: null });
    expect(calls(entries, 'mem__create_entities').map((e) => e.status)).toEqual(['Ok']);
    // The decision's reason is what the agent was told.
    const decision = entries.find(
      (e) => e.kind === 'decision' && e.tool === 'fs__write_file' && e.outcome === 'deny',
    );
    if (decision !== undefined && typeof decision.reason === 'string')
      expect(text(denied)).toBe(decision.reason);
  }, 60_000);

  it('G22: standalone has no approver, so a prompt (fileDelete via move_file) is denied at once and audited', async () => {
    const s = setup();
    writeFileSync(join(s.work, 'a.txt'), 'a');
    const { client } = await agent(standalone(s));
    const started = Date.now();
    const moved = await call(client, 'fs__move_file', {
      source: join(s.work, 'a.txt'),
      destination: join(s.work, 'b.txt'),
    });
    expect(moved.isError).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(existsSync(join(s.work, 'a.txt'))).toBe(true);
    expect(calls(exported(s.data), 'fs__move_file').map((e) => e.status)).toEqual(['Denied']);
  }, 60_000);

  it('a downstream that fails, hangs past --timeout or crashes mid-call ends the call as a tool error and an audit entry; a crashed one is started again at the next call', async () => {
    const s = setup(
      { fx__peek: { readOnly: true }, 'fx__*': { actions: ['processSpawn'] } },
      { fx: { command: process.execPath, args: ['faulty.mjs'] } },
    );
    const script = writeDownstream(s.dir, 'faulty.mjs', FAULTY_SERVER);
    const config = JSON.parse(readFileSync(s.config, 'utf8')) as {
      servers: { fx: { args: string[] } };
    };
    config.servers.fx.args = [script];
    writeFileSync(s.config, JSON.stringify(config));
    const { client } = await agent([...standalone(s), '--timeout', '1']);
    expect(text(await call(client, 'fx__peek', {}))).toBe('peeked');
    const failed = await call(client, 'fx__fail', {});
    expect(failed.isError).toBe(true);
    const hung = await call(client, 'fx__hang', {});
    expect(hung.isError).toBe(true);
    expect(text(hung)).toMatch(/timed out/i);
    const crashed = await call(client, 'fx__crash', {});
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toContain('Warden:');
    // The crashed server is started again for the next call (gateway-restart.test.ts has the rest).
    const after = await call(client, 'fx__peek', {});
    expect(after.isError, text(after)).not.toBe(true);
    expect(text(after)).toBe('peeked');
    const entries = exported(s.data);
    for (const tool of ['fx__fail', 'fx__hang', 'fx__crash'])
      expect(
        calls(entries, tool).map((e) => e.status),
        tool,
      ).toEqual(['Error']);
    expect(calls(entries, 'fx__peek').map((e) => e.status)).toEqual(['Ok', 'Ok']);
  }, 60_000);

  it('--http: the SDK Streamable HTTP client lists the tools and calls through the gate', async () => {
    const s = setup();
    const port = await freePort();
    const gateway = spawnWarden([
      'gateway',
      '--config',
      s.config,
      '--policy',
      s.policy,
      '--data',
      s.data,
      '--http',
      String(port),
    ]);
    spawned.push(gateway);
    await gateway.waitFor(`http://127.0.0.1:${port}/mcp`, { stream: 'stderr', timeoutMs: 30_000 });
    expect(gateway.stdout()).toBe('');
    const client = new Client({ name: 'http-agent', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
    );
    open.push(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('fs__write_file');
    expect(names).toContain('mem__read_graph');
    const wrote = await call(client, 'fs__write_file', {
      path: join(s.work, 'h.txt'),
      content: 'via http',
    });
    expect(wrote.isError, text(wrote)).not.toBe(true);
    const denied = await call(client, 'fs__write_file', {
      path: join(s.work, 'protected', 'h.txt'),
      content: 'no',
    });
    expect(denied.isError).toBe(true);
    expect(readFileSync(join(s.work, 'h.txt'), 'utf8')).toBe('via http');
    expect(calls(exported(s.data), 'fs__write_file').map((e) => e.status)).toEqual([
      'Ok',
      'Denied',
    ]);
  }, 60_000);
});

describe('warden gateway, with a downstream reached by URL', () => {
  it('contracts §7: a Streamable HTTP downstream (another gateway) is aggregated and gated like a stdio one', async () => {
    // The inner gateway serves the filesystem and memory servers over HTTP.
    const inner = setup();
    const port = await freePort();
    const innerGateway = spawnWarden([
      'gateway',
      '--config',
      inner.config,
      '--policy',
      inner.policy,
      '--data',
      inner.data,
      '--http',
      String(port),
    ]);
    spawned.push(innerGateway);
    await innerGateway.waitFor(`http://127.0.0.1:${port}/mcp`, {
      stream: 'stderr',
      timeoutMs: 30_000,
    });
    // The outer gateway reaches it by URL; its tools come through as `in__<server>__<tool>`.
    const outer = setup(
      {
        'in__fs__{read,list}_*': { readOnly: true },
        'in__fs__{directory_tree,search_files,get_file_info}': { readOnly: true },
        'in__fs__*': { actions: ['fileWriteOutsideWorktree'], args: { paths: ['path'] } },
        'in__mem__*': { actions: ['workspaceMutation'] },
      },
      { in: { url: `http://127.0.0.1:${port}/mcp` } },
    );
    const { client, stderr } = await agent(standalone(outer));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names, stderr()).toContain('in__fs__write_file');
    expect(names).toContain('in__mem__read_graph');
    const wrote = await call(client, 'in__fs__write_file', {
      path: join(inner.work, 'u.txt'),
      content: 'by url',
    });
    expect(wrote.isError ?? false, text(wrote)).toBe(false);
    expect(readFileSync(join(inner.work, 'u.txt'), 'utf8')).toBe('by url');
    // Both gateways decided and recorded the call.
    expect(calls(exported(outer.data), 'in__fs__write_file').map((e) => e.status)).toEqual(['Ok']);
    expect(calls(exported(inner.data), 'fs__write_file').map((e) => e.status)).toEqual(['Ok']);
  }, 60_000);
});

describe('warden gateway, refusing to start', () => {
  it('G5: a downstream tool with neither a mapping nor readOnly stops the gateway, listing every unmapped tool', () => {
    const s = setup({ 'fs__read_*': { readOnly: true }, 'mem__*': { readOnly: true } });
    const ran = warden(['gateway', '--config', s.config, '--policy', s.policy, '--data', s.data], {
      env: cleanEnv(),
    });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe('');
    for (const tool of [
      'fs__write_file',
      'fs__edit_file',
      'fs__move_file',
      'fs__create_directory',
      'fs__list_directory',
    ])
      expect(ran.stderr).toContain(`tools.${tool}: not mapped`);
    expect(ran.stderr).not.toContain('tools.fs__read_text_file');
    // The server's readOnlyHint is shown, never trusted.
    expect(ran.stderr).toMatch(/tools\.fs__list_directory: not mapped.*readOnlyHint/);
    expect(ran.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('contracts §7: validation lists every problem with its path, one per line, exit 1', () => {
    const dir = tempDir('warden-gateway-');
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      `workspace: acme
wrkspace: x
worktree: relative/dir
servers:
  fs: { command: node, url: "http://127.0.0.1:1/mcp" }
  "a__b": { url: "not a url" }
tools:
  fs__write_file: { actions: [fileWriteOutsideWorktre], args: { paths: [""] } }
  fs__read_file: { readOnly: false }
  fs__x: { actions: [gitPush], args: { files: [path] } }
`,
    );
    const ran = warden(['gateway', '--config', file, '--policy', join(dir, 'none.yaml')], {
      env: cleanEnv(),
    });
    expect(ran.code).toBe(1);
    const lines = ran.stderr.trim().split('\n');
    const expected = [
      /agent: /,
      /wrkspace: unknown setting `wrkspace`: did you mean `workspace`\?/,
      /worktree: is an absolute path/,
      /servers\.fs: give either `command` \(stdio\) or `url`/,
      /servers\.a__b: a server name/,
      /servers\.a__b\.url: /,
      /tools\.fs__write_file\.actions\[0\]: unknown action class `fileWriteOutsideWorktre`: did you mean `fileWriteOutsideWorktree`\?/,
      /tools\.fs__write_file\.args\.paths\[0\]: /,
      /tools\.fs__read_file\.readOnly: /,
      /tools\.fs__x\.args\.files: unknown setting `files`/,
    ];
    for (const pattern of expected)
      expect(
        lines.some((l) => pattern.test(l)),
        `${pattern} in\n${ran.stderr}`,
      ).toBe(true);
    expect(lines.every((l) => l.startsWith('error: '))).toBe(true);
    expect(ran.stderr).not.toMatch(/^\s+at /m);
  });

  it('no --policy and no --server is a clear error, and so is a missing config file', () => {
    const s = setup();
    const none = warden(['gateway', '--config', s.config], { env: cleanEnv() });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('the gateway has no policy');
    const missing = warden(
      ['gateway', '--config', join(s.dir, 'nope.yaml'), '--policy', s.policy],
      { env: cleanEnv() },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file');
  });
});

describe('warden gateway, connected to a Warden server', () => {
  it('G22: a prompt waits for the approver, runs once approved, and is denied when the approval times out; contracts §4: an unreachable server denies', async () => {
    const s = setup();
    writeFileSync(join(s.work, 'a.txt'), 'a');
    writeFileSync(join(s.work, 'c.txt'), 'c');
    const serverConfig = join(s.dir, 'server.yaml');
    writeFileSync(serverConfig, 'approvalTimeoutSeconds: 3\n');
    expect(warden(['policy', 'apply', s.policy, '--data', s.data], { env: cleanEnv() }).code).toBe(
      0,
    );
    const token = agentToken(s.data, 'coder-1', 'acme', 'gw');
    const approver = dataToken(s.data, '--role', 'approver', '--name', 'bob');
    const admin = dataToken(s.data, '--role', 'admin', '--name', 'alice');
    const server = await serve(['--data', s.data, '--config', serverConfig]);
    spawned.push(server);
    await approverWatching(server.url, approver, spawned);
    const { client } = await agent([
      '--config',
      s.config,
      '--server',
      server.url,
      '--token',
      token,
    ]);

    // Approved: the approver sees the approval and answers it through the API.
    const pending = call(client, 'fs__move_file', {
      source: join(s.work, 'a.txt'),
      destination: join(s.work, 'b.txt'),
    });
    let approvalId: string | undefined;
    for (let i = 0; i < 50 && approvalId === undefined; i += 1) {
      const listed = await api(
        server.url,
        approver,
        'GET',
        '/v1/approvals?workspace=acme&state=pending',
      );
      const items = (listed.body.items ?? listed.body.approvals ?? []) as { id: string }[];
      approvalId = items[0]?.id;
      if (approvalId === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    expect(approvalId).toEqual(expect.any(String));
    const answered = await api(
      server.url,
      approver,
      'POST',
      `/v1/approvals/${approvalId as string}/answer`,
      {
        kind: 'once',
      },
    );
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const moved = await pending;
    expect(moved.isError, text(moved)).not.toBe(true);
    expect(existsSync(join(s.work, 'b.txt'))).toBe(true);

    // Timed out: the approver is connected but does not answer; after 3 s the call is denied.
    const started = Date.now();
    const timedOut = await call(client, 'fs__move_file', {
      source: join(s.work, 'c.txt'),
      destination: join(s.work, 'd.txt'),
    });
    expect(timedOut.isError).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(existsSync(join(s.work, 'c.txt'))).toBe(true);

    // A read is reported to the server, ungated.
    expect(text(await call(client, 'fs__read_text_file', { path: join(s.work, 'b.txt') }))).toBe(
      'a',
    );

    const audit = await api(server.url, admin, 'GET', '/v1/audit?limit=100');
    const entries = (audit.body.entries ?? []) as Entry[];
    expect(entries.length, JSON.stringify(audit.body).slice(0, 500)).toBeGreaterThan(0);
    const moves = calls(entries, 'fs__move_file').map((e) => e.status);
    expect(moves).toContain('Ok');
    expect(moves).toContain('Denied');
    expect(calls(entries, 'fs__read_text_file').map((e) => e.status)).toEqual(['Ok']);
    expect(
      entries
        .filter((e) => e.tool === 'fs__move_file' && (e.kind === 'call' || e.kind === 'decision'))
        .every((e) => e.agentId === 'coder-1' && e.source === 'mcp-gateway'),
    ).toBe(true);

    // Fail-closed: a gateway whose server is gone denies.
    const port = await freePort();
    const { client: lost } = await agent([
      '--config',
      s.config,
      '--server',
      `http://127.0.0.1:${port}`,
      '--token',
      token,
    ]);
    const refused = await call(lost, 'fs__write_file', {
      path: join(s.work, 'z.txt'),
      content: 'z',
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('cannot reach the Warden server');
    expect(existsSync(join(s.work, 'z.txt'))).toBe(false);
  }, 90_000);
});

describe("the gateway guide's example", () => {
  it('starts as written (every downstream tool mapped, G5) and decides a write', async () => {
    const section = readFileSync(join(ROOT, 'docs', 'guides', 'mcp-gateway.md'), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(yaml).toBeDefined();
    const dir = tempDir();
    const work = join(dir, 'work');
    mkdirSync(work);
    const config = join(dir, 'gateway.yaml');
    writeFileSync(
      config,
      (yaml as string)
        .replaceAll('/srv/agents', work)
        .replaceAll('node_modules/', `${join(ROOT, 'node_modules')}/`),
    );
    const policy = join(dir, 'policy.yaml');
    writeFileSync(policy, POLICY);
    const { client, stderr } = await agent(['--config', config, '--policy', policy, '--data', dir]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names, stderr()).toContain('fs__write_file');
    expect(names).toContain('memory__create_entities');
    const wrote = await call(client, 'fs__write_file', {
      path: join(work, 'notes.txt'),
      content: 'hello',
    });
    expect(wrote.isError ?? false, text(wrote)).toBe(false);
    expect(readFileSync(join(work, 'notes.txt'), 'utf8')).toBe('hello');
  });
});
