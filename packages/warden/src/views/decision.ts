// The decision and the request as the API answers them (contracts §2, §3):
// zod schemas of what the server sends, from which the OpenAPI document, the
// CLI's client and the console's types are all made. No IO here.

import type { ActionRequest, DecisionResult, FacetEntry, RuleDraft } from '@warden/engine';
import { z } from 'zod';
import type { Fits, Shown } from './fits.js';
import type { GateDecision } from '../gate/types.js';

export const decisionSchema = z.enum(['allow', 'prompt', 'deny']);
export const outcomeSchema = z.enum(['allow', 'ask', 'deny']);
export const enforcementSchema = z.enum(['advisory', 'soft', 'hard']);

/** What a rule's constraints and a request's arguments both name: paths, git refs, hosts. */
export const targetFields = {
  paths: z.array(z.string()).optional(),
  refs: z.array(z.string()).optional(),
  hosts: z.array(z.string()).optional(),
};

/** A rule's constraints, as written in a policy document. */
export const constraintsSchema = z.strictObject({
  ...targetFields,
  commands: z.array(z.string()).optional(),
  maxCount: z.number().optional(),
  maxCents: z.number().optional(),
});

export const requestArgsView = z.strictObject({
  ...targetFields,
  count: z.number().optional(),
  cents: z.number().optional(),
});

/** An action request as recorded: who acts is always there. */
export const actionRequestView = z.strictObject({
  workspace: z.string(),
  agent: z.string(),
  space: z.string().optional(),
  mode: z.string().optional(),
  tool: z.string().optional(),
  actions: z.array(z.string()).optional(),
  command: z.string().optional(),
  worktree: z.string().optional(),
  args: requestArgsView.optional(),
});

export const facetEntryView = z.strictObject({
  facet: z.string(),
  decision: decisionSchema.nullable(),
  scope: z.string().optional(),
  rule: z.string().optional(),
  because: z.string().optional(),
});

/** An advisory rule that would have decided otherwise. */
export const advisoryHitView = z.strictObject({
  rule: z.string(),
  facet: z.string(),
  wouldBe: decisionSchema,
});

export const decisionResultView = z.strictObject({
  transactional: z
    .literal(true)
    .optional()
    .describe(
      'the allow rests on running the call transactionally: only over a copy-on-write layer, without network, decided on what it does before it lands',
    ),
  decision: decisionSchema,
  outcome: outcomeSchema,
  rule: z.string(),
  scope: z.string(),
  enforcement: z.enum(['soft', 'hard']).nullable(),
  overridable: z.boolean(),
  prompts: z.array(z.string()),
  facets: z.array(facetEntryView),
  managed: z.array(facetEntryView).nullable(),
  managedSource: z.enum(['flag', 'env', 'store']).nullable(),
  advisories: z.array(advisoryHitView),
  reason: z.string(),
});

export const approvalStateSchema = z.enum([
  'pending',
  'approved',
  'denied',
  'expired',
  'cancelled',
]);

export const approvalAnswerView = z.strictObject({
  kind: z.enum(['once', 'remember', 'deny', 'override']),
  by: z.string(),
  reason: z.string().nullable(),
  hours: z.number().optional(),
  scope: z.string().optional(),
  rules: z.array(z.string()).optional(),
});

/** The gate's decision: the engine's, with the ids that tie it to its audit entry and approval. */
export const gateDecisionView = decisionResultView.extend({
  decisionId: z.string(),
  callId: z.string(),
  auditId: z.string().optional().describe('present only when the decision was recorded'),
  approvalId: z.string().optional(),
  approval: z
    .strictObject({
      id: z.string(),
      state: approvalStateSchema,
      answer: approvalAnswerView.nullable(),
      closedReason: z.string().nullable(),
    })
    .optional(),
  override: z
    .strictObject({ approvalId: z.string(), by: z.string(), reason: z.string() })
    .optional(),
  failure: z.string().optional().describe('why a fault made the gate deny'),
});

/** `POST /v1/decide`'s answer: the gate's decision, with a grant when one was asked for and the command is allowed. */
export const decideAnswerView = gateDecisionView.extend({
  grant: z
    .string()
    .optional()
    .describe(
      'lets `warden exec --grant` run this command once under the sandbox made from this decision',
    ),
});

/** A rule "approve for N hours" would write. */
export const ruleDraftView = z.strictObject({
  scope: z.string(),
  action: z.string().optional(),
  command: z.string().optional(),
  decision: z.literal('allow'),
  when: constraintsSchema.optional(),
});

export type DecisionView = Shown<typeof decisionResultView>;
export type GateDecisionView = Shown<typeof gateDecisionView>;
export type DecideAnswerView = Shown<typeof decideAnswerView>;
export type ActionRequestView = Shown<typeof actionRequestView>;
export type FacetEntryView = Shown<typeof facetEntryView>;
export type AdvisoryHitView = Shown<typeof advisoryHitView>;
export type ApprovalAnswerView = Shown<typeof approvalAnswerView>;
export type RuleDraftView = Shown<typeof ruleDraftView>;

// The schemas describe the engine's and the gate's own types: these fail to
// compile when a value of one of them would no longer fit its schema (a field
// the schema does not know is caught at run time: the objects are strict, and
// the test suite checks every answer against its schema).
export const decisionSchemasFollowTheEngine: [
  Fits<DecisionResult, typeof decisionResultView>,
  Fits<FacetEntry, typeof facetEntryView>,
  Fits<GateDecision, typeof gateDecisionView>,
  Fits<ActionRequest, typeof actionRequestView>,
  Fits<RuleDraft, typeof ruleDraftView>,
] = [true, true, true, true, true];
