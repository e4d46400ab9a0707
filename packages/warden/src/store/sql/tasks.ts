// The taskboard: what each agent should do, with a state and a due date.
// Overdue is derived at read time from the clock, never stored.

import type {
  TaskChange,
  TaskFilter,
  TaskRecord,
  TaskState,
  TaskStore,
  TaskView,
} from '../types.js';
import type { Database } from '../schema.js';
import type { SqlContext } from './context.js';
import { iso, numOrNull, storable } from './context.js';
import { sql } from 'kysely';

type Row = Database['tasks'];

function view(row: Row, at: number): TaskView {
  const due = numOrNull(row.due_at_ms);
  return {
    id: row.id,
    workspace: row.workspace,
    agent: row.agent,
    title: row.title,
    state: row.state as TaskState,
    dueAt: row.due_at,
    createdAt: row.created_at,
    doneAt: row.done_at,
    note: row.note,
    overdue: row.state === 'open' && due !== null && due < at,
  };
}

function record(task: TaskView): TaskRecord {
  const rest: { -readonly [K in keyof TaskView]?: TaskView[K] } = { ...task };
  delete rest.overdue;
  return rest as TaskRecord;
}

export class SqlTaskStore implements TaskStore {
  constructor(private readonly ctx: SqlContext) {}

  async create(
    task: Omit<TaskRecord, 'doneAt' | 'state'> & { readonly state?: TaskState },
  ): Promise<TaskRecord> {
    const state = task.state ?? 'open';
    const row: Row = {
      id: task.id,
      workspace: task.workspace,
      agent: task.agent,
      title: storable(task.title),
      state,
      due_at: task.dueAt,
      due_at_ms: task.dueAt === null ? null : Date.parse(task.dueAt),
      created_at: task.createdAt,
      done_at: state === 'done' ? task.createdAt : null,
      note: storable(task.note),
    };
    await this.ctx.write((tx) => tx.insertInto('tasks').values(row).execute());
    return record(view(row, Date.parse(task.createdAt)));
  }

  async get(id: string, at: number): Promise<TaskView | null> {
    const row = await this.ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? null : view(row, at);
  }

  async list(filter: TaskFilter): Promise<TaskView[]> {
    let query = this.ctx.db.selectFrom('tasks').selectAll();
    if (filter.workspace !== undefined) query = query.where('workspace', '=', filter.workspace);
    if (filter.agent !== undefined) query = query.where('agent', '=', filter.agent);
    if (filter.state === 'overdue') {
      query = query.where('state', '=', 'open').where('due_at_ms', '<', filter.at);
    } else if (filter.state !== undefined) {
      query = query.where('state', '=', filter.state);
    }
    const rows = await query
      // Tasks without a due date last, on both backends (SQL leaves where nulls sort to each).
      .orderBy(sql`case when due_at_ms is null then 1 else 0 end`)
      .orderBy('due_at_ms')
      .orderBy('created_at')
      .orderBy('id')
      .limit(filter.limit ?? 200)
      .execute();
    return rows.map((row) => view(row, filter.at));
  }

  async update(id: string, change: TaskChange, at: number): Promise<TaskRecord | null> {
    const set: Partial<Row> = {};
    if (change.state !== undefined) {
      set.state = change.state;
      set.done_at = change.state === 'done' ? iso(at) : null;
    }
    if (change.dueAt !== undefined) {
      set.due_at = change.dueAt;
      set.due_at_ms = change.dueAt === null ? null : Date.parse(change.dueAt);
    }
    if (change.title !== undefined) set.title = storable(change.title);
    if (change.note !== undefined) set.note = storable(change.note);
    if (Object.keys(set).length > 0) {
      await this.ctx.write((tx) => tx.updateTable('tasks').set(set).where('id', '=', id).execute());
    }
    const task = await this.get(id, at);
    return task === null ? null : record(task);
  }
}
