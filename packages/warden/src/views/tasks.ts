// The taskboard as the API answers it (`/v1/tasks*`, I2): what agents should
// do, with due dates. No IO here.

import { z } from 'zod';
import type { TaskRecord, TaskView as StoredTaskView } from '../store/types.js';
import type { Fits, Shown } from './fits.js';

/** A task as written (`POST /v1/tasks`, `PATCH /v1/tasks/:id`). */
export const taskRecordView = z.strictObject({
  id: z.string(),
  workspace: z.string(),
  agent: z.string(),
  title: z.string(),
  state: z.enum(['open', 'done']),
  dueAt: z.string().nullable(),
  createdAt: z.string(),
  doneAt: z.string().nullable(),
  note: z.string().nullable(),
});

/** A task as read on the board, at the moment of reading. */
export const taskView = taskRecordView.extend({
  overdue: z.boolean().describe('open with a due date already past'),
});

/** `GET /v1/tasks`: by due date. */
export const taskListView = z.strictObject({ tasks: z.array(taskView) });

export type TaskRecordView = Shown<typeof taskRecordView>;
export type TaskView = Shown<typeof taskView>;
export type TaskListView = Shown<typeof taskListView>;

/** Fails to compile when the store's task no longer fits what clients are shown. */
export const taskSchemasFollowTheStore: [
  Fits<TaskRecord, typeof taskRecordView>,
  Fits<StoredTaskView, typeof taskView>,
] = [true, true];
