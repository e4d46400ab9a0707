// Reports and messages for the human (I10, I11): the scheduled supervisor
// reports and what supervisors wrote with `messageHuman`. People read them;
// agent tokens do not — a supervised agent has no business reading its verdict.

import { z } from 'zod';
import { REPORT_KINDS } from '../../store/types.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { sees, workspaceAsked } from '../context.js';
import { notFound } from '../errors.js';
import { given, limitUpTo } from './query.js';
import { reportListView, reportSummary, reportView } from '../../views/reports.js';

const listQuery = z.strictObject({
  supervisor: z.string().min(1).optional().describe('only this supervisor’s reports and messages'),
  kind: z.enum(REPORT_KINDS).optional(),
  workspace: z
    .string()
    .min(1)
    .optional()
    .describe('only this workspace’s; a token bound to a workspace sees only its own'),
  limit: limitUpTo(500).describe('default 50'),
});

export function reportRoutes(api: Api, ctx: ServerContext): void {
  api.add({
    method: 'get',
    path: '/v1/reports',
    summary: 'Supervisor reports and messages to the human, newest first',
    permission: 'read',
    query: listQuery,
    response: reportListView,
    responses: { 200: '`{ reports }`: each without its `data` (see `GET /v1/reports/:id`)' },
    handler: async ({ identity, query }) => {
      const workspace = workspaceAsked(identity, query.workspace);
      const reports = await ctx.warden.reports.list({
        ...(workspace === undefined ? {} : { workspace }),
        ...given(query, 'supervisor', 'kind'),
        limit: query.limit ?? 50,
      });
      return { reports: reports.map(reportSummary) };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/reports/:id',
    summary: 'One report or message, with its Markdown body and its data',
    permission: 'read',
    response: reportView,
    responses: { 200: 'the report', 404: 'no such report' },
    handler: async ({ identity, params }) => {
      const id = params.id as string;
      const report = await ctx.warden.reports.get(id);
      // A token bound to a workspace reads that workspace's reports only (not the instance-wide ones).
      if (report === null || !sees(identity, report)) throw notFound(`no report \`${id}\``);
      return report;
    },
  });
}
