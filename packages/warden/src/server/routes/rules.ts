// `/v1/rules*`: the rules decisions read now, each as its sentence with origin
// and expiry, and revocation of remembered ones before they expire (G23).

import { allRules } from '@warden/engine';
import { ruleList } from '../../permissions/rules.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { timeParam, workspaceOf } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { z } from 'zod';
import { workspaceQuery } from './query.js';
import { ruleListView, storedRuleView } from '../../views/rules.js';
import { acceptedSuggestionView, suggestionListView } from '../../views/suggestions.js';

const suggestQuery = z.strictObject({
  workspace: z.string().optional(),
  since: z.string().optional().describe('how far back: `7d` (default), `24h`, or an ISO time'),
  min: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('prompts approved once a suggestion needs at least (default 3)'),
});

export function ruleRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;
  const window = (query: z.infer<typeof suggestQuery>) => ({
    sinceMs: timeParam('since', query.since ?? '7d', ctx.clock()) as number,
    ...(query.min === undefined ? {} : { min: query.min }),
  });

  api.add({
    method: 'get',
    path: '/v1/rules/suggestions',
    summary:
      'Prompts approved once again and again, as suggested rules, each with its blast radius over past decisions',
    permission: 'read',
    query: suggestQuery,
    response: suggestionListView,
    responses: { 200: '`{ suggestions }`, most approvals first' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      return { suggestions: await warden.suggestions(workspace, window(query)) };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/rules/suggestions/:id/accept',
    summary: "Accept a suggestion: its rules join the workspace's policy as its next revision",
    permission: 'policy',
    query: suggestQuery,
    response: acceptedSuggestionView,
    responses: {
      200: 'the suggestion and the revision that holds its rules',
      404: 'no such suggestion stands (the same `since` and `min` as the list)',
    },
    handler: async ({ identity, query, params }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const id = params.id as string;
      const accepted = await warden.acceptSuggestion(workspace, id, identity.name, window(query));
      if (accepted === null) throw notFound(`no suggestion \`${id}\` stands in \`${workspace}\``);
      if (!accepted.ok) throw badRequest('id', accepted.problem);
      return { suggestion: accepted.suggestion, revision: accepted.revision.revision };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/rules',
    summary:
      'The rules decisions read now, each as a sentence with origin and expiry; managed rules read-only',
    permission: 'read',
    query: workspaceQuery,
    response: ruleListView,
    responses: { 200: '`{ rules, managedSource }`' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const snapshot = await warden.gate.snapshot(workspace);
      const stored = new Set((await warden.rules(workspace)).map((r) => r.id));
      return {
        rules: [
          ...ruleList(snapshot.compiled.policy, 'workspace', stored),
          ...(snapshot.managed === null
            ? []
            : ruleList(snapshot.managed.policy, 'managed', new Set())),
        ],
        managedSource: snapshot.managedSource,
      };
    },
  });

  api.add({
    method: 'delete',
    path: '/v1/rules/:id',
    summary: 'Revoke a remembered rule before it expires',
    permission: 'policy',
    query: workspaceQuery,
    response: storedRuleView,
    responses: {
      200: 'the revoked rule',
      404: 'no live remembered rule with this id',
      409: 'a rule of the policy document',
    },
    handler: async ({ identity, query, params }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const id = params.id as string;
      const revoked = await warden.revokeRule(workspace, id, identity.name);
      if (revoked !== null) return revoked;
      const policy = (await warden.gate.snapshot(workspace)).compiled.policy;
      if (allRules(policy).some((r) => r.id === id))
        throw conflict(
          `rule \`${id}\` is part of the policy document: write a new revision without it`,
        );
      throw notFound(`no live remembered rule \`${id}\``);
    },
  });
}
