// The hook's one request: a JSON POST to the Warden server, answered once.
// Over plain HTTP it speaks HTTP/1.0 on a socket of its own, which the hook
// has loaded anyway (standard input and the connection both need it): Node's
// HTTP client costs a process several milliseconds to load and warm, every
// tool call. HTTP/1.0 keeps the answer simple to read — no chunks, the
// connection closes after it — so what is parsed here is a status line,
// headers and a body, within hard limits. Over HTTPS it uses Node's client.

import { connect } from 'node:net';

/** A decision is a few KiB; an answer larger than this is not from a Warden server, and is a deny. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** The status line and headers of an answer. */
const MAX_HEAD_BYTES = 64 * 1024;

const TOO_LARGE = `an answer larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`;

/** An answer the hook cannot use: too large, or not HTTP it can read. Its message says which. */
export class BadAnswer extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BadAnswer';
  }
}

export interface Posted {
  readonly status: number;
  readonly text: string;
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const STATUS_LINE = /^HTTP\/1\.[01] ([1-5][0-9]{2})(?: [^\r\n]*)?$/;
const DIGITS = /^[0-9]{1,10}$/;

/**
 * Reads a whole HTTP/1.x answer — everything the server sent before it
 * closed the connection — into its status and body text; a string says what
 * is wrong with it. Linear in the answer's size: one search for the end of
 * the head, one pass over its lines. Refused: a head over 64 KiB, a status
 * line that is not HTTP/1.x, an informational status, a body in chunks
 * (never sent to an HTTP/1.0 request), a `Content-Length` that is not a
 * number, is given twice differently, or disagrees with the body's length,
 * and a body over 4 MiB.
 */
export function readAnswer(bytes: Buffer): Posted | string {
  const end = bytes.indexOf(HEAD_END);
  if (end === -1)
    return bytes.length > MAX_HEAD_BYTES
      ? 'an answer without an end to its headers'
      : 'an answer that ended inside its headers';
  if (end > MAX_HEAD_BYTES) return 'an answer with headers larger than 64 KiB';
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = STATUS_LINE.exec(lines[0] ?? '');
  if (statusLine === null) return 'an answer that does not start with an HTTP/1.x status line';
  const status = Number(statusLine[1]);
  if (status < 200) return `an answer with the informational status ${status}`;
  let length: number | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    const colon = line.indexOf(':');
    if (colon <= 0) return 'an answer with a header line without a name';
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'transfer-encoding') return 'an answer in chunks, which was not asked for';
    if (name === 'content-length') {
      if (!DIGITS.test(value)) return 'an answer whose Content-Length is not a number';
      const stated = Number(value);
      if (length !== undefined && length !== stated)
        return 'an answer with two different Content-Lengths';
      length = stated;
    }
  }
  const body = bytes.subarray(end + HEAD_END.length);
  if (body.length > MAX_ANSWER_BYTES) return TOO_LARGE;
  if (length !== undefined && body.length !== length)
    return `an answer of ${body.length} bytes where its Content-Length says ${length}`;
  return { status, text: body.toString('utf8') };
}

/** The request's bytes: HTTP/1.0, so the answer is whole when the connection closes. */
export function requestHead(url: URL, token: string, bodyBytes: number, adapter: string): string {
  return (
    `POST ${url.pathname}${url.search} HTTP/1.0\r\n` +
    `host: ${url.host}\r\n` +
    `authorization: Bearer ${token}\r\n` +
    'content-type: application/json\r\n' +
    `content-length: ${bodyBytes}\r\n` +
    `x-warden-adapter: ${adapter}\r\n` +
    'connection: close\r\n\r\n'
  );
}

/**
 * POSTs JSON and reads the answer. The whole exchange — connecting, sending,
 * and reading the answer to its end — is bounded by `signal`: a server that
 * drips its answer slowly is cut off at the deadline like one that never
 * answers, and one that sends too much is cut off at the size limit.
 */
export function postJson(
  url: string,
  token: string,
  body: string,
  signal: AbortSignal,
  adapter: string,
): Promise<Posted> {
  const target = new URL(url);
  if (target.protocol === 'https:') return postHttps(target, token, body, signal, adapter);
  if (target.protocol !== 'http:')
    return Promise.reject(new Error(`\`${target.protocol}\` is not http: or https:`));
  // Header values cannot carry a line break; a token or adapter that holds one is no token.
  if (/[\r\n]/.test(token) || /[\r\n]/.test(adapter))
    return Promise.reject(new Error('the token holds a line break'));
  const payload = Buffer.from(body, 'utf8');
  const head = requestHead(target, token, payload.length, adapter);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = target.port === '' ? 80 : Number(target.port);
  let onAbort: () => void = () => undefined;
  return new Promise<Posted>((resolvePost, reject) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const socket = connect({ host, port });
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(error);
    };
    onAbort = () => fail(new Error('the deadline passed'));
    socket.on('connect', () => {
      socket.write(head, 'latin1');
      socket.write(payload);
    });
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES + MAX_HEAD_BYTES) fail(new BadAnswer(TOO_LARGE));
      else chunks.push(chunk);
    });
    socket.on('end', () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const read = readAnswer(Buffer.concat(chunks, size));
      if (typeof read === 'string') reject(new BadAnswer(read));
      else resolvePost(read);
    });
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the connection closed before the answer ended')));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }).finally(() => signal.removeEventListener('abort', onAbort));
}

async function postHttps(
  target: URL,
  token: string,
  body: string,
  signal: AbortSignal,
  adapter: string,
): Promise<Posted> {
  const { request } = await import('node:https');
  let onAbort: () => void = () => undefined;
  return new Promise<Posted>((resolvePost, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(error);
    };
    onAbort = () => fail(new Error('the deadline passed'));
    const req = request(
      target,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-warden-adapter': adapter,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) fail(new BadAnswer(TOO_LARGE));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          resolvePost({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', fail);
        res.on('close', () => fail(new Error('the connection closed before the answer ended')));
      },
    );
    req.on('error', fail);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    req.end(body);
  }).finally(() => signal.removeEventListener('abort', onAbort));
}
