// Suggested rules as the API answers them (`/v1/rules/suggestions`): prompts
// approved once again and again, with what accepting them would change. No IO here.

import { z } from 'zod';
import type { Suggestion } from '../approvals/suggest.js';
import type { Fits, Shown } from './fits.js';
import { cellChangeView } from './permissions.js';

/** A suggested rule set (`GET /v1/rules/suggestions`): prompts approved once again and again. */
export const suggestionView = z.strictObject({
  id: z.string(),
  scope: z.string(),
  rules: z
    .array(z.record(z.string(), z.unknown()))
    .describe('the allow rules, as "approve for N hours" would have written them, without expiry'),
  approvals: z
    .number()
    .describe('prompts these rules would have answered that a human approved once'),
  approvalIds: z.array(z.string()),
  agents: z.array(z.string()),
  tools: z.array(z.string()),
  firstAt: z.string(),
  lastAt: z.string(),
  blastRadius: z.strictObject({
    wouldAllow: z
      .number()
      .describe('past decisions, not allowed then, that these rules would allow'),
    wereDenied: z.number().describe('of those, how many were denied rather than asked'),
    looked: z.number(),
    cells: z.array(cellChangeView).describe('the cells of the permissions matrix the rules change'),
    examples: z.array(
      z.strictObject({
        decisionId: z.string(),
        agent: z.string(),
        tool: z.string().nullable(),
        was: z.string(),
      }),
    ),
  }),
});

export const suggestionListView = z.strictObject({ suggestions: z.array(suggestionView) });

export const acceptedSuggestionView = z.strictObject({
  suggestion: suggestionView,
  revision: z.number().describe('the policy revision that now holds the rules'),
});

export type SuggestionView = Shown<typeof suggestionView>;

/** Fails to compile when a suggestion no longer fits what clients are shown. */
export const suggestionFollowsTheModel: [Fits<Suggestion, typeof suggestionView>] = [true];
