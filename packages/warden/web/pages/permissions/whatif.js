// The what-if check (G38): an agent, a space and a mode, and an action — its
// classes, a command line, or both — with the arguments a tool would report.
// The server answers with the engine decisions use, on the policy decisions
// read now, so by G3 this is the answer the agent would get: the decision,
// the deciding rule per facet and the condition that applied.
//
// What the check holds is its state (`whatif-state.js`): pure, tested in
// Node. `mountWhatIf` is the wiring: it builds the form once (what is typed
// stays typed), feeds the state the page's reads, the person's input and the
// engine's answers, sends the check the state asks for, and draws each new
// state into the parts that show it.

import { api } from '../../lib/api.js';
import { badge, checkedOf, code, h, replace, valueOf } from '../../lib/dom.js';
import {
  APPROVERS,
  failureText,
  promptDenied,
  reduce,
  requestJson,
  whatIfState,
} from './whatif-state.js';
import { alertBox, field, rich, scopeName, select, uid, wholeNumber } from './ui.js';

/**
 * @typedef {import('../../lib/types.js').DecisionResult} DecisionResult
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 * @typedef {import('./whatif-state.js').WhatIfState} WhatIfState
 * @typedef {import('./whatif-state.js').WhatIfEvent} WhatIfEvent
 * @typedef {import('./whatif-state.js').WhatIfKey} WhatIfKey
 * @typedef {(event: WhatIfEvent) => void} Emit
 */

/** A table of facets, each with its decision, rule, scope and reason. @param {readonly import('../../lib/types.js').FacetEntry[]} facets @param {string} caption */
function facetTable(facets, caption) {
  return h(
    'table',
    { class: 'facets' },
    h('caption', null, caption),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['Facet', 'Decision', 'Rule', 'Scope', 'Because'].map((t) => h('th', { scope: 'col' }, t)),
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
}

/** The answer's first line: the decision and what the agent gets. @param {DecisionResult} result */
function verdict(result) {
  return h(
    'p',
    { class: 'verdict' },
    'Decision ',
    h(
      'span',
      { class: 'result-decision', dataset: { decision: result.decision } },
      badge(result.decision),
    ),
    ' · the agent gets ',
    h('strong', { class: 'result-outcome', dataset: { outcome: result.outcome } }, result.outcome),
    promptDenied(result)
      ? h('span', { class: 'muted' }, ' (no approver is connected: a prompt is denied)')
      : null,
  );
}

/** The deciding rule, its scope and what else the answer says of it. @param {DecisionResult} result */
function facts(result) {
  return h(
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
  );
}

/** The advisory rules that would have decided otherwise, if any. @param {DecisionResult} result */
function advisories(result) {
  if (result.advisories.length === 0) return null;
  return h(
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
  );
}

/** `POST /v1/what-if`'s answer. @param {DecisionResult} result */
export function decisionView(result) {
  return h(
    'div',
    { class: 'whatif-result' },
    verdict(result),
    h('p', { class: 'reason' }, rich(result.reason)),
    facts(result),
    facetTable(result.facets, 'Each facet, resolved on its own through the scope chain'),
    result.managed === null || result.managed.length === 0
      ? null
      : facetTable(result.managed, 'The managed layer’s own results'),
    advisories(result),
    h(
      'details',
      null,
      h('summary', null, 'The decision as JSON'),
      h('pre', { class: 'json' }, JSON.stringify(result, null, 2)),
    ),
  );
}

/**
 * The parts of the tab a new state redraws; the inputs are built once.
 * @typedef {{
 *   agent: HTMLInputElement,
 *   agentList: HTMLElement,
 *   space: HTMLSelectElement,
 *   mode: HTMLSelectElement,
 *   classBoxes: HTMLElement,
 *   box: HTMLElement,
 *   result: HTMLElement,
 *   requestJson: HTMLElement,
 * }} Parts
 */

/** A handler that sends the control's value as one field of the form. @param {Emit} emit @param {WhatIfKey} key */
function writes(emit, key) {
  return (/** @type {Event} */ event) => emit({ type: 'text', key, value: valueOf(event) });
}

/** A one-line text input of the form. @param {Emit} emit @param {WhatIfKey} key @param {Record<string, unknown>} attrs */
function textInput(emit, key, attrs) {
  return h('input', {
    type: 'text',
    name: key,
    autocomplete: 'off',
    spellcheck: 'false',
    ...attrs,
    oninput: writes(emit, key),
  });
}

/** Who asks: the agent, its space and mode, the tool, the approver. @param {Emit} emit @param {string} listId */
function whoFields(emit, listId) {
  const agent = textInput(emit, 'agent', { list: listId, required: true, placeholder: 'coder-1' });
  const agentList = h('datalist', { id: listId });
  const space = h('select', { name: 'space', onchange: writes(emit, 'space') });
  const mode = h('select', { name: 'mode', onchange: writes(emit, 'mode') });
  const fieldset = h(
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
    field('Tool name', textInput(emit, 'tool', { placeholder: 'optional' })),
    field(
      'Approver',
      select([...APPROVERS], '', { name: 'approver', onchange: writes(emit, 'approver') }),
      'A prompt with no connected approver is denied.',
    ),
  );
  return { fieldset, agent, agentList, space, mode };
}

/** What the agent would do: the classes, a command line, the arguments a tool reports. @param {Emit} emit */
function actionFields(emit) {
  const classBoxes = h('div', { class: 'checks' });
  /** @param {'paths' | 'refs' | 'hosts'} name */
  const argArea = (name) =>
    h('textarea', { name, rows: '2', spellcheck: 'false', oninput: writes(emit, name) });
  /** @param {'count' | 'cents'} name */
  const number = (name) => wholeNumber(name, { oninput: writes(emit, name) });
  const worktree = h('input', {
    type: 'text',
    name: 'worktree',
    spellcheck: 'false',
    placeholder: '/srv/agents/api',
    oninput: writes(emit, 'worktree'),
  });
  const fieldset = h(
    'fieldset',
    null,
    h('legend', null, 'What it would do'),
    h('fieldset', { class: 'choices' }, h('legend', null, 'Action classes'), classBoxes),
    field(
      'Command line',
      textInput(emit, 'command', { placeholder: 'git push origin main' }),
      'Parsed as shell and classified: `git push origin main` is gitPush to ref main.',
    ),
    h(
      'details',
      { open: true },
      h('summary', null, 'Arguments the tool reports (absent: it does not say)'),
      field('Paths (one per line)', argArea('paths')),
      field('Git refs (one per line)', argArea('refs')),
      field('Hosts (one per line)', argArea('hosts')),
      h('div', { class: 'row' }, field('Count', number('count')), field('Cents', number('cents'))),
      field('Worktree (absolute)', worktree),
    ),
  );
  return { fieldset, classBoxes };
}

/** The class checkboxes, each titled with what it covers. @param {Emit} emit @param {WhatIfState} state */
function classChecks(emit, state) {
  return (state.offered?.classes ?? []).map(([c, covers]) =>
    h(
      'label',
      { class: 'inline check', title: covers },
      h('input', {
        type: 'checkbox',
        name: 'actions',
        value: c,
        checked: state.form.ticked.includes(c),
        onchange: (event) => emit({ type: 'tick', cls: c, on: checkedOf(event) }),
      }),
      ` ${c}`,
    ),
  );
}

/** A select's options: none, then `options`; and its value. @param {HTMLSelectElement} el @param {readonly string[]} options @param {string} value */
function drawChoices(el, options, value) {
  replace(
    el,
    h('option', { value: '' }, '(none)'),
    options.map((id) => h('option', { value: id }, id)),
  );
  el.value = value;
}

/** What the policy offers to pick: agents, spaces, modes, classes. @param {Parts} parts @param {WhatIfState | null} prev @param {WhatIfState} state @param {Emit} emit */
function drawOffered(parts, prev, state, emit) {
  const offered = state.offered;
  if (offered === null || prev?.offered === offered) return;
  replace(
    parts.agentList,
    offered.agents.map((id) => h('option', { value: id })),
  );
  drawChoices(parts.space, offered.spaces, state.form.space);
  drawChoices(parts.mode, offered.modes, state.form.mode);
  if (prev?.offered?.classes !== offered.classes)
    replace(parts.classBoxes, classChecks(emit, state));
}

/**
 * Draws what changed from `prev` to `state`; each part only when its state did.
 * @param {Parts} parts @param {WhatIfState | null} prev @param {WhatIfState} state @param {Emit} emit
 */
function drawWhatIf(parts, prev, state, emit) {
  drawOffered(parts, prev, state, emit);
  // The form's own values, where the state set them (a read proposes an agent, drops a space).
  if (parts.agent.value !== state.form.agent) parts.agent.value = state.form.agent;
  if (parts.space.value !== state.form.space) parts.space.value = state.form.space;
  if (parts.mode.value !== state.form.mode) parts.mode.value = state.form.mode;
  if (prev === null || prev.failed !== state.failed) replace(parts.box, failureText(state));
  if (prev === null || prev.request !== state.request)
    parts.requestJson.textContent = requestJson(state);
  if (prev === null || prev.answer !== state.answer) {
    if (state.answer === null) replace(parts.result);
    else replace(parts.result, h('h3', null, 'Answer'), decisionView(state.answer));
  }
}

/** What a refused request says. @param {unknown} error */
function message(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @param {HTMLElement} panel @param {PermissionsEnv} env */
export function mountWhatIf(panel, env) {
  let state = whatIfState(env.workspace);

  /** @param {WhatIfEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    if (state === prev) return;
    drawWhatIf(parts, prev, state, dispatch);
    if (state.checking !== null && state.checking !== prev.checking) void check();
  };

  const check = async () => {
    const asking = /** @type {NonNullable<WhatIfState['checking']>} */ (state.checking);
    try {
      /** @type {DecisionResult} */
      const answer = await api('POST', '/v1/what-if', asking.body);
      dispatch({ type: 'answered', asked: asking.asked, answer });
    } catch (error) {
      dispatch({ type: 'check-failed', asked: asking.asked, message: message(error) });
    }
  };

  const who = whoFields(dispatch, uid('agents'));
  const what = actionFields(dispatch);
  /** @type {Parts} */
  const parts = {
    agent: who.agent,
    agentList: who.agentList,
    space: who.space,
    mode: who.mode,
    classBoxes: what.classBoxes,
    box: alertBox(),
    result: h('div', { 'aria-live': 'polite' }),
    requestJson: h('pre', { class: 'json' }),
  };
  const formEl = h(
    'form',
    {
      class: 'whatif',
      novalidate: true,
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        dispatch({ type: 'check' });
      },
    },
    h('div', { class: 'grid2' }, who.fieldset, what.fieldset),
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
    parts.box,
    parts.result,
    h(
      'details',
      null,
      h('summary', null, 'The request as JSON (for ', code('warden explain --request'), ')'),
      parts.requestJson,
    ),
  );
  drawWhatIf(parts, null, state, dispatch);
  dispatch({ type: 'read', data: env.state.data });
  return env.state.subscribe((data) => dispatch({ type: 'read', data }));
}
