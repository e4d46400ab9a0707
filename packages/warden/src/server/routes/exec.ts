// `/v1/exec/*`: `warden exec --grant` asks for the sandbox profile a granted
// command runs under, made from the decision that allowed it (G2).

import { z } from 'zod';
import { grantedRun, recordStart } from '../../sandbox/profile.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { forbidden } from '../errors.js';
import { execStartView } from '../../views/exec.js';

const execStartSchema = z.strictObject({
  grant: z.string().max(512).describe('the `grant` decide answered with'),
  command: z.string().describe('the command line, exactly as decided'),
  worktree: z.string().describe('the worktree, exactly as decided'),
});

export function execRoutes(api: Api, ctx: ServerContext): void {
  api.add({
    method: 'post',
    path: '/v1/exec/start',
    summary: 'The sandbox profile a granted command runs under, made from its decision',
    permission: 'decide',
    body: execStartSchema,
    response: execStartView,
    responses: {
      200: '`auditId`, `callId` and `profile` (worktree, write, hosts, denyRead)',
      400: 'not a grant request',
      403: 'the grant does not verify, has expired, ran already, or is not this agent’s',
    },
    handler: async ({ identity, body }) => {
      const checked = await grantedRun(
        {
          secrets: ctx.warden.store.secrets,
          audit: ctx.warden.store.audit,
          grants: ctx.warden.store.grants,
          snapshot: (workspace) => ctx.warden.gate.snapshot(workspace),
          ...(ctx.sandboxDenyRead === undefined ? {} : { denyRead: ctx.sandboxDenyRead }),
        },
        body.grant,
        {
          command: body.command,
          worktree: body.worktree,
          at: Date.now(),
          owner: { workspace: identity.workspace ?? '', agent: identity.agent ?? '' },
        },
      );
      if (!checked.ok) throw forbidden(checked.problem);
      const { run } = checked;
      // The run is recorded as started before its profile is given: a run killed before it
      // reports how it ended still has its entry.
      await recordStart(ctx.warden.gate, run, body.command);
      return { auditId: run.auditId, callId: run.callId, profile: run.profile };
    },
  });
}
