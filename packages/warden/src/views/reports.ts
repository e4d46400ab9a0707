// Reports and messages for the human as the API answers them (`/v1/reports*`,
// I10, I11). No IO here.

import { z } from 'zod';
import type { ReportRecord } from '../store/types.js';
import { REPORT_KINDS } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

/** A report or a message as a list shows it: everything but its data. */
export const reportSummaryView = z.strictObject({
  id: z.string(),
  workspace: z
    .string()
    .nullable()
    .describe("the supervisor's workspace; null for one that watches the whole instance"),
  supervisor: z.string().describe('its author'),
  kind: z.enum(REPORT_KINDS),
  title: z.string(),
  body: z.string().describe('Markdown'),
  windowSince: z.string().nullable().describe('the window a report covers; null for a message'),
  windowUntil: z.string().nullable(),
  scheduledFor: z
    .string()
    .nullable()
    .describe("the schedule's instant it was made for; null when made by hand, or a message"),
  createdAt: z.string(),
});

/** One report or message, with its data. */
export const reportView = reportSummaryView.extend({
  data: z.unknown().describe('the report as data (JSON); null for a message'),
});

export const reportListView = z.strictObject({ reports: z.array(reportSummaryView) });

export type ReportSummaryView = Shown<typeof reportSummaryView>;
export type ReportView = Shown<typeof reportView>;
export type ReportListView = Shown<typeof reportListView>;

/** What a list shows of a report: everything but its data, which `GET /v1/reports/:id` has. */
export function reportSummary(report: ReportRecord): ReportSummaryView {
  const rest: { -readonly [K in keyof ReportRecord]?: ReportRecord[K] } = { ...report };
  delete rest.data;
  return rest as Omit<ReportRecord, 'data'>;
}

/** Fails to compile when the store's report no longer fits what clients are shown. */
export const reportSchemasFollowTheStore: [
  Fits<ReportRecord, typeof reportView>,
  Fits<Omit<ReportRecord, 'data'>, typeof reportSummaryView>,
] = [true, true];
