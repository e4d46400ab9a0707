// The API's operations as data: each route names its method, path, the
// permission it needs and the zod schemas of its body and query. The same
// record mounts the route (validating input before the handler runs) and
// generates the OpenAPI document, so the documentation is the validation.

import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Identity, Permission } from './auth.js';
import { can, refusal } from './auth.js';
import { ApiError, badRequest, forbidden } from './errors.js';
import { zodIssues } from '../policy/problems.js';
import { illFormedProblem } from '../well-formed.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Call<B, Q> {
  readonly c: Context<Env>;
  readonly identity: Identity;
  readonly body: B;
  readonly query: Q;
  readonly params: Readonly<Record<string, string>>;
}

/** A response with a status other than 200. */
export class Reply {
  constructor(
    readonly status: 200 | 201 | 202 | 204,
    readonly body: unknown,
  ) {}
}

export interface Operation<B = unknown, Q = unknown> {
  readonly method: Method;
  readonly path: string;
  readonly summary: string;
  /** `any`: every valid token; otherwise the permission its role must grant. */
  readonly permission: Permission | 'any';
  readonly body?: z.ZodType<B>;
  readonly query?: z.ZodType<Q>;
  readonly responses: Readonly<Record<number, string>>;
  readonly handler: (call: Call<B, Q>) => Promise<unknown>;
}

export interface Env {
  Variables: { identity: Identity };
}

/** The query as an object: a key given once is a string, a key given more often a list. */
function queryObject(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(c.req.queries())) {
    out[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

export class Api {
  private readonly operations: Operation[] = [];

  add<B, Q>(operation: Operation<B, Q>): this {
    this.operations.push(operation as unknown as Operation);
    return this;
  }

  mount(app: Hono<Env>): void {
    for (const op of this.operations) {
      app.on(op.method.toUpperCase(), op.path, async (c) => {
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
            : c.json(result.body as object, result.status);
        return c.json(result as object, 200);
      });
    }
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
      for (const [status, description] of Object.entries(op.responses)) {
        responses[status] =
          Number(status) >= 400
            ? { description, content: { 'application/json': { schema: problems } } }
            : { description };
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
