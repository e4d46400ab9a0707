// An agent's run receipts (I2): per run its steps, tokens and cost and the
// task it worked on, with totals and a chart over time.
//
// What the part holds is its state (`agent-state.js`: `receiptsState`,
// `reduceReceipts`, with the totals): pure, tested in Node.
// `receiptsSection` feeds it the runs read, and draws it.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import {
  RUNS_LIMIT,
  receiptsState,
  reduceReceipts,
  runKind,
  runTotals,
  runsCaption,
} from './agent-state.js';
import { runChart } from './chart.js';
import { errorText, loading, num } from './common.js';

/**
 * @typedef {import('../../lib/types.js').Run} Run
 * @typedef {import('./agent-state.js').ReceiptsState} ReceiptsState
 * @typedef {import('./agent-state.js').ReceiptsEvent} ReceiptsEvent
 */

/** @param {string} status */
function runBadge(status) {
  return h('span', { class: `badge badge-${runKind(status)}` }, status);
}

/** One run's row. @param {Run} r */
function runRow(r) {
  return h(
    'tr',
    { dataset: { run: r.id } },
    h('td', null, time(r.startedAt)),
    h('td', null, runBadge(r.status)),
    h('td', { class: 'ag-num' }, num(r.steps)),
    h('td', { class: 'ag-num' }, num(r.tokensIn)),
    h('td', { class: 'ag-num' }, num(r.tokensOut)),
    h('td', { class: 'ag-num' }, num(r.costCents)),
    h('td', null, r.taskId === null ? h('span', { class: 'muted' }, '—') : code(r.taskId)),
    h('td', null, code(r.id)),
  );
}

/** The table of runs, newest first. @param {string} agent @param {readonly Run[]} runs */
function runsTable(agent, runs) {
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'ag-receipts' },
      h('caption', { class: 'visually-hidden' }, `Run receipts of ${agent}, newest first`),
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
      h('tbody', null, runs.map(runRow)),
    ),
  );
}

/**
 * What the part shows for a state.
 * @param {string} agent @param {ReceiptsState} state @returns {import('../../lib/types.js').Child[]}
 */
export function drawReceipts(agent, state) {
  if (state.runs === null)
    return [
      state.readError === null
        ? loading()
        : h(
            'p',
            { class: 'error', role: 'alert' },
            `Cannot read the run receipts: ${state.readError}`,
          ),
    ];
  const runs = state.runs;
  if (runs.length === 0) return [h('p', { class: 'muted' }, 'No run recorded for this agent yet.')];
  return [
    h(
      'dl',
      { class: 'ag-totals' },
      runTotals(runs).map(([term, value]) =>
        h('div', null, h('dt', null, term), h('dd', null, num(value))),
      ),
    ),
    h(
      'figure',
      { class: 'ag-chart-box' },
      runChart(runs, 'runs-chart'),
      h(
        'figcaption',
        { class: 'muted ag-small' },
        runsCaption(runs),
        ' Bars: tokens (in + out) per run; dots: cost in cents.',
      ),
    ),
    runsTable(agent, runs),
  ];
}

/** @param {{ workspace: string, agent: string }} where */
export function receiptsSection(where) {
  const body = h('div', null, loading());
  const el = section('Run receipts', body);
  /** @type {ReceiptsState} */
  let state = receiptsState();
  /** @param {ReceiptsEvent} event */
  const dispatch = (event) => {
    state = reduceReceipts(state, event);
    replace(body, drawReceipts(where.agent, state));
  };
  void (async () => {
    try {
      /** @type {{ runs: Run[] }} */
      const { runs } = await api(
        'GET',
        `/v1/runs${query({ workspace: where.workspace, agent: where.agent, limit: RUNS_LIMIT })}`,
      );
      dispatch({ type: 'read', runs });
    } catch (error) {
      dispatch({ type: 'read-failed', message: errorText(error) });
    }
  })();
  return el;
}
