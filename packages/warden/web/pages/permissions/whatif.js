// The what-if check (G38): an agent, a space and a mode, and an action — its
// classes, a command line, or both — with the arguments a tool would report.
// The server answers with the engine decisions use, on the policy decisions
// read now, so by G3 this is the answer the agent would get: the decision,
// the deciding rule per facet and the condition that applied.

import { api } from '../../lib/api.js';
import { badge, code, h, replace } from '../../lib/dom.js';
import { alertBox, clear, fail, field, lines, rich, scopeName, select, uid } from './ui.js';

/**
 * A request as the what-if form builds it (`POST /v1/what-if`'s `request`).
 * @typedef {{ workspace: string, agent: string, space?: string, mode?: string, tool?: string, actions?: string[], command?: string, worktree?: string, args?: Record<string, string[] | number> }} WhatIfRequest
 */

/** `POST /v1/what-if`'s answer. @param {import('../../lib/types.js').DecisionResult} result */
export function decisionView(result) {
  /** @param {readonly import('../../lib/types.js').FacetEntry[]} facets @param {string} caption */
  const facetTable = (facets, caption) =>
    h(
      'table',
      { class: 'facets' },
      h('caption', null, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Facet', 'Decision', 'Rule', 'Scope', 'Because'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        null,
        facets.map((f) =>
          h(
            'tr',
            {
              dataset: {
                facet: f.facet,
                decision: f.decision ?? 'none',
                rule: f.rule ?? '',
                scope: f.scope ?? '',
              },
            },
            h('th', { scope: 'row' }, code(f.facet)),
            h(
              'td',
              { class: 'facet-decision' },
              f.decision === null ? h('span', { class: 'muted' }, 'no opinion') : badge(f.decision),
            ),
            h('td', { class: 'facet-rule' }, f.rule === undefined ? '—' : code(f.rule)),
            h('td', { class: 'facet-scope' }, f.scope === undefined ? '—' : f.scope),
            h('td', null, rich(f.because ?? '')),
          ),
        ),
      ),
    );
  return h(
    'div',
    { class: 'whatif-result' },
    h(
      'p',
      { class: 'verdict' },
      'Decision ',
      h(
        'span',
        { class: 'result-decision', dataset: { decision: result.decision } },
        badge(result.decision),
      ),
      ' · the agent gets ',
      h(
        'strong',
        { class: 'result-outcome', dataset: { outcome: result.outcome } },
        result.outcome,
      ),
      result.outcome === 'deny' && result.decision === 'prompt'
        ? h('span', { class: 'muted' }, ' (no approver is connected: a prompt is denied, G22)')
        : null,
    ),
    h('p', { class: 'reason' }, rich(result.reason)),
    h(
      'dl',
      { class: 'kv' },
      h('dt', null, 'Deciding rule'),
      h('dd', { class: 'result-rule', dataset: { rule: result.rule } }, code(result.rule)),
      h('dt', null, 'Its scope'),
      h(
        'dd',
        { class: 'result-scope', dataset: { scope: result.scope } },
        result.scope,
        h('span', { class: 'muted' }, ` (${scopeName(result.scope)})`),
      ),
      result.enforcement === null
        ? null
        : [h('dt', null, 'Enforcement'), h('dd', null, result.enforcement)],
      h('dt', null, 'Overridable'),
      h(
        'dd',
        null,
        result.overridable ? 'yes: an overrider may lift this soft deny, with a reason' : 'no',
      ),
      result.prompts.length === 0
        ? null
        : [
            h('dt', null, 'Asks about'),
            h(
              'dd',
              null,
              result.prompts.map((p, i) => [i === 0 ? '' : ', ', code(p)]),
            ),
          ],
      h('dt', null, 'Managed layer'),
      h('dd', null, result.managedSource ?? 'none'),
    ),
    facetTable(result.facets, 'Each facet, resolved on its own through the scope chain (G21)'),
    result.managed === null || result.managed.length === 0
      ? null
      : facetTable(result.managed, 'The managed layer’s own results (G28)'),
    result.advisories.length === 0
      ? null
      : h(
          'div',
          { class: 'advisory-hit' },
          h('h3', null, 'Advisory rules that would have changed this'),
          h(
            'ul',
            { class: 'list' },
            result.advisories.map((a) =>
              h('li', null, code(a.rule), ` on ${a.facet} would have decided `, badge(a.wouldBe)),
            ),
          ),
        ),
    h(
      'details',
      null,
      h('summary', null, 'The decision as JSON'),
      h('pre', { class: 'json' }, JSON.stringify(result, null, 2)),
    ),
  );
}

/** @param {HTMLElement} panel @param {import('../../lib/types.js').PermissionsEnv} env */
export function mountWhatIf(panel, env) {
  const box = alertBox();
  const result = h('div', { 'aria-live': 'polite' });
  const listId = uid('agents');
  const agentList = h('datalist', { id: listId });
  const agent = h('input', {
    type: 'text',
    name: 'agent',
    list: listId,
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'coder-1',
  });
  const space = h('select', { name: 'space' });
  const mode = h('select', { name: 'mode' });
  const tool = h('input', {
    type: 'text',
    name: 'tool',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'optional',
  });
  const classBoxes = h('div', { class: 'checks' });
  const command = h('input', {
    type: 'text',
    name: 'command',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'git push origin main',
  });
  /** @param {string} name */
  const argArea = (name) => h('textarea', { name, rows: '2', spellcheck: 'false' });
  const paths = argArea('paths');
  const refs = argArea('refs');
  const hosts = argArea('hosts');
  /** @param {string} name */
  const number = (name) =>
    h('input', { type: 'number', name, min: '0', step: '1', inputmode: 'numeric' });
  const count = number('count');
  const cents = number('cents');
  const worktree = h('input', {
    type: 'text',
    name: 'worktree',
    spellcheck: 'false',
    placeholder: '/srv/agents/api',
  });
  const approver = select(
    [
      ['', 'as now: whether an approver is connected'],
      ['connected', 'an approver is connected'],
      ['none', 'no approver is connected'],
    ],
    '',
    { name: 'approver' },
  );
  const requestJson = h('pre', { class: 'json' });

  /** @param {import('../../lib/types.js').PermissionsMatrix | null} data */
  const fill = (data) => {
    if (data === null) return;
    const agents = data.columns.flatMap((c) => (c.kind === 'agent' && c.id !== null ? [c.id] : []));
    replace(
      agentList,
      agents.map((id) => h('option', { value: id })),
    );
    const first = agents[0];
    if (agent.value === '' && first !== undefined) agent.value = first;
    /** @param {HTMLSelectElement} el @param {readonly string[]} options */
    const keep = (el, options) => {
      const was = el.value;
      replace(
        el,
        h('option', { value: '' }, '(none)'),
        options.map((id) => h('option', { value: id }, id)),
      );
      el.value = options.includes(was) ? was : '';
    };
    keep(
      space,
      data.columns.flatMap((c) => (c.kind === 'space' && c.id !== null ? [c.id] : [])),
    );
    keep(mode, data.modes);
    if (classBoxes.childElementCount === 0)
      replace(
        classBoxes,
        data.classes.map((c) =>
          h(
            'label',
            { class: 'inline check', title: c.covers },
            h('input', { type: 'checkbox', name: 'actions', value: c.class }),
            ` ${c.class}`,
          ),
        ),
      );
  };

  const request = () => {
    /** @type {WhatIfRequest} */
    const r = { workspace: env.workspace, agent: agent.value.trim() };
    if (r.agent === '') throw new Error('agent: say which agent asks');
    if (space.value !== '') r.space = space.value;
    if (mode.value !== '') r.mode = mode.value;
    if (tool.value.trim() !== '') r.tool = tool.value.trim();
    const actions = [...classBoxes.querySelectorAll('input:checked')].map(
      (i) => /** @type {HTMLInputElement} */ (i).value,
    );
    if (actions.length > 0) r.actions = actions;
    if (command.value.trim() !== '') r.command = command.value;
    if (r.actions === undefined && r.command === undefined)
      throw new Error('pick at least one action class, or give a command line');
    if (worktree.value.trim() !== '') r.worktree = worktree.value.trim();
    /** @type {Record<string, string[] | number>} */
    const args = {};
    /** @type {[string, HTMLTextAreaElement][]} */
    const areas = [
      ['paths', paths],
      ['refs', refs],
      ['hosts', hosts],
    ];
    for (const [key, el] of areas) {
      const values = lines(el.value);
      if (values.length > 0) args[key] = values;
    }
    /** @type {[string, HTMLInputElement][]} */
    const numbers = [
      ['count', count],
      ['cents', cents],
    ];
    for (const [key, el] of numbers) {
      if (el.value.trim() === '') continue;
      const n = Number(el.value);
      if (!Number.isInteger(n) || n < 0) throw new Error(`${key}: a whole number, 0 or more`);
      args[key] = n;
    }
    if (Object.keys(args).length > 0) r.args = args;
    return r;
  };

  const form = h(
    'form',
    {
      class: 'whatif',
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        clear(box);
        /** @type {{ request: WhatIfRequest, approver?: string }} */
        let body;
        try {
          body = { request: request() };
          if (approver.value !== '') body.approver = approver.value;
        } catch (error) {
          fail(box, 'Cannot check', error);
          return;
        }
        requestJson.textContent = JSON.stringify(body.request, null, 2);
        try {
          const answer = await api('POST', '/v1/what-if', body);
          replace(result, h('h3', null, 'Answer'), decisionView(answer));
        } catch (error) {
          replace(result);
          fail(box, 'The what-if check failed', error);
        }
      },
    },
    h(
      'div',
      { class: 'grid2' },
      h(
        'fieldset',
        null,
        h('legend', null, 'Who asks'),
        field(
          'Agent',
          agent,
          'Any agent id: one with no rules of its own gets what the wider scopes give.',
        ),
        agentList,
        field('Space', space),
        field('Mode', mode),
        field('Tool name', tool),
        field('Approver', approver, 'A prompt with no connected approver is denied (G22).'),
      ),
      h(
        'fieldset',
        null,
        h('legend', null, 'What it would do'),
        h('fieldset', { class: 'choices' }, h('legend', null, 'Action classes'), classBoxes),
        field(
          'Command line',
          command,
          'Parsed as shell and classified (G14b, G14c): `git push origin main` is gitPush to ref main.',
        ),
        h(
          'details',
          { open: true },
          h('summary', null, 'Arguments the tool reports (absent: it does not say, G18)'),
          field('Paths (one per line)', paths),
          field('Git refs (one per line)', refs),
          field('Hosts (one per line)', hosts),
          h('div', { class: 'row' }, field('Count', count), field('Cents', cents)),
          field('Worktree (absolute)', worktree),
        ),
      ),
    ),
    h('p', null, h('button', { type: 'submit', class: 'primary' }, 'Check')),
  );

  replace(
    panel,
    h(
      'p',
      { class: 'muted' },
      'The answer comes from the same engine and the same policy decisions read now (G3): it is what this agent would get.',
    ),
    form,
    box,
    result,
    h(
      'details',
      null,
      h('summary', null, 'The request as JSON (for ', code('warden explain --request'), ')'),
      requestJson,
    ),
  );
  fill(env.state.data);
  return env.state.subscribe((data) => fill(data));
}
