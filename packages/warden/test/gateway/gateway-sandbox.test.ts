// The gateway's stdio servers under the OS sandbox (G2), each like a container
// of its own: the real filesystem MCP server given `/` as its root writes only
// inside the folders its entry lists, even where the gate allowed the call,
// and still reads. Writable roots are checked (`/` is refused); a host without
// a backend starts the server without one and says so (`auto`) or refuses to
// start it (`required`). Under CI the backend must be present.

import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../../src/gateway/config.js';
import { validateGatewayConfig } from '../../src/gateway/config.js';
import type { Decider } from '../../src/gateway/decider.js';
import { Gateway, GatewayStartError } from '../../src/gateway/gateway.js';
import { commandLine, shellWord } from '../../src/gateway/sandbox.js';
import { warden } from '../helpers.js';
import { hostDir, sandboxForTests, tempDir } from '../support/backends.js';
import type { Closable } from '../support/gateway-client.js';
import {
  call,
  cleanEnv,
  closeAll,
  exported,
  gatewayAgent,
  SDK,
  standalone,
  text,
} from '../support/gateway-client.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const FS_SERVER = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);

const { backend, missing } = sandboxForTests('the sandboxed gateway runs');

/** Every write is allowed by the gate: what stops one is the sandbox. */
const POLICY = `version: 1
workspace: acme
rules:
  - id: writes-anywhere
    action: fileWriteOutsideWorktree
    decision: allow
  - id: egress-anywhere
    action: networkEgress
    decision: allow
`;

/** A downstream whose one tool fetches a URL with curl, through the sandbox's proxy when it has one. */
const FETCH_SERVER = `
import { execFileSync } from 'node:child_process';
import { Server } from '${SDK}/server/index.js';
import { StdioServerTransport } from '${SDK}/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '${SDK}/types.js';
const server = new Server({ name: 'fetch', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [
  { name: 'get', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } },
] }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  try {
    const out = execFileSync('curl', ['-fsS', '-m', '10', '--noproxy', '', request.params.arguments.url], { encoding: 'utf8' });
    return { content: [{ type: 'text', text: out }] };
  } catch (error) {
    return { content: [{ type: 'text', text: String(error.stderr ?? error) }], isError: true };
  }
});
await server.connect(new StdioServerTransport());
`;

const TOOLS = {
  'fs__{read,list}_*': { readOnly: true },
  'fs__{directory_tree,search_files,get_file_info}': { readOnly: true },
  'fs__{write_file,edit_file,create_directory}': {
    actions: ['fileWriteOutsideWorktree'],
    args: { paths: ['path'] },
  },
  fs__move_file: { actions: ['fileWriteOutsideWorktree'], args: { paths: ['source'] } },
};

interface Setup {
  readonly dir: string;
  readonly data: string;
  readonly policy: string;
  readonly config: string;
}

function setup(document: Record<string, unknown>): Setup {
  const dir = tempDir('warden-gw-sbx-');
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, POLICY);
  const config = join(dir, 'gateway.json');
  writeFileSync(
    config,
    JSON.stringify({ agent: 'coder-1', workspace: 'acme', tools: TOOLS, ...document }),
  );
  return { dir, data: join(dir, 'data'), policy, config };
}

const open: Closable[] = [];
afterEach(() => closeAll(open));

/** The agent: the SDK client spawning a standalone `warden gateway` on stdio. */
const agent = (s: Setup) => gatewayAgent(standalone(s), open);

describe.skipIf(missing !== null)(
  `the gateway's stdio servers under the sandbox (G2, ${backend ?? 'none'})`,
  () => {
    it('G2: a filesystem server rooted at `/` writes inside its writable root, a write elsewhere fails though the gate allowed it, and it still reads', async () => {
      const s = setup({});
      const allowed = join(s.dir, 'allowed');
      // Outside the system's temporary folder, which a sandboxed server sees as its own.
      const elsewhere = hostDir('warden-gw-sbx-out-');
      mkdirSync(allowed);
      writeFileSync(join(elsewhere, 'existing.txt'), 'read me');
      writeFileSync(
        s.config,
        JSON.stringify({
          agent: 'coder-1',
          workspace: 'acme',
          servers: {
            fs: {
              command: process.execPath,
              args: [FS_SERVER, '/'],
              sandbox: { write: [allowed] },
            },
          },
          tools: TOOLS,
        }),
      );
      const { client, stderr } = await agent(s);

      const inside = await call(client, 'fs__write_file', {
        path: join(allowed, 'inside.txt'),
        content: 'inside',
      });
      expect(inside.isError ?? false, text(inside)).toBe(false);
      expect(readFileSync(join(allowed, 'inside.txt'), 'utf8')).toBe('inside');

      const outside = await call(client, 'fs__write_file', {
        path: join(elsewhere, 'outside.txt'),
        content: 'outside',
      });
      expect(outside.isError).toBe(true);
      expect(text(outside)).toMatch(/read-only file system|EROFS|permission denied|EACCES|EPERM/i);
      expect(existsSync(join(elsewhere, 'outside.txt'))).toBe(false);

      const read = await call(client, 'fs__read_text_file', {
        path: join(elsewhere, 'existing.txt'),
      });
      expect(read.isError ?? false, text(read)).toBe(false);
      expect(text(read)).toContain('read me');
      // Except Warden's own data folder: its audit log and the key grants are signed with.
      const stolen = await call(client, 'fs__read_text_file', {
        path: join(s.data, 'warden.db'),
      });
      expect(stolen.isError, text(stolen)).toBe(true);
      expect(text(stolen)).not.toContain('SQLite format');

      expect(stderr()).toContain(
        `servers.fs: starts under the OS sandbox (${backend}): it may write \`${allowed}\` and reach none`,
      );
      // The gate allowed both writes; the one outside ended as the downstream's error.
      const entries = exported(s.data);
      const decisions = entries.filter((e) => e.kind === 'decision' && e.tool === 'fs__write_file');
      expect(decisions.map((e) => e.outcome)).toEqual(['allow', 'allow']);
      const writes = entries.filter((e) => e.tool === 'fs__write_file' && e.kind !== 'decision');
      expect(writes.map((e) => e.status)).toEqual(['Ok', 'Error']);
    }, 60_000);

    it("G2: a server whose entry names no `sandbox` writes nothing, not even in the gateway's worktree", async () => {
      const s = setup({});
      const folder = join(s.dir, 'work');
      mkdirSync(folder);
      writeFileSync(
        s.config,
        JSON.stringify({
          agent: 'coder-1',
          workspace: 'acme',
          worktree: folder,
          servers: { fs: { command: process.execPath, args: [FS_SERVER, folder] } },
          tools: TOOLS,
        }),
      );
      const { client, stderr } = await agent(s);
      const wrote = await call(client, 'fs__write_file', {
        path: join(folder, 'notes.txt'),
        content: 'x',
      });
      expect(wrote.isError).toBe(true);
      expect(existsSync(join(folder, 'notes.txt'))).toBe(false);
      expect(stderr()).toContain('it may write none and reach none');
    }, 60_000);

    it('G2: a server reaches the hosts its `sandbox.hosts` lists and no other; what the sandbox refused is logged', async () => {
      const http = createServer((_req, res) => res.end('hello from the host\n'));
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://localhost:${(http.address() as AddressInfo).port}/`;
        const s = setup({});
        writeFileSync(join(s.dir, 'fetch.mjs'), FETCH_SERVER);
        const fetcher = { command: process.execPath, args: [join(s.dir, 'fetch.mjs')] };
        writeFileSync(
          s.config,
          JSON.stringify({
            agent: 'coder-1',
            workspace: 'acme',
            servers: {
              open: { ...fetcher, sandbox: { hosts: ['localhost'] } },
              closed: fetcher,
            },
            tools: { '*__get': { actions: ['networkEgress'], args: { hosts: ['url'] } } },
          }),
        );
        const { client, stderr } = await agent(s);
        const reached = await call(client, 'open__get', { url });
        expect(reached.isError ?? false, text(reached)).toBe(false);
        expect(text(reached)).toBe('hello from the host\n');
        const refused = await call(client, 'closed__get', { url });
        expect(refused.isError).toBe(true);
        expect(text(refused)).not.toContain('hello from the host');
        expect(stderr()).toContain('servers.open: starts under the OS sandbox');
        expect(stderr()).toContain('and reach `localhost`');
        expect(stderr()).toMatch(/servers\.closed: the sandbox refused: .*localhost/);
      } finally {
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      }
    }, 60_000);

    it('G2: a server that dies after the sandbox refused it something: the agent is told what was refused, not only that it closed', async () => {
      const s = setup({});
      // The tool's failure ends the server, as a server that does not expect a refusal may.
      writeFileSync(
        join(s.dir, 'fragile.mjs'),
        FETCH_SERVER.replace(
          "return { content: [{ type: 'text', text: String(error.stderr ?? error) }], isError: true };",
          'process.exit(3);',
        ),
      );
      writeFileSync(
        s.config,
        JSON.stringify({
          agent: 'coder-1',
          workspace: 'acme',
          servers: { fragile: { command: process.execPath, args: [join(s.dir, 'fragile.mjs')] } },
          tools: { '*__get': { actions: ['networkEgress'], args: { hosts: ['url'] } } },
        }),
      );
      const { client } = await agent(s);
      const died = await call(client, 'fragile__get', { url: 'http://localhost:9/' });
      expect(died.isError).toBe(true);
      expect(text(died)).toContain(
        'the downstream server `fragile` closed its connection after the sandbox refused it',
      );
      expect(text(died)).toContain('localhost');
    }, 60_000);

    it('G2: a backend that cannot run keeps the server from starting; it never starts without the sandbox', () => {
      const s = setup({});
      const marker = join(s.dir, 'started');
      writeFileSync(
        join(s.dir, 'server.mjs'),
        `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'yes');\n`,
      );
      writeFileSync(
        s.config,
        JSON.stringify({
          agent: 'coder-1',
          workspace: 'acme',
          servers: { fx: { command: process.execPath, args: [join(s.dir, 'server.mjs')] } },
          tools: { 'fx__*': { readOnly: true } },
        }),
      );
      const bin = join(s.dir, 'bin');
      mkdirSync(bin);
      writeFileSync(
        join(bin, 'bwrap'),
        '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
      );
      chmodSync(join(bin, 'bwrap'), 0o755);
      const ran = warden(['gateway', ...standalone(s)], {
        env: cleanEnv({ PATH: `${bin}:${process.env['PATH'] ?? ''}` }),
      });
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain('No permissions to create new namespace');
      expect(ran.stderr).toContain('error: servers.fx: cannot connect to');
      expect(existsSync(marker)).toBe(false);
    }, 60_000);
  },
);

describe('writable roots (G2, contracts §7)', () => {
  const server = (write: unknown) => ({
    agent: 'coder-1',
    workspace: 'acme',
    servers: { fs: { command: 'node', args: ['server.js'], sandbox: { write } } },
    tools: {},
  });

  it('`/` as a writable root is refused with a clear error, and so is a relative one', () => {
    const checked = validateGatewayConfig(server(['/', 'work', '/srv/../']));
    expect(checked.ok).toBe(false);
    expect(checked.ok ? [] : checked.problems).toEqual([
      {
        path: 'servers.fs.sandbox.write[0]',
        message:
          '`/` cannot be a writable root: the server could write anywhere this user can; name the folders it needs',
      },
      { path: 'servers.fs.sandbox.write[1]', message: 'is an absolute path, not `work`' },
      {
        path: 'servers.fs.sandbox.write[2]',
        message:
          '`/` cannot be a writable root: the server could write anywhere this user can; name the folders it needs',
      },
    ]);
  });

  it('`warden gateway` refuses a configuration with `/` as a writable root, and one whose root is a link to `/`, a file or missing', () => {
    const s = setup({});
    writeFileSync(s.config, JSON.stringify(server(['/'])));
    const slash = warden(['gateway', '--config', s.config, '--policy', s.policy], {
      env: cleanEnv(),
    });
    expect(slash.code).toBe(1);
    expect(slash.stderr).toContain(
      'servers.fs.sandbox.write[0]: `/` cannot be a writable root: the server could write anywhere this user can; name the folders it needs',
    );

    const link = join(s.dir, 'everything');
    symlinkSync('/', link);
    const file = join(s.dir, 'file.txt');
    writeFileSync(file, '');
    writeFileSync(s.config, JSON.stringify(server([link, file, join(s.dir, 'missing')])));
    const resolved = warden(['gateway', ...standalone(s)], { env: cleanEnv() });
    expect(resolved.code).toBe(1);
    expect(resolved.stderr.trim().split('\n')).toEqual([
      `error: servers.fs.sandbox.write[0]: \`${link}\` resolves to \`/\`: \`/\` cannot be a writable root: the server could write anywhere this user can; name the folders it needs`,
      `error: servers.fs.sandbox.write[1]: \`${file}\` is not a folder: a writable root is an existing folder`,
      `error: servers.fs.sandbox.write[2]: \`${join(s.dir, 'missing')}\` does not exist: a writable root is an existing folder`,
    ]);
  });

  it('contracts §7: the sandbox keys are checked and every problem listed', () => {
    const checked = validateGatewayConfig({
      agent: 'coder-1',
      workspace: 'acme',
      sandbox: 'sometimes',
      servers: {
        a: {
          command: 'node',
          sandbox: { write: [], hosts: ['https://example.com', '*.ok.example'], writes: [] },
        },
        b: { command: 'node', sandbox: 'no' },
        c: { url: 'http://127.0.0.1:9000/mcp', sandbox: 'off' },
      },
      tools: {},
    });
    expect(checked.ok ? [] : checked.problems).toEqual([
      { path: 'sandbox', message: 'one of `auto`, `required`, `off`' },
      {
        path: 'servers.a.sandbox.writes',
        message: 'unknown setting `writes`: did you mean `write`?',
      },
      {
        path: 'servers.a.sandbox.hosts[0]',
        message:
          '`https://example.com` is a URL: give the host name alone (optionally with `:PORT`)',
      },
      {
        path: 'servers.b.sandbox',
        message:
          '`off`, or a mapping with `write` (folders the server may write) and `hosts` (hosts it may reach)',
      },
      {
        path: 'servers.c.sandbox',
        message:
          'a server reached by URL runs elsewhere: only the stdio servers the gateway starts run under its sandbox',
      },
    ]);
  });

  it('a server may opt out with `sandbox: off`, but not when the gateway says `sandbox: required`', () => {
    const base = { agent: 'coder-1', workspace: 'acme', tools: {} };
    const off = validateGatewayConfig({
      ...base,
      servers: { fs: { command: 'node', sandbox: 'off' } },
    });
    expect(off.ok && off.config.servers[0]).toMatchObject({ sandbox: 'off' });
    const contradicted = validateGatewayConfig({
      ...base,
      sandbox: 'required',
      servers: { fs: { command: 'node', sandbox: 'off' } },
    });
    expect(contradicted.ok ? [] : contradicted.problems).toEqual([
      {
        path: 'servers.fs.sandbox',
        message:
          "`off` contradicts the gateway's `sandbox: required`: every stdio server starts under the sandbox",
      },
    ]);
    const bare = validateGatewayConfig({ ...base, servers: { fs: { command: 'node' } } });
    expect(bare.ok && bare.config.servers[0]).toMatchObject({ sandbox: { write: [], hosts: [] } });
  });
});

describe('the command line a sandboxed server starts with', () => {
  it('quotes every word so `/bin/sh` reads it back unchanged', () => {
    expect(shellWord('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellWord("it's $HOME; rm -rf /")).toBe(`'it'\\''s $HOME; rm -rf /'`);
    expect(shellWord('')).toBe("''");
    expect(commandLine({ command: 'node', args: ['a b', '*'], sandbox: 'off' })).toBe(
      "exec node 'a b' '*'",
    );
  });
});

describe('a host without a sandbox backend (G2)', () => {
  const bare = { platform: 'linux', bwrap: null, socat: '/usr/bin/socat' };
  const decider: Decider = {
    describe: 'test',
    answerAfterRecord: false,
    decide: () => Promise.resolve({ allow: true, reason: 'allowed', auditId: null, callId: null }),
    complete: () => Promise.resolve(),
    pin: () => Promise.resolve({ ok: true }),
    outright: () => Promise.resolve(new Set<string>()),
    close: () => Promise.resolve(),
  };

  function configWith(dir: string, sandbox: 'auto' | 'required' | undefined): GatewayConfig {
    writeFileSync(
      join(dir, 'server.mjs'),
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(join(dir, 'started'))}, 'yes');\n` +
        `const { Server } = await import(${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server', 'index.js'))});\n` +
        `const { StdioServerTransport } = await import(${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'server', 'stdio.js'))});\n` +
        `const { ListToolsRequestSchema } = await import(${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'types.js'))});\n` +
        `const server = new Server({ name: 'fx', version: '1' }, { capabilities: { tools: {} } });\n` +
        `server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));\n` +
        `await server.connect(new StdioServerTransport());\n`,
    );
    const checked = validateGatewayConfig({
      agent: 'coder-1',
      workspace: 'acme',
      ...(sandbox === undefined ? {} : { sandbox }),
      servers: { fx: { command: process.execPath, args: [join(dir, 'server.mjs')] } },
      tools: {},
    });
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
    return checked.config;
  }

  it('G2: `auto` (the default) starts the server without the sandbox and says so loudly', async () => {
    const dir = tempDir('warden-gw-sbx-');
    const logged: string[] = [];
    const gateway = await Gateway.start(configWith(dir, undefined), decider, {
      timeoutMs: 10_000,
      log: (line) => logged.push(line),
      sandboxHost: bare,
    });
    try {
      expect(existsSync(join(dir, 'started'))).toBe(true);
      expect(logged).toContain(
        'warning: servers.fx: starts WITHOUT the OS sandbox: this host offers no sandbox backend (Linux without `bwrap` on the PATH); it may write wherever this user can and reach any host (set `sandbox: required` to refuse instead)',
      );
    } finally {
      await gateway.close();
    }
  });

  it('G2: `required` refuses to start the server with a clear message, and it never runs', async () => {
    const dir = tempDir('warden-gw-sbx-');
    const started = Gateway.start(configWith(dir, 'required'), decider, {
      timeoutMs: 10_000,
      log: () => undefined,
      sandboxHost: bare,
    });
    await expect(started).rejects.toBeInstanceOf(GatewayStartError);
    await expect(started).rejects.toThrow(
      'servers.fx: must start under the OS sandbox (`sandbox: required`), but this host offers no sandbox backend (Linux without `bwrap` on the PATH): it is not started',
    );
    expect(existsSync(join(dir, 'started'))).toBe(false);
  });
});
