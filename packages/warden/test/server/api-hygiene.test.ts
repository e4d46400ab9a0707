// API hygiene: every API answer says `Cache-Control: no-store` and
// `X-Content-Type-Options: nosniff` (errors and 404s too), while the
// console's files keep their own headers; `warden serve` refuses a request
// whose `Host` does not name it (DNS-rebinding protection) — the loopback
// names and the address it listens on pass, other names only when allowed,
// and no `Host` at all makes it fail; and tokens may expire (contracts §8):
// made with an expiry from the CLI or the API, stored on both backends,
// shown when listed, and refused once past it with a 401 that says when.

import { rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createToken } from '../../src/tokens.js';
import { loadConfig } from '../../src/server/config.js';
import { serverHosts } from '../../src/server/hosts.js';
import { bannerFacts, renderBanner, startServer } from '../../src/server/serve.js';
import type { RunningServer } from '../../src/server/serve.js';
import { openPostgres } from '../../src/store/postgres.js';
import { openSqlite } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';
import { warden } from '../helpers.js';
import {
  BACKENDS,
  PG_URL,
  dropSchema,
  requirePostgresUnderCi,
  tempDir,
  uniqueSchema,
} from '../support/backends.js';
import type { Served } from '../support/processes.js';
import { api, killAll, serve } from '../support/processes.js';
import { makeToken, openTestServer } from '../support/server.js';
import { refusedToken, tokenList } from '../support/token-cli.js';

type J = Record<string, unknown>;

const cleanups: (() => Promise<void> | void)[] = [];
const spawned: Served[] = [];
afterEach(async () => {
  await killAll(spawned);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [{ id: 'ask-push', action: 'gitPush', decision: 'prompt' }],
};

async function inProcess(clock: () => number = Date.now) {
  const server = await openTestServer(POLICY, { clock });
  cleanups.push(() => server.cleanup());
  return server;
}

describe('API answers are never cached nor sniffed', () => {
  it('says `no-store` and `nosniff` on answers, errors, 404s and the answer that makes a token', async () => {
    const { app, tokens } = await inProcess();
    const ask = (method: string, path: string, token?: string, body?: string) =>
      app.request(path, {
        method,
        headers: {
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      });
    const answers: [string, Response, number][] = [
      ['GET /v1/me', await ask('GET', '/v1/me', tokens.viewer), 200],
      ['GET /v1/openapi.json', await ask('GET', '/v1/openapi.json', tokens.viewer), 200],
      ['GET /v1/tokens', await ask('GET', '/v1/tokens', tokens.admin), 200],
      [
        'POST /v1/tokens',
        await ask(
          'POST',
          '/v1/tokens',
          tokens.admin,
          JSON.stringify({ role: 'viewer', name: 'v2' }),
        ),
        201,
      ],
      ['no token', await ask('GET', '/v1/me'), 401],
      ['a role without the right', await ask('GET', '/v1/tokens', tokens.viewer), 403],
      ['an unknown API path', await ask('GET', '/v1/no-such-route', tokens.viewer), 404],
      ['an unknown path under no token', await ask('GET', '/v1/nothing/here'), 401],
      ['a body that is not JSON', await ask('POST', '/v1/decide', tokens.agent, '{not json'), 400],
      [
        'a body too large',
        await ask('POST', '/v1/decide', tokens.agent, JSON.stringify({ x: 'y'.repeat(3 << 20) })),
        413,
      ],
      ['a path outside the API', await ask('GET', '/no-such-page'), 404],
      ['the health check', await ask('GET', '/healthz'), 200],
    ];
    for (const [what, res, status] of answers) {
      expect(res.status, what).toBe(status);
      expect(res.headers.get('cache-control'), what).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    }
    const made = answers.find(([what]) => what === 'POST /v1/tokens')?.[1] as Response;
    expect(((await made.json()) as J).token).toMatch(/^wdn_/);
  });

  it('leaves the console its own headers: its content security policy, `no-cache` and `nosniff`', async () => {
    const { app } = await inProcess();
    for (const path of ['/', '/ui/app.js', '/approvals']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), path).toContain("default-src 'self'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });
});

/** One raw HTTP/1.1 request whose `Host` line carries `host` byte for byte (null: no `Host` line). */
function rawRequest(
  port: number,
  host: string | null,
  options: { path?: string; token?: string; encoding?: BufferEncoding; version?: string } = {},
): Promise<{ status: number; headers: string; body: string }> {
  const { path = '/healthz', token, encoding = 'utf8', version = '1.1' } = options;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close on a request it cannot parse before it reads it all.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') socket.destroy();
      else reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const [headers = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status, headers: headers.toLowerCase(), body });
    });
    socket.write(
      Buffer.concat([
        Buffer.from(`GET ${path} HTTP/${version}\r\n`, 'latin1'),
        host === null ? Buffer.alloc(0) : Buffer.from(`Host: ${host}\r\n`, encoding),
        Buffer.from(
          `${token === undefined ? '' : `Authorization: Bearer ${token}\r\n`}Connection: close\r\n\r\n`,
          'latin1',
        ),
      ]),
    );
  });
}

async function started(
  flags: { host?: string; allowHost?: string[] } = {},
  env: NodeJS.ProcessEnv = {},
): Promise<{ running: RunningServer; admin: string }> {
  const data = tempDir('warden-hosts-');
  const loaded = loadConfig({ data, port: '0', ...flags }, env);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  const running = await startServer(loaded.config, {
    version: '0.0.0-test',
    env: {},
    logger: pino({ level: 'silent' }),
  });
  cleanups.push(async () => {
    await running.stop();
    rmSync(data, { recursive: true, force: true });
  });
  const { token } = await makeToken(running.warden.store.tokens, 'admin', 'ada');
  return { running, admin: token };
}

describe('`warden serve` answers only requests whose Host names it', () => {
  it('accepts the loopback names with its port, IPv6 `[::1]` too, and a configured name', async () => {
    const { running, admin } = await started({ allowHost: ['warden.lan'] });
    const { port } = running;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LocalHost:${port}`,
      `[::1]:${port}`,
      'warden.lan',
      `warden.lan:${port}`,
      'WARDEN.LAN:443',
    ]) {
      const answer = await rawRequest(port, host, { path: '/v1/me', token: admin });
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ name: 'ada', role: 'admin' });
    }
  });

  it('refuses any other name with a 403 in the API error shape that says which and how to allow it', async () => {
    const { running, admin } = await started({ allowHost: ['warden.lan:8443'] });
    const { port } = running;
    for (const [host, path] of [
      ['evil.example', '/v1/me'],
      [`evil.example:${port}`, '/v1/me'],
      [`localhost:${port + 1}`, '/v1/me'],
      ['localhost', '/v1/me'],
      [`[::2]:${port}`, '/v1/me'],
      ['warden.lan', '/v1/me'],
      [`127.0.0.1.nip.io:${port}`, '/healthz'],
      [`evil.example:${port}`, '/'],
      [`evil.example:${port}`, '/v1/no-such-route'],
      // Too malformed to make a URL of: refused all the same, not left to the HTTP layer.
      [`a b:${port}`, '/v1/me'],
      [`x/y:${port}`, '/v1/me'],
      [`localhost:99999`, '/v1/me'],
      [`[::1:${port}`, '/v1/me'],
      [`user@localhost:${port}`, '/v1/me'],
      ['', '/v1/me'],
    ] as const) {
      const answer = await rawRequest(port, host, { path, token: admin });
      expect(answer.status, host).toBe(403);
      expect(answer.headers).toContain('cache-control: no-store');
      expect(answer.headers).toContain('x-content-type-options: nosniff');
      const body = JSON.parse(answer.body) as { errors: { path: string; message: string }[] };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]?.path).toBe('host');
      const message = body.errors[0]?.message ?? '';
      expect(message).toContain(`the Host header \`${host}\` does not name this server`);
      expect(message).toContain(`\`127.0.0.1:${port}\``);
      expect(message).toContain('`warden.lan:8443`');
      expect(message).toContain('--allow-host NAME');
      expect(message).toContain('WARDEN_ALLOW_HOSTS');
      expect(message).toContain('allowHosts');
    }
    // HTTP/1.1 requires a `Host` (Node answers its absence with a 400); HTTP/1.0 may leave it out.
    expect((await rawRequest(port, null)).status).toBe(400);
    const none = await rawRequest(port, null, { version: '1.0', path: '/v1/me', token: admin });
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body)).toMatchObject({
      errors: [{ path: 'host', message: expect.stringContaining('the Host header is missing') }],
    });
  });

  it('accepts the address it listens on, and every address of the machine when it listens on all', async () => {
    const lan = serverHosts('192.0.2.7', 8787, []);
    expect(lan.accepts('192.0.2.7:8787')).toBe(true);
    expect(lan.accepts('127.0.0.1:8787')).toBe(true);
    expect(lan.accepts('192.0.2.8:8787')).toBe(false);
    expect(lan.accepts('192.0.2.7:8788')).toBe(false);
    expect(lan.accepts('192.0.2.7')).toBe(false);
    const lan6 = serverHosts('fd00::7', 8787, []);
    expect(lan6.accepts('[fd00::7]:8787')).toBe(true);
    expect(lan6.accepts('[FD00::7]:8787')).toBe(true);
    expect(lan6.accepts('fd00::7')).toBe(false);
    // Port 80: a `Host` leaves the default port out.
    expect(serverHosts('192.0.2.7', 80, []).accepts('192.0.2.7')).toBe(true);

    let addresses = ['192.0.2.2', '[fd00::2]'];
    let now = 0;
    const everywhere = serverHosts(
      '0.0.0.0',
      8787,
      [],
      () => addresses,
      () => now,
    );
    expect(everywhere.accepts('0.0.0.0:8787')).toBe(true);
    expect(everywhere.accepts('192.0.2.2:8787')).toBe(true);
    expect(everywhere.accepts('[fd00::2]:8787')).toBe(true);
    expect(everywhere.accepts('192.0.2.3:8787')).toBe(false);
    expect(everywhere.accepts('evil.example:8787')).toBe(false);
    expect(everywhere.accepted()).toContain('192.0.2.2:8787');
    // An address the machine gains is accepted once the list is read again.
    addresses = [...addresses, '192.0.2.3'];
    now += 10_000;
    expect(everywhere.accepts('192.0.2.3:8787')).toBe(true);
    const v6 = serverHosts('::', 8787, [], () => ['192.0.2.2']);
    expect(v6.accepts('[::]:8787')).toBe(true);
    expect(v6.accepts('192.0.2.2:8787')).toBe(true);
  });

  it('listening on 0.0.0.0, answers a request that names one of its own addresses', async () => {
    const { running, admin } = await started({ host: '0.0.0.0' });
    const { port } = running;
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .find((entry) => entry.family === 'IPv4' && !entry.internal)?.address;
    for (const host of [
      `0.0.0.0:${port}`,
      `127.0.0.1:${port}`,
      ...(own === undefined ? [] : [`${own}:${port}`]),
    ])
      expect((await rawRequest(port, host, { path: '/v1/me', token: admin })).status, host).toBe(
        200,
      );
    expect((await rawRequest(port, `warden.example:${port}`)).status).toBe(403);
    // The banner says which names pass.
    expect(running.hosts()).toContain(`0.0.0.0:${port}`);
    const loaded = loadConfig({ host: '0.0.0.0' }, {});
    if (!loaded.ok) throw new Error('the configuration is not valid');
    const banner = renderBanner(
      await bannerFacts(running, loaded.config, '0.0.0-test'),
      loaded.config,
    );
    expect(banner).toContain(`  hosts       localhost:${port}, 127.0.0.1:${port}, [::1]:${port}`);
    expect(banner).toContain('other names with `--allow-host NAME`');
  });

  it('any Host value is either accepted, when it is allowed, or refused with a 4xx, never a 5xx', async () => {
    const { running, admin } = await started({ allowHost: ['api.example.test'] });
    const { port } = running;
    const allowed = (value: string): boolean => {
      const host = value.trim().toLowerCase();
      const withPort = /^(localhost|127\.0\.0\.1|\[::1\]):(\d+)$/.exec(host);
      if (withPort !== null) return Number(withPort[2]) === port;
      const named = /^api\.example\.test(?::(\d{1,5}))?$/.exec(host);
      return (
        named !== null &&
        (named[1] === undefined || (Number(named[1]) >= 1 && Number(named[1]) <= 65535))
      );
    };
    const good = fc.constantFrom(
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      'api.example.test',
      'api.example.test:8443',
      `API.example.TEST:${port}`,
    );
    // No CR or LF: they would end the header line and make another request of it.
    const noBreaks = (text: string) => text.replace(/[\r\n]/g, '');
    const value = fc.oneof(
      good,
      fc.string({ maxLength: 80 }).map(noBreaks),
      fc.string({ unit: 'binary', maxLength: 80 }).map(noBreaks),
      // Lone surrogates and other invalid Unicode, sent as UTF-8 and as raw bytes.
      fc.string({
        unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
        maxLength: 8,
      }),
      fc.string({ unit: 'grapheme-ascii', minLength: 1000, maxLength: 20_000 }).map(noBreaks),
      fc.tuple(good, fc.string({ maxLength: 10 })).map(([a, b]) => noBreaks(`${a}${b}`)),
      fc.tuple(fc.string({ maxLength: 10 }), good).map(([a, b]) => noBreaks(`${a}${b}`)),
    );
    await fc.assert(
      fc.asyncProperty(
        value,
        fc.constantFrom<BufferEncoding>('utf8', 'latin1'),
        fc.constantFrom('/healthz', '/v1/me', '/v1/nope', '/'),
        async (host, encoding, path) => {
          const answer = await rawRequest(port, host, { path, token: admin, encoding });
          expect(answer.status).toBeGreaterThanOrEqual(200);
          expect(answer.status).toBeLessThan(500);
          const bytesAsSent = Buffer.from(host, encoding).toString('latin1');
          if (answer.status < 400 || (path === '/v1/nope' && answer.status === 404)) {
            expect(allowed(bytesAsSent)).toBe(true);
          } else if (answer.status === 403) {
            expect(allowed(bytesAsSent)).toBe(false);
            expect(JSON.parse(answer.body)).toMatchObject({ errors: [{ path: 'host' }] });
          } else {
            // Only what HTTP itself cannot carry is refused by Node before the check: a bad byte, too long.
            expect([400, 431]).toContain(answer.status);
          }
          if (allowed(host) && encoding === 'utf8' && host.trim() === host)
            expect(answer.status).toBe(path === '/v1/nope' ? 404 : 200);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the allowed Host names are a setting', () => {
  it('comes from the file, WARDEN_ALLOW_HOSTS (comma-separated) or `--allow-host`, each replacing the one before', () => {
    const fromEnv = loadConfig({}, { WARDEN_ALLOW_HOSTS: 'warden.lan, proxy.internal:8443,' });
    expect(fromEnv.ok && fromEnv.config.allowHosts).toEqual(['warden.lan', 'proxy.internal:8443']);
    const fromFlags = loadConfig(
      { allowHost: ['a.lan', '[fd00::1]:8787'] },
      { WARDEN_ALLOW_HOSTS: 'warden.lan' },
    );
    expect(fromFlags.ok && fromFlags.config.allowHosts).toEqual(['a.lan', '[fd00::1]:8787']);
    const none = loadConfig({}, {});
    expect(none.ok && none.config.allowHosts).toEqual([]);
  });

  it('lists every name that is not one, saying where it came from', () => {
    const bad = loadConfig(
      { allowHost: ['https://warden.lan', 'ok.lan'] },
      { WARDEN_ALLOW_HOSTS: 'bad name' },
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problems.map((p) => p.path)).toEqual(['WARDEN_ALLOW_HOSTS', '--allow-host']);
    expect(bad.problems[1]?.message).toContain('is a URL: give the host name alone');
    const dir = tempDir('warden-hosts-config-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'warden.json');
    writeFileSync(file, JSON.stringify({ allowHosts: ['fine.lan', 'no way'] }));
    const fromFile = loadConfig({ config: file }, {});
    expect(fromFile.ok).toBe(false);
    if (!fromFile.ok) expect(fromFile.problems.map((p) => p.path)).toEqual(['allowHosts.1']);
  });

  it('`warden serve --allow-host` with a URL stops before listening and says so', () => {
    const ran = warden([
      'serve',
      '--data',
      tempDir(),
      '--port',
      '0',
      '--allow-host',
      'http://x.lan/',
    ]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('--allow-host');
    expect(ran.stderr).toContain('is a URL');
  });
});

describe('a token may expire', () => {
  const T0 = Date.parse('2026-12-03T09:00:00Z');

  it('`POST /v1/tokens` takes `expires` (a span or a time) or `expiresAt`; the list shows it, null when none', async () => {
    let now = T0;
    const { call, tokens } = await inProcess(() => now);
    const day = await call('POST', '/v1/tokens', tokens.admin, {
      role: 'viewer',
      name: 'for-a-day',
      expires: '24h',
    });
    expect(day.status, day.text).toBe(201);
    expect(day.body).toMatchObject({ record: { expiresAt: '2026-12-04T09:00:00.000Z' } });
    const at = await call('POST', '/v1/tokens', tokens.admin, {
      role: 'viewer',
      name: 'until-new-year',
      expiresAt: '2027-01-01T00:00:00+01:00',
    });
    expect(at.status, at.text).toBe(201);
    expect(at.body).toMatchObject({ record: { expiresAt: '2026-12-31T23:00:00.000Z' } });
    for (const [expires, want] of [
      ['90m', '2026-12-03T10:30:00.000Z'],
      ['30d', '2027-01-02T09:00:00.000Z'],
      ['2w', '2026-12-17T09:00:00.000Z'],
      ['2026-12-03T12:00:00Z', '2026-12-03T12:00:00.000Z'],
    ] as const) {
      const made = await call('POST', '/v1/tokens', tokens.admin, {
        role: 'approver',
        name: `a-${expires.replace(/:/g, '.')}`,
        expires,
      });
      expect(made.status, made.text).toBe(201);
      expect((made.body.record as J).expiresAt, expires).toBe(want);
    }
    const listed = await call('GET', '/v1/tokens', tokens.admin);
    const byName = new Map(
      (listed.body.tokens as J[]).map((t) => [t.name as string, t.expiresAt as string | null]),
    );
    expect(byName.get('for-a-day')).toBe('2026-12-04T09:00:00.000Z');
    expect(byName.get('until-new-year')).toBe('2026-12-31T23:00:00.000Z');
    expect(byName.get('ada')).toBeNull();

    // A day later the token is refused, and the refusal says when it expired.
    const secret = day.body.token as string;
    expect((await call('GET', '/v1/me', secret)).status).toBe(200);
    now = T0 + 24 * 3_600_000 - 1;
    expect((await call('GET', '/v1/me', secret)).status).toBe(200);
    now = T0 + 24 * 3_600_000;
    const refused = await call('GET', '/v1/me', secret);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      errors: [
        {
          path: 'authorization',
          message:
            'the token `for-a-day` expired at 2026-12-04T09:00:00.000Z: an admin makes a new one (`warden token create` or `POST /v1/tokens`)',
        },
      ],
    });
    // Still listed, with its expiry, for the admin to see.
    const later = await call('GET', '/v1/tokens', tokens.admin);
    expect((later.body.tokens as J[]).find((t) => t.name === 'for-a-day')).toMatchObject({
      expiresAt: '2026-12-04T09:00:00.000Z',
      revokedAt: null,
    });
  });

  it('ends an approver channel held with a token once it expires, saying when', async () => {
    let now = Date.now();
    const { call, app, tokens } = await inProcess(() => now);
    const made = await call('POST', '/v1/tokens', tokens.admin, {
      role: 'approver',
      name: 'shift',
      expires: '8h',
    });
    expect(made.status, made.text).toBe(201);
    const res = await app.request('/v1/approvals/stream', {
      headers: { authorization: `Bearer ${made.body.token as string}` },
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (needle: string): Promise<void> => {
      const deadline = Date.now() + 5000;
      while (!text.includes(needle)) {
        if (Date.now() > deadline) throw new Error(`no \`${needle}\` in ${text}`);
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    };
    try {
      await until('event: ready');
      now += 8 * 3_600_000;
      await until('event: revoked');
      await until('the token expired at ');
      expect(text).toContain(`the token expired at ${(made.body.record as J).expiresAt as string}`);
    } finally {
      await reader.cancel();
    }
  });

  it('refuses an expiry that is not one with a 400 naming the field, and makes no token', async () => {
    const { call, tokens } = await inProcess(() => T0);
    for (const [body, path, says] of [
      [{ expires: 'soon' }, 'expires', 'neither a span like `24h`'],
      [{ expires: '0d' }, 'expires', 'no time at all'],
      [{ expires: '-1d' }, 'expires', 'neither a span'],
      [{ expires: '2026-12-01T08:00:00Z' }, 'expires', 'is not in the future'],
      [{ expires: '99999d' }, 'expires', 'more than ten years away'],
      [{ expiresAt: '2026-12-24T08:00' }, 'expiresAt', 'has no zone'],
      [{ expiresAt: '2026-12-24' }, 'expiresAt', 'a date without a time and zone'],
      [{ expiresAt: '2026-02-30T08:00:00Z' }, 'expiresAt', 'not a valid date and time'],
      [{ expiresAt: '30d' }, 'expiresAt', '`expires` takes a span like `30d`'],
      [{ expires: '30d', expiresAt: '2027-01-01T00:00:00Z' }, 'expires', 'not both'],
    ] as const) {
      const answer = await call('POST', '/v1/tokens', tokens.admin, {
        role: 'viewer',
        name: 'never-made',
        ...body,
      });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      const errors = answer.body.errors as { path: string; message: string }[];
      expect(errors[0]?.path, JSON.stringify(body)).toBe(path);
      expect(errors[0]?.message, JSON.stringify(body)).toContain(says);
    }
    const listed = await call('GET', '/v1/tokens', tokens.admin);
    expect((listed.body.tokens as J[]).map((t) => t.name)).not.toContain('never-made');
  });

  it('`warden token create --expires` stores it, `token list` shows it, and a server refuses the token once past it', async () => {
    const data = tempDir('warden-expiry-');
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    const made = warden([
      'token',
      'create',
      '--role',
      'admin',
      '--name',
      'month',
      '--expires',
      '30d',
      '--data',
      data,
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const record = (JSON.parse(made.stdout) as { record: J }).record;
    const expires = Date.parse(record.expiresAt as string);
    expect(Math.abs(expires - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    const text = warden([
      'token',
      'create',
      '--role',
      'viewer',
      '--name',
      'fixed',
      '--expires',
      '2030-01-01T00:00:00-05:00',
      '--data',
      data,
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain('it expires at 2030-01-01T05:00:00.000Z');
    const forever = warden([
      'token',
      'create',
      '--role',
      'viewer',
      '--name',
      'forever',
      '--data',
      data,
    ]);
    expect(forever.code).toBe(0);
    expect(forever.stderr).not.toContain('expires');

    // A token already past its expiry, as time makes one: written to the store directly.
    const store = await openSqlite({ data });
    const past = await createToken(store.tokens, {
      role: 'admin',
      name: 'lapsed',
      expiresAt: Date.now() - 60_000,
      by: 'test',
      at: Date.now() - 120_000,
    });
    await store.close();
    if (!past.ok) throw new Error('the lapsed token is not valid');

    const listed = tokenList(data) as { tokens: J[] };
    const expiries = (tokens: J[]) =>
      Object.fromEntries(tokens.map((t) => [t.name as string, t.expiresAt]));
    expect(expiries(listed.tokens)).toEqual({
      month: record.expiresAt,
      fixed: '2030-01-01T05:00:00.000Z',
      forever: null,
      lapsed: past.record.expiresAt,
    });
    const lines = warden(['token', 'list', '--data', data]).stdout.split('\n');
    expect(lines.find((l) => l.includes('fixed'))).toContain('expires 2030-01-01T05:00:00.000Z');
    expect(lines.find((l) => l.includes('forever'))).not.toContain('expire');
    expect(lines.find((l) => l.includes('lapsed'))).toContain(
      `expired ${past.record.expiresAt ?? ''}`,
    );

    const served = await serve(['--data', data]);
    spawned.push(served);
    expect(
      (await api(served.url, JSON.parse(made.stdout).token as string, 'GET', '/v1/me')).status,
    ).toBe(200);
    const refused = await api(served.url, past.token, 'GET', '/v1/me');
    expect(refused.status).toBe(401);
    expect((refused.body.errors as { message: string }[])[0]?.message).toContain(
      `the token \`lapsed\` expired at ${past.record.expiresAt ?? ''}`,
    );
    const overHttp = await api(
      served.url,
      JSON.parse(made.stdout).token as string,
      'GET',
      '/v1/tokens',
    );
    expect(expiries(overHttp.body.tokens as J[])).toEqual(expiries(listed.tokens));
  });

  it('`warden token create` refuses an expiry that is not one, with the other problems, and makes nothing', () => {
    const data = tempDir('warden-expiry-');
    cleanups.push(() => rmSync(data, { recursive: true, force: true }));
    for (const [expires, says] of [
      ['tomorrow', 'neither a span like `24h`'],
      ['2026-12-24T08:00', 'has no zone'],
      ['2001-01-01T00:00:00Z', 'is not in the future'],
    ] as const) {
      const errors = refusedToken(data, '--role', 'viewer', '--expires', expires);
      expect(errors.map((e) => e.path)).toEqual(['--name', '--expires']);
      expect(errors[1]?.message).toContain(says);
    }
    expect(tokenList(data)).toEqual({ tokens: [] });
  });
});

describe.each(BACKENDS)('token expiry in the store on $name', (backend) => {
  it.skipIf(backend.skip !== null)(
    'keeps a token’s expiry (null when none), and migrates a store made before it had one',
    async () => {
      const { open, cleanup } = fresh(backend.name);
      cleanups.push(cleanup);
      const store = await open();
      const record = {
        id: 'tok_one',
        name: 'one',
        role: 'admin' as const,
        workspace: null,
        agent: null,
        space: null,
        mode: null,
        createdAt: '2026-12-03T09:00:00.000Z',
        createdBy: 'test',
        expiresAt: '2026-12-04T09:00:00.000Z',
      };
      await store.tokens.add(record, 'hash-one');
      await store.tokens.add(
        { ...record, id: 'tok_two', name: 'two', expiresAt: null },
        'hash-two',
      );
      expect(await store.tokens.byHash('hash-one')).toEqual({ ...record, revokedAt: null });
      expect((await store.tokens.list()).map((t) => t.expiresAt)).toEqual([
        '2026-12-04T09:00:00.000Z',
        null,
      ]);
      expect((await store.tokens.revoke('tok_one', T1))?.expiresAt).toBe(
        '2026-12-04T09:00:00.000Z',
      );

      // A store from before `0008_token_expiry`: the column and its migration's record gone.
      const { location } = store;
      await store.close();
      await rawSql(backend.name, location, [
        'alter table api_tokens drop column expires_at',
        'drop table grant_claims',
        "delete from warden_migrations where name in ('0008_token_expiry', '0009_grant_claims')",
      ]);
      const reopened = await open();
      try {
        expect((await reopened.tokens.list()).map((t) => [t.id, t.expiresAt])).toEqual([
          ['tok_one', null],
          ['tok_two', null],
        ]);
        await reopened.tokens.add(
          { ...record, id: 'tok_three', name: 'three', expiresAt: '2027-01-01T00:00:00.000Z' },
          'hash-three',
        );
        expect((await reopened.tokens.byHash('hash-three'))?.expiresAt).toBe(
          '2027-01-01T00:00:00.000Z',
        );
      } finally {
        await reopened.close();
      }
    },
  );
});

const T1 = Date.parse('2026-12-03T10:00:00Z');

/** A new store of a backend, opened as often as asked (each time as a process would), and its removal. */
function fresh(backend: 'sqlite' | 'postgres'): {
  open: () => Promise<Store>;
  cleanup: () => Promise<void>;
} {
  if (backend === 'sqlite') {
    const data = tempDir('warden-store-');
    return {
      open: () => openSqlite({ data }),
      cleanup: () => Promise.resolve(rmSync(data, { recursive: true, force: true })),
    };
  }
  requirePostgresUnderCi();
  const schema = uniqueSchema();
  return {
    open: () => openPostgres({ url: PG_URL, schema }),
    cleanup: () => dropSchema(schema),
  };
}

/** Statements run on a store's database (named by its `location`) from outside it. */
async function rawSql(
  backend: 'sqlite' | 'postgres',
  location: string,
  statements: readonly string[],
): Promise<void> {
  if (backend === 'sqlite') {
    const db = new Database(location);
    try {
      for (const statement of statements) db.exec(statement);
    } finally {
      db.close();
    }
    return;
  }
  const schema = /\(schema ([A-Za-z0-9_]+)\)$/.exec(location)?.[1];
  if (schema === undefined) throw new Error(`no schema in \`${location}\``);
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
