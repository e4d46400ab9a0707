// `/v1/permissions/*`: the permissions matrix (G20) and what a proposed
// document or a template would change, computed by `permissions/` from the very
// snapshot decisions read; the permissions audit — every decision with its
// facets, deciding rules and advisory hits (G39) — and what advisory rules
// would have blocked (G25).

import { ACTION_CLASSES, classInfo, lintPolicy } from '@warden/engine';
import { z } from 'zod';
import { advisoriesOf, countAdvisories } from '../../permissions/advisories.js';
import { permissionsView, proposePolicy } from '../../permissions/view.js';
import { TEMPLATES, applyTemplate } from '../../templates/index.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { agentCall, timeParam, timeWindow, workspaceOf } from '../context.js';
import { asIssues, invalid, notFound, within } from '../errors.js';
import { given, limit } from './query.js';
import { templateArgs, templateArgsOf } from './templates.js';
import { shownDecisionEntry } from '../../views/audit.js';
import {
  advisoriesView,
  outrightView,
  permissionsAuditView,
  permissionsMatrixView,
  proposalView,
  templateProposalView,
} from '../../views/permissions.js';

const permissionsQuery = z.strictObject({
  workspace: z.string().optional(),
  agent: z.string().optional(),
  since: z.string().optional(),
  until: z.string().optional(),
  outcome: z.enum(['allow', 'ask', 'deny']).optional(),
  advisory: z
    .enum(['1', 'true'])
    .optional()
    .describe('only decisions an advisory rule would have changed'),
  limit,
});

export function permissionRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;
  const noPolicy = (workspace: string) =>
    notFound(`no policy is stored for workspace \`${workspace}\``);

  /** The matrix and rules decisions read now. */
  const view = async (workspace: string) => {
    const now = await permissionsView(warden, workspace, ctx.clock());
    if (now === null) throw noPolicy(workspace);
    return now;
  };

  /** What a proposed document would change; its problems are the `document`'s. */
  const proposal = async (workspace: string, document: unknown) => {
    const proposed = await proposePolicy(warden, workspace, document, ctx.clock());
    if (proposed.ok) return proposed.proposal;
    if ('missing' in proposed) throw noPolicy(workspace);
    throw invalid(within('document', proposed.issues));
  };

  api.add({
    method: 'get',
    path: '/v1/permissions/outright',
    summary:
      'For the calling agent, where it acts now: the action classes every call of which is a hard deny, whatever its arguments (nothing is recorded)',
    permission: 'decide',
    response: outrightView,
    responses: {
      200: '`{ agent, space, mode, classes }`: a gateway leaves tools acting only in these classes out of `tools/list`',
    },
    handler: async ({ identity }) => {
      const call = await agentCall(ctx, identity);
      const placement = given(call, 'space', 'mode');
      return {
        agent: call.agent,
        space: call.space ?? null,
        mode: call.mode ?? null,
        classes: await warden.outrightDenials(call.workspace, call.agent, placement),
      };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/permissions/matrix',
    summary:
      'The permissions matrix: per action class and scope (workspace, each agent, space, mode) the effective decision and the deciding rule',
    permission: 'read',
    query: z.strictObject({ workspace: z.string().optional() }),
    response: permissionsMatrixView,
    responses: {
      200: '`{ workspace, revision, columns, rows, rules, managed, document }`',
      400: 'which workspace is not said',
      403: 'another workspace',
      404: 'no policy is stored for the workspace',
    },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const v = await view(workspace);
      return {
        workspace,
        at: new Date(v.at).toISOString(),
        revision: {
          revision: v.revision.revision,
          hash: v.revision.hash,
          author: v.revision.author,
          message: v.revision.message,
          createdAt: v.revision.createdAt,
        },
        classes: ACTION_CLASSES.map((cls) => ({
          class: cls,
          covers: classInfo(cls).covers,
          default: classInfo(cls).defaultDecision,
        })),
        columns: v.columns,
        rows: v.matrix.rows,
        rules: v.rules,
        agents: v.known.map((a) => ({ id: a.id, name: a.name, space: a.space, mode: a.mode })),
        modes: Object.keys(v.snapshot.compiled.policy.modes).sort((a, b) => a.localeCompare(b)),
        managed: {
          loaded: v.snapshot.managed !== null,
          source: v.snapshot.managedSource,
          file: warden.managedFile?.file ?? null,
          readOnly: true as const,
        },
        skipped: v.snapshot.skipped,
        warnings: lintPolicy(v.snapshot.compiled.policy, v.at),
        document: v.revision.document,
      };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/permissions/preview',
    summary:
      'What a proposed policy document would change: the matrix cells, the rules (each as its sentence) and lint warnings; nothing is written',
    permission: 'read',
    body: z.strictObject({
      workspace: z.string().optional(),
      document: z.unknown().describe('the proposed policy document'),
    }),
    response: proposalView,
    responses: {
      200: '`{ revision, changes, rules: { added, changed, removed }, warnings }`',
      404: 'no policy is stored for the workspace',
      422: 'the document is not valid',
    },
    handler: async ({ identity, body }) => {
      const asked =
        body.workspace ??
        ((body.document as { workspace?: unknown } | null)?.workspace as string | undefined);
      const workspace = await workspaceOf(
        ctx,
        identity,
        typeof asked === 'string' ? asked : undefined,
      );
      return proposal(workspace, body.document);
    },
  });

  api.add({
    method: 'post',
    path: '/v1/permissions/templates/:name/preview',
    summary:
      'What applying a template would change: the rules it adds, each as its sentence, and the matrix cells that change; nothing is written',
    permission: 'read',
    body: templateArgs,
    response: templateProposalView,
    responses: {
      200: '`{ template, revision, changes, rules: { added, changed, removed }, warnings }`',
      404: 'no such template, or no policy',
      422: 'the arguments do not fit',
    },
    handler: async ({ identity, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, body.workspace);
      const name = params.name as string;
      if (!TEMPLATES.some((t) => t.name === name)) throw notFound(`no template \`${name}\``);
      const stored = await warden.policy.current(workspace);
      if (stored === null) throw noPolicy(workspace);
      const applied = applyTemplate(stored.document, name, templateArgsOf(body));
      if (!applied.ok) throw invalid(asIssues('invalid_value', applied.problems));
      return { template: name, ...(await proposal(workspace, applied.document)) };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/permissions/audit',
    summary: 'Read the permissions audit: decisions with their facets, rules and advisory hits',
    permission: 'read',
    query: permissionsQuery,
    response: permissionsAuditView,
    responses: { 200: '`{ decisions }`' },
    handler: async ({ identity, query }) => {
      const now = ctx.clock();
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const wanted = query.limit ?? 100;
      const found = await ctx.warden.audit.query({
        workspace,
        kinds: ['decision'],
        ...given(query, 'agent'),
        ...timeWindow(query, now),
        // Filters on the entries' content run here, so read a margin beyond the limit.
        limit:
          query.outcome === undefined && query.advisory === undefined
            ? wanted
            : Math.min(wanted * 20, 5000),
      });
      const decisions = found
        .filter((e) => query.outcome === undefined || e.outcome === query.outcome)
        .filter((e) => query.advisory === undefined || advisoriesOf(e).length > 0)
        .slice(0, wanted)
        .map(shownDecisionEntry);
      return { decisions };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/permissions/advisories',
    summary: 'What each advisory rule would have decided, and how often, over a window',
    permission: 'read',
    query: z.strictObject({
      workspace: z.string().optional(),
      since: z.string().optional().describe('default `7d`'),
    }),
    response: advisoriesView,
    responses: {
      200: '`{ since, decisions, truncated, rules: [{ rule, facet, wouldBe, count, agents, lastAt }] }`',
    },
    handler: async ({ identity, query }) => {
      const now = ctx.clock();
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const since = timeParam('since', query.since ?? '7d', now) as number;
      const cap = 100_000;
      const decisions = await ctx.warden.audit.query({
        workspace,
        kinds: ['decision'],
        sinceMs: since,
        order: 'oldest',
        limit: cap,
      });
      return {
        since: new Date(since).toISOString(),
        decisions: decisions.length,
        truncated: decisions.length === cap,
        rules: countAdvisories(decisions),
      };
    },
  });
}
