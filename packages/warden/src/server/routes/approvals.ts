// Approvals over HTTP (G22, G23, G26): list and read them, answer them, and
// hold a live channel — a Server-Sent Events stream of pending approvals —
// which is what makes its holder a connected approver while it is open.

import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { AnswerResult } from '../../approvals/broker.js';
import type { Api } from '../api.js';
import { EVENT_STREAM } from '../api.js';
import type { Identity } from '../auth.js';
import { approverRoles, roleToken } from '../auth.js';
import { expiredAt, tokenHash } from '../../tokens.js';
import type { ServerContext } from '../context.js';
import { sees, workspaceOf } from '../context.js';
import { given, limitUpTo } from './query.js';
import { ApiError, forbidden, notFound } from '../errors.js';
import type { ApprovalView } from '../../views/approvals.js';
import { approvalListView, approvalView, showApproval } from '../../views/approvals.js';

const answerSchema = z.strictObject({
  kind: z.enum(['once', 'remember', 'deny', 'override']),
  reason: z.string().max(2000).optional(),
  hours: z.number().positive().optional().describe('for `remember`'),
  scope: z.string().optional().describe('for `remember`: one of the scopes the approval offers'),
});

function mustApprove(identity: Identity): void {
  if (approverRoles(identity).length === 0)
    throw forbidden(
      `${roleToken(identity.role)} may not answer approvals: that takes an \`admin\`, \`approver\` or \`overrider\` token`,
    );
}

function answered(result: AnswerResult, now: number): ApprovalView {
  if (result.ok) return showApproval(result.approval, now);
  const status = { 'not-found': 404, 'not-pending': 409, forbidden: 403, invalid: 422 }[
    result.code
  ] as 404 | 409 | 403 | 422;
  const code =
    status === 404
      ? 'not_found'
      : status === 409
        ? 'conflict'
        : status === 403
          ? 'forbidden'
          : 'invalid_value';
  throw new ApiError(status, [{ code, path: '', message: result.message }]);
}

export function approvalRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;
  const approverOf = (identity: Identity) => ({
    name: identity.name,
    roles: approverRoles(identity),
    workspace: identity.workspace,
  });

  api.add({
    method: 'get',
    path: '/v1/approvals',
    summary: 'List approvals, newest first',
    permission: 'read',
    query: z.strictObject({
      workspace: z.string().optional(),
      state: z.enum(['pending', 'approved', 'denied', 'expired', 'cancelled']).optional(),
      agent: z.string().optional(),
      limit: limitUpTo(500),
    }),
    response: approvalListView,
    responses: { 200: '`{ approvals }`' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const approvals = await warden.approvals.list({
        workspace,
        ...given(query, 'state', 'agent'),
        limit: query.limit ?? 100,
      });
      const now = ctx.clock();
      return { approvals: approvals.map((a) => showApproval(a, now)) };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/approvals/stream',
    summary: 'Hold a live approver channel: pending approvals as Server-Sent Events',
    permission: 'read',
    response: EVENT_STREAM,
    responses: { 200: '`text/event-stream`: `approval` and `settled` events' },
    handler: async ({ c, identity }) => {
      mustApprove(identity);
      return streamSSE(c, async (stream) => {
        const channel = await warden.approvals.connect(approverOf(identity));
        const send = (event: string, data: unknown) =>
          stream.writeSSE({ event, data: JSON.stringify(data) }).catch(() => undefined);
        const settledSeen = new Set<string>();
        const stopApprovals = channel.onApproval(
          (approval) => void send('approval', showApproval(approval, ctx.clock())),
        );
        const stopSettled = warden.approvals.onSettled(identity.workspace, (approval) => {
          if (settledSeen.has(approval.id)) return;
          settledSeen.add(approval.id);
          void send('settled', showApproval(approval, ctx.clock()));
        });
        let end: () => void = () => undefined;
        const closed = new Promise<void>((resolve) => {
          end = resolve;
          stream.onAbort(resolve);
          // A client gone while the channel was opening is gone: no listener hears that abort.
          if (stream.aborted) resolve();
        });
        // A revoked token stops being an approver within a second, here as for every request.
        const hash = tokenHash(
          /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '',
        );
        const recheck = setInterval(() => {
          warden.tokens
            .byHash(hash)
            .then(async (still) => {
              const expired = still === null ? null : expiredAt(still, ctx.clock());
              if (still !== null && expired === null) return;
              await send('revoked', {
                message:
                  expired === null ? 'the token was revoked' : `the token expired at ${expired}`,
              });
              end();
            })
            .catch(() => undefined);
        }, 1000);
        await send('ready', {
          name: identity.name,
          roles: approverRoles(identity),
          workspace: identity.workspace,
        });
        for (const approval of await channel.pending())
          await send('approval', showApproval(approval, ctx.clock()));
        // A comment now and then keeps proxies from closing a quiet stream.
        const keepalive = setInterval(
          () => void stream.write(': keepalive\n\n').catch(() => undefined),
          15_000,
        );
        await closed;
        clearInterval(keepalive);
        clearInterval(recheck);
        stopApprovals();
        stopSettled();
        await channel.close();
      });
    },
  });

  api.add({
    method: 'get',
    path: '/v1/approvals/:id',
    summary: 'Read one approval',
    permission: 'read',
    response: approvalView,
    responses: { 200: 'the approval', 404: 'no such approval' },
    handler: async ({ identity, params }) => {
      const approval = await warden.approvals.get(params.id as string);
      if (approval === null || !sees(identity, approval))
        throw notFound(`no approval \`${params.id ?? ''}\``);
      return showApproval(approval, ctx.clock());
    },
  });

  api.add({
    method: 'post',
    path: '/v1/approvals/:id/answer',
    summary:
      'Answer an approval: once, remember for N hours in a scope, deny, or override a soft deny',
    permission: 'read',
    body: answerSchema,
    response: approvalView,
    responses: {
      200: 'the settled approval',
      403: 'the role may not give this answer',
      404: 'no such approval',
      409: 'no longer pending',
      422: 'not a valid answer',
    },
    handler: async ({ identity, params, body }) => {
      mustApprove(identity);
      return answered(
        await warden.approvals.answer(
          params.id as string,
          {
            kind: body.kind,
            ...given(body, 'reason', 'hours', 'scope'),
          },
          approverOf(identity),
        ),
        ctx.clock(),
      );
    },
  });

  api.add({
    method: 'post',
    path: '/v1/approvals/:id/override',
    summary: 'Override a soft deny, with a reason',
    permission: 'override',
    body: z.strictObject({ reason: z.string().min(1).max(2000) }),
    response: approvalView,
    responses: {
      200: 'the settled approval',
      404: 'no such approval',
      409: 'no longer pending',
      422: 'not a soft deny',
    },
    handler: async ({ identity, params, body }) =>
      answered(
        await warden.approvals.answer(
          params.id as string,
          { kind: 'override', reason: body.reason },
          approverOf(identity),
        ),
        ctx.clock(),
      ),
  });
}
