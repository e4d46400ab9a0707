// The what-if check (G38): an agent, a space and a mode, and an action — its
// classes, a command line, or both — with the arguments a tool would report.
// The server answers with the engine decisions use, on the policy decisions
// read now, so by G3 this is the answer the agent would get: the decision,
// the deciding rule per facet and the condition that applied.

import { api } from '../../lib/api.js';
import { badge, checkedOf, code, h, replace, valueOf } from '../../lib/dom.js';
import {
  alertBox,
  clear,
  fail,
  field,
  lines,
  rich,
  scopeName,
  select,
  uid,
  wholeNumber,
} from './ui.js';

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
        ? h('span', { class: 'muted' }, ' (no approver is connected: a prompt is denied)')
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
    facetTable(result.facets, 'Each facet, resolved on its own through the scope chain'),
    result.managed === null || result.managed.length === 0
      ? null
      : facetTable(result.managed, 'The managed layer’s own results'),
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

/**
 * The form as its inputs last set it: each input's handler writes its own
 * field, and the request is built from this alone.
 * @typedef {{
 *   agent: string,
 *   space: string,
 *   mode: string,
 *   tool: string,
 *   classes: readonly string[],
 *   ticked: Set<string>,
 *   command: string,
 *   paths: string,
 *   refs: string,
 *   hosts: string,
 *   count: string,
 *   cents: string,
 *   worktree: string,
 *   approver: string,
 * }} WhatIfForm
 */

/**
 * The request the form describes, or what is missing or wrong in it.
 * @param {WhatIfForm} form @param {string} workspace
 * @returns {{ ok: true, request: WhatIfRequest } | { ok: false, message: string }}
 */
function requestOf(form, workspace) {
  /** @type {WhatIfRequest} */
  const r = { workspace, agent: form.agent.trim() };
  if (r.agent === '') return { ok: false, message: 'agent: say which agent asks' };
  if (form.space !== '') r.space = form.space;
  if (form.mode !== '') r.mode = form.mode;
  if (form.tool.trim() !== '') r.tool = form.tool.trim();
  const actions = form.classes.filter((c) => form.ticked.has(c));
  if (actions.length > 0) r.actions = actions;
  if (form.command.trim() !== '') r.command = form.command;
  if (r.actions === undefined && r.command === undefined)
    return { ok: false, message: 'pick at least one action class, or give a command line' };
  if (form.worktree.trim() !== '') r.worktree = form.worktree.trim();
  /** @type {Record<string, string[] | number>} */
  const args = {};
  for (const key of /** @type {const} */ (['paths', 'refs', 'hosts'])) {
    const values = lines(form[key]);
    if (values.length > 0) args[key] = values;
  }
  for (const key of /** @type {const} */ (['count', 'cents'])) {
    if (form[key].trim() === '') continue;
    const n = Number(form[key]);
    if (!Number.isInteger(n) || n < 0)
      return { ok: false, message: `${key}: a whole number, 0 or more` };
    args[key] = n;
  }
  if (Object.keys(args).length > 0) r.args = args;
  return { ok: true, request: r };
}

/** @param {HTMLElement} panel @param {import('../../lib/types.js').PermissionsEnv} env */
export function mountWhatIf(panel, env) {
  /** @type {WhatIfForm} */
  const form = {
    agent: '',
    space: '',
    mode: '',
    tool: '',
    classes: [],
    ticked: new Set(),
    command: '',
    paths: '',
    refs: '',
    hosts: '',
    count: '',
    cents: '',
    worktree: '',
    approver: '',
  };

  const box = alertBox();
  const result = h('div', { 'aria-live': 'polite' });
  const requestJson = h('pre', { class: 'json' });

  // The inputs: each writes its own field of `form`.
  /**
   * A handler that writes the control's value into one field of `form`.
   * @param {'agent' | 'space' | 'mode' | 'tool' | 'command' | 'paths' | 'refs' | 'hosts' | 'count' | 'cents' | 'worktree' | 'approver'} key
   */
  const writes = (key) => (/** @type {Event} */ event) => {
    form[key] = valueOf(event);
  };
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
    oninput: writes('agent'),
  });
  const space = h('select', { name: 'space', onchange: writes('space') });
  const mode = h('select', { name: 'mode', onchange: writes('mode') });
  const tool = h('input', {
    type: 'text',
    name: 'tool',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'optional',
    oninput: writes('tool'),
  });
  const classBoxes = h('div', { class: 'checks' });
  const command = h('input', {
    type: 'text',
    name: 'command',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'git push origin main',
    oninput: writes('command'),
  });
  /** @param {'paths' | 'refs' | 'hosts'} name */
  const argArea = (name) =>
    h('textarea', { name, rows: '2', spellcheck: 'false', oninput: writes(name) });
  const paths = argArea('paths');
  const refs = argArea('refs');
  const hosts = argArea('hosts');
  /** @param {'count' | 'cents'} name */
  const number = (name) => wholeNumber(name, { oninput: writes(name) });
  const count = number('count');
  const cents = number('cents');
  const worktree = h('input', {
    type: 'text',
    name: 'worktree',
    spellcheck: 'false',
    placeholder: '/srv/agents/api',
    oninput: writes('worktree'),
  });
  const approver = select(
    [
      ['', 'as now: whether an approver is connected'],
      ['connected', 'an approver is connected'],
      ['none', 'no approver is connected'],
    ],
    form.approver,
    { name: 'approver', onchange: writes('approver') },
  );

  // Drawing what the policy offers: agents to pick, spaces, modes, classes.
  /** @param {readonly string[]} agents */
  const showAgents = (agents) => {
    replace(
      agentList,
      agents.map((id) => h('option', { value: id })),
    );
    agent.value = form.agent;
  };
  /** @param {HTMLSelectElement} el @param {readonly string[]} options @param {string} value */
  const showChoices = (el, options, value) => {
    replace(
      el,
      h('option', { value: '' }, '(none)'),
      options.map((id) => h('option', { value: id }, id)),
    );
    el.value = value;
  };
  /** What each class covers, shown on hover. @type {Map<string, string>} */
  const covers = new Map();
  const showClasses = () =>
    replace(
      classBoxes,
      form.classes.map((c) =>
        h(
          'label',
          { class: 'inline check', title: covers.get(c) },
          h('input', {
            type: 'checkbox',
            name: 'actions',
            value: c,
            checked: form.ticked.has(c),
            onchange: (event) => {
              if (checkedOf(event)) form.ticked.add(c);
              else form.ticked.delete(c);
            },
          }),
          ` ${c}`,
        ),
      ),
    );

  /** @param {import('../../lib/types.js').PermissionsMatrix | null} data */
  const fill = (data) => {
    if (data === null) return;
    const agents = data.columns.flatMap((c) => (c.kind === 'agent' && c.id !== null ? [c.id] : []));
    const spaces = data.columns.flatMap((c) => (c.kind === 'space' && c.id !== null ? [c.id] : []));
    if (form.agent === '' && agents[0] !== undefined) form.agent = agents[0];
    if (!spaces.includes(form.space)) form.space = '';
    if (!data.modes.includes(form.mode)) form.mode = '';
    showAgents(agents);
    showChoices(space, spaces, form.space);
    showChoices(mode, data.modes, form.mode);
    if (form.classes.length === 0) {
      form.classes = data.classes.map((c) => c.class);
      for (const c of data.classes) covers.set(c.class, c.covers);
      showClasses();
    }
  };

  /** @param {SubmitEvent} event */
  const check = async (event) => {
    event.preventDefault();
    clear(box);
    const built = requestOf(form, env.workspace);
    if (!built.ok) {
      fail(box, 'Cannot check', built.message);
      return;
    }
    /** @type {{ request: WhatIfRequest, approver?: string }} */
    const body = { request: built.request };
    if (form.approver !== '') body.approver = form.approver;
    requestJson.textContent = JSON.stringify(body.request, null, 2);
    try {
      const answer = await api('POST', '/v1/what-if', body);
      replace(result, h('h3', null, 'Answer'), decisionView(answer));
    } catch (error) {
      replace(result);
      fail(box, 'The what-if check failed', error);
    }
  };

  const formEl = h(
    'form',
    { class: 'whatif', novalidate: true, onsubmit: check },
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
        field('Approver', approver, 'A prompt with no connected approver is denied.'),
      ),
      h(
        'fieldset',
        null,
        h('legend', null, 'What it would do'),
        h('fieldset', { class: 'choices' }, h('legend', null, 'Action classes'), classBoxes),
        field(
          'Command line',
          command,
          'Parsed as shell and classified: `git push origin main` is gitPush to ref main.',
        ),
        h(
          'details',
          { open: true },
          h('summary', null, 'Arguments the tool reports (absent: it does not say)'),
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
      'The answer comes from the same engine and the same policy decisions read now: it is what this agent would get.',
    ),
    formEl,
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
