// Reports and messages for the human (I10, I11): what the deterministic
// report found and what a supervisor wrote. A scheduled report is stored once
// per supervisor and instant, however many servers run the schedule.

import type { JsonValue, ReportFilter, ReportKind, ReportRecord, ReportStore } from '../types.js';
import type { Database } from '../schema.js';
import type { SqlContext } from './context.js';
import { every, first, newestFirst, num, parseJson, storable, whereGiven } from './context.js';

type Row = Database['reports'];

function fromRow(row: Row): ReportRecord {
  return {
    id: row.id,
    workspace: row.workspace,
    supervisor: row.supervisor,
    kind: row.kind as ReportKind,
    title: row.title,
    body: row.body,
    data: parseJson<JsonValue>(row.data),
    windowSince: row.window_since,
    windowUntil: row.window_until,
    scheduledFor: row.scheduled_for,
    createdAt: row.created_at,
  };
}

/** Normalised, so that two servers naming the same instant name it with the same text. */
function normalTime(text: string): string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new RangeError(`scheduledFor \`${text}\` is not a time`);
  return new Date(ms).toISOString();
}

function toRow(report: ReportRecord): Row {
  return {
    id: report.id,
    workspace: report.workspace,
    supervisor: report.supervisor,
    kind: report.kind,
    title: storable(report.title),
    body: storable(report.body),
    data: report.data === null ? null : JSON.stringify(report.data),
    window_since: report.windowSince,
    window_until: report.windowUntil,
    scheduled_for: report.scheduledFor === null ? null : normalTime(report.scheduledFor),
    created_at: report.createdAt,
    created_at_ms: Date.parse(report.createdAt),
  };
}

export class SqlReportStore implements ReportStore {
  constructor(private readonly ctx: SqlContext) {}

  async add(report: ReportRecord): Promise<ReportRecord | null> {
    const row = toRow(report);
    if (Number.isNaN(row.created_at_ms))
      throw new RangeError(`createdAt \`${report.createdAt}\` is not a time`);
    // `on conflict do nothing` on the unique (supervisor, scheduled_for): the loser of a
    // race between servers writes nothing and learns so from the count, on both backends.
    const result = await this.ctx.write((tx) =>
      tx
        .insertInto('reports')
        .values(row)
        .onConflict((oc) => oc.columns(['supervisor', 'scheduled_for']).doNothing())
        .executeTakeFirst(),
    );
    return num(result.numInsertedOrUpdatedRows ?? 0n) > 0 ? fromRow(row) : null;
  }

  async get(id: string): Promise<ReportRecord | null> {
    return first(this.ctx.db.selectFrom('reports').selectAll().where('id', '=', id), fromRow);
  }

  async list(filter: ReportFilter = {}): Promise<ReportRecord[]> {
    const query = whereGiven(this.ctx.db.selectFrom('reports').selectAll(), {
      workspace: filter.workspace,
      supervisor: filter.supervisor,
      kind: filter.kind,
      scheduled_for:
        filter.scheduledFor === undefined ? undefined : normalTime(filter.scheduledFor),
    });
    return every(newestFirst(query, 'created_at_ms', filter.limit ?? 100), fromRow);
  }
}
