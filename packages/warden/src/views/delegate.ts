// `/v1/delegate`'s answer (G33–G36): the delegate's run, or the guard that
// refused and its reason, verbatim. No IO here.

import { AUTONOMY_LEVELS, DELEGATION_GUARDS } from '@warden/engine';
import { z } from 'zod';
import type { DelegateResult } from '../gate/delegation.js';
import type { RunRecord } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

/** A run as stored (I2, E40): its delegation chain, autonomy and budget frame. */
export const runRecordView = z.strictObject({
  id: z.string(),
  workspace: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  taskId: z.string().nullable(),
  parentRunId: z.string().nullable(),
  chain: z.array(z.string()).describe("the delegation chain, this run's agent last"),
  depth: z.number(),
  autonomy: z.enum(AUTONOMY_LEVELS),
  budgetCents: z.number().nullable().describe('the budget frame in cents; null: none'),
  delegatedCents: z.number().describe('cents handed on to delegates'),
  costCents: z.number(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  steps: z.number(),
  status: z.enum(['running', 'done', 'failed', 'cancelled']),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});

export const delegateAnswerView = z.discriminatedUnion('ok', [
  z.strictObject({ ok: z.literal(true), run: runRecordView.describe("the delegate's run") }),
  z.strictObject({
    ok: z.literal(false),
    guard: z.enum([...DELEGATION_GUARDS, 'run']),
    reason: z.string(),
    failure: z
      .string()
      .optional()
      .describe('set (with status 503) when the attempt could not be recorded'),
  }),
]);

export type RunRecordView = Shown<typeof runRecordView>;
export type DelegateAnswerView = Shown<typeof delegateAnswerView>;

/** Fails to compile when the store's run or the gate's answer no longer fits what clients are shown. */
export const delegateSchemasFollowTheGate: [
  Fits<RunRecord, typeof runRecordView>,
  Fits<DelegateResult, typeof delegateAnswerView>,
] = [true, true];
