// A computed report as the record the human reads later: its Markdown, its
// data, its window, and — for a scheduled one — the instant it was made for,
// which keeps servers sharing a database from storing it twice.

import type { JsonValue, ReportRecord, ReportStore } from '../store/types.js';
import { renderMarkdown, reportTitle } from './render.js';
import type { ReportData } from './types.js';

export interface PersistOptions {
  readonly id: string;
  readonly createdAt: number;
  /** The schedule's instant; absent for a report made by hand. */
  readonly scheduledFor?: number;
}

export function reportRecord(report: ReportData, options: PersistOptions): ReportRecord {
  return {
    id: options.id,
    workspace: report.workspace,
    supervisor: report.supervisor,
    kind: 'report',
    title: reportTitle(report),
    body: renderMarkdown(report),
    // The report is plain data (strings, numbers, arrays, objects) by construction.
    data: report as unknown as JsonValue,
    windowSince: report.window.since,
    windowUntil: report.window.until,
    scheduledFor:
      options.scheduledFor === undefined ? null : new Date(options.scheduledFor).toISOString(),
    createdAt: new Date(options.createdAt).toISOString(),
  };
}

/** Stores a report; null when the same supervisor's report for that instant is stored already. */
export function storeReport(
  store: ReportStore,
  report: ReportData,
  options: PersistOptions,
): Promise<ReportRecord | null> {
  return store.add(reportRecord(report, options));
}
