// `http_fetch` against a real local server (G11, G16): gated as
// `networkEgress` with the host it goes to, redirects returned rather than
// followed so the host rule keeps deciding, and the body capped.

import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpFetchResult } from '../../src/tools/builtin/index.js';
import { useBuiltins } from '../support/tools-fixture.js';

// A hosts wildcard never matches an IP address, so the allow names the IP itself.
const ONLY_LOOPBACK_IP = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'no-egress', action: 'networkEgress', decision: 'deny' },
    {
      id: 'loopback',
      action: 'networkEgress',
      decision: 'allow',
      when: { hosts: ['127.0.0.1'] },
    },
  ],
};
const NO_LOOPBACK = {
  version: 1,
  workspace: 'acme',
  rules: [
    {
      id: 'no-loopback',
      action: 'networkEgress',
      decision: 'deny',
      when: { hosts: ['127.0.0.1'] },
    },
  ],
};

let server: Server;
let base: string;
const hits: string[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  hits.push(`${req.method ?? ''} ${req.url ?? ''}`);
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { port } = server.address() as AddressInfo;
    if (req.url === '/hello') {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-test': 'yes' }).end('hello');
    } else if (req.url === '/big') {
      res.writeHead(200).end('b'.repeat(300 * 1024));
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: `http://localhost:${port}/landed` }).end();
    } else if (req.url === '/echo') {
      res.writeHead(200).end(`${req.method ?? ''} ${Buffer.concat(chunks).toString('utf8')}`);
    } else {
      res.writeHead(404).end('no');
    }
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const fx = useBuiltins();
const { open } = fx;
const fetched = (args: object) => fx.value<HttpFetchResult>('http_fetch', args);

beforeEach(() => {
  hits.length = 0;
});

describe('http_fetch', () => {
  it('is allowed by a rule `hosts: [127.0.0.1]` and returns status, headers and body (G11, G16)', async () => {
    await open(ONLY_LOOPBACK_IP);
    const result = await fx.tools.call('http_fetch', { url: `${base}/hello` }, { callId: 'c-get' });
    expect(result).toMatchObject({
      ok: true,
      decision: { outcome: 'allow', rule: 'loopback' },
      value: { status: 200, body: 'hello', truncated: false, headers: { 'x-test': 'yes' } },
    });
    const decision = await fx.decisionOf('c-get');
    expect(decision).toMatchObject({
      request: { actions: ['networkEgress'], args: { hosts: ['127.0.0.1'] } },
    });
  });

  it('is denied by a hosts rule before any request is sent (G16)', async () => {
    await open(NO_LOOPBACK);
    const result = await fx.tools.call('http_fetch', { url: `${base}/hello` });
    expect(result).toMatchObject({ status: 'Denied', decision: { rule: 'no-loopback' } });
    expect(hits).toEqual([]);
  });

  it('returns a redirect to another host instead of following it, so the host rule still decides (G16)', async () => {
    await open(ONLY_LOOPBACK_IP);
    const value = await fetched({ url: `${base}/redirect` });
    const { port } = server.address() as AddressInfo;
    expect(value).toMatchObject({
      status: 302,
      redirect: { location: `http://localhost:${port}/landed` },
    });
    expect(hits).toEqual(['GET /redirect']);
    const followed = await fx.tools.call('http_fetch', { url: value.redirect?.location });
    expect(followed).toMatchObject({ status: 'Denied', decision: { rule: 'no-egress' } });
    expect(hits).toEqual(['GET /redirect']);
  });

  it('cuts the body at 256 KiB and says so', async () => {
    await open(ONLY_LOOPBACK_IP);
    const value = await fetched({ url: `${base}/big` });
    expect(value.truncated).toBe(true);
    expect(value.body.length).toBe(256 * 1024);
    expect(value.note).toContain('cut at 262144 bytes');
  });

  it('sends a method and a body, and refuses a body on GET before any decision', async () => {
    await open(ONLY_LOOPBACK_IP);
    expect(await fetched({ url: `${base}/echo`, method: 'POST', body: 'ping' })).toMatchObject({
      status: 200,
      body: 'POST ping',
    });
    const refused = await fx.tools.call('http_fetch', { url: `${base}/echo`, body: 'ping' });
    expect(refused).toMatchObject({ ok: false, status: 'Denied', decision: null });
    expect(hits).toEqual(['POST /echo']);
  });

  it('refuses what is not an http or https URL before any decision (G16)', async () => {
    await open(ONLY_LOOPBACK_IP);
    for (const url of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/x',
      'not a url',
      `http://u:p@127.0.0.1/`,
    ]) {
      const result = await fx.tools.call('http_fetch', { url });
      expect(result, url).toMatchObject({ ok: false, status: 'Denied', decision: null });
    }
  });

  it('quotes a refused URL with `quote()`, so a backtick in it cannot end the quotation (STYLE 8)', async () => {
    await open(ONLY_LOOPBACK_IP);
    const result = await fx.tools.call('http_fetch', { url: 'not`a url' });
    expect(result).toMatchObject({ ok: false, status: 'Denied', decision: null });
    expect(result.ok ? '' : result.error).toContain('url `not\\`a url` is not a valid URL');
  });
});
