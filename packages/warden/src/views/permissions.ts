// The permissions of a workspace as the API answers them (`/v1/permissions/*`,
// G20, G25, G39): the matrix, the rules decisions read (each as its sentence),
// what a proposed document or template would change, and what advisory rules
// would have blocked. No IO here.

import type { LintWarning, ManagedSource } from '@warden/engine';
import { ACTION_CLASSES, AUTONOMY_LEVELS } from '@warden/engine';
import { z } from 'zod';
import type { AdvisoryCount } from '../permissions/advisories.js';
import type {
  CellChange,
  MatrixCell,
  MatrixColumn,
  MatrixRow,
  RuleEntry,
} from '../permissions/matrix.js';
import type { Proposal } from '../permissions/view.js';
import type { Fits, Shown } from './fits.js';
import { decisionSchema } from './decision.js';
import { decisionEntryView } from './audit.js';
import { ruleView } from './rules.js';

const actionClassSchema = z.enum(ACTION_CLASSES);

/** A column of the matrix: the workspace, an agent, a space (with its dial) or a mode (with its net). */
export const matrixColumnView = z.strictObject({
  scope: z.string(),
  kind: z.enum(['workspace', 'agent', 'space', 'mode']),
  id: z.string().nullable(),
  label: z.string().describe('what the column answers, in words'),
  autonomy: z.enum(AUTONOMY_LEVELS).nullable().optional().describe('spaces: the dial as set'),
  effectiveAutonomy: z.enum(AUTONOMY_LEVELS).optional().describe('spaces: the dial as it acts'),
  autonomyMeaning: z.string().optional(),
  commandNet: z.array(z.string()).optional().describe("modes: the command net's deny entries"),
  space: z
    .string()
    .nullable()
    .optional()
    .describe('agents: the space it is registered in, where its cells are decided (null: none)'),
  mode: z
    .string()
    .nullable()
    .optional()
    .describe('agents: the mode it is registered in, where its cells are decided (null: none)'),
});

/** A constrained rule that decides instead of the cell's when its conditions hold. */
export const ruleRefView = z.strictObject({
  rule: z.string(),
  scope: z.string(),
  decision: decisionSchema,
  enforcement: z.string(),
  sentence: z.string(),
});

export const matrixCellView = z.strictObject({
  scope: z.string(),
  decision: decisionSchema.describe('before the autonomy dial'),
  effective: decisionSchema.describe('after the autonomy dial'),
  rule: z.string(),
  decidedIn: z.string().describe('the scope of the deciding rule'),
  inherited: z.boolean(),
  managed: z.boolean(),
  exceptions: z.array(ruleRefView),
  rules: z.array(z.string()),
  managedRules: z.array(z.string()),
});

export const matrixRowView = z.strictObject({
  class: actionClassSchema,
  covers: z.string(),
  default: decisionSchema,
  cells: z.array(matrixCellView),
});

/** A rule decisions read (`GET /v1/rules`'s), with whether it has expired and where it stands in the document. */
export const ruleEntryView = ruleView.extend({
  expired: z.boolean(),
  path: z.string().nullable().describe('where the rule stands in the document; null: not in it'),
});

export const lintWarningView = z.strictObject({
  code: z.enum([
    'duplicate',
    'contradictory',
    'unreachable',
    'shadowed',
    'expired',
    'matches-nothing',
  ]),
  path: z.string(),
  rule: z.string(),
  message: z.string(),
});

/** `GET /v1/permissions/matrix`. */
export const permissionsMatrixView = z.strictObject({
  workspace: z.string(),
  at: z.string(),
  revision: z.strictObject({
    revision: z.number(),
    hash: z.string(),
    author: z.string(),
    message: z.string().nullable(),
    createdAt: z.string(),
  }),
  classes: z.array(
    z.strictObject({ class: actionClassSchema, covers: z.string(), default: decisionSchema }),
  ),
  columns: z.array(matrixColumnView),
  rows: z.array(matrixRowView),
  rules: z.array(ruleEntryView),
  agents: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string().nullable(),
      space: z.string().nullable(),
      mode: z.string().nullable(),
    }),
  ),
  modes: z.array(z.string()),
  managed: z.strictObject({
    loaded: z.boolean(),
    source: z.enum(['flag', 'env', 'store']).nullable(),
    file: z.string().nullable(),
    readOnly: z.literal(true),
  }),
  skipped: z.array(z.string()).describe('stored rules left out, and why'),
  warnings: z.array(lintWarningView),
  document: z.unknown().describe('the policy document of the revision'),
});

const cellBriefView = matrixCellView
  .pick({ decision: true, effective: true, rule: true, decidedIn: true })
  .nullable();

export const outrightView = z.strictObject({
  agent: z.string(),
  space: z.string().nullable(),
  mode: z.string().nullable(),
  classes: z
    .array(
      z.strictObject({
        class: z.enum(ACTION_CLASSES),
        rule: z.string(),
        scope: z.string(),
        reason: z.string(),
      }),
    )
    .describe(
      'the classes every call of which is a hard deny for this agent, whatever its arguments',
    ),
});
export type OutrightView = Shown<typeof outrightView>;

export const cellChangeView = z.strictObject({
  class: actionClassSchema,
  scope: z.string(),
  before: cellBriefView,
  after: cellBriefView,
});

/** `POST /v1/permissions/preview`: what a proposed document would change; nothing is written. */
export const proposalView = z.strictObject({
  workspace: z.string(),
  revision: z.number().describe('the revision the proposal is compared with'),
  changes: z.array(cellChangeView),
  rules: z.strictObject({
    added: z.array(ruleEntryView),
    changed: z.array(z.strictObject({ before: ruleEntryView, after: ruleEntryView })),
    removed: z.array(ruleEntryView),
  }),
  warnings: z.array(lintWarningView).describe('only what the change adds'),
});

/** `POST /v1/permissions/templates/:name/preview`. */
export const templateProposalView = proposalView.extend({ template: z.string() });

/** `GET /v1/permissions/audit`: decisions, newest first. */
export const permissionsAuditView = z.strictObject({ decisions: z.array(decisionEntryView) });

export const advisoryCountView = z.strictObject({
  rule: z.string(),
  facet: z.string(),
  wouldBe: decisionSchema,
  count: z.number(),
  agents: z.array(z.string()),
  lastAt: z.string(),
});

/** `GET /v1/permissions/advisories`. */
export const advisoriesView = z.strictObject({
  since: z.string(),
  decisions: z.number().describe('how many decisions were read'),
  truncated: z.boolean().describe('whether the window held more decisions than were read'),
  rules: z.array(advisoryCountView).describe('most frequent first'),
});

export type MatrixColumnView = Shown<typeof matrixColumnView>;
export type MatrixCellView = Shown<typeof matrixCellView>;
export type MatrixRowView = Shown<typeof matrixRowView>;
export type RuleEntryView = Shown<typeof ruleEntryView>;
export type LintWarningView = Shown<typeof lintWarningView>;
export type PermissionsMatrixView = Shown<typeof permissionsMatrixView>;
export type CellChangeView = Shown<typeof cellChangeView>;
export type ProposalView = Shown<typeof proposalView>;
export type TemplateProposalView = Shown<typeof templateProposalView>;
export type PermissionsAuditView = Shown<typeof permissionsAuditView>;
export type AdvisoryCountView = Shown<typeof advisoryCountView>;
export type AdvisoriesView = Shown<typeof advisoriesView>;

/** Fails to compile when `permissions/` or the engine produce what these schemas would reject. */
export const permissionsSchemasFollowTheMatrix: [
  Fits<MatrixColumn, typeof matrixColumnView>,
  Fits<MatrixCell, typeof matrixCellView>,
  Fits<MatrixRow, typeof matrixRowView>,
  Fits<RuleEntry, typeof ruleEntryView>,
  Fits<LintWarning, typeof lintWarningView>,
  Fits<CellChange, typeof cellChangeView>,
  Fits<Proposal, typeof proposalView>,
  Fits<AdvisoryCount, typeof advisoryCountView>,
  Fits<ManagedSource, typeof permissionsMatrixView.shape.managed.shape.source>,
] = [true, true, true, true, true, true, true, true, true];
