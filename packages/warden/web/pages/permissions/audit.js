// The permissions audit log (G39): every decision with its request, facets,
// deciding rule and advisory hits, filterable by agent, time, outcome and
// "advisory hits only", with the hits highlighted. And the rollout view
// (G25): what each advisory rule would have decided over the last week, how
// often and for whom — then switch it to hard.
//
// What the tab holds is its state (`audit-state.js`): pure, tested in Node.
// `mountAudit` is the wiring: it feeds the state the person's input and the
// API's answers, and draws each new state (`drawList`, `drawAdvisories`).

import { api, query } from '../../lib/api.js';
import { badge, checkedOf, code, h, replace, section, time, valueOf } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import {
  LIMITS,
  OUTCOMES,
  SPANS,
  advisoriesQuery,
  advisoryRule,
  auditQuery,
  auditState,
  decisionsCaption,
  hitsOf,
  outcomeBadge,
  outcomeNotes,
  reduce,
  whereText,
  whyText,
} from './audit-state.js';
import { openEditor } from './editor.js';
import { alertBox, field, rich, select } from './ui.js';

/**
 * @typedef {import('../../lib/types.js').DecisionEntry} AuditEntry
 * @typedef {import('../../lib/types.js').Advisories} Advisories
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 * @typedef {import('./audit-state.js').AuditState} AuditState
 * @typedef {import('./audit-state.js').AuditEvent} AuditEvent
 */

/** What a decision was about, in one line. @param {AuditEntry} entry */
function requestSummary(entry) {
  /** @type {Partial<import('../../lib/types.js').ActionRequest>} */
  const r = entry.request ?? {};
  /** @type {import('../../lib/types.js').Child[]} */
  const parts = [];
  if (entry.tool !== null && entry.tool !== undefined)
    parts.push(folded(entry.tool, { limit: 80, render: code, what: 'the tool' }));
  if (Array.isArray(r.actions)) parts.push(folded(r.actions.join(', '), { what: 'the actions' }));
  if (typeof r.command === 'string')
    parts.push(folded(r.command, { limit: 160, render: code, what: 'the command' }));
  const where = whereText(r);
  return h(
    'span',
    null,
    parts.map((p, i) => [i === 0 ? '' : ' · ', p]),
    where === '' ? null : h('span', { class: 'muted' }, ' (', folded(where, { limit: 120 }), ')'),
  );
}

/** The audit table's columns: their class (which sets their width) and heading. */
const COLUMNS = [
  ['when', 'When'],
  ['agent', 'Agent'],
  ['request', 'Request'],
  ['outcome', 'Outcome'],
  ['rule', 'Rule and scope'],
  ['why', 'Why'],
];

/** A cell of the column `key`, labelled for the narrow layout. @param {string} key @param {string} label @param {...import('../../lib/types.js').Child} content */
function cell(key, label, ...content) {
  return h('td', { class: `c-${key}`, dataset: { label } }, ...content);
}

/** The advisory rules a decision hit, as a list (null for none). @param {AuditEntry} entry */
function hitList(entry) {
  const hits = hitsOf(entry);
  if (hits.length === 0) return null;
  return h(
    'ul',
    { class: 'hits' },
    hits.map((a) =>
      h(
        'li',
        null,
        h('strong', null, 'advisory '),
        code(a.rule),
        ` on ${a.facet} would have decided `,
        badge(a.wouldBe),
      ),
    ),
  );
}

/** The facets of a decision, folded behind "Facets" (null when it has none). @param {AuditEntry} entry */
function facetList(entry) {
  const facets = entry.decision?.facets;
  if (!Array.isArray(facets)) return null;
  return h(
    'details',
    null,
    h('summary', null, 'Facets'),
    h(
      'ul',
      { class: 'list' },
      facets.map((f) =>
        h(
          'li',
          null,
          code(f.facet),
          ' ',
          f.decision === null ? 'no opinion' : badge(f.decision),
          f.rule === undefined ? '' : ` ${f.rule} (${f.scope})`,
        ),
      ),
    ),
  );
}

/** One decision as a row: advisory hits highlighted. @param {AuditEntry} e */
function decisionRow(e) {
  const d = e.decision ?? {};
  const hit = hitsOf(e).length > 0;
  return h(
    'tr',
    {
      class: hit ? 'advisory-hit' : undefined,
      dataset: { id: e.id, advisory: hit ? 'yes' : 'no' },
    },
    cell('when', 'When', time(e.occurredAt)),
    cell('agent', 'Agent', folded(e.agentId, { limit: 80, render: code, what: 'the agent' })),
    cell('request', 'Request', requestSummary(e)),
    cell(
      'outcome',
      'Outcome',
      badge(outcomeBadge(e)),
      outcomeNotes(e).map((n) => (n === null ? null : h('span', { class: 'muted' }, n))),
    ),
    cell(
      'rule',
      'Rule and scope',
      d.rule === undefined
        ? '—'
        : [
            folded(d.rule, { limit: 80, render: code, what: 'the rule id' }),
            h('span', { class: 'muted' }, ' ', folded(d.scope ?? '', { limit: 80 })),
          ],
    ),
    cell(
      'why',
      'Why',
      folded(whyText(e), { limit: 240, render: rich, what: 'the reason' }),
      hitList(e),
      facetList(e),
    ),
  );
}

/** The decisions, newest first, advisory hits highlighted. @param {readonly AuditEntry[]} decisions */
function decisionsTable(decisions) {
  if (decisions.length === 0) return h('p', { class: 'muted' }, 'No decision matches.');
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'audit' },
      h('caption', null, decisionsCaption(decisions)),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          COLUMNS.map(([key, t]) => h('th', { scope: 'col', class: `c-${key}` }, t)),
        ),
      ),
      h('tbody', null, decisions.map(decisionRow)),
    ),
  );
}

/** One advisory rule's row: what it would have decided, and a way to make it hard. @param {Advisories['rules'][number]} r @param {PermissionsEnv} env */
function advisoryRow(r, env) {
  const { rule, hardens } = advisoryRule(env.state.data?.rules ?? [], r.rule, env.canWrite);
  return h(
    'tr',
    { class: 'advisory-hit', dataset: { rule: r.rule } },
    h(
      'th',
      { scope: 'row' },
      code(r.rule),
      rule === undefined
        ? null
        : h(
            'p',
            { class: 'muted' },
            folded(rule.sentence, { limit: 300, render: rich, what: 'the rule' }),
          ),
    ),
    h('td', null, code(r.facet)),
    h('td', null, badge(r.wouldBe)),
    h('td', { class: 'count' }, String(r.count)),
    h('td', null, folded(r.agents.join(', '), { what: 'the agents' })),
    h('td', null, time(r.lastAt)),
    h(
      'td',
      null,
      hardens && rule !== undefined
        ? h(
            'button',
            {
              type: 'button',
              onclick: () => openEditor(env, { entry: rule, enforcement: 'hard' }),
            },
            `Make ${r.rule} hard…`,
          )
        : null,
    ),
  );
}

/**
 * What each advisory rule would have decided over the window, with a way to
 * make one hard where this role may write it.
 * @param {Advisories} answer @param {PermissionsEnv} env
 */
function advisoryView(answer, env) {
  return [
    h(
      'p',
      { class: 'muted' },
      `${answer.decisions} decision(s) since `,
      time(answer.since),
      answer.truncated ? ' (only the first 100 000 were read)' : '',
      '.',
    ),
    answer.rules.length === 0
      ? h('p', { class: 'muted' }, 'No advisory rule would have changed a decision in this window.')
      : h(
          'table',
          { class: 'advisories' },
          h('caption', null, 'What each advisory rule would have decided, had it been hard'),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Rule', 'Facet', 'Would have', 'Times', 'Agents', 'Last'].map((t) =>
                h('th', { scope: 'col' }, t),
              ),
              // The column of the "make it hard" buttons: named for a screen reader, not shown.
              h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Change')),
            ),
          ),
          h(
            'tbody',
            null,
            answer.rules.map((r) => advisoryRow(r, env)),
          ),
        ),
  ];
}

/**
 * The filters' inputs, built once from the first state: each reports its
 * change, so what the person types survives the draws.
 * @param {AuditState} state @param {(event: AuditEvent) => void} emit
 */
function filterInputs(state, emit) {
  /** @param {'agent' | 'since' | 'outcome' | 'limit' | 'advisorySince'} name @returns {(event: Event) => void} */
  const setting = (name) => (event) => emit({ type: 'filter', name, value: valueOf(event) });
  return {
    agent: h('input', {
      type: 'text',
      name: 'agent',
      autocomplete: 'off',
      spellcheck: 'false',
      value: state.agent,
      oninput: setting('agent'),
    }),
    since: select([['', 'any time'], ...SPANS], state.since, {
      name: 'since',
      onchange: setting('since'),
    }),
    outcome: select([...OUTCOMES], state.outcome, {
      name: 'outcome',
      onchange: setting('outcome'),
    }),
    advisory: h('input', {
      type: 'checkbox',
      name: 'advisory',
      id: 'audit-advisory',
      checked: state.advisoryOnly,
      onchange: (event) => emit({ type: 'advisory-only', on: checkedOf(event) }),
    }),
    limit: select([...LIMITS], state.limit, { name: 'limit', onchange: setting('limit') }),
    advSince: select([...SPANS], state.advisorySince, {
      name: 'advisory-since',
      onchange: setting('advisorySince'),
    }),
  };
}

/** A form that does `act` when submitted. @param {() => void} act */
function submits(act) {
  return (/** @type {Event} */ event) => {
    event.preventDefault();
    act();
  };
}

/**
 * The tab's two sections around the parts `mountAudit` draws into.
 * @param {ReturnType<typeof filterInputs>} inputs
 * @param {{ box: HTMLElement, list: HTMLElement, advBox: HTMLElement, advBody: HTMLElement }} parts
 * @param {{ load: () => void, loadAdvisories: () => void }} acts
 */
function auditSections(inputs, parts, acts) {
  return [
    section(
      'Permissions audit log',
      h(
        'form',
        { class: 'row filters', onsubmit: submits(acts.load) },
        field('Agent', inputs.agent),
        field('Since', inputs.since),
        field('Outcome', inputs.outcome),
        field('Show', inputs.limit),
        h(
          'div',
          { class: 'field' },
          h(
            'label',
            { for: inputs.advisory.id, class: 'inline' },
            inputs.advisory,
            ' advisory hits only',
          ),
        ),
        h('button', { type: 'submit', class: 'primary' }, 'Filter'),
      ),
      parts.box,
      parts.list,
    ),
    section(
      'What advisory rules would have blocked',
      h(
        'p',
        { class: 'muted' },
        'Advisory rules never change a decision; the audit log records what they would have decided. Run one advisory for a week, read this, then make it hard.',
      ),
      h(
        'form',
        { class: 'row filters', onsubmit: submits(acts.loadAdvisories) },
        field('Window', inputs.advSince),
        h('button', { type: 'submit' }, 'Show'),
      ),
      parts.advBox,
      parts.advBody,
    ),
  ];
}

/** The decisions as the state has them: being read, read, or none. @param {HTMLElement} list @param {AuditState} state */
function drawList(list, state) {
  if (state.loading) replace(list, h('p', { class: 'muted' }, 'Loading…'));
  else if (state.decisions === null) replace(list);
  else replace(list, decisionsTable(state.decisions));
}

/** @param {HTMLElement} advBody @param {AuditState} state @param {PermissionsEnv} env */
function drawAdvisories(advBody, state, env) {
  if (state.advisories === null) replace(advBody);
  else replace(advBody, advisoryView(state.advisories, env));
}

/** An error's words. @param {unknown} error */
function message(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @param {HTMLElement} panel @param {PermissionsEnv} env */
export function mountAudit(panel, env) {
  let state = auditState(env.workspace);
  const parts = {
    box: alertBox(),
    list: h('div', { 'aria-live': 'polite' }),
    advBox: alertBox(),
    advBody: h('div', { 'aria-live': 'polite' }),
  };

  /** @param {AuditEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    if (state.error !== prev.error) replace(parts.box, state.error);
    if (state.loading !== prev.loading || state.decisions !== prev.decisions)
      drawList(parts.list, state);
    if (state.advisoryError !== prev.advisoryError) replace(parts.advBox, state.advisoryError);
    // A read draws again even when it answers the same: the rules beside it may be new.
    if (event.type === 'advisories' || state.advisories !== prev.advisories)
      drawAdvisories(parts.advBody, state, env);
  };

  const load = async () => {
    dispatch({ type: 'loading' });
    try {
      const { decisions } = await api('GET', `/v1/permissions/audit${query(auditQuery(state))}`);
      dispatch({ type: 'read', decisions });
    } catch (error) {
      dispatch({ type: 'read-failed', message: message(error) });
    }
  };

  const loadAdvisories = async () => {
    dispatch({ type: 'advisories-loading' });
    try {
      /** @type {Advisories} */
      const answer = await api('GET', `/v1/permissions/advisories${query(advisoriesQuery(state))}`);
      dispatch({ type: 'advisories', answer });
    } catch (error) {
      dispatch({ type: 'advisories-failed', message: message(error) });
    }
  };

  const inputs = filterInputs(state, dispatch);
  replace(
    panel,
    ...auditSections(inputs, parts, {
      load: () => void load(),
      loadAdvisories: () => void loadAdvisories(),
    }),
  );
  void load();
  void loadAdvisories();
  return env.state.subscribe(() => void loadAdvisories());
}
