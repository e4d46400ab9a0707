// The server's `reports` settings: when the daily report runs (a cron pattern,
// off by default), in which time zone, over which window, for which
// supervisors, and with which thresholds. Validated with the rest of the
// server's configuration, before anything listens.

import { Cron } from 'croner';
import { z } from 'zod';
import { agentIdProblem } from '../instance/settings.js';
import { DEFAULT_SINCE } from './report.js';
import { ThresholdsSchema } from './thresholds.js';
import { windowProblem } from './window.js';

/** Why `zone` is not an IANA time zone, or null. */
export function timezoneProblem(zone: string): string | null {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return null;
  } catch {
    return `\`${zone}\` is not a time zone: use an IANA name such as \`Europe/Berlin\` or \`UTC\``;
  }
}

/** Why `pattern` is not a cron pattern croner can run, or null. */
export function cronProblem(pattern: string, timezone?: string): string | null {
  try {
    // Without a function the job is only parsed: nothing is scheduled.
    const probe = new Cron(pattern, timezone === undefined ? {} : { timezone });
    const next = probe.nextRun();
    probe.stop();
    return next === null ? `cron pattern \`${pattern}\` never runs` : null;
  } catch (error) {
    return `\`${pattern}\` is not a cron pattern (minute hour day month weekday, optionally seconds first): ${(error as Error).message}`;
  }
}

/** A string checked by `problem`: each field says its own problem, so every one is listed. */
const checked = (problem: (value: string) => string | null) =>
  z
    .string()
    .min(1)
    .superRefine((value, ctx) => {
      const message = problem(value);
      if (message !== null) ctx.addIssue({ code: 'custom', message });
    });

export const ReportsSettingsSchema = z
  .strictObject({
    schedule: checked((p) => cronProblem(p))
      .optional()
      .describe('a cron pattern, e.g. `0 7 * * *` for 07:00 each day; absent: no scheduled report'),
    timezone: checked(timezoneProblem)
      .optional()
      .describe('the schedule’s time zone (IANA); default: the server’s'),
    since: checked(windowProblem).default(DEFAULT_SINCE).describe('the window each report covers'),
    supervisors: z
      .array(checked(agentIdProblem))
      .optional()
      .describe('default: every agent with role `supervisor` in the data folder'),
    thresholds: ThresholdsSchema,
  })
  .prefault({});

export type ReportsSettings = z.infer<typeof ReportsSettingsSchema>;
