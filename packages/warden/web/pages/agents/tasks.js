// An agent's tasks on the taskboard: open, done, overdue (open and due
// before now, as the server reads it), with a filter that says how many each.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { failure, loading } from './common.js';

const LIMIT = 200;
/** @type {[string, string, (t: import('../../lib/types.js').Task) => boolean][]} */
const FILTERS = [
  ['all', 'All', () => true],
  ['open', 'Open', (t) => t.state === 'open'],
  ['overdue', 'Overdue', (t) => t.overdue === true],
  ['done', 'Done', (t) => t.state === 'done'],
];

/** @param {any} t */
function stateBadge(t) {
  if (t.overdue === true) return h('span', { class: 'badge badge-deny' }, 'overdue');
  if (t.state === 'done') return h('span', { class: 'badge badge-allow' }, 'done');
  return h('span', { class: 'badge badge-none' }, 'open');
}

/** @param {{ workspace: string, agent: string }} where */
export function tasksSection(where) {
  const body = h('div', null, loading());
  const el = section('Tasks', body);
  void (async () => {
    /** @type {import('../../lib/types.js').Task[]} */
    let tasks;
    try {
      ({ tasks } = await api(
        'GET',
        `/v1/tasks${query({ workspace: where.workspace, agent: where.agent, limit: LIMIT })}`,
      ));
    } catch (error) {
      replace(body, failure('Cannot read the tasks', error));
      return;
    }
    if (tasks.length === 0) {
      replace(body, h('p', { class: 'muted' }, 'No task on this agent’s board.'));
      return;
    }
    const tbody = h('tbody');
    const status = h('p', { class: 'muted', role: 'status', id: 'tasks-shown' });
    const buttons = FILTERS.map(([key, label, keep]) =>
      h(
        'button',
        {
          type: 'button',
          'aria-pressed': key === 'all' ? 'true' : 'false',
          dataset: { filter: key },
          onclick: () => show(key),
        },
        `${label} (${tasks.filter(keep).length})`,
      ),
    );
    /** @param {string} key */
    const show = (key) => {
      const [, label, keep] = FILTERS.find((f) => f[0] === key) ?? FILTERS[0];
      for (const b of buttons) b.setAttribute('aria-pressed', String(b.dataset.filter === key));
      const picked = tasks.filter(keep);
      replace(
        tbody,
        picked.map((t) =>
          h(
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
          ),
        ),
      );
      replace(status, `${label}: ${picked.length} ${picked.length === 1 ? 'task' : 'tasks'}.`);
    };
    replace(
      body,
      h('div', { class: 'ag-seg', role: 'group', 'aria-label': 'Show tasks' }, buttons),
      status,
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
          tbody,
        ),
      ),
    );
    show('all');
  })();
  return el;
}
