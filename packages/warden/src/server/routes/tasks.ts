// `/v1/tasks*`: the taskboard (I2): what agents should do, with due dates. An
// agent token reads and marks its own tasks; people put them on the board.

import { z } from 'zod';
import type { Api } from '../api.js';
import { Reply } from '../api.js';
import { can } from '../auth.js';
import type { ServerContext } from '../context.js';
import { sees, timeParam, workspaceOf } from '../context.js';
import { forbidden, notFound } from '../errors.js';
import { given, limit } from './query.js';
import { taskListView, taskRecordView } from '../../views/tasks.js';

export function taskRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'get',
    path: '/v1/tasks',
    summary: 'The taskboard: open, done or overdue tasks',
    permission: 'any',
    query: z.strictObject({
      workspace: z.string().optional(),
      agent: z.string().optional(),
      state: z.enum(['open', 'done', 'overdue']).optional(),
      limit,
    }),
    response: taskListView,
    responses: { 200: '`{ tasks }`' },
    handler: async ({ identity, query }) => {
      if (identity.role === 'agent' && query.agent !== undefined && query.agent !== identity.agent)
        throw forbidden(
          `an \`agent\` token reads the tasks of its own agent only, not those of \`${query.agent}\``,
        );
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const agent = identity.role === 'agent' ? (identity.agent as string) : query.agent;
      const tasks = await warden.tasks.list({
        workspace,
        ...(agent === undefined ? {} : { agent }),
        ...given(query, 'state'),
        at: ctx.clock(),
        limit: query.limit ?? 200,
      });
      return { tasks };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/tasks',
    summary: 'Put a task on an agent’s board',
    permission: 'policy',
    body: z.strictObject({
      workspace: z.string().optional(),
      agent: z.string().min(1),
      title: z.string().min(1).max(500),
      dueAt: z.string().optional().describe('ISO 8601 with a zone'),
      note: z.string().max(5000).optional(),
    }),
    response: taskRecordView,
    responses: { 201: 'the task' },
    handler: async ({ identity, body }) => {
      const workspace = await workspaceOf(ctx, identity, body.workspace);
      if (body.dueAt !== undefined) timeParam('dueAt', body.dueAt, ctx.clock());
      return new Reply(
        201,
        await warden.tasks.create(
          {
            workspace,
            agent: body.agent,
            title: body.title,
            ...given(body, 'dueAt', 'note'),
          },
          ctx.clock(),
        ),
      );
    },
  });

  api.add({
    method: 'patch',
    path: '/v1/tasks/:id',
    summary: 'Mark a task done or open again (the agent its own, an admin any)',
    permission: 'any',
    body: z.strictObject({ state: z.enum(['open', 'done']) }),
    response: taskRecordView,
    responses: { 200: 'the task', 404: 'no such task' },
    handler: async ({ identity, params, body }) => {
      const task = await warden.tasks.get(params.id as string, ctx.clock());
      const mine =
        task !== null &&
        sees(identity, task) &&
        (identity.role === 'agent' ? task.agent === identity.agent : can(identity, 'policy'));
      if (!mine || task === null)
        throw notFound(`no task \`${params.id ?? ''}\` this token may change`);
      const updated = await warden.tasks.mark(task.id, body.state, ctx.clock());
      if (updated === null) throw notFound(`no task \`${task.id}\``);
      return updated;
    },
  });
}
