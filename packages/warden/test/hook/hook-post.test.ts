// The hook's one HTTP exchange (src/hook/post.ts): an HTTP/1.0 POST on a
// socket of its own, and a strict reading of what comes back. The server is
// trusted, but what answers on its address may not be: every answer the hook
// cannot read exactly — chunks, a body shorter or longer than it says, a
// head that never ends, a connection that never closes, too many bytes — is
// a deny that says why (G37), never an allow read from part of an answer.

import fc from 'fast-check';
import { createServer as createHttpServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, postJson, readAnswer, requestHead } from '../../src/hook/post.js';
import { answerHook } from '../../src/hook/run.js';

const servers: (Server | HttpServer)[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0))
    await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A server that reads the whole request (head and declared body), then runs `answer` on the socket. */
async function raw(
  answer: (socket: Socket, request: string) => void,
  host = '127.0.0.1',
): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    let got = '';
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = Number(/content-length: (\d+)/i.exec(got.slice(0, end))?.[1] ?? '0');
      if (got.length - end - 4 < length) return;
      requests.push(got);
      got = '';
      answer(socket, requests.at(-1) as string);
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, requests };
}

const ALLOW = JSON.stringify({ outcome: 'allow', reason: 'allowed: ok', auditId: 'd1' });

function answerWith(head: string, body: string): (socket: Socket) => void {
  return (socket) => socket.end(`${head}\r\n\r\n${body}`);
}

const BASH = JSON.stringify({
  hook_event_name: 'PreToolUse',
  cwd: '/srv/projects',
  tool_name: 'Bash',
  tool_input: { command: 'git push origin feature/x' },
  tool_use_id: 'toolu_1',
});

async function hook(url: string, timeout = '5') {
  const answer = await answerHook(
    { stdin: () => Promise.resolve(BASH), out: () => undefined, env: {} },
    { server: url, token: 't', timeout, sandbox: 'off' },
  );
  if (!('hookSpecificOutput' in answer))
    throw new Error('a `PreToolUse` call answered as a completion');
  return answer.hookSpecificOutput;
}

describe('reading an answer', () => {
  it('reads the status and the body, with or without Content-Length', () => {
    const body = '{"outcome":"deny"}';
    expect(
      readAnswer(
        Buffer.from(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        ),
      ),
    ).toEqual({ status: 200, text: body });
    expect(readAnswer(Buffer.from(`HTTP/1.0 503 Service Unavailable\r\n\r\n${body}`))).toEqual({
      status: 503,
      text: body,
    });
    expect(readAnswer(Buffer.from('HTTP/1.1 204\r\n\r\n'))).toEqual({ status: 204, text: '' });
  });

  it('refuses what it cannot read exactly, saying what is wrong', () => {
    const cases: [string, RegExp][] = [
      ['', /ended inside its headers/],
      ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\n', /ended inside its headers/],
      ['HTTP/2 200\r\n\r\n{}', /HTTP\/1\.x status line/],
      ['SSH-2.0-OpenSSH\r\n\r\n', /HTTP\/1\.x status line/],
      ['HTTP/1.1 2000 OK\r\n\r\n', /HTTP\/1\.x status line/],
      ['HTTP/1.1 100 Continue\r\n\r\n', /informational status 100/],
      ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', /chunks/],
      [
        'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{}',
        /2 bytes where its Content-Length says 10/,
      ],
      ['HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\n{}', /2 bytes where its Content-Length says 1/],
      ['HTTP/1.1 200 OK\r\ncontent-length: -2\r\n\r\n{}', /not a number/],
      ['HTTP/1.1 200 OK\r\ncontent-length: 2, 2\r\n\r\n{}', /not a number/],
      ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}', /two different/],
      ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n{}', /without a name/],
      ['HTTP/1.1 200 OK\r\n: empty name\r\n\r\n{}', /without a name/],
    ];
    for (const [text, problem] of cases) expect(readAnswer(Buffer.from(text))).toMatch(problem);
  });

  it('refuses a head over 64 KiB and a body over 4 MiB', () => {
    const longHead = `HTTP/1.1 200 OK\r\nx-pad: ${'a'.repeat(70 * 1024)}\r\n\r\n{}`;
    expect(readAnswer(Buffer.from(longHead))).toMatch(/headers larger than 64 KiB/);
    expect(readAnswer(Buffer.from(`HTTP/1.1 200 OK\r\n${'a'.repeat(70 * 1024)}`))).toMatch(
      /without an end to its headers/,
    );
    const big = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\n\r\n'),
      Buffer.alloc(MAX_ANSWER_BYTES + 1, 0x20),
    ]);
    expect(readAnswer(big)).toMatch(/larger than 4 MiB/);
  });

  it('property: any answer a server writes is read back as written', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 599 }),
        fc.string({ maxLength: 2000 }),
        fc.boolean(),
        fc.array(
          fc.tuple(
            fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
            fc.stringMatching(/^[ -~]{0,40}$/),
          ),
          { maxLength: 8 },
        ),
        (status, body, withLength, extra) => {
          const headers = extra
            .filter(([name]) => !/^(content-length|transfer-encoding)$/i.test(name))
            .map(([name, value]) => `${name}: ${value}`);
          if (withLength) headers.push(`Content-Length: ${Buffer.byteLength(body)}`);
          const wire = Buffer.from(
            [`HTTP/1.1 ${status} Whatever`, ...headers].join('\r\n') + `\r\n\r\n${body}`,
          );
          const read = readAnswer(wire);
          expect(read).toEqual({ status, text: Buffer.from(body).toString('utf8') });
        },
      ),
    );
  });

  it('property: any bytes at all are read or refused, never thrown on', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'HTTP/1.1 200 OK',
        'HTTP/1.0 503 x',
        '\r\n',
        '\r\n\r\n',
        ':',
        'content-length: 5',
      ),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const read = readAnswer(Buffer.from(pieces.join(''), 'latin1'));
        expect(
          typeof read === 'string' || (typeof read.status === 'number' && read.status >= 200),
        ).toBe(true);
      }),
    );
  });
});

describe('the request', () => {
  it('is HTTP/1.0 to the URL’s path and query, with the token and the adapter', async () => {
    const server = await raw(answerWith('HTTP/1.0 200 OK', ALLOW));
    const posted = await postJson(
      `${server.url}/prefix/v1/decide?x=1`,
      'tok',
      '{"a":"é"}',
      AbortSignal.timeout(5000),
      'claude-code',
    );
    expect(posted).toEqual({ status: 200, text: ALLOW });
    const [request] = server.requests;
    expect(request).toMatch(/^POST \/prefix\/v1\/decide\?x=1 HTTP\/1\.0\r\n/);
    expect(request).toContain('authorization: Bearer tok\r\n');
    expect(request).toContain('x-warden-adapter: claude-code\r\n');
    // The length is in bytes, not characters.
    expect(request).toContain('content-length: 10\r\n');
  });

  it('reaches a server on an IPv6 address', async () => {
    const server = await raw(answerWith('HTTP/1.0 200 OK', ALLOW), '::1').catch(() => null);
    if (server === null) return; // no IPv6 loopback on this host
    expect(
      await postJson(`${server.url}/v1/decide`, 't', '{}', AbortSignal.timeout(5000), 'x'),
    ).toEqual({
      status: 200,
      text: ALLOW,
    });
  });

  it('refuses a token that would break the request’s head, sending nothing', async () => {
    const server = await raw(answerWith('HTTP/1.0 200 OK', ALLOW));
    await expect(
      postJson(`${server.url}/v1/decide`, 't\r\nx-evil: 1', '{}', AbortSignal.timeout(5000), 'x'),
    ).rejects.toThrow(/line break/);
    expect(server.requests).toEqual([]);
    expect(requestHead(new URL('http://h:1/p'), 't', 2, 'a')).toBe(
      'POST /p HTTP/1.0\r\nhost: h:1\r\nauthorization: Bearer t\r\ncontent-type: application/json\r\ncontent-length: 2\r\nx-warden-adapter: a\r\nconnection: close\r\n\r\n',
    );
  });
});

describe('the hook denies every answer it cannot read exactly (G37)', () => {
  it('allows a well-formed allow from a real Node HTTP server (the path `warden serve` takes)', async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(ALLOW));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const out = await hook(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    expect(out.permissionDecision).toBe('allow');
  });

  it('denies an allow that comes in chunks, or is cut short of its Content-Length', async () => {
    const chunked = await raw(
      answerWith(
        'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked',
        `${ALLOW.length.toString(16)}\r\n${ALLOW}\r\n0\r\n\r\n`,
      ),
    );
    const cut = await raw(
      answerWith(`HTTP/1.0 200 OK\r\ncontent-length: ${ALLOW.length + 5}`, ALLOW),
    );
    for (const url of [chunked.url, cut.url]) {
      const out = await hook(url);
      expect(out.permissionDecision).toBe('deny');
      expect(out.permissionDecisionReason).toMatch(/sent an answer .*denied, fail-closed/);
    }
  });

  it('denies at the deadline when the connection never closes after a whole answer', async () => {
    const open = await raw((socket) => socket.write(`HTTP/1.0 200 OK\r\n\r\n${ALLOW}`));
    const started = Date.now();
    const out = await hook(open.url, '1');
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('no decision within 1 s');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('denies a connection reset in the middle of the answer', async () => {
    const reset = await raw((socket) => {
      socket.write('HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{"outcome":"al');
      socket.resetAndDestroy();
    });
    const out = await hook(reset.url);
    expect(out.permissionDecision).toBe('deny');
  });

  it('denies an answer larger than the cap, without waiting for its end', async () => {
    const flood = await raw((socket) => {
      socket.write('HTTP/1.0 200 OK\r\n\r\n');
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = (): void => {
        while (!socket.destroyed) if (!socket.write(chunk)) return void socket.once('drain', more);
      };
      more();
    });
    const out = await hook(flood.url, '10');
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('larger than 4 MiB');
  });

  it('denies when what answers is not HTTP', async () => {
    const other = await raw((socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n'));
    const out = await hook(other.url);
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('ended inside its headers');
  });
});
