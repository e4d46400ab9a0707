// What the server says about itself: the OpenAPI document of its routes, who
// the caller is, the honesty matrix (G37) and the policy templates with a
// preview of exactly the rules they would add.

import { z } from 'zod';
import { detectHost, honestyMatrix } from '../../honesty/index.js';
import { TEMPLATES, applyTemplate, templateRules } from '../../templates/index.js';
import type { Api } from '../api.js';
import type { Permission } from '../auth.js';
import { can } from '../auth.js';
import type { ServerContext } from '../context.js';
import { placementOf, workspaceOf } from '../context.js';
import { conflict, invalid, notFound } from '../errors.js';

const templateArgs = z.strictObject({
  workspace: z.string().optional(),
  scope: z.string().optional().describe('`workspace` (default), `agent:<id>` or `space:<id>`'),
  enforcement: z.enum(['hard', 'soft', 'advisory']).optional(),
  params: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
});

const applyArgs = templateArgs.extend({
  message: z
    .string()
    .optional()
    .describe('why, for the revision history (default: `template NAME`)'),
});

/** Every permission, for `/v1/me` to say which the token's role grants (the console shows only those). */
const PERMISSIONS: readonly Permission[] = [
  'decide',
  'report',
  'inspect',
  'read',
  'policy',
  'answer',
  'override',
  'tokens',
];

export function metaRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;
  const matrix = honestyMatrix(detectHost(), { version: ctx.version });

  api.add({
    method: 'get',
    path: '/v1/openapi.json',
    summary: 'This API, as OpenAPI 3.1',
    permission: 'any',
    responses: { 200: 'the OpenAPI document' },
    handler: () => Promise.resolve(api.openapi({ title: 'Warden', version: ctx.version })),
  });

  api.add({
    method: 'get',
    path: '/v1/me',
    summary: 'Who the token is: its name, role and bindings',
    permission: 'any',
    responses: {
      200: 'the identity; for an `agent` token also `placement`: the space and mode it acts in now and where each comes from (`token`, `registration` or null)',
    },
    handler: async ({ identity }) => ({
      id: identity.id,
      name: identity.name,
      role: identity.role,
      workspace: identity.workspace,
      agent: identity.agent,
      space: identity.space,
      mode: identity.mode,
      permissions: PERMISSIONS.filter((p) => can(identity, p)),
      ...(identity.role === 'agent' && identity.workspace !== null && identity.agent !== null
        ? { placement: await placementOf(ctx, identity.workspace, identity.agent, identity) }
        : {}),
    }),
  });

  api.add({
    method: 'get',
    path: '/v1/workspaces',
    summary: 'List the workspaces with a policy that this token may see',
    permission: 'read',
    responses: { 200: '`{ workspaces: [{ workspace, revision }] }`' },
    handler: async ({ identity }) => {
      const all = await warden.store.policies.workspaces();
      const visible =
        identity.workspace === null ? all : all.filter((w) => w === identity.workspace);
      const workspaces = await Promise.all(
        visible.sort().map(async (workspace) => ({
          workspace,
          revision: (await warden.store.policies.current(workspace))?.revision ?? null,
        })),
      );
      return { workspaces };
    },
  });

  api.add({
    method: 'get',
    path: '/v1/honesty',
    summary:
      'Where rules are enforced: what each adapter lets Warden see and stop, on this host (G37)',
    permission: 'any',
    responses: { 200: 'the honesty matrix' },
    handler: () => Promise.resolve(matrix),
  });

  api.add({
    method: 'get',
    path: '/v1/templates',
    summary: 'The shipped policy templates',
    permission: 'read',
    responses: { 200: '`{ templates }`' },
    handler: () => Promise.resolve({ templates: TEMPLATES }),
  });

  const documentOf = async (workspace: string) => {
    const current = await warden.store.policies.current(workspace);
    if (current === null) throw notFound(`no policy is stored for workspace \`${workspace}\``);
    return current;
  };
  const argsOf = (body: z.infer<typeof templateArgs>) => ({
    ...(body.scope === undefined ? {} : { scope: body.scope }),
    ...(body.enforcement === undefined ? {} : { enforcement: body.enforcement }),
    ...(body.params === undefined ? {} : { params: body.params }),
  });

  api.add({
    method: 'post',
    path: '/v1/templates/:name/preview',
    summary: 'The rules a template would add, each as a sentence',
    permission: 'read',
    body: templateArgs,
    responses: { 200: '`{ rules }`', 404: 'no such template', 422: 'the arguments do not fit' },
    handler: async ({ identity, params, body }) => {
      const current = await documentOf(await workspaceOf(ctx, identity, body.workspace));
      const name = params.name as string;
      if (!TEMPLATES.some((t) => t.name === name)) throw notFound(`no template \`${name}\``);
      const rules = templateRules(name, argsOf(body), current.document);
      if (!rules.ok) throw invalid(rules.problems);
      return { template: name, revision: current.revision, rules: rules.rules };
    },
  });

  api.add({
    method: 'post',
    path: '/v1/templates/:name/apply',
    summary:
      "Add a template's rules to the policy (a new revision; the rules' origin is `template`)",
    permission: 'policy',
    body: applyArgs,
    responses: {
      200: 'the new revision and the rules added',
      404: 'no such template',
      409: 'the policy changed meanwhile',
      422: 'the arguments do not fit',
    },
    handler: async ({ identity, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, body.workspace);
      const current = await documentOf(workspace);
      const name = params.name as string;
      if (!TEMPLATES.some((t) => t.name === name)) throw notFound(`no template \`${name}\``);
      const applied = applyTemplate(current.document, name, argsOf(body));
      if (!applied.ok) throw invalid(applied.problems);
      const written = await warden.putPolicy(applied.document, {
        author: identity.name,
        message: body.message ?? `template ${name}`,
        expected: current.revision,
      });
      if (!written.ok && 'conflict' in written)
        throw conflict('the policy changed meanwhile: preview again');
      if (!written.ok)
        throw invalid(
          written.issues.map((i) => ({ path: `document.${i.path}`, message: i.message })),
        );
      return {
        workspace,
        revision: written.revision.revision,
        hash: written.revision.hash,
        added: applied.added,
      };
    },
  });
}
