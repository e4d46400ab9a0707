// The CLI's side of the HTTP API: which server, which token (`--server`/
// `WARDEN_URL`, `--token`/`WARDEN_TOKEN`), and the server's problems printed
// the way the CLI prints its own. An unreachable server is an error, never a
// silent success.

import type { RenderedIssue } from '../policy/problems.js';
import { z } from 'zod';
import { zodIssues } from '../policy/problems.js';
import type { Io } from './io.js';
import { fail, usage } from './io.js';

export interface ConnectOptions {
  readonly server?: string;
  readonly token?: string;
  readonly json?: boolean;
}

export interface Connection {
  readonly url: string;
  readonly token: string;
}

export function connection(io: Io, options: ConnectOptions): Connection {
  const json = options.json === true;
  const url = options.server ?? io.env.WARDEN_URL;
  const token = options.token ?? io.env.WARDEN_TOKEN;
  const missing = [
    ...(url === undefined || url === ''
      ? [
          {
            code: 'missing_field' as const,
            path: '--server',
            message: 'name the server: `--server URL` or `WARDEN_URL`',
          },
        ]
      : []),
    ...(token === undefined || token === ''
      ? [
          {
            code: 'missing_field' as const,
            path: '--token',
            message: 'give a token: `--token T` or `WARDEN_TOKEN`',
          },
        ]
      : []),
  ];
  if (missing.length > 0) return fail(io, json, missing);
  let parsed: URL;
  try {
    parsed = new URL(url as string);
  } catch {
    return usage(io, json, '--server', `\`${url}\` is not a URL: e.g. \`http://127.0.0.1:8787\``);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return usage(io, json, '--server', `\`${url}\` is not an http(s) URL`);
  return { url: parsed.href.replace(/\/$/, ''), token: token as string };
}

export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** Why a request failed, in words: `ECONNREFUSED` becomes "nothing listens there". */
export function unreachable(url: string, error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  if (code === 'ECONNREFUSED')
    return `cannot reach ${url}: nothing listens there (is \`warden serve\` running?)`;
  if (code === 'ENOTFOUND') return `cannot reach ${url}: the host is unknown`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || (error as Error).name === 'TimeoutError')
    return `cannot reach ${url}: it did not answer in time`;
  return `cannot reach ${url}: ${cause?.message ?? (error as Error).message}`;
}

export async function request(
  io: Io,
  conn: Connection,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly json?: boolean; readonly timeoutMs?: number } = {},
): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${conn.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${conn.token}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (error) {
    return usage(io, options.json === true, '--server', unreachable(conn.url, error));
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    // Not JSON: shown as text.
  }
  return { status: response.status, body };
}

/** Prints the server's `{ errors }` (with its status) and stops with exit 1. */
export function refused(io: Io, json: boolean, answer: Answer): never {
  const errors = (answer.body as { errors?: { path?: string; message?: string }[] } | null)?.errors;
  const issues =
    Array.isArray(errors) && errors.length > 0
      ? errors.map((e) => ({
          code: 'invalid_value' as const,
          path: e.path ?? '',
          message: `${e.message ?? 'refused'} (HTTP ${answer.status})`,
        }))
      : [
          {
            code: 'invalid_value' as const,
            path: '',
            message: `the server answered HTTP ${answer.status}`,
          },
        ];
  return fail(io, json, issues);
}

/**
 * A 2xx answer's body, read with the operation's answer schema (`src/views/`,
 * the one the server declares): typed, and an answer of another shape (a
 * server of another version) is an error that says so, never misread;
 * fields this CLI does not know are read past.
 * Anything else: the server's problems and exit 1.
 */
export async function call<T>(
  io: Io,
  conn: Connection,
  method: string,
  path: string,
  options: {
    readonly schema: z.ZodType<T>;
    readonly body?: unknown;
    readonly json?: boolean;
    readonly timeoutMs?: number;
  },
): Promise<T> {
  const json = options.json === true;
  const answer = await request(io, conn, method, path, options);
  if (answer.status < 200 || answer.status > 299) return refused(io, json, answer);
  return expected(io, json, `${method} ${path}`, options.schema, answer.body);
}

/**
 * A body read with its schema: its value, or the problems (fields this CLI
 * does not know are not problems: a newer server may say more).
 */
export function readAnswer<T>(
  schema: z.ZodType<T>,
  body: unknown,
):
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: RenderedIssue[] } {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.filter((issue) => issue.code !== 'unrecognized_keys');
  if (problems.length === 0) return { ok: true, value: body as T };
  return { ok: false, problems: zodIssues(new z.ZodError(problems)) };
}

/** A body read with its schema, or an error naming what does not fit, and exit 1. */
export function expected<T>(
  io: Io,
  json: boolean,
  what: string,
  schema: z.ZodType<T>,
  body: unknown,
): T {
  const read = readAnswer(schema, body);
  if (read.ok) return read.value;
  return fail(
    io,
    json,
    read.problems.map((p) => ({
      ...p,
      message: `the server's answer to ${what} is not what this CLI reads (${p.message}): is it another version of Warden?`,
    })),
  );
}
