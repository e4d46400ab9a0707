// `/v1/exec/*`: `warden exec --grant` asks for the sandbox profile a granted
// command runs under, made from the decision that allowed it (G2), and, after
// a transactional run, has what the command did decided before it lands (E44).

import { z } from 'zod';
import { recordStart } from '../../sandbox/profile.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { forbidden } from '../errors.js';
import { execEffectsView, execStartView } from '../../views/exec.js';
import { decideEffects } from '../../gate/effects.js';
import { isRecorded } from '../../gate/types.js';

/** The most paths of one class a run reports: past it, a deletion is decided on its folders. */
const MAX_EFFECT_PATHS = 60_000;
const pathList = z.array(z.string().min(1).max(4096)).min(1).max(MAX_EFFECT_PATHS);

const execEffectsSchema = z.strictObject({
  auditId: z.string().max(64).describe('the decision the run was granted by'),
  effects: z.strictObject({
    fileDelete: z
      .strictObject({ paths: pathList, count: z.number().int().min(0).nullable() })
      .optional()
      .describe(
        'what the command deleted: each path, and how many files (null: too many to count)',
      ),
    fileWriteOutsideWorktree: z
      .strictObject({ paths: pathList })
      .optional()
      .describe('what it wrote outside the worktree'),
    workspaceMutation: z
      .strictObject({ paths: pathList })
      .optional()
      .describe('what it wrote that changes what later commands run'),
  }),
});

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
      const checked = await ctx.warden.grants.run(
        body.grant,
        {
          command: body.command,
          worktree: body.worktree,
          at: Date.now(),
          owner: { workspace: identity.workspace ?? '', agent: identity.agent ?? '' },
        },
        ctx.sandboxDenyRead === undefined ? {} : { denyRead: ctx.sandboxDenyRead },
      );
      if (!checked.ok) throw forbidden(checked.problem);
      const { run } = checked;
      // The run is recorded as started before its profile is given: a run killed before it
      // reports how it ended still has its entry.
      await recordStart(ctx.warden.gate, run, body.command);
      return { auditId: run.auditId, callId: run.callId, profile: run.profile };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/exec/effects',
    summary: 'Decide what a granted command did, before it lands',
    permission: 'decide',
    body: execEffectsSchema,
    query: z.strictObject({
      wait: z.enum(['0', '1']).optional().describe('`0`: a prompt answers at once, denied'),
    }),
    response: execEffectsView,
    responses: {
      200: '`outcome` allow (land it) or deny (discard it), the `reason`, and the `auditIds` of each request decided',
      400: 'not an effects request',
      403: 'the decision is not this agent’s, did not allow its call, or its run never started',
      503: 'a decision on what it did could not be recorded: it is denied',
    },
    handler: async ({ c, identity, body, query }) => {
      const found = await ctx.warden.audit.decidedCall(body.auditId);
      if (!found.ok) throw forbidden(found.problem);
      const { call } = found;
      if (call.context.workspace !== identity.workspace || call.context.agent !== identity.agent)
        throw forbidden(`decision \`${body.auditId}\` is not this agent's`);
      // Only a run that started under its grant has effects to decide.
      const started = await ctx.warden.audit.started(body.auditId);
      if (started === undefined)
        throw forbidden(`decision \`${body.auditId}\` has no run that started under its grant`);
      const decided = await decideEffects(
        ctx.warden.gate,
        call,
        {
          ...(body.effects.fileDelete === undefined ? {} : { fileDelete: body.effects.fileDelete }),
          ...(body.effects.fileWriteOutsideWorktree === undefined
            ? {}
            : { fileWriteOutsideWorktree: body.effects.fileWriteOutsideWorktree }),
          ...(body.effects.workspaceMutation === undefined
            ? {}
            : { workspaceMutation: body.effects.workspaceMutation }),
        },
        {
          wait: query.wait !== '0',
          get signal() {
            return c.req.raw.signal;
          },
        },
      );
      const answer = {
        outcome: decided.outcome,
        reason: decided.reason,
        auditIds: decided.decisions.flatMap((d) => (d.auditId === undefined ? [] : [d.auditId])),
      };
      // Every decision is recorded before the answer (contracts §8); one that is not denies.
      return decided.decisions.every(isRecorded) ? answer : c.json(answer, 503);
    },
  });
}
