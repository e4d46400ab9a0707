// `/v1/templates*`: the shipped policy templates, a preview of exactly the
// rules one would add, and applying it (a new revision; the rules' origin is
// `template`).

import { z } from 'zod';
import { TEMPLATES, applyTemplate, templateRules } from '../../templates/index.js';
import type { Api } from '../api.js';
import type { ServerContext } from '../context.js';
import { workspaceOf } from '../context.js';
import { given } from './query.js';
import { asIssues, conflict, invalid, notFound, within } from '../errors.js';
import { currentRevision } from './policy.js';
import {
  templateAppliedView,
  templateListView,
  templatePreviewView,
} from '../../views/templates.js';

/** The arguments of a template: where its rules go, how hard, and its parameters. */
export const templateArgs = z.strictObject({
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

/** The template's arguments as `applyTemplate` takes them. */
export function templateArgsOf(body: z.infer<typeof templateArgs>) {
  return given(body, 'scope', 'enforcement', 'params');
}

export function templateRoutes(api: Api, ctx: ServerContext): void {
  const { warden } = ctx;

  api.add({
    method: 'get',
    path: '/v1/templates',
    summary: 'The shipped policy templates',
    permission: 'read',
    response: templateListView,
    responses: { 200: '`{ templates }`' },
    handler: () => Promise.resolve({ templates: TEMPLATES }),
  });

  api.add({
    method: 'post',
    path: '/v1/templates/:name/preview',
    summary: 'The rules a template would add, each as a sentence',
    permission: 'read',
    body: templateArgs,
    response: templatePreviewView,
    responses: {
      200: '`{ template, revision, rules }`',
      404: 'no such template',
      422: 'the arguments do not fit',
    },
    handler: async ({ identity, params, body }) => {
      const current = await currentRevision(ctx, await workspaceOf(ctx, identity, body.workspace));
      const name = params.name as string;
      if (!TEMPLATES.some((t) => t.name === name)) throw notFound(`no template \`${name}\``);
      const rules = templateRules(name, templateArgsOf(body), current.document);
      if (!rules.ok) throw invalid(asIssues('invalid_value', rules.problems));
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
    response: templateAppliedView,
    responses: {
      200: 'the new revision and the rules added',
      404: 'no such template',
      409: 'the policy changed meanwhile',
      422: 'the arguments do not fit',
    },
    handler: async ({ identity, params, body }) => {
      const workspace = await workspaceOf(ctx, identity, body.workspace);
      const current = await currentRevision(ctx, workspace);
      const name = params.name as string;
      if (!TEMPLATES.some((t) => t.name === name)) throw notFound(`no template \`${name}\``);
      const applied = applyTemplate(current.document, name, templateArgsOf(body));
      if (!applied.ok) throw invalid(asIssues('invalid_value', applied.problems));
      const written = await warden.putPolicy(applied.document, {
        author: identity.name,
        message: body.message ?? `template ${name}`,
        expected: current.revision,
      });
      if (!written.ok && 'conflict' in written)
        throw conflict('the policy changed meanwhile: preview again');
      if (!written.ok) throw invalid(within('document', written.issues));
      return {
        workspace,
        revision: written.revision.revision,
        hash: written.revision.hash,
        added: applied.added,
      };
    },
  });
}
