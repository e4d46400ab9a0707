// The policy over HTTP: read it, its revisions and their differences; write a
// new revision (validated whole, G24: never a silent rewrite); the rules as
// decisions read them, with origin and expiry, and revocation of remembered
// ones (G23); spaces and the autonomy dial (G30–G32); the managed layer,
// read-only while WARDEN_MANAGED_POLICY pins it (G29).

import type { Policy } from '@warden/engine';
import { AUTONOMY_LEVELS, allRules, describeRule, validatePolicy } from '@warden/engine';
import { z } from 'zod';
import type { JsonValue, PolicyRevision } from '../../store/types.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { workspaceOf } from '../context.js';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import { policyDiff } from '../policy-diff.js';

const workspaceQuery = z.strictObject({ workspace: z.string().optional() });

/** What the dial means, in plain words, wherever it is set (G32). */
export const AUTONOMY_MEANING: Readonly<Record<string, string>> = {
  proposeOnly: 'every gated tool call is denied; agents here propose and do not act',
  actWithApproval: 'a prompt waits for a connected human approver; with none, it is denied',
  actFreely:
    'every prompt is allowed without asking anyone — only an explicit deny still stops a call (and a managed prompt, an unverifiable deny, an unreadable command)',
};

function revisionView(revision: PolicyRevision, withDocument: boolean): Record<string, unknown> {
  return {
    workspace: revision.workspace,
    revision: revision.revision,
    hash: revision.hash,
    author: revision.author,
    message: revision.message,
    createdAt: revision.createdAt,
    ...(withDocument ? { document: revision.document } : {}),
  };
}

type Rule = Policy['rules'][number];

/** A rule as the API shows it: its fields, its origin, and its sentence (G19). */
export function ruleFacts(
  rule: Rule,
  workspace: string | undefined,
  layer: 'workspace' | 'managed',
) {
  return {
    id: rule.id,
    scope: rule.scope,
    ...(rule.action === undefined ? {} : { action: rule.action }),
    ...(rule.command === undefined ? {} : { command: rule.command }),
    decision: rule.decision,
    enforcement: rule.enforcement,
    ...(rule.when === undefined ? {} : { when: rule.when }),
    origin: layer === 'managed' ? 'managed' : rule.origin,
    expiresAt: rule.expiresAt ?? null,
    ...(rule.note === undefined ? {} : { note: rule.note }),
    sentence: describeRule(rule, workspace, layer === 'managed'),
    layer,
    readOnly: layer === 'managed',
  };
}

function ruleView(policy: Policy, layer: 'workspace' | 'managed', revocable: ReadonlySet<string>) {
  return allRules(policy).map((rule) => ({
    ...ruleFacts(rule, policy.workspace, layer),
    revocable: revocable.has(rule.id),
  }));
}

export function policyRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  const current = async (workspace: string): Promise<PolicyRevision> => {
    const revision = await warden.store.policies.current(workspace);
    if (revision === null) throw notFound(`no policy is stored for workspace \`${workspace}\``);
    return revision;
  };

  api.add({
    method: 'get',
    path: '/v1/policy',
    summary: 'Read the current policy revision',
    permission: 'read',
    query: workspaceQuery,
    responses: { 200: 'the revision with its document', 404: 'no policy yet' },
    handler: async ({ identity, query }) =>
      revisionView(await current(await workspaceOf(ctx, identity, query.workspace)), true),
  });

  api.add({
    method: 'put',
    path: '/v1/policy',
    summary: 'Write a new revision of the policy',
    permission: 'policy',
    body: z.strictObject({
      document: z.unknown().describe('the policy document (contracts §1)'),
      message: z.string().max(500).optional(),
      expectedRevision: z
        .number()
        .int()
        .min(0)
        .nullable()
        .optional()
        .describe('write only if this is still current (null: only if none)'),
    }),
    responses: {
      200: 'the new revision',
      403: 'another workspace',
      409: 'not the expected revision',
      422: 'the document is not valid',
    },
    handler: async ({ identity, body }) => {
      const validated = validatePolicy(body.document, 'workspace');
      if (!validated.ok)
        throw invalid(
          validated.issues.map((i) => ({
            path: `document${i.path === '' ? '' : `.${i.path}`}`,
            message: i.message,
          })),
        );
      await workspaceOf(ctx, identity, validated.value.workspace);
      const written = await warden.putPolicy(body.document, {
        author: identity.name,
        ...(body.message === undefined ? {} : { message: body.message }),
        ...(body.expectedRevision === undefined ? {} : { expected: body.expectedRevision }),
      });
      if (!written.ok && 'conflict' in written)
        throw conflict(
          `the policy is at revision ${written.conflict.current ?? 'none'}, not at the expected one: read it again`,
        );
      if (!written.ok)
        throw invalid(
          written.issues.map((i) => ({ path: `document.${i.path}`, message: i.message })),
        );
      return revisionView(written.revision, false);
    },
  });

  api.add({
    method: 'get',
    path: '/v1/policy/revisions',
    summary: 'List the revisions of the policy, newest first',
    permission: 'read',
    query: z.strictObject({
      workspace: z.string().optional(),
      limit: z.coerce.number().int().min(1).max(1000).optional(),
    }),
    responses: { 200: '`{ revisions }`' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const revisions = await warden.store.policies.history(workspace, query.limit ?? 100);
      return { revisions: revisions.map((r) => revisionView(r, false)) };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/policy/revisions/:revision',
    summary: 'Read one revision of the policy',
    permission: 'read',
    query: workspaceQuery,
    responses: { 200: 'the revision with its document', 404: 'no such revision' },
    handler: async ({ identity, query, params }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const n = Number(params.revision);
      const revision = Number.isInteger(n)
        ? await warden.store.policies.revision(workspace, n)
        : null;
      if (revision === null)
        throw notFound(
          `no revision \`${params.revision ?? ''}\` of the policy of \`${workspace}\``,
        );
      return revisionView(revision, true);
    },
  });

  api.add({
    method: 'get',
    path: '/v1/policy/diff',
    summary: 'What changed between two revisions: rules, spaces and modes',
    permission: 'read',
    query: z.strictObject({
      workspace: z.string().optional(),
      from: z.coerce.number().int().min(1),
      to: z.coerce.number().int().min(1).optional().describe('default: the current revision'),
    }),
    responses: { 200: 'the difference', 404: 'no such revision' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const to =
        query.to === undefined
          ? await current(workspace)
          : await warden.store.policies.revision(workspace, query.to);
      const from = await warden.store.policies.revision(workspace, query.from);
      if (from === null || to === null)
        throw notFound(
          `no revision \`${from === null ? query.from : (query.to ?? '')}\` of the policy of \`${workspace}\``,
        );
      return { from: from.revision, to: to.revision, ...policyDiff(from.document, to.document) };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/rules',
    summary:
      'The rules decisions read now, each as a sentence with origin and expiry; managed rules read-only',
    permission: 'read',
    query: workspaceQuery,
    responses: { 200: '`{ rules, managedSource }`' },
    handler: async ({ identity, query }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const snapshot = await warden.gate.snapshot(workspace);
      const stored = new Set((await warden.rules(workspace)).map((r) => r.id));
      return {
        rules: [
          ...ruleView(snapshot.compiled.policy, 'workspace', stored),
          ...(snapshot.managed === null
            ? []
            : ruleView(snapshot.managed.policy, 'managed', new Set())),
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

  api.add({
    method: 'get',
    path: '/v1/spaces',
    summary: 'The spaces and their autonomy, with what each setting means (G32)',
    permission: 'read',
    query: workspaceQuery,
    responses: { 200: '`{ spaces, levels }`' },
    handler: async ({ identity, query }) => {
      const revision = await current(await workspaceOf(ctx, identity, query.workspace));
      const spaces =
        (revision.document as { spaces?: Record<string, { autonomy?: string }> }).spaces ?? {};
      return {
        spaces: Object.entries(spaces).map(([id, settings]) => {
          const autonomy = settings.autonomy ?? null;
          return {
            id,
            autonomy,
            effective: autonomy ?? 'actWithApproval',
            meaning: AUTONOMY_MEANING[autonomy ?? 'actWithApproval'],
          };
        }),
        levels: AUTONOMY_LEVELS.map((level) => ({ level, meaning: AUTONOMY_MEANING[level] })),
      };
    },
  });

  api.add({
    method: 'put',
    path: '/v1/spaces/:id',
    summary: "Set a space's autonomy (a new policy revision)",
    permission: 'policy',
    query: workspaceQuery,
    body: z.strictObject({
      autonomy: z
        .enum(AUTONOMY_LEVELS)
        .nullable()
        .describe('null: unset, which behaves as actWithApproval'),
    }),
    responses: {
      200: 'the new revision and what the setting means',
      422: 'the policy would not be valid',
    },
    handler: async ({ identity, query, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, query.workspace);
      const revision = await current(workspace);
      const document = structuredClone(revision.document) as {
        spaces?: Record<string, Record<string, JsonValue>>;
      };
      const id = params.id as string;
      const spaces = (document.spaces ??= {});
      const settings = { ...(spaces[id] ?? {}) };
      if (body.autonomy === null) delete settings.autonomy;
      else settings.autonomy = body.autonomy;
      spaces[id] = settings;
      const written = await warden.putPolicy(document, {
        author: identity.name,
        message: `space ${id}: autonomy ${body.autonomy ?? 'unset'}`,
        expected: revision.revision,
      });
      if (!written.ok && 'conflict' in written)
        throw conflict('the policy changed meanwhile: try again');
      if (!written.ok)
        throw invalid(
          written.issues.map((i) => ({ path: `document.${i.path}`, message: i.message })),
        );
      const effective = body.autonomy ?? 'actWithApproval';
      return {
        ...revisionView(written.revision, false),
        space: id,
        autonomy: body.autonomy,
        meaning: AUTONOMY_MEANING[effective],
      };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/managed',
    summary: 'The managed layer, and where it comes from (G29)',
    permission: 'read',
    responses: { 200: '`{ source, readOnly, document }`' },
    handler: async () => {
      const pinned = warden.managedFile;
      if (pinned !== null) {
        const snapshot = (await warden.store.policies.workspaces())[0];
        const rules =
          snapshot === undefined
            ? []
            : ((await warden.gate.snapshot(snapshot)).managed?.policy.rules.length ?? 0);
        return { source: pinned.source, file: pinned.file, readOnly: true, rules, document: null };
      }
      const stored = await warden.store.policies.currentManaged();
      return {
        source: stored === null ? null : 'store',
        readOnly: false,
        ...(stored === null ? { document: null } : revisionView(stored, true)),
      };
    },
  });

  api.add({
    method: 'put',
    path: '/v1/managed',
    summary: 'Write a new revision of the stored managed layer',
    permission: 'policy',
    body: z.strictObject({ document: z.unknown(), message: z.string().max(500).optional() }),
    responses: {
      200: 'the new revision',
      409: 'WARDEN_MANAGED_POLICY pins the managed layer',
      422: 'not valid',
    },
    handler: async ({ identity, body }) => {
      if (identity.workspace !== null)
        throw forbidden(
          'the managed layer applies to every workspace: a token bound to one may not write it',
        );
      if (warden.managedFile !== null)
        throw conflict(
          `the managed layer is the file \`${warden.managedFile.file}\` (${warden.managedFile.source === 'env' ? 'WARDEN_MANAGED_POLICY' : 'configured'}): it cannot be changed here`,
        );
      const written = await warden.putManagedPolicy(body.document, {
        author: identity.name,
        ...(body.message === undefined ? {} : { message: body.message }),
      });
      if (!written.ok && 'conflict' in written)
        throw conflict('the managed layer changed meanwhile: try again');
      if (!written.ok)
        throw invalid(
          written.issues.map((i) => ({
            path: `document${i.path === '' ? '' : `.${i.path}`}`,
            message: i.message,
          })),
        );
      return revisionView(written.revision, false);
    },
  });
}
