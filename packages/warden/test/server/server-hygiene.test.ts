// Server hygiene (contracts §8, inspector.md, G22): refusals are sentences
// that name the role with the right article and no promise ids; the
// inspector routes never show where the data lives; an approval reads
// `expired` once its deadline has passed; `warden serve` closes clients that
// are slow to send a request or idle between requests and caps its
// connections, while a long answer (an approver's channel) stays open; and
// the SQLite files are readable by their owner only.

import { chmodSync, existsSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../src/instance/index.js';
import type { Identity, Permission } from '../../src/server/auth.js';
import { can } from '../../src/server/auth.js';
import { loadConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/serve.js';
import type { RunningServer } from '../../src/server/serve.js';
import { Warden } from '../../src/warden.js';
import { tempDir } from '../support/backends.js';
import { makeToken, openTestServer } from '../support/server.js';
import type { TokenBinding } from '../support/server.js';

type J = Record<string, unknown>;

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [{ id: 'ask-push', action: 'gitPush', decision: 'prompt' }],
};
const PUSH = { tool: 'git_push', actions: ['gitPush'], args: { refs: ['feature/x'] } };
const ROLES = ['admin', 'approver', 'overrider', 'viewer', 'agent'] as const;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A token of `role` with a name of its own. */
async function tokenFor(
  t: { warden: Warden },
  role: string,
  binding: TokenBinding = {},
): Promise<string> {
  const name = `${role}-${Math.random().toString(36).slice(2, 8)}`;
  return (await makeToken(t.warden.store.tokens, role, name, binding)).token;
}

async function inProcess(policy: object | null, clock: () => number = Date.now) {
  const server = await openTestServer(policy, {
    warden: { approvals: { timeoutMs: 60_000, pollMs: 20 } },
    clock,
  });
  cleanups.push(() => server.cleanup());
  return { t: server.t, api: server.api, call: server.call };
}

const messages = (body: J): string[] =>
  ((body.errors as { message: string }[] | undefined) ?? []).map((e) => e.message);

describe('403 answers are sentences that read correctly (contracts §8)', () => {
  it('every route a role may not use says "a/an `role` token may not …" and which roles may, without promise ids', async () => {
    const { t, api, call } = await inProcess(POLICY);
    const tokens: Record<string, string> = {};
    for (const role of ROLES)
      tokens[role] = await tokenFor(
        t,
        role,
        role === 'agent' ? { workspace: 'acme', agent: 'coder-1' } : {},
      );
    const paths = api.openapi({ title: 't', version: '0' }).paths as Record<
      string,
      Record<string, { 'x-warden-permission'?: string }>
    >;
    let refusals = 0;
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (op['x-warden-permission'] === undefined) continue;
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const permission = op['x-warden-permission'] as Permission | 'any';
        for (const role of ROLES) {
          if (permission === 'any' || can({ role } as Identity, permission)) continue;
          const answer = await call(method.toUpperCase(), url, tokens[role] as string);
          expect(answer.status, `${method} ${path} as ${role}`).toBe(403);
          for (const text of messages(answer.body)) {
            refusals += 1;
            expect(text, `${method} ${path} as ${role}`).not.toMatch(/\b[GEIA]\d+\b/);
            expect(text).not.toMatch(/\ba `[aeiou]/i);
            expect(text).not.toMatch(/\ban `[^aeiou]/i);
            expect(text).toMatch(/^an? `[a-z]+` token may not [a-z][^:]*: that takes an? `/);
          }
        }
      }
    }
    // The loop saw refusals of every kind: agents reading, humans deciding, viewers answering.
    expect(refusals).toBeGreaterThan(20);
    const agentReads = await call('GET', '/v1/audit', tokens.agent as string);
    expect(messages(agentReads.body)).toEqual([
      'an `agent` token may not read the records of a workspace: that takes an `admin`, `approver`, `overrider` or `viewer` token',
    ]);
    const adminDecides = await call('POST', '/v1/decide', tokens.admin as string, PUSH);
    expect(messages(adminDecides.body)).toEqual([
      'an `admin` token may not ask for decisions or act as an agent: that takes an `agent` token',
    ]);
    const viewerAnswers = await call('POST', '/v1/approvals/x/answer', tokens.viewer as string, {
      kind: 'once',
    });
    expect(messages(viewerAnswers.body)).toEqual([
      'a `viewer` token may not answer approvals: that takes an `admin`, `approver` or `overrider` token',
    ]);
  });
});

describe('the inspector routes never show the data path (inspector.md)', () => {
  it('neither the answers nor the refusals name the data folder', async () => {
    const { t, call } = await inProcess(POLICY);
    await createAgent(t.data, {
      id: 'sup',
      role: 'supervisor',
      workspace: 'acme',
      tools: {
        agentInspector: { observableAgents: ['a1'], allowFileAccess: true },
        messageHuman: {},
      },
    });
    await createAgent(t.data, { id: 'a1', role: 'coder', workspace: 'acme' });
    writeFileSync(join(t.data, 'agents', 'a1', 'Workspace', 'notes.md'), '# notes\n');
    const sup = await tokenFor(t, 'agent', { workspace: 'acme', agent: 'sup' });
    const ghost = await tokenFor(t, 'agent', { workspace: 'acme', agent: 'ghost' });
    const paths = [t.data, realpathSync(t.data)];
    const answers = [
      await call('GET', '/v1/inspector', sup),
      await call('POST', '/v1/inspector/list_agents', sup, {}),
      await call('POST', '/v1/inspector/list_files', sup, { agent: 'a1' }),
      await call('POST', '/v1/inspector/read_file', sup, {
        agent: 'a1',
        path: 'Workspace/notes.md',
      }),
      await call('POST', '/v1/inspector/read_file', sup, {
        agent: 'a1',
        path: 'Workspace/missing.md',
      }),
      await call('POST', '/v1/inspector/read_file', sup, { agent: 'a1', path: '/etc/passwd' }),
      await call('POST', '/v1/inspector/nope', sup, {}),
      await call('GET', '/v1/inspector', ghost),
      await call('POST', '/v1/inspector/list_agents', ghost, {}),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 403, 403]);
    expect(answers[3]?.text).toContain('# notes');
    for (const answer of answers) for (const path of paths) expect(answer.text).not.toContain(path);
    // The refusal still says why: the agent has no folder in the data folder.
    expect(messages(answers[7]?.body ?? {}).join('')).toContain(
      '`ghost` is not an agent of the instance in `<data>`',
    );
  });
});

describe('an approval reads expired once its deadline has passed (G22)', () => {
  it('GET /v1/approvals/:id and the list say `expired` though the store still says pending', async () => {
    let offset = 0;
    const { t, call } = await inProcess(POLICY, () => Date.now() + offset);
    const agent = await tokenFor(t, 'agent', { workspace: 'acme', agent: 'coder-1' });
    const viewer = await tokenFor(t, 'viewer');
    const channel = await t.warden.approvals.connect({ name: 'al', roles: ['approver'] });
    cleanups.push(() => channel.close());
    const asked = await call('POST', '/v1/decide?wait=0', agent, PUSH);
    const id = String(asked.body.approvalId);
    const read = () => call('GET', `/v1/approvals/${id}`, viewer);
    expect((await read()).body).toMatchObject({ state: 'pending', closedReason: null });
    // The server's clock is past the 60 s deadline; nothing has swept the approval yet.
    offset = 61_000;
    expect((await t.warden.store.approvals.get(id))?.state).toBe('pending');
    expect((await read()).body).toMatchObject({
      state: 'expired',
      closedReason: 'no answer within 60 s',
    });
  });
});

/** A socket to the server; `closed` settles when the server ends it, with how long that took. */
function socketTo(url: string): { socket: Socket; closed: Promise<number>; opened: number } {
  const { hostname, port } = new URL(url);
  const opened = Date.now();
  const socket = connect({ host: hostname, port: Number(port) });
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => resolve(Date.now() - opened)),
  );
  return { socket, closed, opened };
}

const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'open'> =>
  Promise.race([promise, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);

describe('`warden serve` closes slow and idle clients and caps connections', () => {
  async function serve(http: J): Promise<{ running: RunningServer; data: string }> {
    const data = tempDir('warden-hygiene-');
    const loaded = loadConfig({ data, port: '0' }, {});
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const running = await startServer(
      { ...loaded.config, http: { ...loaded.config.http, ...http } },
      { version: '0.0.0-test', env: {}, logger: pino({ level: 'silent' }) },
    );
    cleanups.push(() => running.stop());
    return { running, data };
  }
  const quick = {
    headersTimeoutSeconds: 0.5,
    requestTimeoutSeconds: 1,
    keepAliveTimeoutSeconds: 0.5,
  };

  it('has sane defaults, is configurable, and says when headers may take longer than the request', () => {
    const defaults = loadConfig({}, {});
    expect(defaults.ok && defaults.config.http).toEqual({
      headersTimeoutSeconds: 20,
      requestTimeoutSeconds: 60,
      keepAliveTimeoutSeconds: 5,
      maxConnections: 1024,
    });
    const dir = tempDir('warden-config-');
    const file = join(dir, 'warden.yaml');
    writeFileSync(file, 'http:\n  maxConnections: 10\n  headersTimeoutSeconds: 90\n');
    const bad = loadConfig({ config: file }, {});
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems).toEqual([
      {
        path: 'http.headersTimeoutSeconds',
        message:
          'the headers of a request cannot take longer than the whole request: give `headersTimeoutSeconds` at most `requestTimeoutSeconds`',
      },
    ]);
    writeFileSync(file, 'http:\n  maxConnections: 10\n');
    const good = loadConfig({ config: file }, {});
    expect(good.ok && good.config.http.maxConnections).toBe(10);
  });

  it('a client that never finishes its headers is disconnected after the headers timeout', async () => {
    const { running } = await serve(quick);
    const { socket, closed } = socketTo(running.url);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${new URL(running.url).host}\r\n`);
    const after = await within(closed, 5000);
    expect(after).not.toBe('open');
    expect(after as number).toBeGreaterThanOrEqual(400);
  });

  it('a client that sends its body a byte at a time is disconnected after the request timeout', async () => {
    const { running } = await serve(quick);
    // A known token: the route waits for the body rather than refusing the client first.
    const viewer = await tokenFor(running, 'viewer');
    const { socket, closed } = socketTo(running.url);
    socket.write(
      `POST /v1/what-if HTTP/1.1\r\nHost: ${new URL(running.url).host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nAuthorization: Bearer ${viewer}\r\n\r\n`,
    );
    const drip = setInterval(() => socket.write(' '), 100);
    try {
      const after = await within(closed, 6000);
      expect(after).not.toBe('open');
      expect(after as number).toBeGreaterThanOrEqual(900);
    } finally {
      clearInterval(drip);
    }
  });

  it('an idle kept-alive connection is closed after the keep-alive timeout', async () => {
    const { running } = await serve(quick);
    const { socket, closed } = socketTo(running.url);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.write(
      `GET /healthz HTTP/1.1\r\nHost: ${new URL(running.url).host}\r\nConnection: keep-alive\r\n\r\n`,
    );
    const after = await within(closed, 4000);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(after).not.toBe('open');
  });

  it('connections beyond the cap are closed at once; those within it are served', async () => {
    const { running } = await serve({
      ...quick,
      headersTimeoutSeconds: 5,
      requestTimeoutSeconds: 5,
      maxConnections: 2,
    });
    const held = [socketTo(running.url), socketTo(running.url)];
    await Promise.all(held.map((h) => new Promise((resolve) => h.socket.once('connect', resolve))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = socketTo(running.url);
    expect(await within(extra.closed, 1000)).not.toBe('open');
    for (const h of held) expect(h.socket.destroyed).toBe(false);
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    // With the held ones gone, a new client is served.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  });

  it("a long answer is not cut: an approver's channel outlives the request timeout (G22)", async () => {
    const { running } = await serve(quick);
    const approver = await tokenFor(running, 'approver');
    const { hostname, port } = new URL(running.url);
    const events: string[] = [];
    let ended = false;
    const req = httpRequest({
      host: hostname,
      port: Number(port),
      path: '/v1/approvals/stream',
      headers: { authorization: `Bearer ${approver}` },
    });
    req.on('error', () => undefined);
    const status = await new Promise<number>((resolve) => {
      req.on('response', (res) => {
        res.on('data', (chunk: Buffer) => events.push(chunk.toString()));
        res.on('end', () => (ended = true));
        res.on('close', () => (ended = true));
        resolve(res.statusCode ?? 0);
      });
      req.end();
    });
    expect(status).toBe(200);
    // A decision that waits for that approver (G22) is a long answer too.
    const written = await running.warden.putPolicy(POLICY, { author: 'test' });
    expect(written.ok).toBe(true);
    const agent = await tokenFor(running, 'agent', { workspace: 'acme', agent: 'coder-1' });
    let decided: { status: number; body: J } | null = null;
    const waiting = fetch(`${running.url}/v1/decide`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent}`, 'content-type': 'application/json' },
      body: JSON.stringify(PUSH),
    }).then(async (res) => (decided = { status: res.status, body: (await res.json()) as J }));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(events.join('')).toContain('event: ready');
    expect(events.join('')).toContain('event: approval');
    expect(ended).toBe(false);
    expect(decided).toBeNull();
    // Answered now, the waiting decision gets its answer over the connection it kept.
    const [pending] = await running.warden.approvals.list({ workspace: 'acme', state: 'pending' });
    await running.warden.approvals.answer(
      String(pending?.id),
      { kind: 'once' },
      { name: 'al', roles: ['approver'], workspace: null },
    );
    await waiting;
    expect(decided).toMatchObject({ status: 200, body: { outcome: 'allow' } });
    req.destroy();
  });
});

describe('the SQLite files are readable by their owner only', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('a data folder Warden makes is 0700; the database, its -wal and -shm are 0600', async () => {
    const data = join(tempDir('warden-perm-'), 'new', 'data');
    const warden = await Warden.open({ data, env: { WARDEN_LOG_LEVEL: 'silent' } });
    try {
      await tokenFor({ warden }, 'viewer');
      const db = join(data, 'warden.db');
      expect(mode(data)).toBe(0o700);
      for (const file of [db, `${db}-wal`, `${db}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(mode(file), file).toBe(0o600);
      }
    } finally {
      await warden.close();
    }
  });

  it('an existing database readable by others is narrowed to 0600 when opened; an existing folder keeps its mode', async () => {
    const data = tempDir('warden-perm-');
    chmodSync(data, 0o755);
    const first = await Warden.open({ data, env: { WARDEN_LOG_LEVEL: 'silent' } });
    await first.close();
    const db = join(data, 'warden.db');
    chmodSync(db, 0o644);
    if (existsSync(`${db}-wal`)) chmodSync(`${db}-wal`, 0o644);
    const again = await Warden.open({ data, env: { WARDEN_LOG_LEVEL: 'silent' } });
    try {
      await tokenFor({ warden: again }, 'viewer');
      expect(mode(db)).toBe(0o600);
      expect(mode(`${db}-wal`)).toBe(0o600);
      expect(mode(data)).toBe(0o755);
    } finally {
      await again.close();
    }
  });
});
