// Tokens over HTTP, for admins: list them (never their secrets), make one
// (its secret is answered once, and it may expire), revoke one. A workspace-bound admin manages
// the tokens of its workspace only. The first admin token comes from the CLI
// (`warden token create`), which writes to the store directly.

import { z } from 'zod';
import { ROLES } from '../../store/types.js';
import type { Api } from '../api.js';
import { Reply } from '../api.js';
import { parseExpiry } from '../../tokens.js';
import type { ServerContext } from '../context.js';
import { sees, workspaceAsked } from '../context.js';
import { badRequest, invalid, notFound } from '../errors.js';
import { given } from './query.js';
import { madeTokenView, showToken, tokenListView, tokenView } from '../../views/tokens.js';

export function tokenRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'get',
    path: '/v1/tokens',
    summary: 'List tokens (names, roles, bindings; never the secrets)',
    permission: 'tokens',
    query: z.strictObject({ revoked: z.enum(['true', 'false']).optional() }),
    response: tokenListView,
    responses: { 200: '`{ tokens }`' },
    handler: async ({ identity, query }) => {
      const all = (await warden.tokens.list()).filter((t) => sees(identity, t));
      const tokens = query.revoked === 'true' ? all : all.filter((t) => t.revokedAt === null);
      return { tokens: tokens.map(showToken) };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/tokens',
    summary: 'Make a token; its secret is in this answer and nowhere else',
    permission: 'tokens',
    body: z.strictObject({
      role: z.enum(ROLES),
      name: z.string(),
      workspace: z.string().optional(),
      agent: z.string().optional(),
      space: z.string().optional(),
      mode: z.string().optional(),
      expiresAt: z
        .string()
        .optional()
        .describe('when the token stops being accepted: an ISO 8601 time with a zone'),
      expires: z
        .string()
        .optional()
        .describe(
          'the same as a span from now (`90m`, `24h`, `30d`, `2w`) or a time with a zone; give one of the two',
        ),
    }),
    response: madeTokenView,
    responses: {
      201: '`{ token, record }`',
      400: 'not a valid expiry',
      403: 'another workspace',
      422: 'not a valid token',
    },
    handler: async ({ identity, body }) => {
      const now = ctx.clock();
      let expiresAt: number | undefined;
      if (body.expiresAt !== undefined && body.expires !== undefined)
        throw badRequest('expires', 'give `expiresAt` or `expires`, not both');
      if (body.expiresAt !== undefined) {
        const at = /^\d{4}-/.test(body.expiresAt)
          ? parseExpiry(body.expiresAt, now)
          : {
              problem: `\`${body.expiresAt}\` is not a time with a zone like \`2026-12-01T08:00:00Z\` (\`expires\` takes a span like \`30d\`)`,
            };
        if (typeof at !== 'number') throw badRequest('expiresAt', at.problem);
        expiresAt = at;
      }
      if (body.expires !== undefined) {
        const at = parseExpiry(body.expires, now);
        if (typeof at !== 'number') throw badRequest('expires', at.problem);
        expiresAt = at;
      }
      const workspace = workspaceAsked(identity, body.workspace);
      const made = await warden.tokens.create({
        role: body.role,
        name: body.name,
        ...(workspace === undefined ? {} : { workspace }),
        ...given(body, 'agent', 'space', 'mode'),
        ...(expiresAt === undefined ? {} : { expiresAt }),
        by: identity.name,
        at: now,
      });
      if (!made.ok)
        throw invalid(
          made.problems.map((p) => ({
            code: 'invalid_value',
            path: p.path.replace(/^--/, ''),
            message: p.message,
          })),
        );
      ctx.logger.info(
        {
          token: made.record.id,
          role: made.record.role,
          by: identity.name,
          expiresAt: made.record.expiresAt,
        },
        'token created',
      );
      return new Reply(201, { token: made.token, record: showToken(made.record) });
    },
  });

  api.add({
    method: 'delete',
    path: '/v1/tokens/:id',
    summary: 'Revoke a token; this server refuses it at once, every other within a second',
    permission: 'tokens',
    response: tokenView,
    responses: { 200: 'the revoked token', 404: 'no such token' },
    handler: async ({ identity, params }) => {
      const id = params.id as string;
      const record = await warden.tokens.get(id);
      if (record === null || !sees(identity, record)) throw notFound(`no token \`${id}\``);
      const revoked = await warden.tokens.revoke(id, ctx.clock());
      if (revoked === null) throw notFound(`no token \`${id}\``);
      ctx.logger.info({ token: id, by: identity.name }, 'token revoked');
      return showToken(revoked);
    },
  });
}
