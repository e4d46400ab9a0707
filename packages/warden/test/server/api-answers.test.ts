// Responses are typed once: every operation declares the schema of its answer
// (src/views/), the OpenAPI document shows it, and in check mode (the test
// suite's) an answer that does not fit is a 500 that says so.

import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Env } from '../../src/server/api.js';
import { Api, EVENT_STREAM } from '../../src/server/api.js';
import type { TestServer } from '../support/server.js';
import { openTestServer } from '../support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.cleanup();
  server = undefined;
});

describe('answers declared with their schema', () => {
  it('every operation declares the shape of its answer', async () => {
    server = await openTestServer(null);
    const missing = server.api
      .list()
      .filter((op) => op.response === undefined)
      .map((op) => `${op.method.toUpperCase()} ${op.path}`);
    expect(missing).toEqual([]);
  });

  it('the OpenAPI document shows each answer’s shape', async () => {
    server = await openTestServer(null);
    const res = await server.call('GET', '/v1/openapi.json', server.tokens.viewer);
    expect(res.status).toBe(200);
    const doc = res.body as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const bare: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, op] of Object.entries(methods))
        for (const [status, response] of Object.entries(op.responses))
          if (Number(status) < 300 && Number(status) !== 204 && response.content === undefined)
            bare.push(`${method} ${path} ${status}`);
    }
    expect(bare).toEqual([]);
    const decide = doc.paths['/v1/decide']?.post?.responses['200']?.content as Record<
      string,
      { schema: { properties?: Record<string, unknown> } }
    >;
    expect(Object.keys(decide['application/json']?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['decision', 'outcome', 'reason', 'auditId']),
    );
  });

  it('an answer that does not fit its schema is a 500 in check mode, and passes untouched without it', async () => {
    const build = (checkAnswers: boolean) => {
      const api = new Api({ checkAnswers }).add({
        method: 'get',
        path: '/v1/thing',
        summary: 'a thing',
        permission: 'any',
        response: z.strictObject({ n: z.number() }),
        responses: { 200: 'the thing' },
        // A handler whose answer drifted from its schema.
        handler: () => Promise.resolve({ n: 'one' } as unknown as { n: number }),
      });
      const app = new Hono<Env>();
      app.use('*', async (c, next) => {
        c.set('identity', {} as never);
        await next();
      });
      app.onError((error, c) => c.json({ errors: [{ path: '', message: error.message }] }, 500));
      api.mount(app);
      return app;
    };
    const checked = await build(true).request('/v1/thing');
    expect(checked.status).toBe(500);
    expect(JSON.stringify(await checked.json())).toContain('does not fit its declared shape');
    const unchecked = await build(false).request('/v1/thing');
    expect(unchecked.status).toBe(200);
    expect(await unchecked.json()).toEqual({ n: 'one' });
  });

  it('the event stream is declared as such', async () => {
    server = await openTestServer(null);
    const stream = server.api.list().find((op) => op.path === '/v1/approvals/stream');
    expect(stream?.response).toBe(EVENT_STREAM);
  });
});
