// What agents do as the API answers it (`/v1/runs*`, I2): runs with their
// tokens, cost and budget, and their steps. No IO here.

import { AUTONOMY_LEVELS } from '@warden/engine';
import { z } from 'zod';
import type { RunRecord, RunStep } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

/** A run: its delegation chain, its budget frame and its totals so far. */
export const runView = z.strictObject({
  id: z.string(),
  workspace: z.string(),
  agent: z.string(),
  model: z.string().nullable(),
  taskId: z.string().nullable(),
  parentRunId: z.string().nullable(),
  chain: z.array(z.string()).describe("the delegation chain, this run's agent last"),
  depth: z.number(),
  autonomy: z.enum(AUTONOMY_LEVELS),
  budgetCents: z.number().nullable().describe('the budget frame; null: none'),
  delegatedCents: z.number().describe('cents handed on to delegates'),
  costCents: z.number(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  steps: z.number().describe('how many steps it has'),
  status: z.enum(['running', 'done', 'failed', 'cancelled']),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});

/** A step of a run, with its tokens and cost. */
export const runStepView = z.strictObject({
  runId: z.string(),
  seq: z.number(),
  kind: z.string(),
  tool: z.string().nullable(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  costCents: z.number(),
  at: z.string(),
  note: z.string().nullable(),
});

/** `GET /v1/runs`: newest first. */
export const runListView = z.strictObject({ runs: z.array(runView) });

/** `GET /v1/runs/:id`: the run with its steps. */
export const runWithStepsView = runView.extend({ stepList: z.array(runStepView) });

export type RunView = Shown<typeof runView>;
export type RunStepView = Shown<typeof runStepView>;
export type RunListView = Shown<typeof runListView>;
export type RunWithStepsView = Shown<typeof runWithStepsView>;

/** Fails to compile when the store's run or step no longer fits what clients are shown. */
export const runSchemasFollowTheStore: [
  Fits<RunRecord, typeof runView>,
  Fits<RunStep, typeof runStepView>,
] = [true, true];
