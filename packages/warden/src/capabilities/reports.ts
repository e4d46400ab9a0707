// Why this file exists: the supervisors' reports and messages for the human
// (I10, I11) are a capability of the `Warden` facade (`warden.reports`). The
// server reads them here, and the report scheduler is handed `evidence`: the
// store's read side plus the one thing it writes, its reports — never more.

import type {
  ReportFilter,
  ReportRecord,
  ReportStore,
  Store,
  StoreReader,
} from '../store/types.js';

export class Reports {
  /** What a report is made from and where it is kept: read-only evidence and the report store. */
  readonly evidence: StoreReader & { readonly reports: ReportStore };

  constructor(private readonly parts: { readonly store: Store }) {
    this.evidence = parts.store;
  }

  /** Reports and messages, newest first. */
  list(filter: ReportFilter = {}): Promise<ReportRecord[]> {
    return this.parts.store.reports.list(filter);
  }

  /** One report or message; null when there is no such report. */
  get(id: string): Promise<ReportRecord | null> {
    return this.parts.store.reports.get(id);
  }
}
