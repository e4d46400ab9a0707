// The shipped policy templates as the API answers them (`/v1/templates*`):
// what each promises and takes, the rules one would add, and what applying it
// wrote. No IO here.

import { ENFORCEMENTS } from '@warden/engine';
import { z } from 'zod';
import type { TemplateInfo, TemplateRule } from '../templates/index.js';
import type { Fits, Shown } from './fits.js';
import { targetFields } from './decision.js';
import { ruleHeadFields } from './rules.js';

/** A parameter of a template. */
export const templateParamView = z.strictObject({
  name: z.string(),
  description: z.string(),
  required: z.boolean(),
  kind: z.enum(['string', 'list']),
  example: z.union([z.string(), z.array(z.string())]),
});

/** A template: its name (to apply it), its promise in plain words, its parameters. */
export const templateInfoView = z.strictObject({
  name: z.string(),
  title: z.string(),
  description: z.string().describe('what it does and what it does not do'),
  params: z.array(templateParamView),
});

/** `GET /v1/templates`. */
export const templateListView = z.strictObject({ templates: z.array(templateInfoView) });

/** A rule as a template adds it to the policy document (its origin is `template`). */
export const templateRuleView = z.strictObject({
  ...ruleHeadFields,
  enforcement: z.enum(ENFORCEMENTS).optional().describe('restrictive rules only'),
  when: z.strictObject(targetFields).optional(),
  origin: z.literal('template'),
  note: z.string(),
});

/** `POST /v1/templates/:name/preview`: exactly the rules applying would add now. */
export const templatePreviewView = z.strictObject({
  template: z.string(),
  revision: z.number().describe('the current revision the rules were made against'),
  rules: z.array(templateRuleView),
});

/** `POST /v1/templates/:name/apply`: the revision applying wrote, and the rules it added. */
export const templateAppliedView = z.strictObject({
  workspace: z.string(),
  revision: z.number(),
  hash: z.string(),
  added: z.array(templateRuleView),
});

export type TemplateParamView = Shown<typeof templateParamView>;
export type TemplateInfoView = Shown<typeof templateInfoView>;
export type TemplateListView = Shown<typeof templateListView>;
export type TemplateRuleView = Shown<typeof templateRuleView>;
export type TemplatePreviewView = Shown<typeof templatePreviewView>;
export type TemplateAppliedView = Shown<typeof templateAppliedView>;

/** Fails to compile when a template, or a rule one adds, no longer fits what clients are shown. */
export const templateSchemasFollowTheCatalog: [
  Fits<TemplateInfo, typeof templateInfoView>,
  Fits<TemplateRule, typeof templateRuleView>,
] = [true, true];
