// The report's judgement, as numbers a human can read and change (I11): every
// threshold a finding depends on, with its default and what it means. The
// report reads nothing else that could change its verdict.

import { z } from 'zod';

const count = z.number().int('a count is a whole number').min(1, 'a count is at least 1');
const factor = z.number().positive('a factor is above 0');
const share = z.number().gt(0, 'a share is above 0').max(1, 'a share is at most 1');

// Zod 4's `default` keeps a default as written; `prefault({})` parses it, so that a group
// left out, or given in part, gets every inner default.

export const ThresholdsSchema = z
  .strictObject({
    /** `errorStreak`: one agent's calls of one tool, in time order, this many `Error` in a row. */
    errorStreak: z.strictObject({ minLength: count.default(5) }).prefault({}),
    /** `errorRate`: over the window, per agent and tool: at least `minErrors` `Error` calls making at least `minShare` of them. */
    errorRate: z
      .strictObject({ minErrors: count.default(10), minShare: share.default(0.2) })
      .prefault({}),
    /**
     * `denialSpike`: an agent's `Denied` calls in the window, against the mean of its own
     * previous `baselineWindows` windows of the same length: a spike is at least
     * `max(minDenied, factor × mean)`.
     */
    denialSpike: z
      .strictObject({
        minDenied: count.default(5),
        factor: factor.default(3),
        baselineWindows: count.max(90, 'at most 90 windows').default(7),
      })
      .prefault({}),
    /** `repeatedCalls`: the same agent, tool and identical arguments at least `minRepeats` times within `spanMinutes`. */
    repeatedCalls: z
      .strictObject({
        minRepeats: z.number().int().min(2, 'a repeat needs at least 2 calls').default(10),
        spanMinutes: z.number().positive('a span is above 0').default(15),
      })
      .prefault({}),
    /**
     * `costOutlier`: a run of the window whose cost is above `factor` × the median of the
     * agent's previous `historyRuns` runs (at least `minHistory` of them), and at least `minCents`.
     */
    costOutlier: z
      .strictObject({
        factor: factor.default(3),
        minHistory: count.default(5),
        historyRuns: count.max(1000, 'at most 1000 runs').default(30),
        minCents: z.number().int().min(0).default(50),
      })
      .prefault({}),
    /** `tokenOutlier`: the same for a run's tokens (in + out), at least `minTokens`. */
    tokenOutlier: z
      .strictObject({
        factor: factor.default(3),
        minHistory: count.default(5),
        historyRuns: count.max(1000, 'at most 1000 runs').default(30),
        minTokens: z.number().int().min(0).default(10_000),
      })
      .prefault({}),
    /** `overdueTasks`: an agent with at least `minOverdue` open tasks due more than `graceHours` ago. */
    overdueTasks: z
      .strictObject({
        minOverdue: count.default(1),
        graceHours: z.number().min(0).default(0),
      })
      .prefault({}),
    /** `uncoveredCalls`: at least `minCalls` calls reported as run with no decision allowing them (always critical). */
    uncoveredCalls: z.strictObject({ minCalls: count.default(1) }).prefault({}),
    /**
     * `unreportedCalls`: at least `minCalls` calls a decision allowed that never reported how
     * they ended, counting only decisions more than `graceMinutes` before the window's end.
     */
    unreportedCalls: z
      .strictObject({
        minCalls: count.default(1),
        graceMinutes: z.number().min(0).default(10),
      })
      .prefault({}),
    /** A finding is `critical` when its measure reaches `criticalFactor` × the threshold it crossed; else `warning`. */
    severity: z
      .strictObject({ criticalFactor: z.number().min(1, 'a factor of at least 1').default(2) })
      .prefault({}),
  })
  .prefault({});

export type Thresholds = z.infer<typeof ThresholdsSchema>;
export type ThresholdsInput = z.input<typeof ThresholdsSchema>;

export const DEFAULT_THRESHOLDS: Thresholds = ThresholdsSchema.parse(undefined);

export type ThresholdsResult =
  | { readonly ok: true; readonly thresholds: Thresholds }
  | {
      readonly ok: false;
      readonly problems: readonly { readonly path: string; readonly message: string }[];
    };

/** Thresholds from settings (absent: the defaults), or every problem with them, paths from `base`. */
export function parseThresholds(raw: unknown, base = 'thresholds'): ThresholdsResult {
  const parsed = ThresholdsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, thresholds: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.flatMap((issue) => {
      const at = [base, ...issue.path.map(String)].filter((p) => p !== '').join('.');
      if (issue.code === 'unrecognized_keys')
        return issue.keys.map((key) => ({
          path: at === '' ? key : `${at}.${key}`,
          message: `unknown threshold \`${key}\``,
        }));
      return [{ path: at, message: issue.message.replace(/^./, (c) => c.toLowerCase()) }];
    }),
  };
}
