// An agent's run receipts (I2): per run its steps, tokens and cost and the
// task it worked on, with totals and a chart over time.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import { runChart } from './chart.js';
import { failure, loading, num } from './common.js';

const LIMIT = 100;

/** @param {string} status */
function runBadge(status) {
  const kind =
    status === 'done'
      ? 'allow'
      : status === 'failed'
        ? 'deny'
        : status === 'running'
          ? 'prompt'
          : 'none';
  return h('span', { class: `badge badge-${kind}` }, status);
}

/** @param {{ workspace: string, agent: string }} where */
export function receiptsSection(where) {
  const body = h('div', null, loading());
  const el = section('Run receipts', body);
  void (async () => {
    /** @type {import('../../lib/types.js').Run[]} */
    let runs;
    try {
      ({ runs } = await api(
        'GET',
        `/v1/runs${query({ workspace: where.workspace, agent: where.agent, limit: LIMIT })}`,
      ));
    } catch (error) {
      replace(body, failure('Cannot read the run receipts', error));
      return;
    }
    if (runs.length === 0) {
      replace(body, h('p', { class: 'muted' }, 'No run recorded for this agent yet.'));
      return;
    }
    /** @param {'tokensIn' | 'tokensOut' | 'costCents' | 'steps'} key */
    const sum = (key) => runs.reduce((total, r) => total + (r[key] ?? 0), 0);
    replace(
      body,
      h(
        'dl',
        { class: 'ag-totals' },
        [
          ['Runs', num(runs.length)],
          ['Steps', num(sum('steps'))],
          ['Tokens in', num(sum('tokensIn'))],
          ['Tokens out', num(sum('tokensOut'))],
          ['Cost (cents)', num(sum('costCents'))],
        ].map(([term, value]) => h('div', null, h('dt', null, term), h('dd', null, value))),
      ),
      h(
        'figure',
        { class: 'ag-chart-box' },
        runChart(runs, 'runs-chart'),
        h(
          'figcaption',
          { class: 'muted ag-small' },
          runs.length === LIMIT ? `The newest ${LIMIT} runs.` : 'Every run of this agent.',
          ' Bars: tokens (in + out) per run; dots: cost in cents.',
        ),
      ),
      h(
        'div',
        { class: 'scroll' },
        h(
          'table',
          { class: 'ag-receipts' },
          h(
            'caption',
            { class: 'visually-hidden' },
            `Run receipts of ${where.agent}, newest first`,
          ),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              [
                'Started',
                'Status',
                'Steps',
                'Tokens in',
                'Tokens out',
                'Cost (cents)',
                'Task',
                'Run',
              ].map((t) => h('th', { scope: 'col' }, t)),
            ),
          ),
          h(
            'tbody',
            null,
            runs.map((r) =>
              h(
                'tr',
                { dataset: { run: r.id } },
                h('td', null, time(r.startedAt)),
                h('td', null, runBadge(r.status)),
                h('td', { class: 'ag-num' }, num(r.steps)),
                h('td', { class: 'ag-num' }, num(r.tokensIn)),
                h('td', { class: 'ag-num' }, num(r.tokensOut)),
                h('td', { class: 'ag-num' }, num(r.costCents)),
                h(
                  'td',
                  null,
                  r.taskId === null ? h('span', { class: 'muted' }, '—') : code(r.taskId),
                ),
                h('td', null, code(r.id)),
              ),
            ),
          ),
        ),
      ),
    );
  })();
  return el;
}
