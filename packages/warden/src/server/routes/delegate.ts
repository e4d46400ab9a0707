// `/v1/delegate`: an agent hands a task to another from one of its runs, under
// the depth, cycle, autonomy and budget guards (G33–G36).

import { AUTONOMY_LEVELS } from '@warden/engine';
import { z } from 'zod';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { agentCall } from '../context.js';
import { cents, given } from './query.js';
import { ownRun } from './runs.js';
import { delegateAnswerView } from '../../views/delegate.js';

export function delegateRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'post',
    path: '/v1/delegate',
    summary:
      'Delegate a task from one of the calling agent’s runs (depth, cycle, autonomy, budget guards)',
    permission: 'decide',
    body: z.strictObject({
      runId: z.string(),
      target: z.string().min(1),
      budgetCents: cents,
      autonomy: z.enum(AUTONOMY_LEVELS).optional(),
      taskId: z.string().optional(),
    }),
    response: delegateAnswerView,
    responses: {
      200: '`{ ok: true, run }` or `{ ok: false, guard, reason }` — the reason verbatim',
      503: '`{ ok: false, guard, reason, failure }`: refused, and the attempt could not be recorded',
    },
    handler: async ({ c, identity, body }) => {
      await ownRun(ctx, identity, body.runId);
      const result = await warden.delegate(
        { ...(await agentCall(ctx, identity)), runId: body.runId },
        {
          target: body.target,
          budgetCents: body.budgetCents,
          ...given(body, 'autonomy', 'taskId'),
        },
      );
      // A 2xx means durable (contracts §8): a refusal nobody could record is a 503.
      return !result.ok && result.failure !== undefined ? c.json(result, 503) : result;
    },
  });
}
