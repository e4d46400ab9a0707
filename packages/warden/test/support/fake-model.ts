// The core every fake model API shares (fake-anthropic.ts, fake-openai.ts,
// fake-gemini.ts): an HTTP server on 127.0.0.1 that reads each request's JSON
// body and hands it to the fake's handler, which records it and answers in
// its protocol's format.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One request as the handler gets it. */
export interface Incoming {
  readonly method: string;
  /** The URL's path, without the query. */
  readonly path: string;
  /** The parsed JSON body, null when empty, `{unparsed}` when not JSON. */
  readonly body: unknown;
  /** When the request arrived (`Date.now()`). */
  readonly at: number;
}

/** One request as a fake recorded it. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  /** What the fake answered (each fake names its kinds of reply). */
  readonly reply: string;
  /** When the request arrived (`Date.now()`), to order it against other events of a test. */
  readonly at: number;
}

/** A recorded request with its body and how many scripted calls it carries results for. */
export interface RecordedWithResults extends Recorded {
  readonly body: unknown;
  readonly results: number;
}

/** What every fake gives its harness; each adds what its CLI sent back to the model. */
export interface FakeModel<R extends Recorded> {
  /** The base URL to give the CLI. */
  readonly url: string;
  readonly requests: readonly R[];
  close(): Promise<void>;
}

export interface Loopback {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text === '' ? null : (JSON.parse(text) as unknown));
      } catch {
        resolve({ unparsed: text });
      }
    });
  });
}

/** A 200 with `value` as JSON. */
export function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startLoopback(
  handle: (request: Incoming, res: ServerResponse) => void,
): Promise<Loopback> {
  const server = createServer((req, res) => {
    const at = Date.now();
    void readBody(req).then((body) => {
      handle(
        { method: req.method ?? '', path: (req.url ?? '').split('?')[0] ?? '', body, at },
        res,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
