// The hash-chained audit log (contracts §6). Appending reads the chain's head
// under the write lock, links each entry to the one before it and moves the
// head in the same transaction, so several processes extend one chain.

import type {
  AuditDraft,
  AuditEntry,
  AuditFilter,
  AuditGroup,
  AuditGroupKey,
  AuditStatus,
  AuditStore,
  JsonValue,
  StoredAuditEntry,
} from '../types.js';
import type { Database } from '../schema.js';
import { CompiledQuery } from 'kysely';
import { canonicalJson } from '@warden/engine';
import { linkHash } from '../../audit/chain.js';
import { ENTRY_COLUMNS } from '../../audit/columns.js';
import type { SqlContext, Tx } from './context.js';
import { num, storable } from './context.js';

type Row = Database['audit_entries'];

/** Rows per INSERT statement: well under SQLite's limit of bound parameters. */
const INSERT_CHUNK = 400;

function toEntry(row: Pick<Row, 'entry' | 'prev_hash' | 'hash'>): AuditEntry {
  const body = JSON.parse(row.entry) as { [key: string]: JsonValue };
  return { ...body, prevHash: row.prev_hash, hash: row.hash } as AuditEntry;
}

/** A draft as a row, with its canonical JSON as `entry`, before it is linked into the chain. */
export type UnlinkedRow = Omit<Row, 'seq' | 'prev_hash' | 'hash'>;

/** Where each row landed in the chain. */
export interface ChainPosition {
  readonly seq: number;
  readonly prevHash: string;
  readonly hash: string;
}

/**
 * Links and writes rows in one transaction elsewhere (SQLite: a writer thread
 * with its own connection, so hashing and writing do not take the decision
 * thread's time). Resolves once the rows are committed.
 */
export type AuditAppender = (drafts: readonly AuditDraft[]) => Promise<readonly ChainPosition[]>;

/** A column's text as the database can hold it (a lone surrogate and U+0000 become U+FFFD, as `verify` reads it). */
function text<T extends string | null>(value: T): T {
  return storable(value);
}

export function unlinkedRow(draft: AuditDraft, withEntry = true): UnlinkedRow {
  return {
    id: text(draft.id),
    kind: draft.kind,
    workspace: text(draft.workspace),
    agent_id: text(draft.agentId),
    run_id: text(draft.runId),
    call_id: text(draft.callId),
    decision_id: text(draft.decisionId),
    tool: text(draft.tool),
    status: draft.status,
    occurred_at_ms: Date.parse(draft.occurredAt),
    entry: withEntry ? canonicalJson(draft.body) : '',
  };
}

/** The chain's head record is gone: entries cut from the end of the log can no longer be noticed. */
export class MissingHead extends Error {
  constructor() {
    super(
      'the audit log has no head record: it was removed, so entries cut from the end of the log cannot be noticed',
    );
    this.name = 'MissingHead';
  }
}

export class SqlAuditStore implements AuditStore {
  constructor(
    private readonly ctx: SqlContext,
    private readonly appender: AuditAppender | null = null,
  ) {}

  async append(drafts: readonly AuditDraft[]): Promise<AuditEntry[]> {
    if (drafts.length === 0) return [];
    const positions =
      this.appender === null
        ? await this.link(drafts.map((draft) => unlinkedRow(draft)))
        : await this.appender(drafts);
    // A draft's body becomes its entry: it was made for this append and nothing else holds it,
    // and copying every entry would cost the deciding thread more than the write does.
    return drafts.map((draft, i) => {
      const at = positions[i] as ChainPosition;
      const entry = draft.body as { [key: string]: JsonValue };
      entry.prevHash = at.prevHash;
      entry.hash = at.hash;
      return entry as AuditEntry;
    });
  }

  /** Reads the head under the write lock, links the rows after it and moves it. */
  private link(unlinked: readonly UnlinkedRow[]): Promise<ChainPosition[]> {
    return this.ctx.write(async (tx) => {
      let head = tx.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1);
      if (this.ctx.backend === 'postgres') head = head.forUpdate();
      const at = await head.executeTakeFirstOrThrow();
      let seq = num(at.seq);
      let prev = at.hash;
      const rows: Row[] = [];
      const positions: ChainPosition[] = [];
      for (const row of unlinked) {
        seq += 1;
        const hash = linkHash(prev, row.entry);
        rows.push({ seq, ...row, prev_hash: prev, hash });
        positions.push({ seq, prevHash: prev, hash });
        prev = hash;
      }
      await insertRows(tx, this.ctx.backend, rows);
      await tx.updateTable('audit_head').set({ seq, hash: prev }).where('id', '=', 1).execute();
      return positions;
    });
  }

  private filtered(filter: AuditFilter) {
    let query = this.ctx.db.selectFrom('audit_entries');
    if (filter.workspace !== undefined) query = query.where('workspace', '=', filter.workspace);
    if (filter.agent !== undefined) query = query.where('agent_id', '=', filter.agent);
    if (filter.kinds !== undefined && filter.kinds.length > 0)
      query = query.where('kind', 'in', [...filter.kinds]);
    if (filter.statuses !== undefined && filter.statuses.length > 0)
      query = query.where('status', 'in', [...filter.statuses]);
    if (filter.tool !== undefined) query = query.where('tool', '=', filter.tool);
    if (filter.callId !== undefined) query = query.where('call_id', '=', filter.callId);
    if (filter.decisionId !== undefined) query = query.where('decision_id', '=', filter.decisionId);
    if (filter.sinceMs !== undefined) query = query.where('occurred_at_ms', '>=', filter.sinceMs);
    if (filter.untilMs !== undefined) query = query.where('occurred_at_ms', '<', filter.untilMs);
    return query;
  }

  async query(filter: AuditFilter): Promise<AuditEntry[]> {
    const rows = await this.filtered(filter)
      .select(['entry', 'prev_hash', 'hash'])
      .orderBy('seq', filter.order === 'oldest' ? 'asc' : 'desc')
      .limit(filter.limit ?? 100)
      .execute();
    return rows.map(toEntry);
  }

  async group(filter: AuditFilter, by: readonly AuditGroupKey[]): Promise<AuditGroup[]> {
    const keys = [...new Set(by)];
    if (keys.length === 0) {
      const row = await this.filtered(filter)
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirst();
      return [{ count: num(row?.count ?? 0) }];
    }
    const rows = await this.filtered(filter)
      .select(keys)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .groupBy(keys)
      .execute();
    return rows
      .map((row) => {
        const group: { tool?: string | null; status?: AuditStatus | null; count: number } = {
          count: num(row.count),
        };
        if (keys.includes('tool')) group.tool = (row as { tool: string | null }).tool;
        if (keys.includes('status')) group.status = (row as { status: AuditStatus | null }).status;
        return group;
      })
      .sort(
        (a, b) =>
          b.count - a.count ||
          String(a.tool ?? '').localeCompare(String(b.tool ?? '')) ||
          String(a.status ?? '').localeCompare(String(b.status ?? '')),
      );
  }

  async get(id: string): Promise<AuditEntry | null> {
    const row = await this.ctx.db
      .selectFrom('audit_entries')
      .select(['entry', 'prev_hash', 'hash'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? null : toEntry(row);
  }

  async *scan(fromSeq = 1, pageSize = 1000): AsyncIterable<StoredAuditEntry> {
    let next = fromSeq;
    for (;;) {
      const rows = await this.ctx.db
        .selectFrom('audit_entries')
        .selectAll()
        .where('seq', '>=', next)
        .orderBy('seq')
        .limit(pageSize)
        .execute();
      for (const row of rows) {
        const columns: { [column: string]: JsonValue } = {};
        for (const column of ENTRY_COLUMNS) columns[column] = row[column];
        columns.occurred_at_ms = num(row.occurred_at_ms);
        let entry: AuditEntry;
        try {
          entry = toEntry(row);
        } catch (error) {
          // A row whose entry is not JSON any more was changed in the database: `verify`
          // names it and goes on, where a parse error would stop it.
          yield {
            seq: num(row.seq),
            entry: { id: row.id, prevHash: row.prev_hash, hash: row.hash } as AuditEntry,
            columns,
            problem: `entry \`${row.id}\` (#${num(row.seq)}) is not JSON any more: ${(error as Error).message}`,
          };
          continue;
        }
        yield { seq: num(row.seq), entry, columns };
      }
      if (rows.length < pageSize) return;
      next = num((rows[rows.length - 1] as Row).seq) + 1;
    }
  }

  async head(): Promise<{ seq: number; hash: string }> {
    const row = await this.ctx.db
      .selectFrom('audit_head')
      .select(['seq', 'hash'])
      .where('id', '=', 1)
      .executeTakeFirst();
    if (row === undefined) throw new MissingHead();
    return { seq: num(row.seq), hash: row.hash };
  }
}

export const AUDIT_COLUMNS = [
  'seq',
  ...ENTRY_COLUMNS,
  'entry',
  'prev_hash',
  'hash',
] as const satisfies readonly (keyof Row)[];

/**
 * SQLite: one single-row statement, compiled by Kysely once and re-run per
 * row (the driver keeps it prepared). Postgres: multi-row statements, so a
 * batch costs few round trips.
 */
async function insertRows(
  tx: Tx,
  backend: 'sqlite' | 'postgres',
  rows: readonly Row[],
): Promise<void> {
  if (backend === 'sqlite') {
    const sqlText = (singleRowInsert ??= tx
      .insertInto('audit_entries')
      .values(rows[0] as Row)
      .compile().sql);
    for (const row of rows) {
      await tx.executeQuery(
        CompiledQuery.raw(
          sqlText,
          AUDIT_COLUMNS.map((c) => row[c]),
        ),
      );
    }
    return;
  }
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx
      .insertInto('audit_entries')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  }
}

let singleRowInsert: string | undefined;
