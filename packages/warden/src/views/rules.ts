// The rules decisions read, as the API answers them (`/v1/rules*`, G19, G23):
// each with its origin, expiry and sentence, and a remembered rule as stored
// when it is revoked. No IO here.

import { ACTION_CLASSES, DECISIONS, ENFORCEMENTS } from '@warden/engine';
import type { ManagedSource, Origin } from '@warden/engine';
import { z } from 'zod';
import type { ruleList } from '../permissions/rules.js';
import type { StoredRule } from '../store/types.js';
import type { Fits, Shown } from './fits.js';
import { constraintsSchema } from './decision.js';

/** What every rule says first, as written in a policy document: its id, where and what it decides. */
export const ruleHeadFields = {
  id: z.string(),
  scope: z.string(),
  action: z.enum(ACTION_CLASSES).optional(),
  command: z.string().optional(),
  decision: z.enum(DECISIONS),
};

/** A rule decisions read now, as people read it: its fields, where it comes from, its sentence. */
export const ruleView = z.strictObject({
  ...ruleHeadFields,
  enforcement: z.enum(ENFORCEMENTS),
  when: constraintsSchema.optional(),
  origin: z.enum(['user', 'template', 'remembered', 'managed']),
  expiresAt: z.string().nullable(),
  note: z.string().optional(),
  sentence: z.string(),
  layer: z.enum(['workspace', 'managed']),
  readOnly: z.boolean().describe('a managed rule: changed only where the managed layer is'),
  revocable: z.boolean().describe('a remembered rule, revocable until it expires'),
});

/** `GET /v1/rules`: the workspace's rules, then the managed layer's. */
export const ruleListView = z.strictObject({
  rules: z.array(ruleView),
  managedSource: z
    .enum(['flag', 'env', 'store'])
    .nullable()
    .describe('where the managed layer comes from; null: there is none'),
});

/** A remembered rule as stored (`DELETE /v1/rules/:id` answers it revoked). */
export const storedRuleView = z.strictObject({
  id: z.string(),
  workspace: z.string(),
  rule: z
    .record(z.string(), z.unknown())
    .describe('the rule as written in a policy document, with its id, scope, origin and expiry'),
  scope: z.string(),
  origin: z.enum(['user', 'template', 'remembered']),
  createdAt: z.string(),
  createdBy: z.string(),
  expiresAt: z.string().nullable(),
  approvalId: z.string().nullable().describe('the approval that remembered it'),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
});

export type RuleView = Shown<typeof ruleView>;
export type RuleListView = Shown<typeof ruleListView>;
export type StoredRuleView = Shown<typeof storedRuleView>;

/** Fails to compile when a listed rule or a stored one no longer fits what clients are shown. */
export const ruleSchemasFollowTheStore: [
  Fits<ReturnType<typeof ruleList>[number], typeof ruleView>,
  Fits<StoredRule, typeof storedRuleView>,
  Fits<Origin, typeof ruleView.shape.origin>,
  Fits<ManagedSource, typeof ruleListView.shape.managedSource>,
] = [true, true, true, true];
