// The permissions audit log (G39): every decision with its request, facets,
// deciding rule and advisory hits, filterable by agent, time, outcome and
// "advisory hits only", with the hits highlighted. And the rollout view
// (G25): what each advisory rule would have decided over the last week, how
// often and for whom — then switch it to hard.

import { api, query } from '../../lib/api.js';
import { badge, checkedOf, code, h, replace, section, time, valueOf } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { openEditor } from './editor.js';
import { alertBox, clear, fail, field, rich, select } from './ui.js';

/**
 * @typedef {import('../../lib/types.js').DecisionEntry} AuditEntry
 * @typedef {import('../../lib/types.js').Advisories} Advisories
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 */

/** @type {[string, string][]} */
const SPANS = [
  ['1h', 'the last hour'],
  ['24h', 'the last 24 hours'],
  ['7d', 'the last 7 days'],
  ['30d', 'the last 30 days'],
];

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
  const where = [
    r.space === undefined ? null : `space ${r.space}`,
    r.mode === undefined ? null : `mode ${r.mode}`,
  ]
    .filter(Boolean)
    .join(', ');
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

/** The decisions, newest first, advisory hits highlighted. @param {readonly AuditEntry[]} decisions */
function decisionsTable(decisions) {
  if (decisions.length === 0) return h('p', { class: 'muted' }, 'No decision matches.');
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'audit' },
      h(
        'caption',
        null,
        `${decisions.length} decision(s), newest first; advisory hits are highlighted`,
      ),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          COLUMNS.map(([key, t]) => h('th', { scope: 'col', class: `c-${key}` }, t)),
        ),
      ),
      h(
        'tbody',
        null,
        decisions.map((e) => {
          const d = e.decision ?? {};
          const hits = Array.isArray(d.advisories) ? d.advisories : [];
          return h(
            'tr',
            {
              class: hits.length > 0 ? 'advisory-hit' : undefined,
              dataset: { id: e.id, advisory: hits.length > 0 ? 'yes' : 'no' },
            },
            h('td', { class: 'c-when', dataset: { label: 'When' } }, time(e.occurredAt)),
            h(
              'td',
              { class: 'c-agent', dataset: { label: 'Agent' } },
              folded(e.agentId, { limit: 80, render: code, what: 'the agent' }),
            ),
            h('td', { class: 'c-request', dataset: { label: 'Request' } }, requestSummary(e)),
            h(
              'td',
              { class: 'c-outcome', dataset: { label: 'Outcome' } },
              badge(e.outcome === 'ask' ? 'prompt' : e.outcome),
              e.override ? h('span', { class: 'muted' }, ` overridden by ${e.override.by}`) : null,
              e.approval
                ? h(
                    'span',
                    { class: 'muted' },
                    ` ${e.approval.answer ?? e.approval.state} by ${e.approval.by ?? '—'}`,
                  )
                : null,
            ),
            h(
              'td',
              { class: 'c-rule', dataset: { label: 'Rule and scope' } },
              d.rule === undefined
                ? '—'
                : [
                    folded(d.rule, { limit: 80, render: code, what: 'the rule id' }),
                    h('span', { class: 'muted' }, ' ', folded(d.scope ?? '', { limit: 80 })),
                  ],
            ),
            h(
              'td',
              { class: 'c-why', dataset: { label: 'Why' } },
              folded(d.reason ?? (e.failure === undefined ? '' : JSON.stringify(e.failure)), {
                limit: 240,
                render: rich,
                what: 'the reason',
              }),
              hits.length === 0
                ? null
                : h(
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
                  ),
              Array.isArray(d.facets)
                ? h(
                    'details',
                    null,
                    h('summary', null, 'Facets'),
                    h(
                      'ul',
                      { class: 'list' },
                      d.facets.map((f) =>
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
                  )
                : null,
            ),
          );
        }),
      ),
    ),
  );
}

/**
 * What each advisory rule would have decided over the window, with a way to
 * make one hard where this role may write it.
 * @param {Advisories} answer @param {PermissionsEnv} env
 */
function advisoryView(answer, env) {
  const rules = env.state.data?.rules ?? [];
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
            answer.rules.map((r) => {
              const rule = rules.find((x) => x.id === r.rule && x.layer === 'workspace');
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
                  env.canWrite &&
                    rule !== undefined &&
                    rule.path !== null &&
                    rule.enforcement === 'advisory'
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
            }),
          ),
        ),
  ];
}

/**
 * The filters as the inputs last set them (each input's handler writes its
 * own), and the window of the advisory view: the loads read only these.
 * @typedef {{
 *   agent: string,
 *   since: string,
 *   outcome: string,
 *   advisoryOnly: boolean,
 *   limit: string,
 *   advisorySince: string,
 * }} AuditState
 */

/** @param {HTMLElement} panel @param {PermissionsEnv} env */
export function mountAudit(panel, env) {
  /** @type {AuditState} */
  const state = {
    agent: '',
    since: '7d',
    outcome: '',
    advisoryOnly: false,
    limit: '100',
    advisorySince: '7d',
  };

  const box = alertBox();
  const list = h('div', { 'aria-live': 'polite' });
  const advBox = alertBox();
  const advBody = h('div', { 'aria-live': 'polite' });

  const load = async () => {
    clear(box);
    replace(list, h('p', { class: 'muted' }, 'Loading…'));
    try {
      const { decisions } = await api(
        'GET',
        `/v1/permissions/audit${query({
          workspace: env.workspace,
          agent: state.agent.trim(),
          since: state.since,
          outcome: state.outcome,
          advisory: state.advisoryOnly ? '1' : '',
          limit: state.limit,
        })}`,
      );
      replace(list, decisionsTable(decisions));
    } catch (error) {
      replace(list);
      fail(box, 'Cannot read the permissions audit', error);
    }
  };

  const loadAdvisories = async () => {
    clear(advBox);
    try {
      /** @type {Advisories} */
      const answer = await api(
        'GET',
        `/v1/permissions/advisories${query({ workspace: env.workspace, since: state.advisorySince })}`,
      );
      replace(advBody, advisoryView(answer, env));
    } catch (error) {
      replace(advBody);
      fail(advBox, 'Cannot read what the advisory rules would have done', error);
    }
  };

  // The inputs: each writes its own part of `state`.
  const agent = h('input', {
    type: 'text',
    name: 'agent',
    autocomplete: 'off',
    spellcheck: 'false',
    value: state.agent,
    oninput: (event) => {
      state.agent = valueOf(event);
    },
  });
  const since = select([['', 'any time'], ...SPANS], state.since, {
    name: 'since',
    onchange: (/** @type {Event} */ event) => {
      state.since = valueOf(event);
    },
  });
  const outcome = select(
    [
      ['', 'any outcome'],
      ['allow', 'allowed'],
      ['ask', 'asked a human'],
      ['deny', 'denied'],
    ],
    state.outcome,
    {
      name: 'outcome',
      onchange: (/** @type {Event} */ event) => {
        state.outcome = valueOf(event);
      },
    },
  );
  const advisory = h('input', {
    type: 'checkbox',
    name: 'advisory',
    id: 'audit-advisory',
    checked: state.advisoryOnly,
    onchange: (event) => {
      state.advisoryOnly = checkedOf(event);
    },
  });
  const limit = select(
    [
      ['50', '50'],
      ['100', '100'],
      ['500', '500'],
    ],
    state.limit,
    {
      name: 'limit',
      onchange: (/** @type {Event} */ event) => {
        state.limit = valueOf(event);
      },
    },
  );
  const advSince = select(SPANS, state.advisorySince, {
    name: 'advisory-since',
    onchange: (/** @type {Event} */ event) => {
      state.advisorySince = valueOf(event);
    },
  });

  replace(
    panel,
    section(
      'Permissions audit log',
      h(
        'form',
        {
          class: 'row filters',
          onsubmit: (event) => {
            event.preventDefault();
            void load();
          },
        },
        field('Agent', agent),
        field('Since', since),
        field('Outcome', outcome),
        field('Show', limit),
        h(
          'div',
          { class: 'field' },
          h('label', { for: advisory.id, class: 'inline' }, advisory, ' advisory hits only'),
        ),
        h('button', { type: 'submit', class: 'primary' }, 'Filter'),
      ),
      box,
      list,
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
        {
          class: 'row filters',
          onsubmit: (event) => {
            event.preventDefault();
            void loadAdvisories();
          },
        },
        field('Window', advSince),
        h('button', { type: 'submit' }, 'Show'),
      ),
      advBox,
      advBody,
    ),
  );
  void load();
  void loadAdvisories();
  return env.state.subscribe(() => void loadAdvisories());
}
