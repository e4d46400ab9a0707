// An agent's audit timeline: its entries newest first — tool calls with their
// status, gate decisions with their outcome and reason, answers to its
// approvals — filtered by status and kind, paged with "Show older". Paging
// reads before the oldest entry shown (`until` is exclusive, so the oldest
// millisecond is read again and entries already shown are skipped).

import { api, query } from '../../lib/api.js';
import { badge, code, h, replace, section, time } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { errorText, preview, statusBadge } from './common.js';

const PAGE = 25;
const STATUSES = ['Ok', 'Error', 'Denied', 'NotFound', 'Staged'];
const KINDS = ['call', 'decision', 'approval', 'change'];

/** What an entry says, in one cell: reason, error, answer, arguments — all as text. @param {any} e */
function details(e) {
  const parts = [];
  if (e.kind === 'call') {
    if (typeof e.error === 'string' && e.error !== '')
      parts.push(h('div', null, folded(e.error, { what: 'the error' })));
    const args = preview(e.arguments);
    if (args !== '' && args !== 'null')
      parts.push(h('div', null, h('span', { class: 'muted' }, 'arguments '), code(args)));
    if (typeof e.durationMs === 'number')
      parts.push(h('div', { class: 'muted' }, `${e.durationMs} ms`));
  } else if (e.kind === 'decision') {
    const command = e.request?.command;
    if (typeof command === 'string')
      parts.push(
        h('div', null, folded(command, { limit: 160, render: code, what: 'the command' })),
      );
    else if (Array.isArray(e.request?.actions))
      parts.push(
        h('div', null, folded(e.request.actions.join(', '), { render: code, what: 'the actions' })),
      );
    if (typeof e.decision?.reason === 'string')
      parts.push(h('div', null, folded(e.decision.reason, { what: 'the reason' })));
    if (e.approval?.by)
      parts.push(
        h(
          'div',
          { class: 'muted' },
          folded(
            `${e.approval.answer ?? e.approval.state} by ${e.approval.by}${e.approval.reason ? `: ${e.approval.reason}` : ''}`,
            { what: 'the answer' },
          ),
        ),
      );
    if (e.override?.by)
      parts.push(
        h(
          'div',
          { class: 'muted' },
          folded(`overridden by ${e.override.by}: ${e.override.reason}`, { what: 'the override' }),
        ),
      );
    if (typeof e.failure === 'string')
      parts.push(h('div', { class: 'error' }, folded(e.failure, { what: 'the failure' })));
  } else if (e.kind === 'approval') {
    const who = e.by === null || e.by === undefined ? '' : ` by ${e.by}`;
    const how =
      e.answer === 'remember' ? `remember ${e.hours ?? '?'} h in ${e.scope ?? '?'}` : e.answer;
    parts.push(h('div', null, folded(`${how}${who}${e.reason ? `: ${e.reason}` : ''}`)));
  } else if (e.kind === 'change') {
    parts.push(h('div', null, `${e.change ?? 'change'} by ${e.by ?? '?'}`));
  }
  return parts;
}

/** @param {any} e */
function row(e) {
  const result =
    e.kind === 'call'
      ? statusBadge(e.status)
      : typeof e.outcome === 'string'
        ? badge(e.outcome === 'ask' ? 'prompt' : e.outcome)
        : null;
  return h(
    'tr',
    { dataset: { entry: e.id, kind: e.kind } },
    h('td', { dataset: { label: 'Time' } }, time(e.occurredAt)),
    h('td', { dataset: { label: 'Kind' } }, e.kind),
    h(
      'td',
      { class: 'ag-tool', dataset: { label: 'Tool' } },
      typeof e.tool === 'string'
        ? folded(e.tool, { limit: 80, render: code, what: 'the tool' })
        : h('span', { class: 'muted' }, '—'),
    ),
    h('td', { dataset: { label: 'Result' } }, result),
    h('td', { class: 'ag-details', dataset: { label: 'Details' } }, details(e)),
  );
}

/** @param {{ workspace: string, agent: string }} where */
export function auditSection(where) {
  const status = h(
    'select',
    { id: 'audit-status', name: 'status' },
    h('option', { value: '' }, 'All'),
    STATUSES.map((s) => h('option', { value: s }, s)),
  );
  const kind = h(
    'select',
    { id: 'audit-kind', name: 'kind' },
    h('option', { value: '' }, 'All'),
    KINDS.map((k) => h('option', { value: k }, k)),
  );
  const tbody = h('tbody');
  const table = h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'ag-timeline', 'aria-describedby': 'audit-count' },
      h('caption', { class: 'visually-hidden' }, `Audit entries of ${where.agent}, newest first`),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Time', 'Kind', 'Tool', 'Result', 'Details'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      tbody,
    ),
  );
  const count = h('p', { class: 'muted', id: 'audit-count', role: 'status' });
  const alert = h('p', { class: 'error', role: 'alert' });
  const older = h('button', { type: 'button', onclick: () => void load(true) }, 'Show older');

  /** @type {Set<string>} */
  let seen = new Set();
  /** @type {import('../../lib/types.js').AuditEntry[]} */
  let shown = [];
  let generation = 0;

  /** @param {boolean} more older entries, after those shown */
  async function load(more) {
    const mine = ++generation;
    replace(alert);
    older.setAttribute('disabled', '');
    const oldest = shown.length === 0 ? null : Date.parse(shown[shown.length - 1].occurredAt);
    const sameMs =
      oldest === null ? 0 : shown.filter((e) => Date.parse(e.occurredAt) === oldest).length;
    const limit = more ? PAGE + sameMs : PAGE;
    try {
      /** @type {{ entries: import('../../lib/types.js').AuditEntry[] }} */
      const { entries } = await api(
        'GET',
        `/v1/audit${query({
          workspace: where.workspace,
          agent: where.agent,
          status: status.value,
          kind: kind.value,
          limit,
          until: more && oldest !== null ? new Date(oldest + 1).toISOString() : undefined,
        })}`,
      );
      if (mine !== generation) return;
      const fresh = entries.filter((e) => !seen.has(e.id));
      for (const e of fresh) seen.add(e.id);
      shown = [...shown, ...fresh];
      for (const e of fresh) tbody.appendChild(row(e));
      table.hidden = shown.length === 0;
      const filtered = status.value !== '' || kind.value !== '';
      replace(
        count,
        shown.length === 0
          ? filtered
            ? 'No entry matches the filter.'
            : 'No audit entry for this agent yet.'
          : `Showing ${shown.length} ${shown.length === 1 ? 'entry' : 'entries'}, newest first.`,
      );
      older.hidden = entries.length < limit;
    } catch (error) {
      if (mine !== generation) return;
      replace(alert, `Cannot read the audit log: ${errorText(error)}`);
    }
    older.removeAttribute('disabled');
  }

  const reset = () => {
    seen = new Set();
    shown = [];
    replace(tbody);
    void load(false);
  };
  status.addEventListener('change', reset);
  kind.addEventListener('change', reset);

  const el = section(
    'Audit timeline',
    h(
      'form',
      { class: 'row ag-filters', onsubmit: (event) => event.preventDefault() },
      h('div', null, h('label', { for: 'audit-status' }, 'Status (tool calls)'), status),
      h('div', null, h('label', { for: 'audit-kind' }, 'Kind'), kind),
    ),
    alert,
    count,
    table,
    h('p', null, older),
  );
  table.hidden = true;
  void load(false);
  return el;
}
