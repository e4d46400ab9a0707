// How the runner's clients talk to it: one request and one answer per
// connection on its Unix socket, in a form a shell script can write with
// `printf` and send with `socat` (which the sandbox needs anyway, and which
// starts in half the time curl does):
//
//   WARDEN/1 <operation>\n
//   <name> <value>\n          (any number; a name may repeat; no line breaks in values)
//   \n
//   <body, to the end of what the client sends>
//
// answered with `<status> <word>\n` and the answer's body, after which the
// runner closes the connection. Every part has a hard limit; what breaks one
// is refused, never read on.

import type { Socket } from 'node:net';
import { connect } from 'node:net';

/** The head (the first line and the fields) is at most this long. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A body larger than this is no client's: a hook's input is at most 4 MiB. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

const FIRST_LINE = /^WARDEN\/1 ([a-z][a-z/-]{0,31})$/;
const FIELD = /^([a-zA-Z][a-zA-Z0-9_.-]{0,63}) (.*)$/;

export class RunnerRequest {
  constructor(
    readonly op: string,
    private readonly fields: ReadonlyMap<string, readonly string[]>,
    readonly body: string,
  ) {}

  /** The field's first value, or null. */
  get(name: string): string | null {
    return this.fields.get(name)?.[0] ?? null;
  }

  getAll(name: string): string[] {
    return [...(this.fields.get(name) ?? [])];
  }
}

/** Reads one request from the connection, or says what is wrong with it. */
export function readRequest(socket: Socket): Promise<RunnerRequest> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (message: string): void => {
      socket.removeAllListeners('data');
      reject(new Error(message));
    };
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_HEAD_BYTES + MAX_BODY_BYTES) {
        fail('the request is larger than 6 MiB');
        return;
      }
      chunks.push(chunk);
    });
    socket.once('error', (error) => reject(error));
    socket.once('end', () => {
      const all = Buffer.concat(chunks, size);
      const end = all.indexOf('\n\n');
      if (end < 0 || end > MAX_HEAD_BYTES) {
        reject(new Error('the request has no end to its head within 64 KiB'));
        return;
      }
      const lines = all.subarray(0, end).toString('utf8').split('\n');
      const first = FIRST_LINE.exec(lines[0] ?? '');
      if (first === null) {
        reject(new Error('the request does not start with `WARDEN/1 <operation>`'));
        return;
      }
      const fields = new Map<string, string[]>();
      for (const line of lines.slice(1)) {
        const field = FIELD.exec(line);
        if (field === null) {
          reject(new Error('the request has a field that is not `<name> <value>`'));
          return;
        }
        const [, name, value] = field as unknown as [string, string, string];
        fields.set(name, [...(fields.get(name) ?? []), value]);
      }
      const body = all.subarray(end + 2);
      if (body.length > MAX_BODY_BYTES) {
        reject(new Error('the request is larger than 6 MiB'));
        return;
      }
      resolve(new RunnerRequest(first[1] as string, fields, body.toString('utf8')));
    });
  });
}

/** Writes the answer and closes the connection. */
export function writeAnswer(socket: Socket, status: number, body: string): void {
  socket.end(`${status} ${status === 200 ? 'ok' : 'error'}\n${body}`);
}

/** One request to the runner at `path` (for Warden's own commands: `runner status`, `stop`). */
export function askRunner(
  path: string,
  op: string,
  fields: readonly (readonly [string, string])[] = [],
  body = '',
  timeoutMs = 5000,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    const chunks: Buffer[] = [];
    const timer = setTimeout(
      () => socket.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    socket.on('connect', () => {
      socket.end(
        `WARDEN/1 ${op}\n${fields.map(([name, value]) => `${name} ${value}\n`).join('')}\n${body}`,
      );
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const newline = text.indexOf('\n');
      const status = Number(text.slice(0, 3));
      if (newline < 0 || !Number.isInteger(status)) {
        reject(new Error('the runner answered something that is not its answer'));
        return;
      }
      resolve({ status, text: text.slice(newline + 1) });
    });
  });
}
