// Why this file exists: the taskboard (I2) is a capability of the `Warden`
// facade (`warden.tasks`): what agents should do, with due dates. A task is
// put on the board, read and marked here only, so how a task record is made
// (its id, its due date in one form, its timestamps) lives in one place.

import { newId } from '../ids.js';
import type { Store, TaskFilter, TaskRecord, TaskState, TaskView } from '../store/types.js';

/** A task as an admin puts it on the board. */
export interface NewTask {
  readonly workspace: string;
  readonly agent: string;
  readonly title: string;
  /** When it is due: any time `Date.parse` reads; undefined for none. */
  readonly dueAt?: string;
  readonly note?: string;
}

export class Tasks {
  constructor(
    private readonly parts: { readonly store: Pick<Store, 'tasks'>; readonly clock: () => number },
  ) {}

  /** The tasks the filter picks, as of `filter.at`. */
  list(filter: TaskFilter): Promise<TaskView[]> {
    return this.parts.store.tasks.list(filter);
  }

  /** One task as of `at`; null when there is no such task. */
  get(id: string, at: number = this.parts.clock()): Promise<TaskView | null> {
    return this.parts.store.tasks.get(id, at);
  }

  /** Puts a task on an agent's board. */
  create(task: NewTask, at: number = this.parts.clock()): Promise<TaskRecord> {
    return this.parts.store.tasks.create({
      id: `t-${newId().toLowerCase()}`,
      workspace: task.workspace,
      agent: task.agent,
      title: task.title,
      dueAt: task.dueAt === undefined ? null : new Date(Date.parse(task.dueAt)).toISOString(),
      createdAt: new Date(at).toISOString(),
      note: task.note ?? null,
    });
  }

  /** Marks a task done or open again; null when there is no such task. */
  mark(id: string, state: TaskState, at: number = this.parts.clock()): Promise<TaskRecord | null> {
    return this.parts.store.tasks.update(id, { state }, at);
  }
}
