// The API's operations as data: each route names its method, path, the
// permission it needs and the zod schemas of its body, its query and its
// answer. The same record mounts the route (validating input before the
// handler runs) and generates the OpenAPI document, so the documentation is
// the validation. The answer's schema lives in `src/views/`, where the CLI's
// client and the console take their types from too; with
// `WARDEN_CHECK_ANSWERS=1` (the test suite sets it) every answer is checked
// against it, and one that does not fit is a 500 that says so.

import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Identity, Permission } from './auth.js';
import { can, refusal } from './auth.js';
import { ApiError, badRequest, forbidden, internal } from './errors.js';
import { zodIssues } from '../policy/problems.js';
import { illFormedProblem } from '../well-formed.js';
import type { DeepReadonly } from '../views/fits.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Call<B, Q> {
  readonly c: Context<Env>;
  readonly identity: Identity;
  readonly body: B;
  readonly query: Q;
  readonly params: Readonly<Record<string, string>>;
}

/** A response with a status other than 200. */
export class Reply<R = unknown> {
  constructor(
    readonly status: 200 | 201 | 202 | 204,
    readonly body: R,
  ) {}
}

/** The answer of an operation that holds a Server-Sent Events stream open. */
export const EVENT_STREAM = 'text/event-stream';

export interface Operation<B = unknown, Q = unknown, R = unknown> {
  readonly method: Method;
  readonly path: string;
  readonly summary: string;
  /** `any`: every valid token; otherwise the permission its role must grant. */
  readonly permission: Permission | 'any';
  readonly body?: z.ZodType<B>;
  readonly query?: z.ZodType<Q>;
  /** The schema of a 2xx answer's body (`src/views/`), or an event stream. */
  readonly response?: z.ZodType<R> | typeof EVENT_STREAM;
  readonly responses: Readonly<Record<number, string>>;
  /**
   * The answer: its body (200), a `Reply` with another 2xx status, or a
   * `Response` the handler made itself (a stream, or an answer with an error
   * status whose body is still this operation's shape).
   */
  readonly handler: (
    call: Call<B, Q>,
  ) => Promise<DeepReadonly<NoInfer<R>> | Reply<DeepReadonly<NoInfer<R>>> | Response>;
}

export interface ApiOptions {
  /** Check every 2xx answer against its operation's schema; a misfit is a 500. */
  readonly checkAnswers?: boolean;
}

export interface Env {
  Variables: { identity: Identity };
}

/** The query as an object: a key given once is a string, a key given more often a list. */
function queryObject(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  // Most calls (every decision) carry no query: no need to parse the URL for one.
  if (!c.req.url.includes('?')) return out;
  for (const [key, values] of Object.entries(c.req.queries())) {
    out[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

/** Whether a route's path (`/v1/approvals/:id`) matches a concrete one (`/v1/approvals/stream`). */
function pathMatches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const have = path.split('/');
  return (
    want.length === have.length &&
    want.every((segment, i) => segment.startsWith(':') || segment === have[i])
  );
}

export class Api {
  private readonly operations: Operation[] = [];

  constructor(private readonly options: ApiOptions = {}) {}

  add<B, Q, R>(operation: Operation<B, Q, R>): this {
    this.operations.push(operation as unknown as Operation);
    return this;
  }

  /** Every operation, as data (for the reference and its tests). */
  list(): readonly Operation[] {
    return this.operations;
  }

  /** In check mode: the body, or a 500 naming where it does not fit the declared schema. */
  private checked(op: Operation, body: unknown): unknown {
    if (this.options.checkAnswers !== true || op.response === undefined) return body;
    if (op.response === EVENT_STREAM) return body;
    const parsed = op.response.safeParse(body);
    if (parsed.success) return body;
    const where = zodIssues(parsed.error)
      .slice(0, 3)
      .map((p) => `${p.path === '' ? '(the answer)' : p.path}: ${p.message}`)
      .join('; ');
    throw internal(
      `the answer of ${op.method.toUpperCase()} ${op.path} does not fit its declared shape: ${where}`,
    );
  }

  mount(app: Hono<Env>): void {
    // A static path that a path with a parameter of the same method also
    // matches (`/v1/approvals/stream` beside `/v1/approvals/:id`) is served
    // from the parameter's route: Hono's fastest router refuses two routes
    // for one path, and one refusal makes every request take a slower one.
    const inside = new Map<Operation, Operation[]>();
    const served = new Set<Operation>();
    for (const op of this.operations) {
      if (op.path.includes(':')) continue;
      const param = this.operations.find(
        (p) => p.method === op.method && p.path.includes(':') && pathMatches(p.path, op.path),
      );
      if (param === undefined) continue;
      inside.set(param, [...(inside.get(param) ?? []), op]);
      served.add(op);
    }
    for (const op of this.operations) {
      if (served.has(op)) continue;
      const own = this.handler(op);
      const statics = (inside.get(op) ?? []).map((s) => [s.path, this.handler(s)] as const);
      app.on(
        op.method.toUpperCase(),
        op.path,
        statics.length === 0
          ? own
          : (c) => (statics.find(([path]) => path === c.req.path)?.[1] ?? own)(c),
      );
    }
  }

  /** What answers one operation: permission, query, body, the handler, the answer's check. */
  private handler(op: Operation): (c: Context<Env>) => Promise<Response> {
    return async (c) => {
      const identity = c.get('identity');
      if (op.permission !== 'any' && !can(identity, op.permission))
        throw forbidden(refusal(identity.role, op.permission));
      let query: unknown = {};
      if (op.query !== undefined) {
        const parsed = op.query.safeParse(queryObject(c));
        if (!parsed.success) throw new ApiError(400, zodIssues(parsed.error, 'query'));
        query = parsed.data;
      }
      let body: unknown = undefined;
      if (op.body !== undefined) {
        let raw: unknown;
        try {
          raw = await c.req.json();
        } catch {
          throw badRequest('body', 'the body is not JSON');
        }
        const broken = illFormedProblem(raw, 'the body');
        if (broken !== null) throw badRequest('body', broken);
        const parsed = op.body.safeParse(raw);
        if (!parsed.success) throw new ApiError(400, zodIssues(parsed.error));
        body = parsed.data;
      }
      const result = await op.handler({
        c,
        identity,
        body,
        query,
        params: c.req.param() as Record<string, string>,
      });
      if (result instanceof Response) return result;
      if (result instanceof Reply)
        return result.status === 204
          ? c.body(null, 204)
          : c.json(this.checked(op, result.body) as object, result.status);
      return c.json(this.checked(op, result) as object, 200);
    };
  }

  /** The OpenAPI 3.1 document of every operation, from the same schemas that validate. */
  openapi(info: { readonly title: string; readonly version: string }): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    const problems = {
      type: 'object',
      properties: {
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: { path: { type: 'string' }, message: { type: 'string' } },
            required: ['path', 'message'],
          },
        },
      },
      required: ['errors'],
    };
    for (const op of this.operations) {
      const openPath = op.path.replace(/:([A-Za-z]+)/g, '{$1}');
      const parameters: Record<string, unknown>[] = [...op.path.matchAll(/:([A-Za-z]+)/g)].map(
        (m) => ({
          name: m[1],
          in: 'path',
          required: true,
          schema: { type: 'string' },
        }),
      );
      if (op.query !== undefined) {
        const schema = z.toJSONSchema(op.query, { io: 'input', unrepresentable: 'any' }) as {
          properties?: Record<string, unknown>;
          required?: string[];
        };
        for (const [name, property] of Object.entries(schema.properties ?? {}))
          parameters.push({
            name,
            in: 'query',
            required: schema.required?.includes(name) ?? false,
            schema: property,
          });
      }
      const responses: Record<string, unknown> = {};
      const answer =
        op.response === undefined || op.response === EVENT_STREAM
          ? undefined
          : z.toJSONSchema(op.response, { io: 'output', unrepresentable: 'any' });
      const content = (schema: unknown): Record<string, unknown> => ({
        'application/json': { schema },
      });
      for (const [status, description] of Object.entries(op.responses)) {
        const code = Number(status);
        responses[status] =
          code === 204
            ? { description }
            : code < 300
              ? op.response === EVENT_STREAM
                ? { description, content: { [EVENT_STREAM]: { schema: { type: 'string' } } } }
                : answer === undefined
                  ? { description }
                  : { description, content: content(answer) }
              : code === 503 && answer !== undefined
                ? // A refusal that could not be recorded still has the answer's shape.
                  { description, content: content({ anyOf: [answer, problems] }) }
                : { description, content: content(problems) };
      }
      responses['401'] ??= {
        description: 'no valid bearer token',
        content: { 'application/json': { schema: problems } },
      };
      if (op.permission !== 'any')
        responses['403'] ??= {
          description: `the token's role does not grant \`${op.permission}\``,
          content: { 'application/json': { schema: problems } },
        };
      const operation: Record<string, unknown> = {
        summary: op.summary,
        'x-warden-permission': op.permission,
        parameters,
        responses,
        security: [{ bearer: [] }],
      };
      if (op.body !== undefined)
        operation.requestBody = {
          required: true,
          content: {
            'application/json': {
              schema: z.toJSONSchema(op.body, { io: 'input', unrepresentable: 'any' }),
            },
          },
        };
      (paths[openPath] ??= {})[op.method] = operation;
    }
    return {
      openapi: '3.1.0',
      info,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      paths: {
        ...paths,
        '/healthz': {
          get: {
            summary: 'liveness: the process answers',
            security: [],
            responses: { 200: { description: 'alive' } },
          },
        },
        '/readyz': {
          get: {
            summary: 'readiness: the store answers and the server is not shutting down',
            security: [],
            responses: { 200: { description: 'ready' }, 503: { description: 'not ready' } },
          },
        },
      },
    };
  }
}
