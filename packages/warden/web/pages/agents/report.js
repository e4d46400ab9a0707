// The newest stored supervisor report that mentions the agent (I11): the
// findings about it — each a sentence with its numbers and the ids behind it,
// and any agent-written text it quotes shown as quoted data — and the agent's
// row of the report's summary. Reports are for people: `GET /v1/reports`
// lists them without their data, `GET /v1/reports/:id` has it.
//
// What the part holds is its state (`agent-state.js`: `reportState`,
// `reduceReport`, with which report to read next): pure, tested in Node.
// `reportSection` reads the reports the state asks for, and draws it.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import {
  REPORTS_SEARCHED,
  noReportText,
  nextReport,
  reduceReport,
  reportAbout,
  reportDone,
  reportState,
} from './agent-state.js';
import { errorText, loading, num } from './common.js';

/**
 * @typedef {import('../../lib/types.js').Report} Report
 * @typedef {import('./agent-state.js').ReportState} ReportState
 * @typedef {import('./agent-state.js').ReportEvent} ReportEvent
 */

/** @type {Record<string, string>} */
const KIND_WORDS = {
  errorStreak: 'error streak',
  errorRate: 'error rate',
  denialSpike: 'denial spike',
  repeatedCalls: 'repeated calls',
  costOutlier: 'cost outlier',
  tokenOutlier: 'token outlier',
  overdueTasks: 'overdue tasks',
  uncoveredCalls: 'uncovered calls',
  unreportedCalls: 'unreported calls',
};

/** @type {Record<string, string>} */
const SOURCE_WORDS = { toolArguments: 'tool arguments', taskTitle: 'task title' };

/** @param {readonly string[] | undefined} ids @param {string} label */
function idList(ids, label) {
  if (!Array.isArray(ids) || ids.length === 0) return null;
  return h(
    'div',
    null,
    h('span', { class: 'muted' }, `${label} `),
    ids.map((id, i) => [i > 0 ? ' ' : null, code(id)]),
  );
}

/** @param {import('../../lib/types.js').ReportFinding} f */
function finding(f) {
  const counts = Object.entries(f.evidence?.counts ?? {});
  const quoted = Array.isArray(f.evidence?.quoted) ? f.evidence.quoted : [];
  return h(
    'li',
    { class: 'ag-finding', dataset: { kind: f.kind } },
    h(
      'p',
      { class: 'ag-finding-head' },
      h(
        'span',
        { class: `badge ${f.severity === 'critical' ? 'badge-deny' : 'badge-prompt'}` },
        f.severity,
      ),
      ' ',
      h('strong', null, KIND_WORDS[f.kind] ?? f.kind),
      f.tool === undefined ? null : [' · ', code(f.tool)],
    ),
    h('p', { class: 'ag-statement' }, f.statement),
    counts.length === 0
      ? null
      : h(
          'p',
          { class: 'muted ag-small' },
          'evidence: ',
          counts.map(([k, v], i) => `${i > 0 ? ', ' : ''}${k} ${num(v)}`),
        ),
    idList(f.evidence?.auditIds, 'audit entries'),
    idList(f.evidence?.runIds, 'runs'),
    idList(f.evidence?.taskIds, 'tasks'),
    quoted.map((q) =>
      h(
        'div',
        { class: 'ag-quoted' },
        h(
          'span',
          { class: 'muted ag-small' },
          `quoted ${SOURCE_WORDS[q.source] ?? q.source} of `,
          code(q.id),
          ' (agent-written data, not an instruction): ',
        ),
        h('q', null, q.text),
      ),
    ),
  );
}

/** @param {import('../../lib/types.js').ReportAgentRow} row */
function summary(row) {
  const statuses = row.statuses ?? {};
  /** @type {[string, number | undefined][]} */
  const cells = [
    ['Calls', row.calls],
    ['Ok', statuses.Ok],
    ['Error', statuses.Error],
    ['Denied', statuses.Denied],
    ['NotFound', statuses.NotFound],
    ['Runs', row.runs],
    ['Cost (cents)', row.costCents],
    ['Tokens', row.tokens],
    ['Open tasks', row.openTasks],
    ['Overdue', row.overdueTasks],
  ];
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'ag-summary' },
      h('caption', { class: 'visually-hidden' }, 'The agent in the report’s summary'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          cells.map(([t]) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        null,
        h(
          'tr',
          null,
          cells.map(([, v]) => h('td', { class: 'ag-num' }, num(v))),
        ),
      ),
    ),
  );
}

/** The report found, as far as it concerns the agent. @param {ReportState} state @param {Report} found */
function foundShown(state, found) {
  const { findings, row, notes } = reportAbout(state);
  return [
    h('h3', { class: 'ag-report-title' }, found.title),
    h(
      'p',
      { class: 'muted' },
      'by supervisor ',
      code(found.supervisor),
      ' · window ',
      time(found.windowSince),
      ' to ',
      time(found.windowUntil),
      ' · stored ',
      time(found.createdAt),
    ),
    h('h4', null, `Findings about ${state.where.agent} (${findings.length})`),
    findings.length === 0
      ? h('p', { class: 'muted' }, 'No finding about this agent in this report.')
      : h('ol', { class: 'ag-findings' }, findings.map(finding)),
    row === undefined ? null : [h('h4', null, 'In the summary'), summary(row)],
    notes.length > 0
      ? h(
          'ul',
          { class: 'muted ag-small' },
          notes.map((n) => h('li', null, n)),
        )
      : null,
    h(
      'details',
      null,
      h('summary', null, 'The whole report (Markdown, as stored)'),
      h('pre', { class: 'ag-report-body' }, found.body),
    ),
  ];
}

/**
 * What the part shows for a state: loading while the search goes on, then
 * the reports that could not be read and the one found (or that none was).
 * @param {ReportState} state @returns {import('../../lib/types.js').Child[]}
 */
export function drawReport(state) {
  if (state.listError !== null) return [h('p', { class: 'error', role: 'alert' }, state.listError)];
  if (!reportDone(state)) return [loading()];
  const problems = state.problems.map((text) => h('p', { class: 'error', role: 'alert' }, text));
  return state.found === null
    ? [...problems, h('p', { class: 'muted' }, noReportText(state))]
    : [...problems, ...foundShown(state, state.found)];
}

/** @param {{ workspace: string, agent: string }} where */
export function reportSection(where) {
  const body = h('div', null, loading());
  const el = section('Latest supervisor report', body);
  /** @type {ReportState} */
  let state = reportState(where);
  /** @param {ReportEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduceReport(state, event);
    if (reportDone(state) && state !== prev) replace(body, drawReport(state));
  };
  void (async () => {
    try {
      /** @type {{ reports: Report[] }} */
      const { reports } = await api(
        'GET',
        `/v1/reports${query({ kind: 'report', limit: REPORTS_SEARCHED })}`,
      );
      dispatch({ type: 'listed', reports });
    } catch (error) {
      dispatch({ type: 'list-failed', message: errorText(error) });
      return;
    }
    // The newest first, one at a time, until one mentions the agent.
    for (let id = nextReport(state); id !== null; id = nextReport(state)) {
      try {
        /** @type {Report} */
        const report = await api('GET', `/v1/reports/${encodeURIComponent(id)}`);
        dispatch({ type: 'read', id, report });
      } catch (error) {
        dispatch({ type: 'read-failed', id, message: errorText(error) });
      }
    }
  })();
  return el;
}
