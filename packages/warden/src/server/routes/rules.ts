// `/v1/rules*`: the rules decisions read now, each as its sentence with origin
// and expiry, and revocation of remembered ones before they expire (G23).

import { allRules } from '@warden/engine';
import { ruleList } from '../../permissions/rules.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { workspaceOf } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { workspaceQuery } from './query.js';
import { ruleListView, storedRuleView } from '../../views/rules.js';

export function ruleRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

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
