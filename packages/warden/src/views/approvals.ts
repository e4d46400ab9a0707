// An approval as a client is shown it (`/v1/approvals*`, the approvals
// stream, `warden approvals`, the console's inbox): everything a human needs
// to answer it, and how it ended.

import type { RememberOffer } from '@warden/engine';
import type { ApprovalRecord } from '../store/types.js';
import { z } from 'zod';
import type { Fits, Shown } from './fits.js';
import {
  actionRequestView,
  approvalAnswerView,
  approvalStateSchema,
  decisionResultView,
  facetEntryView,
  ruleDraftView,
} from './decision.js';

/** A prompting facet, and whether "approve for N hours" can remember it. */
export const promptFacetView = z.strictObject({
  facet: z.string(),
  rule: z.string(),
  scope: z.string(),
  because: z.string().optional(),
  rememberable: z.boolean(),
  why: z.string().optional(),
  draft: ruleDraftView.omit({ scope: true }).optional(),
});

/** A deny of the standing policy that a remembered rule would meet, and that stays in force. */
export const standingDenyView = z.strictObject({
  rule: z.string(),
  scope: z.string(),
  enforcement: z.enum(['soft', 'hard']),
  facet: z.string(),
  sentence: z.string(),
  example: z.string().optional(),
  text: z.string(),
});

/** A scope the approver may remember in, with the rules it would write there. */
export const scopeOfferView = z.strictObject({
  scope: z.string(),
  rules: z.array(ruleDraftView),
  effective: z.boolean(),
  why: z.string().optional(),
  staysDenied: z.array(standingDenyView).optional(),
});

export const approvalView = z.strictObject({
  id: z.string(),
  kind: z.enum(['prompt', 'override']),
  state: approvalStateSchema.describe('a pending approval past its deadline is shown `expired`'),
  workspace: z.string(),
  agent: z.string(),
  tool: z.string().nullable(),
  callId: z.string(),
  decisionId: z.string(),
  request: actionRequestView.describe('as recorded (redacted)'),
  arguments: z.unknown().describe("the tool's arguments as the approver is shown them (redacted)"),
  decision: decisionResultView,
  facets: z
    .array(z.union([promptFacetView, facetEntryView]))
    .describe(
      'the prompting facets: with what remembering them would write, when the approval offers that',
    ),
  rememberable: z.boolean(),
  onlyOnce: z.string().optional().describe('why only "approve once" is offered'),
  scopes: z.array(scopeOfferView),
  createdAt: z.string(),
  expiresAt: z.string(),
  answer: approvalAnswerView.nullable(),
  answeredAt: z.string().nullable(),
  closedReason: z.string().nullable(),
});

export const approvalListView = z.strictObject({ approvals: z.array(approvalView) });

export type ApprovalView = Shown<typeof approvalView>;
export type ApprovalListView = Shown<typeof approvalListView>;
export type ScopeOfferView = Shown<typeof scopeOfferView>;
export type StandingDenyView = Shown<typeof standingDenyView>;

/** Fails to compile when the engine's offer no longer fits what clients are shown. */
export const approvalSchemasFollowTheEngine: [
  Fits<RememberOffer['facets'][number], typeof promptFacetView>,
  Fits<RememberOffer['scopes'][number], typeof scopeOfferView>,
] = [true, true];

/**
 * What a client is shown of an approval: everything a human needs to answer
 * it. A pending one whose deadline has passed is shown expired at `now`
 * (the server's clock; default the wall clock), whether or not anything has
 * settled it in the store yet.
 */
export function showApproval(approval: ApprovalRecord, now: number = Date.now()): ApprovalView {
  const lapsed = approval.state === 'pending' && now >= approval.expiresAtMs;
  const seconds = Math.round((approval.expiresAtMs - Date.parse(approval.createdAt)) / 1000);
  return {
    id: approval.id,
    kind: approval.kind,
    state: lapsed ? 'expired' : approval.state,
    workspace: approval.workspace,
    agent: approval.agent,
    tool: approval.tool,
    callId: approval.callId,
    decisionId: approval.decisionId,
    request: approval.request,
    arguments: approval.arguments,
    decision: approval.decision,
    facets:
      approval.offer?.facets ??
      approval.decision.facets.filter((f) => approval.decision.prompts.includes(f.facet)),
    rememberable: approval.offer?.rememberable ?? false,
    ...(approval.offer?.why === undefined ? {} : { onlyOnce: approval.offer.why }),
    scopes: approval.offer?.scopes ?? [],
    createdAt: approval.createdAt,
    expiresAt: new Date(approval.expiresAtMs).toISOString(),
    answer: approval.answer,
    answeredAt: approval.answeredAt,
    closedReason: lapsed
      ? `${approval.kind === 'override' ? 'no override' : 'no answer'} within ${seconds} s`
      : approval.closedReason,
  };
}
