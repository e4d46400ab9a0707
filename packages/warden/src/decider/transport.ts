// How a remote decider's requests reach the Warden server. Two ways, one
// contract: every exchange is bounded (a deadline and a size limit), and what
// comes back is a status and a body, or a rejection saying why not.
//
// - `keepAliveTransport`: Node's HTTP client on a keep-alive agent, for a
//   process that asks many times (the gateway, the resident runner): no
//   connection is set up per call. No headers timeout of its own: a server
//   may hold a prompt for as long as its approval timeout.
// - `oneShotTransport`: for a process that asks once and exits (a hook
//   started per call): a POST over plain HTTP goes out as HTTP/1.0 on a
//   socket of its own (`hook/post.ts`), which costs the process less to load
//   than Node's client; anything else uses Node's client.

import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import { BadAnswer } from '../hook/post.js';

export interface Answer {
  readonly status: number;
  readonly text: string;
}

export interface Transport {
  request(
    method: 'GET' | 'POST',
    url: URL,
    headers: Readonly<Record<string, string>>,
    body: string | undefined,
    limitMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Answer>;
  /** Lets go of kept connections. */
  close(): void;
}

/** An answer larger than this is not from a Warden server. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

async function nodeRequest(
  agents: { http?: HttpAgent; https?: HttpAgent },
  method: 'GET' | 'POST',
  url: URL,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
  limitMs: number,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  const secure = url.protocol === 'https:';
  const { request } = secure ? await import('node:https') : await import('node:http');
  const agent = secure ? agents.https : agents.http;
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    };
    const req = request(
      url,
      {
        method,
        headers: {
          ...headers,
          ...(body === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(body)),
              }),
        },
        ...(agent === undefined ? {} : { agent }),
        ...(signal === undefined ? {} : { signal }),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) fail(new BadAnswer('an answer larger than 8 MiB'));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', fail);
        res.on('aborted', () => fail(new Error('the connection closed before the answer ended')));
      },
    );
    const timer = setTimeout(
      () => fail(new Error(`no answer within ${Math.round(limitMs / 1000)} s`)),
      limitMs,
    );
    req.on('error', fail);
    req.end(body);
  });
}

/** Node's client on keep-alive agents: for a process that asks many times. */
export function keepAliveTransport(): Transport {
  let agents: Promise<{ http: HttpAgent; https: HttpAgent }> | null = null;
  const made = (): Promise<{ http: HttpAgent; https: HttpAgent }> =>
    (agents ??= Promise.all([import('node:http'), import('node:https')]).then(
      ([{ Agent: Http }, { Agent: Https }]) => ({
        http: new Http({ keepAlive: true, maxSockets: 64 }),
        https: new Https({ keepAlive: true, maxSockets: 64 }),
      }),
    ));
  return {
    request: async (method, url, headers, body, limitMs, signal) =>
      nodeRequest(await made(), method, url, headers, body, limitMs, signal),
    close() {
      void agents?.then((a) => {
        a.http.destroy();
        a.https.destroy();
      });
    },
  };
}

/** For one question and an exit: a plain-HTTP POST as HTTP/1.0 on its own socket. */
export function oneShotTransport(): Transport {
  return {
    async request(method, url, headers, body, limitMs, signal) {
      if (method !== 'POST' || url.protocol !== 'http:' || body === undefined)
        return nodeRequest({}, method, url, headers, body, limitMs, signal);
      const { postJson } = await import('../hook/post.js');
      const token = (headers['authorization'] ?? '').replace(/^Bearer /, '');
      const adapter = headers['x-warden-adapter'] ?? 'warden';
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new Error(`no answer within ${Math.round(limitMs / 1000)} s`)),
        limitMs,
      );
      const forward = (): void => controller.abort(signal?.reason);
      if (signal?.aborted === true) forward();
      else signal?.addEventListener('abort', forward, { once: true });
      try {
        return await postJson(url.href, token, body, controller.signal, adapter);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', forward);
      }
    },
    close() {},
  };
}
