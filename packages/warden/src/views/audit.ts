// Audit entries as the API answers them (`/v1/audit`, `/v1/permissions/audit`,
// contracts §6): each kind exactly as `audit/records.ts` writes it, with the
// chain's `prevHash` and `hash`. No IO here.

import { z } from 'zod';
import type { AnswerRecord, ChangeRecord, DecisionRecord } from '../audit/records.js';
import type { AuditEntry } from '../store/types.js';
import { AUDIT_STATUSES } from '../store/types.js';
import type { Fits, Shown } from './fits.js';
import {
  actionRequestView,
  advisoryHitView,
  decisionSchema,
  facetEntryView,
  outcomeSchema,
} from './decision.js';

const chained = {
  id: z.string(),
  occurredAt: z.string(),
  prevHash: z.string(),
  hash: z.string(),
};

/** Who acted, stamped by the adapter (never read from the call): on call and decision entries. */
const stamped = {
  workspace: z.string(),
  agentId: z.string(),
  runId: z.string().nullable(),
  model: z.string().nullable(),
  source: z.string(),
  callId: z.string(),
};

/** A decision as recorded: the engine's answer without what is empty or false (`recordedDecision`). */
export const recordedDecisionView = z.strictObject({
  advisories: z.array(advisoryHitView).optional(),
  decision: decisionSchema,
  enforcement: z.enum(['soft', 'hard']).optional(),
  facets: z.array(facetEntryView),
  managed: z.array(facetEntryView).optional(),
  managedSource: z.enum(['flag', 'env', 'store']).optional(),
  outcome: outcomeSchema,
  overridable: z.literal(true).optional(),
  prompts: z.array(z.string()).optional(),
  reason: z.string(),
  rule: z.string(),
  scope: z.string(),
  transactional: z
    .literal(true)
    .optional()
    .describe('the allow rested on running the call transactionally'),
});

/** The request as recorded: who acts and the tool stand in the entry itself. */
export const recordedRequestView = actionRequestView.omit({
  workspace: true,
  agent: true,
  tool: true,
});

/** A tool call and how it ended. */
export const callEntryView = z.strictObject({
  ...chained,
  kind: z.literal('call'),
  ...stamped,
  decisionId: z.string().nullable(),
  tool: z.string(),
  arguments: z.unknown().describe("the tool's arguments (redacted)"),
  status: z.enum(AUDIT_STATUSES),
  durationMs: z.number().nullable(),
  error: z.string().optional(),
  redacted: z.array(z.string()).optional().describe('the paths of what was redacted'),
});

/** A gate decision (G39): request, facets, deciding rules, advisories, outcome. */
export const decisionEntryView = z.strictObject({
  ...chained,
  kind: z.literal('decision'),
  ...stamped,
  decisionId: z
    .string()
    .optional()
    .describe('present when the entry records how a held decision ended (its id is another)'),
  tool: z.string().nullable(),
  request: recordedRequestView.nullable(),
  decision: recordedDecisionView,
  outcome: outcomeSchema.describe('what the caller finally got, after approvals and overrides'),
  policy: z.strictObject({
    revision: z.number().nullable(),
    hash: z.string().nullable(),
    managedHash: z.string().nullable(),
  }),
  approvalId: z.string().optional(),
  approval: z
    .strictObject({
      state: z.string(),
      answer: z.string().nullable(),
      by: z.string().nullable(),
      reason: z.string().nullable(),
    })
    .optional(),
  override: z
    .strictObject({ approvalId: z.string(), by: z.string(), reason: z.string() })
    .optional(),
  failure: z.string().optional(),
  redacted: z.array(z.string()).optional(),
});

/** An approval's end: who answered and why, or why nobody did (G26). */
export const approvalEntryView = z.strictObject({
  ...chained,
  kind: z.literal('approval'),
  workspace: z.string(),
  agentId: z.string(),
  runId: z.string().nullable(),
  approvalId: z.string(),
  decisionId: z.string(),
  callId: z.string(),
  tool: z.string().nullable(),
  answer: z.enum(['once', 'remember', 'deny', 'override', 'timeout', 'approver-gone', 'cancelled']),
  by: z.string().nullable(),
  reason: z.string().nullable(),
  outcome: z.enum(['allow', 'deny']),
  hours: z.number().optional(),
  scope: z.string().optional(),
  rules: z.array(z.string()).optional(),
});

/** A change to what decides: a policy revision, remembered rules, a revocation. */
export const changeEntryView = z.strictObject({
  ...chained,
  kind: z.literal('change'),
  workspace: z.string().nullable(),
  change: z.enum([
    'policy-revision',
    'managed-revision',
    'rules-remembered',
    'rule-revoked',
    'agent-frozen',
    'agent-thawed',
    'tool-changed',
    'tool-pin-accepted',
  ]),
  by: z.string(),
  details: z.record(z.string(), z.unknown()),
});

export const auditEntryView = z.discriminatedUnion('kind', [
  callEntryView,
  decisionEntryView,
  approvalEntryView,
  changeEntryView,
]);

/** `GET /v1/audit`: newest first. */
export const auditListView = z.strictObject({ entries: z.array(auditEntryView) });

export type AuditEntryView = Shown<typeof auditEntryView>;
export type CallEntryView = Shown<typeof callEntryView>;
export type DecisionEntryView = Shown<typeof decisionEntryView>;
export type RecordedDecisionView = Shown<typeof recordedDecisionView>;
export type AuditListView = Shown<typeof auditListView>;

/**
 * An entry the store gave back, as the API shows it. The store keeps entries
 * as JSON (`AuditEntry`), which forgets the kind's shape; every entry is
 * written by `audit/records.ts`, whose shapes these schemas are (the test
 * suite checks every answer against them).
 */
export function shownEntry(entry: AuditEntry): AuditEntryView {
  return entry as unknown as AuditEntryView;
}

/** A decision entry: the store's answer to a query for `kinds: ['decision']`. */
export function shownDecisionEntry(entry: AuditEntry): DecisionEntryView {
  return entry as unknown as DecisionEntryView;
}

/** A call entry `Gate.complete` just wrote. */
export function shownCallEntry(entry: AuditEntry): CallEntryView {
  return entry as unknown as CallEntryView;
}

/** The parts of an entry that come from the records it is written from. */
export const auditSchemasFollowTheRecords: [
  Fits<AnswerRecord['answer'], typeof approvalEntryView.shape.answer>,
  Fits<ChangeRecord['change'], typeof changeEntryView.shape.change>,
  Fits<DecisionRecord['outcome'], typeof decisionEntryView.shape.outcome>,
  Fits<NonNullable<DecisionRecord['approval']>, typeof decisionEntryView.shape.approval>,
  Fits<NonNullable<DecisionRecord['override']>, typeof decisionEntryView.shape.override>,
  Fits<DecisionRecord['policy'], typeof decisionEntryView.shape.policy>,
] = [true, true, true, true, true, true];
