// An agent's tasks on the taskboard: open, done, overdue (open and due
// before now, as the server reads it), with a filter that says how many each.
//
// What the part holds is its state (`agent-state.js`: `tasksState`,
// `reduceTasks`): pure, tested in Node. `tasksSection` feeds it the tasks
// read and the filter picked, and draws it.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import {
  TASKS_LIMIT,
  reduceTasks,
  shownTasks,
  taskFilters,
  taskStateOf,
  tasksShownText,
  tasksState,
} from './agent-state.js';
import { errorText, loading } from './common.js';

/**
 * @typedef {import('../../lib/types.js').Task} Task
 * @typedef {import('./agent-state.js').TasksState} TasksState
 * @typedef {import('./agent-state.js').TasksEvent} TasksEvent
 */

/** @type {Record<ReturnType<typeof taskStateOf>, string>} */
const BADGES = { overdue: 'badge badge-deny', done: 'badge badge-allow', open: 'badge badge-none' };

/** @param {Task} t */
function stateBadge(t) {
  const state = taskStateOf(t);
  return h('span', { class: BADGES[state] }, state);
}

/** One task's row. @param {Task} t */
function taskRow(t) {
  return h(
    'tr',
    { dataset: { task: t.id } },
    h('td', null, folded(t.title, { limit: 160, what: 'the title' })),
    h('td', null, stateBadge(t)),
    h('td', null, time(t.dueAt)),
    h('td', null, time(t.createdAt)),
    h('td', null, time(t.doneAt)),
    h(
      'td',
      null,
      t.note === null || t.note === undefined
        ? h('span', { class: 'muted' }, '—')
        : folded(t.note, { limit: 160, what: 'the note' }),
    ),
    h('td', null, code(t.id)),
  );
}

/**
 * The parts drawn once the tasks are read, kept so the focus stays on the
 * filter pressed.
 * @typedef {{ buttons: HTMLButtonElement[], status: HTMLElement, tbody: HTMLElement }} TaskParts
 */

/** The filter, the status line and the table. @param {{ workspace: string, agent: string }} where @param {TasksState} state @param {(event: TasksEvent) => void} emit */
function taskParts(where, state, emit) {
  /** @type {TaskParts} */
  const parts = {
    buttons: taskFilters(state.tasks ?? []).map(({ key, label, count }) =>
      h(
        'button',
        {
          type: 'button',
          'aria-pressed': key === state.filter ? 'true' : 'false',
          dataset: { filter: key },
          onclick: () => emit({ type: 'filter', key }),
        },
        `${label} (${count})`,
      ),
    ),
    status: h('p', { class: 'muted', role: 'status', id: 'tasks-shown' }),
    tbody: h('tbody'),
  };
  const shown = [
    h('div', { class: 'ag-seg', role: 'group', 'aria-label': 'Show tasks' }, parts.buttons),
    parts.status,
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'ag-tasks' },
        h('caption', { class: 'visually-hidden' }, `Tasks of ${where.agent}`),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Title', 'State', 'Due', 'Created', 'Done', 'Note', 'Task'].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        parts.tbody,
      ),
    ),
  ];
  return { parts, shown };
}

/** Draws the filter's state into the parts. @param {TasksState} state @param {TaskParts} parts */
function drawFiltered(state, parts) {
  for (const b of parts.buttons)
    b.setAttribute('aria-pressed', String(b.dataset.filter === state.filter));
  replace(parts.tbody, shownTasks(state).tasks.map(taskRow));
  replace(parts.status, tasksShownText(state));
}

/** @param {{ workspace: string, agent: string }} where */
export function tasksSection(where) {
  const body = h('div', null, loading());
  const el = section('Tasks', body);
  /** @type {TasksState} */
  let state = tasksState();
  /** @type {TaskParts | null} */
  let parts = null;

  /** @param {TasksEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduceTasks(state, event);
    if (state !== prev) draw();
  };

  const draw = () => {
    if (state.tasks === null) {
      parts = null;
      if (state.readError !== null)
        replace(
          body,
          h('p', { class: 'error', role: 'alert' }, `Cannot read the tasks: ${state.readError}`),
        );
      return;
    }
    if (state.tasks.length === 0) {
      replace(body, h('p', { class: 'muted' }, 'No task on this agent’s board.'));
      return;
    }
    if (parts === null) {
      const made = taskParts(where, state, dispatch);
      parts = made.parts;
      replace(body, made.shown);
    }
    drawFiltered(state, parts);
  };

  void (async () => {
    try {
      /** @type {{ tasks: Task[] }} */
      const { tasks } = await api(
        'GET',
        `/v1/tasks${query({ workspace: where.workspace, agent: where.agent, limit: TASKS_LIMIT })}`,
      );
      dispatch({ type: 'read', tasks });
    } catch (error) {
      dispatch({ type: 'read-failed', message: errorText(error) });
    }
  })();
  return el;
}
