// An agent's audit timeline: its entries newest first — tool calls with their
// status, gate decisions with their outcome and reason, answers to its
// approvals — filtered by status and kind, paged with "Show older". Paging
// reads before the oldest entry shown (`until` is exclusive, so the oldest
// millisecond is read again and entries already shown are skipped).
//
// What the part holds is its state (`agent-state.js`: `auditState`,
// `reduceAudit`, with the next read): pure, tested in Node. `auditSection`
// reads what the state asks for, and draws it.

import { api, query } from '../../lib/api.js';
import { badge, code, h, replace, section, time } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import {
  AUDIT_KINDS,
  AUDIT_STATUSES,
  auditLoading,
  auditState,
  reduceAudit,
} from './agent-state.js';
import { errorText, preview, statusBadge } from './common.js';

/**
 * @typedef {import('../../lib/types.js').AuditEntry} AuditEntry
 * @typedef {import('./agent-state.js').AuditState} AuditState
 * @typedef {import('./agent-state.js').AuditEvent} AuditEvent
 */

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

/**
 * The parts of the timeline, made once (so the filters keep the focus, and
 * rows already shown stay as they are when older ones are added).
 * @typedef {{
 *   status: HTMLSelectElement,
 *   kind: HTMLSelectElement,
 *   tbody: HTMLElement,
 *   table: HTMLElement,
 *   count: HTMLElement,
 *   alert: HTMLElement,
 *   older: HTMLButtonElement,
 *   drawn: number,
 * }} AuditParts
 */

/** The parts, wired to `emit`. @param {{ workspace: string, agent: string }} where @param {(event: AuditEvent) => void} emit @returns {AuditParts} */
function auditParts(where, emit) {
  const status = h(
    'select',
    { id: 'audit-status', name: 'status' },
    h('option', { value: '' }, 'All'),
    AUDIT_STATUSES.map((s) => h('option', { value: s }, s)),
  );
  const kind = h(
    'select',
    { id: 'audit-kind', name: 'kind' },
    h('option', { value: '' }, 'All'),
    AUDIT_KINDS.map((k) => h('option', { value: k }, k)),
  );
  const filter = () => emit({ type: 'filter', status: status.value, kind: kind.value });
  status.addEventListener('change', filter);
  kind.addEventListener('change', filter);
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
  return {
    status,
    kind,
    tbody,
    table,
    count: h('p', { class: 'muted', id: 'audit-count', role: 'status' }),
    alert: h('p', { class: 'error', role: 'alert' }),
    older: h(
      'button',
      { type: 'button', onclick: () => emit({ type: 'load', more: true }) },
      'Show older',
    ),
    drawn: 0,
  };
}

/** Draws a state into the parts: new rows added below those drawn. @param {AuditState} state @param {AuditParts} parts */
function drawAudit(state, parts) {
  if (parts.status.value !== state.status) parts.status.value = state.status;
  if (parts.kind.value !== state.kind) parts.kind.value = state.kind;
  if (state.shown.length < parts.drawn) {
    replace(parts.tbody);
    parts.drawn = 0;
  }
  for (const e of state.shown.slice(parts.drawn)) parts.tbody.appendChild(row(e));
  parts.drawn = state.shown.length;
  parts.table.hidden = state.count === null || state.shown.length === 0;
  replace(parts.count, state.count);
  replace(parts.alert, state.error);
  parts.older.hidden = !state.older;
  if (auditLoading(state)) parts.older.setAttribute('disabled', '');
  else parts.older.removeAttribute('disabled');
}

/** @param {{ workspace: string, agent: string }} where */
export function auditSection(where) {
  /** @type {AuditState} */
  let state = auditState();

  /** The state after `event`, drawn; a read asked for is made. @param {AuditEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduceAudit(state, event);
    if (state === prev) return;
    if (state.generation !== prev.generation) void read(state);
    drawAudit(state, parts);
  };
  const parts = auditParts(where, dispatch);

  /** Reads what `asking` asks for; an answer that comes too late is dropped by the state. @param {AuditState} asking */
  const read = async (asking) => {
    const { generation, asked } = asking;
    if (asked === null) return;
    try {
      /** @type {{ entries: AuditEntry[] }} */
      const { entries } = await api(
        'GET',
        `/v1/audit${query({
          workspace: where.workspace,
          agent: where.agent,
          status: asking.status,
          kind: asking.kind,
          limit: asked.limit,
          until: asked.until,
        })}`,
      );
      dispatch({ type: 'read', generation, entries });
    } catch (error) {
      dispatch({ type: 'read-failed', generation, message: errorText(error) });
    }
  };

  const el = section(
    'Audit timeline',
    h(
      'form',
      { class: 'row ag-filters', onsubmit: (event) => event.preventDefault() },
      h('div', null, h('label', { for: 'audit-status' }, 'Status (tool calls)'), parts.status),
      h('div', null, h('label', { for: 'audit-kind' }, 'Kind'), parts.kind),
    ),
    parts.alert,
    parts.count,
    parts.table,
    h('p', null, parts.older),
  );
  drawAudit(state, parts);
  dispatch({ type: 'load', more: false });
  return el;
}
