// The newest stored supervisor report that mentions the agent (I11): the
// findings about it — each a sentence with its numbers and the ids behind it,
// and any agent-written text it quotes shown as quoted data — and the agent's
// row of the report's summary. Reports are for people: `GET /v1/reports`
// lists them without their data, `GET /v1/reports/:id` has it.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import { errorText, failure, loading, num } from './common.js';

/** How many of the newest reports are searched for one that mentions the agent. */
const SEARCHED = 20;

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

/** @param {import('../../lib/types.js').ReportData | null | undefined} data @param {string} agent @param {string} workspace */
function mentions(data, agent, workspace) {
  if (data === null || typeof data !== 'object') return false;
  /** @param {import('../../lib/types.js').ReportAgentRow} a */
  const here = (a) => a.agent === agent && (a.workspace ?? workspace) === workspace;
  return (
    (Array.isArray(data.agents) && data.agents.some(here)) ||
    (Array.isArray(data.findings) && data.findings.some((f) => f.agent === agent))
  );
}

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

/** @param {{ workspace: string, agent: string }} where */
export function reportSection(where) {
  const body = h('div', null, loading());
  const el = section('Latest supervisor report', body);
  void (async () => {
    /** @type {import('../../lib/types.js').Report[]} */
    let reports;
    try {
      ({ reports } = await api('GET', `/v1/reports${query({ kind: 'report', limit: SEARCHED })}`));
    } catch (error) {
      replace(body, failure('Cannot read the supervisor reports', error));
      return;
    }
    const candidates = reports.filter(
      (r) => r.workspace === null || r.workspace === where.workspace,
    );
    /** @type {import('../../lib/types.js').Report | null} */
    let found = null;
    const problems = [];
    for (const listed of candidates) {
      try {
        /** @type {import('../../lib/types.js').Report} */
        const report = await api('GET', `/v1/reports/${encodeURIComponent(listed.id)}`);
        if (mentions(report.data, where.agent, where.workspace)) {
          found = report;
          break;
        }
      } catch (error) {
        problems.push(
          h(
            'p',
            { class: 'error', role: 'alert' },
            `Cannot read report ${listed.id}: ${errorText(error)}`,
          ),
        );
      }
    }
    if (found === null) {
      replace(
        body,
        problems,
        h(
          'p',
          { class: 'muted' },
          candidates.length === 0
            ? 'No supervisor report is stored yet.'
            : `None of the newest ${candidates.length} supervisor reports mentions this agent.`,
        ),
      );
      return;
    }
    const data = found.data ?? {};
    const findings = (data.findings ?? []).filter((f) => f.agent === where.agent);
    const row = (data.agents ?? []).find((a) => a.agent === where.agent);
    replace(
      body,
      problems,
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
      h('h4', null, `Findings about ${where.agent} (${findings.length})`),
      findings.length === 0
        ? h('p', { class: 'muted' }, 'No finding about this agent in this report.')
        : h('ol', { class: 'ag-findings' }, findings.map(finding)),
      row === undefined ? null : [h('h4', null, 'In the summary'), summary(row)],
      Array.isArray(data.notes) && data.notes.length > 0
        ? h(
            'ul',
            { class: 'muted ag-small' },
            data.notes.map((n) => h('li', null, n)),
          )
        : null,
      h(
        'details',
        null,
        h('summary', null, 'The whole report (Markdown, as stored)'),
        h('pre', { class: 'ag-report-body' }, found.body),
      ),
    );
  })();
  return el;
}
