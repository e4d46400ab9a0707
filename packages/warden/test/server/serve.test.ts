// `warden serve`, `warden token` and `warden policy apply` as an operator
// runs them: real processes, a real data folder, HTTP over loopback.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectHost, honestyMatrix } from '../../src/honesty/index.js';
import { warden } from '../helpers.js';
import { tempDir } from '../support/backends.js';
import type { Served } from '../support/processes.js';
import {
  api,
  agentToken,
  dataToken,
  dataWithPolicy as withPolicy,
  freePort,
  killAll,
  serve,
} from '../support/processes.js';
import { refusedToken, tokenList } from '../support/token-cli.js';
import { askPushPolicy } from '../support/ask-push-policy.js';

const POLICY = askPushPolicy(`  - id: no-rm
    scope: workspace
    action: fileDelete
    decision: deny
`);

const running: Served[] = [];
afterEach(() => killAll(running));

async function started(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const server = await serve(args, env);
  running.push(server);
  return server;
}

function dataWithPolicy(): string {
  const { data, said } = withPolicy(POLICY);
  expect(said).toContain('revision 1 of workspace `acme`');
  return data;
}

describe('warden token', () => {
  it('prints a new token once, on standard output alone, and keeps only its hash', () => {
    const data = tempDir();
    const made = warden(['token', 'create', '--role', 'admin', '--name', 'alice', '--data', data]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^wdn_[A-Za-z0-9_-]{43}\n$/);
    expect(made.stderr).toContain('shown once');
    const listed = warden(['token', 'list', '--data', data, '--json']);
    expect(listed.stdout).not.toContain(made.stdout.trim());
    expect(JSON.parse(listed.stdout)).toMatchObject({
      tokens: [{ name: 'alice', role: 'admin', workspace: null, revokedAt: null }],
    });
  });

  it('lists every problem with a token request and creates nothing', () => {
    const data = tempDir();
    const errors = refusedToken(data, '--role', 'agnet', '--name', '');
    expect(errors.map((e) => e.path)).toEqual(['--role', '--name']);
    expect(errors[0]?.message).toContain('unknown role `agnet`');
    const agent = warden(['token', 'create', '--role', 'agent', '--name', 'c', '--data', data]);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toContain('--workspace');
    expect(agent.stderr).toContain('--agent');
    const human = warden([
      'token',
      'create',
      '--role',
      'viewer',
      '--name',
      'v',
      '--agent',
      'coder-1',
      '--data',
      data,
    ]);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('binds agent tokens only');
    expect(tokenList(data)).toEqual({ tokens: [] });
  });

  it('revokes by id or unique name; revoking twice says so', () => {
    const data = tempDir();
    dataToken(data, '--role', 'viewer', '--name', 'carol');
    const revoked = warden(['token', 'revoke', 'carol', '--data', data]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain('revoked tok_');
    const again = warden(['token', 'revoke', 'carol', '--data', data]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no token `carol`');
    const id = (
      JSON.parse(warden(['token', 'list', '--all', '--data', data, '--json']).stdout) as {
        tokens: { id: string }[];
      }
    ).tokens[0]?.id as string;
    const twice = warden(['token', 'revoke', id, '--data', data]);
    expect(twice.stderr).toContain('was revoked already');
  });
});

describe('warden policy apply', () => {
  it('refuses an invalid policy whole, listing every problem', () => {
    const data = tempDir();
    const file = join(data, 'bad.yaml');
    writeFileSync(
      file,
      'version: 1\nworkspace: acme\nrules:\n  - id: a\n    scope: workspace\n    action: gitPushh\n    decision: deny\n  - id: b\n    scope: nowhere\n    action: gitPush\n    decision: allow\n',
    );
    const applied = warden(['policy', 'apply', file, '--data', data, '--json']);
    expect(applied.code).toBe(1);
    const paths = (JSON.parse(applied.stdout) as { errors: { path: string }[] }).errors.map(
      (e) => e.path,
    );
    expect(paths).toEqual(expect.arrayContaining(['rules[0].action', 'rules[1].scope']));
    expect(existsSync(join(data, 'warden.db'))).toBe(false);
  });

  it('needs an admin token to apply through a server (G24: every change is attributed)', async () => {
    const data = dataWithPolicy();
    const admin = dataToken(data, '--role', 'admin', '--name', 'alice');
    const viewer = dataToken(data, '--role', 'viewer', '--name', 'vic');
    const server = await started(['--data', data]);
    const file = join(data, 'policy.yaml');
    const refused = warden(['policy', 'apply', file, '--server', server.url, '--token', viewer]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('HTTP 403');
    const applied = warden([
      'policy',
      'apply',
      file,
      '--server',
      server.url,
      '--token',
      admin,
      '--json',
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toEqual({
      applied: true,
      kind: 'workspace',
      workspace: 'acme',
      revision: 2,
    });
    const revisions = await api(server.url, admin, 'GET', '/v1/policy/revisions?workspace=acme');
    expect(revisions.body).toMatchObject({
      revisions: [{ revision: 2, author: 'alice' }, { revision: 1 }],
    });
  });

  it('says when no server answers, and writes nothing', async () => {
    const data = dataWithPolicy();
    const port = await freePort();
    const applied = warden([
      'policy',
      'apply',
      join(data, 'policy.yaml'),
      '--server',
      `http://127.0.0.1:${port}`,
      '--token',
      'wdn_x',
    ]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('nothing listens there');
  });
});

describe('warden serve', () => {
  it('starts on the embedded default with a banner, decides over HTTP, and stops cleanly', async () => {
    const data = dataWithPolicy();
    const agent = agentToken(data, 'coder-1', 'acme', 'coder');
    const server = await started(['--data', data]);
    expect(server.banner).toMatchObject({
      ready: true,
      storage: { backend: 'sqlite', location: join(data, 'warden.db') },
      managed: { source: 'none' },
      workspaces: [{ workspace: 'acme', revision: 1 }],
      tokens: { agent: 1 },
      approvalTimeoutSeconds: 60,
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({
      ok: true,
      storage: 'sqlite',
    });
    const denied = await api(server.url, agent, 'POST', '/v1/decide', {
      tool: 'rm',
      command: 'rm -rf build',
    });
    expect(denied.status).toBe(200);
    expect(denied.body).toMatchObject({ decision: 'deny', outcome: 'deny', rule: 'no-rm' });
    expect(denied.body.auditId).toEqual(expect.any(String));
    // G22: no approver holds a channel, so a prompt is denied at once.
    const push = await api(server.url, agent, 'POST', '/v1/decide', {
      command: 'git push origin main',
    });
    expect(push.body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.stderr()).toContain('SIGTERM: stopping');
    expect(server.stdout()).toContain('{"stopped":true}');
    const verified = warden(['audit', 'verify', '--data', data, '--json']);
    expect(verified.code, verified.stdout).toBe(0);
    const log = warden(['audit', 'export', '--data', data]).stdout.trim().split('\n');
    expect(log.filter((line) => line.includes('"coder-1"')).length).toBeGreaterThanOrEqual(2);
  });

  it('prints a readable banner without --json', async () => {
    const data = tempDir();
    const { spawnWarden } = await import('../support/processes.js');
    const spawned = spawnWarden(['serve', '--port', '0', '--data', data]);
    try {
      const text = await spawned.waitFor('stop ');
      expect(text).toMatch(/^Warden \S+ — listening on http:\/\/127\.0\.0\.1:\d+\n/);
      expect(text).toContain(`storage     SQLite ${join(data, 'warden.db')}`);
      expect(text).toContain('workspaces  none yet: `warden policy apply FILE`');
      expect(text).toContain(
        'tokens      none yet: `warden token create --role admin --name <you>`',
      );
      // G2: where the host has no sandbox backend, the banner says the guard rules are the outermost layer.
      const backend = honestyMatrix(detectHost()).host.backend;
      expect(text).toContain(
        backend === null
          ? 'sandbox     none on this host: the guard rules are the outermost layer'
          : `sandbox     ${backend} found`,
      );
      expect(text.split('\n').length).toBeLessThan(15);
    } finally {
      expect(await spawned.stop('SIGINT')).toBe(0);
    }
  });

  it('validates the whole configuration before it listens, listing every problem', () => {
    const data = tempDir();
    const config = join(data, 'warden.yaml');
    writeFileSync(config, 'port: 99999\napprovalTimeout: 5\nlogLevel: loud\n');
    const bad = warden(['serve', '--config', config, '--json']);
    expect(bad.code).toBe(1);
    const problems = (JSON.parse(bad.stdout) as { errors: { path: string; message: string }[] })
      .errors;
    expect(problems.map((p) => p.path).sort()).toEqual(
      ['approvalTimeout', 'logLevel', 'port'].sort(),
    );
    const flag = warden(['serve', '--port', 'eighty', '--data', data]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('`eighty` is not a port number');
    const env = warden(['serve', '--data', data], { env: { WARDEN_LOG_LEVEL: 'chatty' } });
    expect(env.code).toBe(1);
    expect(env.stderr).toContain('logLevel');
    const missing = warden(['serve', '--config', join(data, 'nope.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('takes its settings from a file, with flags overriding it', async () => {
    const data = dataWithPolicy();
    const config = join(data, 'warden.yaml');
    writeFileSync(config, `data: ${data}\nport: 1\napprovalTimeoutSeconds: 5\n`);
    const server = await started(['--config', config]);
    expect(server.banner).toMatchObject({
      approvalTimeoutSeconds: 5,
      workspaces: [{ workspace: 'acme' }],
    });
  });

  it('logs each request at debug level by token id, never the token', async () => {
    const data = dataWithPolicy();
    const viewer = dataToken(data, '--role', 'viewer', '--name', 'vic');
    const server = await started(['--data', data], { WARDEN_LOG_LEVEL: 'debug' });
    expect((await api(server.url, viewer, 'GET', '/v1/me')).status).toBe(200);
    expect((await api(server.url, 'wdn_nonsense', 'GET', '/v1/me')).status).toBe(401);
    const line = await server.waitFor(/"status":401/, { stream: 'stderr' });
    expect(line).toBeTruthy();
    const logged = server
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          method: 'GET',
          path: '/v1/me',
          status: 200,
          token: expect.stringMatching(/^tok_/),
        }),
        expect.objectContaining({ method: 'GET', path: '/v1/me', status: 401 }),
      ]),
    );
    expect(server.stderr()).not.toContain(viewer);
  });

  it('says clearly when the port is taken', async () => {
    const data = tempDir();
    const first = await started(['--data', data]);
    const port = new URL(first.url).port;
    const second = warden(['serve', '--data', tempDir(), '--port', port]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
  });

  it('refuses a revoked token within a second of `warden token revoke`', async () => {
    const data = dataWithPolicy();
    const viewer = dataToken(data, '--role', 'viewer', '--name', 'vic');
    const server = await started(['--data', data]);
    expect((await api(server.url, viewer, 'GET', '/v1/me')).status).toBe(200);
    expect(warden(['token', 'revoke', 'vic', '--data', data]).code).toBe(0);
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 3000) {
      status = (await api(server.url, viewer, 'GET', '/v1/me')).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1500);
  });

  it('stops under keep-alive load without waiting out its grace period: what arrives is refused with its connection closed, and the refusals are logged once, counted', async () => {
    const data = dataWithPolicy();
    const agent = agentToken(data, 'coder-1', 'acme', 'coder');
    const config = join(data, 'config.json');
    // A grace period far longer than this test may take: the stop must not need it.
    writeFileSync(config, JSON.stringify({ shutdownGraceSeconds: 600 }));
    const server = await started(['--data', data, '--config', config]);
    const { Agent, request } = await import('node:http');
    const agentPool = new Agent({ keepAlive: true, maxSockets: 8 });
    const body = JSON.stringify({ command: 'git status' });
    let stopped = false;
    const statuses: number[] = [];
    const one = (): Promise<number> =>
      new Promise((resolve) => {
        const req = request(
          `${server.url}/v1/decide`,
          {
            method: 'POST',
            agent: agentPool,
            headers: {
              authorization: `Bearer ${agent}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', () => resolve(0));
        req.end(body);
      });
    const loops = Array.from({ length: 8 }, async () => {
      while (!stopped) statuses.push(await one());
    });
    // Load first, then the stop.
    while (statuses.filter((s) => s === 200).length < 50)
      await new Promise((r) => setTimeout(r, 20));
    const code = await server.stop('SIGTERM');
    stopped = true;
    await Promise.all(loops);
    agentPool.destroy();
    expect(code).toBe(0);
    const log = server.stderr() + server.stdout();
    expect(log.match(/request failed/g) ?? []).toEqual([]);
    const refused = statuses.filter((s) => s === 503).length;
    if (refused > 0) expect(log).toContain(`refused ${refused} requests while stopping`);
  });

  it('finishes a request in flight on SIGTERM and flushes its audit record (graceful shutdown)', async () => {
    const data = dataWithPolicy();
    const agent = agentToken(data, 'coder-1', 'acme', 'coder');
    const approver = dataToken(data, '--role', 'approver', '--name', 'bob');
    const server = await started(['--data', data]);
    // An approver holds a channel, so the push waits for an answer that never comes.
    const channel = new AbortController();
    const stream = await fetch(`${server.url}/v1/approvals/stream`, {
      headers: { authorization: `Bearer ${approver}` },
      signal: channel.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    await reader?.read();
    const pending = api(server.url, agent, 'POST', '/v1/decide', {
      command: 'git push origin feature/x',
    });
    const deadline = Date.now() + 5000;
    let listed: unknown[] = [];
    while (listed.length === 0 && Date.now() < deadline) {
      listed =
        ((await api(server.url, approver, 'GET', '/v1/approvals?workspace=acme')).body
          .approvals as unknown[]) ?? [];
      if (listed.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(listed).toHaveLength(1);
    const exited = server.stop('SIGTERM');
    const answer = await pending;
    channel.abort();
    expect(answer.status).toBe(200);
    // The approval ended with the server: fail-closed, and recorded.
    expect(answer.body).toMatchObject({ decision: 'prompt', outcome: 'deny' });
    expect(await exited).toBe(0);
    const log = warden(['audit', 'export', '--data', data]).stdout;
    expect(log).toContain(answer.body.auditId as string);
    expect(warden(['audit', 'verify', '--data', data]).code).toBe(0);
  });
});
