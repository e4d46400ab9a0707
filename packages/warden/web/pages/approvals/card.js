// One approval in the inbox: everything a human needs to answer it — agent,
// tool, what was asked, the facets and rule that prompted, the arguments (as
// text: they are the agent's, foreign data) — and the answers this role may
// give: once, for N hours in a scope (showing the rule it writes, from the
// approval's offer), deny with an optional reason; for a soft deny, override
// with a required reason. A role that may not answer sees no buttons.
// Long text (a 3,000-character command, a long reason) shows its beginning
// with a "Show all" control; on a phone the request's further details and
// "approve for a while" fold behind a disclosure each, so that a card with
// its answers fits one screen. The card keeps no state: it draws a card's
// state (`card-state.js`) and turns the person's input into its events.

import { code, h, replace, rich, time } from '../../lib/dom.js';
import { folded, foldedPre } from '../../lib/fold.js';
import {
  actionText,
  argumentsText,
  ruleText,
  scopeLabel,
  settledText,
  timedOutText,
} from './format.js';
import { MAX_HOURS, chosenScope, hoursLabel, offeredScopes } from './card-state.js';

/**
 * @typedef {import('../../lib/types.js').ApprovalView} ApprovalView
 * @typedef {import('../../lib/types.js').AnswerBody} AnswerBody
 * @typedef {import('../../lib/types.js').ScopeOffer} ScopeOffer
 * @typedef {import('../../lib/types.js').RuleDraft} RuleDraft
 * @typedef {import('../../lib/types.js').StandingDeny} StandingDeny
 * @typedef {import('./card-state.js').CardState} CardState
 * @typedef {import('./card-state.js').CardEvent} CardEvent
 */

/** Where a card is narrow enough to fold its details (the stylesheet's phone width). */
const NARROW = '(max-width: 640px)';

/** Whether the cards are drawn for a phone. */
function narrow() {
  return typeof window.matchMedia === 'function' && window.matchMedia(NARROW).matches;
}

/** At most `n` characters of `text`, with an ellipsis when cut (the whole is shown elsewhere). @param {string} text @param {number} n */
function clipped(text, n) {
  const chars = Array.from(text);
  return chars.length <= n ? text : `${chars.slice(0, n).join('')}…`;
}

/**
 * `key: values` rows of the request's arguments (`refs`, `paths`, `hosts`, `count`, `cents`).
 * @param {ApprovalView} view @returns {[string, import('../../lib/dom.js').Child][]}
 */
function requestArgs(view) {
  const args = view.request?.args;
  if (args === undefined || args === null || typeof args !== 'object') return [];
  return Object.entries(args).map(([key, value]) => [
    `${key.slice(0, 1).toUpperCase()}${key.slice(1)}`,
    folded(Array.isArray(value) ? value.map(String).join(', ') : String(value), {
      limit: 120,
      what: `the ${key}`,
    }),
  ]);
}

/**
 * The standing denies a remembered rule never lifts, as the offer lists them:
 * what stays denied, by which rule, where, hard or soft.
 * @param {ScopeOffer} scope @param {string} id
 */
function staysDenied(scope, id) {
  const denies = Array.isArray(scope.staysDenied) ? scope.staysDenied : [];
  if (denies.length === 0) return null;
  return h(
    'div',
    { class: 'ap-stays', id },
    'Stays denied all the same (an approval never lifts a standing deny):',
    h(
      'ul',
      null,
      denies.map((d) =>
        h(
          'li',
          null,
          'rule ',
          code(String(d.rule)),
          ` (${d.enforcement === 'soft' ? 'soft: only an overrider may let one call through, with a reason' : 'hard'}) in ${scopeLabel(String(d.scope))}: `,
          folded(d.sentence, { limit: 200, render: rich, what: 'the rule' }),
          typeof d.example === 'string'
            ? [
                ' For example ',
                folded(d.example, { limit: 120, render: code, what: 'the example' }),
                ' stays denied.',
              ]
            : null,
        ),
      ),
    ),
  );
}

/**
 * The rules an offer writes, each as code, `; ` between them.
 * @param {readonly RuleDraft[] | undefined} rules
 */
function ruleCodes(rules) {
  return rules === undefined
    ? []
    : rules.map((r, j) => [
        j > 0 ? '; ' : null,
        folded(ruleText(r), { limit: 120, render: code, what: 'the rule' }),
      ]);
}

/** @param {[string, import('../../lib/dom.js').Child][]} rows */
function facts(rows) {
  return h(
    'dl',
    { class: 'ap-facts' },
    rows
      .filter(([, value]) => value !== null && value !== undefined && value !== '')
      .map(([term, value]) => [h('dt', null, term), h('dd', null, value)]),
  );
}

/** The facets that asked (a prompt) or denied (a soft deny), with their rules. @param {ApprovalView} view */
function facetList(view) {
  const facets =
    view.kind === 'prompt' && Array.isArray(view.facets) && view.facets.length > 0
      ? view.facets
      : (view.decision?.facets ?? []).filter(
          (f) => f.decision === (view.kind === 'prompt' ? 'prompt' : 'deny'),
        );
  if (facets.length === 0) return null;
  return h(
    'ul',
    { class: 'ap-facets' },
    facets.map((f) =>
      h(
        'li',
        null,
        code(f.facet),
        ' — rule ',
        code(f.rule ?? '?'),
        ` in ${f.scope ?? 'default'}`,
        f.because === undefined
          ? null
          : h(
              'span',
              { class: 'muted' },
              ' · ',
              folded(f.because, { limit: 160, render: rich, what: 'the reason' }),
            ),
      ),
    ),
  );
}

/**
 * What the parts of one card share while it is built: its approval, its
 * first state, where its events go, and the elements `draw` patches.
 * @typedef {{
 *   id: string,
 *   view: ApprovalView,
 *   initial: CardState,
 *   phone: boolean,
 *   emit: (event: CardEvent) => void,
 *   controls: HTMLElement[],
 *   preview: HTMLElement,
 *   submitRemember: HTMLElement,
 *   hoursInput: HTMLInputElement | null,
 *   overrideInput: HTMLTextAreaElement | null,
 * }} Parts
 */

/**
 * Registers `el` as a control a pending answer disables.
 * @template {HTMLElement} E @param {Parts} ui @param {E} el @returns {E}
 */
function track(ui, el) {
  ui.controls.push(el);
  return el;
}

/** A fold of the named part as the state has it, reporting its unfolding. @param {Parts} ui @param {string} part */
function foldOf(ui, part) {
  return {
    open: ui.initial.unfolded.includes(part),
    onToggle: (/** @type {boolean} */ open) => ui.emit({ type: 'fold', part, open }),
  };
}

/**
 * A disclosure folded on a phone, whose opening is reported as the `part` unfolded.
 * @param {Parts} ui @param {string} part @param {string} summary @param {string} cls @param {...import('../../lib/dom.js').Child} content
 */
function foldOnPhone(ui, part, summary, cls, ...content) {
  if (!ui.phone) return content;
  const details = h(
    'details',
    { class: `ap-fold ${cls}`, open: ui.initial.unfolded.includes(part) },
    h('summary', null, summary),
    ...content,
  );
  details.addEventListener('toggle', () => ui.emit({ type: 'fold', part, open: details.open }));
  return details;
}

/** A form's submit as the answer it sends. @param {Parts} ui @param {'once' | 'remember' | 'deny' | 'override'} answer */
function submitting(ui, answer) {
  return (/** @type {Event} */ event) => {
    event.preventDefault();
    ui.emit({ type: 'submit', answer });
  };
}

/** The rule "approve for a while" writes, and its button's hours. @param {Parts} ui @param {CardState} state */
function drawPreview(ui, state) {
  const scope = chosenScope(state);
  const label = hoursLabel(state);
  replace(ui.submitRemember, `Approve for ${label}`);
  if (scope === undefined) {
    replace(ui.preview, 'Pick a scope.');
    return;
  }
  const rules = scope.rules ?? [];
  /** @type {readonly StandingDeny[]} */
  const stays = Array.isArray(scope.staysDenied) ? scope.staysDenied : [];
  replace(
    ui.preview,
    'Will write ',
    rules.length === 1 ? 'the rule ' : 'the rules ',
    ruleCodes(rules),
    ` for ${scopeLabel(scope.scope)}, with origin remembered, gone after ${label}.`,
    stays.length > 0
      ? ` What the standing policy denies stays denied: ${stays.length === 1 ? 'rule' : 'rules'} ${stays.map((d) => d.rule).join(', ')}.`
      : '',
  );
}

/** "Approve for N hours" in one of the offered scopes, with the rule it writes. @param {Parts} ui */
function rememberForm(ui) {
  const { id, initial, emit } = ui;
  const hoursId = `${id}-hours`;
  const hoursInput = track(
    ui,
    h('input', {
      id: hoursId,
      name: 'hours',
      type: 'number',
      min: '1',
      max: String(MAX_HOURS),
      step: '1',
      value: initial.hours,
      inputmode: 'numeric',
      class: 'ap-hours',
      oninput: (/** @type {Event} */ event) =>
        emit({ type: 'hours', value: /** @type {HTMLInputElement} */ (event.currentTarget).value }),
    }),
  );
  ui.hoursInput = hoursInput;
  const radios = offeredScopes(ui.view).map((s, i) => {
    const radioId = `${id}-scope-${i}`;
    const radio = h('input', {
      type: 'radio',
      name: `${id}-scope`,
      id: radioId,
      value: s.scope,
      checked: s.scope === initial.scope,
      disabled: !s.effective,
      'aria-describedby':
        Array.isArray(s.staysDenied) && s.staysDenied.length > 0
          ? `${radioId}-rule ${radioId}-stays`
          : `${radioId}-rule`,
      onchange: (/** @type {Event} */ event) => {
        const input = /** @type {HTMLInputElement} */ (event.currentTarget);
        if (input.checked) emit({ type: 'scope', scope: input.value });
      },
    });
    if (s.effective) track(ui, radio); // one that would not lift the prompt stays disabled
    return h(
      'div',
      { class: `ap-scope${s.effective ? '' : ' ap-scope-off'}` },
      radio,
      h(
        'label',
        { for: radioId },
        scopeLabel(s.scope),
        ' ',
        h('span', { class: 'muted' }, `(${s.scope})`),
      ),
      h(
        'div',
        { class: 'ap-scope-rule', id: `${radioId}-rule` },
        s.effective ? 'writes ' : 'would not lift the prompt: ',
        s.effective ? ruleCodes(s.rules) : (s.why ?? 'a narrower rule decides first'),
      ),
      s.effective ? staysDenied(s, `${radioId}-stays`) : null,
    );
  });
  track(ui, ui.submitRemember);
  drawPreview(ui, initial);
  return h(
    'form',
    {
      class: 'ap-remember',
      novalidate: true,
      'aria-labelledby': `${id}-remember-h`,
      onsubmit: submitting(ui, 'remember'),
    },
    h('h4', { id: `${id}-remember-h` }, 'Approve for a while'),
    h('div', { class: 'row' }, h('div', null, h('label', { for: hoursId }, 'Hours'), hoursInput)),
    h('fieldset', { class: 'ap-scopes' }, h('legend', null, 'Scope of the rule'), radios),
    ui.preview,
    ui.submitRemember,
  );
}

/**
 * A form with an optional reason and one button that denies (or keeps denied).
 * @param {Parts} ui @param {string} suffix @param {string} label @param {string} button
 */
function denyForm(ui, suffix, label, button) {
  const reasonId = `${ui.id}-${suffix}`;
  return h(
    'form',
    { class: 'ap-deny', onsubmit: submitting(ui, 'deny') },
    h('label', { for: reasonId }, label),
    h(
      'div',
      { class: 'row' },
      track(
        ui,
        h('input', {
          id: reasonId,
          name: 'reason',
          type: 'text',
          maxlength: '2000',
          autocomplete: 'off',
          oninput: (/** @type {Event} */ event) =>
            ui.emit({
              type: 'deny-reason',
              value: /** @type {HTMLInputElement} */ (event.currentTarget).value,
            }),
        }),
      ),
      track(ui, h('button', { type: 'submit', class: 'danger' }, button)),
    ),
  );
}

/** A prompt: approve once, for a while, or deny. @param {Parts} ui */
function promptActions(ui) {
  const { initial, view } = ui;
  const once = track(
    ui,
    h(
      'button',
      {
        type: 'button',
        class: 'primary',
        onclick: () => ui.emit({ type: 'submit', answer: 'once' }),
      },
      'Approve once',
    ),
  );
  const remember = initial.remembers
    ? rememberForm(ui)
    : h(
        'p',
        { class: 'muted ap-note' },
        `Only “approve once” is offered: ${(view.onlyOnce ?? 'nothing here can be remembered').replace(/^only "approve once":\s*/, '')}.`,
      );
  return [
    h('div', { class: 'row' }, once),
    initial.remembers
      ? foldOnPhone(ui, 'for-a-while', 'Approve for a while…', 'ap-for-a-while', remember)
      : remember,
    denyForm(ui, 'deny-reason', 'Reason for denying (optional)', 'Deny'),
  ];
}

/** A soft deny: override with a reason, or keep it denied. @param {Parts} ui */
function overrideActions(ui) {
  const { id } = ui;
  const reasonId = `${id}-override-reason`;
  const overrideInput = track(
    ui,
    h('textarea', {
      id: reasonId,
      name: 'reason',
      rows: '2',
      maxlength: '2000',
      'aria-required': 'true',
      'aria-describedby': `${id}-override-help`,
      oninput: (/** @type {Event} */ event) =>
        ui.emit({
          type: 'override-reason',
          value: /** @type {HTMLTextAreaElement} */ (event.currentTarget).value,
        }),
    }),
  );
  ui.overrideInput = overrideInput;
  return [
    h(
      'form',
      { class: 'ap-override', onsubmit: submitting(ui, 'override') },
      h('label', { for: reasonId }, 'Reason for overriding (required)'),
      overrideInput,
      h(
        'p',
        { class: 'muted', id: `${id}-override-help` },
        'The override lets exactly this call through once when the agent retries it, and is audited with your name and reason.',
      ),
      track(ui, h('button', { type: 'submit', class: 'primary' }, 'Override')),
    ),
    denyForm(ui, 'keep-reason', 'Reason for keeping it denied (optional)', 'Keep denied'),
  ];
}

/** The answers the role gives, or why it gives none. @param {Parts} ui @param {string} role */
function answers(ui, role) {
  const { initial } = ui;
  if (initial.actions === 'prompt') return promptActions(ui);
  if (initial.actions === 'override') return overrideActions(ui);
  return h(
    'p',
    { class: 'muted ap-note' },
    initial.soft
      ? `Your role (${role}) may not override a soft deny: that needs the overrider role.`
      : `Your role (${role}) may not answer prompts: that needs the approver role.`,
  );
}

/**
 * What was asked and about what: the facts (on a phone what and why first,
 * the rest folded), the facets, the arguments.
 * @param {Parts} ui
 */
function request(ui) {
  const { id, view, phone } = ui;
  const soft = ui.initial.soft;
  const args = argumentsText(view.arguments);
  const argsId = `${id}-args`;
  const action = actionText(view);
  /** @type {[string, import('../../lib/dom.js').Child][]} */
  const what = [
    [
      'Action',
      action === ''
        ? null
        : folded(action, {
            limit: phone ? 100 : 200,
            render: code,
            what: 'the command',
            ...foldOf(ui, 'action'),
          }),
    ],
    [
      soft ? 'Denied because' : 'Because',
      view.decision?.reason
        ? folded(view.decision.reason, {
            limit: phone ? 140 : 300,
            render: rich,
            what: 'the reason',
            ...foldOf(ui, 'reason'),
          })
        : null,
    ],
  ];
  /** @type {[string, import('../../lib/dom.js').Child][]} */
  const about = [
    ['Agent', folded(view.agent, { limit: 120, what: 'the agent' })],
    ['Workspace', view.workspace],
    [
      'Tool',
      view.tool === null || view.tool === undefined
        ? null
        : folded(view.tool, { limit: 120, render: code, what: 'the tool' }),
    ],
    ['Space', view.request?.space],
    ['Mode', view.request?.mode],
    ...requestArgs(view),
  ];
  const more = [
    h('h4', null, soft ? 'Denied by' : 'Asks about'),
    facetList(view) ??
      h(
        'p',
        { class: 'muted' },
        `rule ${view.decision?.rule ?? '?'} in ${view.decision?.scope ?? '?'}`,
      ),
    soft
      ? h('p', { class: 'muted' }, 'A soft deny: an overrider may override it with a reason.')
      : null,
    h('h4', { id: `${argsId}-h` }, 'Arguments'),
    args === null
      ? h('p', { class: 'muted ap-args' }, 'none sent')
      : foldedPre(args, {
          limit: phone ? 300 : 1200,
          what: 'the arguments',
          attrs: { class: 'ap-args', id: argsId, 'aria-labelledby': `${argsId}-h`, tabindex: '0' },
          ...foldOf(ui, 'arguments'),
        }),
  ];
  // On a phone what was asked and why come first; the rest is one tap away.
  return phone
    ? [
        facts(what),
        foldOnPhone(ui, 'more', 'More about this request', 'ap-more', facts(about), more),
      ]
    : [facts([...about.slice(0, 3), what[0], ...about.slice(3), what[1]]), more];
}

/** A card's heading: what kind of answer it asks for, the agent, the tool. @param {string} id @param {ApprovalView} view @param {boolean} soft */
function cardHeading(id, view, soft) {
  return h(
    'h3',
    { id: `${id}-h`, tabindex: '-1' },
    h(
      'span',
      { class: `badge ${soft ? 'badge-deny' : 'badge-prompt'}` },
      soft ? 'soft deny' : 'ask',
    ),
    ' ',
    clipped(view.agent, 80),
    ' · ',
    // The command in full is under "Action", with its "Show all".
    clipped(view.tool ?? (actionText(view) || '—'), 80),
  );
}

/**
 * The parts of a card that change, built once; `drawCard` patches them.
 * @typedef {{ el: HTMLElement, heading: HTMLElement, alert: HTMLElement, outcome: HTMLElement, countdown: HTMLElement, actions: HTMLElement, shown: CardState | null }} Drawn
 */

/** The card's element around its parts. @param {Parts} ui @param {string} role @returns {Drawn} */
function cardElement(ui, role) {
  const { id, view } = ui;
  const soft = ui.initial.soft;
  const alert = h('p', { class: 'error', role: 'alert', id: `${id}-alert` });
  const outcome = h('p', { class: 'ap-outcome', id: `${id}-outcome`, tabindex: '-1' });
  const countdown = h('span', { class: 'ap-countdown', 'aria-hidden': 'true' });
  const actions = h('div', { class: 'ap-actions' }, answers(ui, role));
  const heading = cardHeading(id, view, soft);
  const el = h(
    'li',
    { class: `ap-card card${soft ? ' ap-card-soft' : ''}`, dataset: { id: view.id } },
    h(
      'article',
      { 'aria-labelledby': heading.id },
      h(
        'header',
        { class: 'ap-head' },
        heading,
        h(
          'p',
          { class: 'muted ap-when' },
          'asked ',
          time(view.createdAt),
          ' · ',
          'times out ',
          time(view.expiresAt),
          ' ',
          countdown,
        ),
      ),
      request(ui),
      actions,
      alert,
      outcome,
    ),
  );
  return { el, heading, alert, outcome, countdown, actions, shown: null };
}

/**
 * Draws `state` over what the card shows: only the parts that differ (all of
 * them the first time).
 * @param {Parts} ui @param {Drawn} drawn @param {CardState} state
 */
function drawCard(ui, drawn, state) {
  const was = drawn.shown;
  drawn.shown = state;
  if (state.error !== was?.error) replace(drawn.alert, state.error);
  if (state.left !== was?.left) replace(drawn.countdown, state.left);
  if (was !== null && (state.hours !== was.hours || state.scope !== was.scope))
    drawPreview(ui, state);
  if (state.phase !== (was?.phase ?? 'open'))
    for (const c of ui.controls)
      if (state.phase === 'open') c.removeAttribute('disabled');
      else c.setAttribute('disabled', '');
  const input = ui.overrideInput;
  if (input !== null && state.overrideMissing !== (was?.overrideMissing ?? false)) {
    if (state.overrideMissing) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
  // How the approval ended: no answers left, and the outcome in words.
  if (state.end !== null && state.end !== was?.end) {
    replace(drawn.actions);
    drawn.el.classList.add('ap-done');
    if (state.end.kind === 'settled') {
      drawn.el.classList.toggle('ap-done-allow', state.end.settled.state === 'approved');
      replace(drawn.outcome, settledText(state.end.settled, state.end.mine));
    } else replace(drawn.outcome, timedOutText(state.soft));
  }
}

/**
 * One approval in the inbox, drawn from its state (`card-state.js`): built
 * once, then `draw` patches what changed. The person's input becomes events
 * for `onEvent`; the card keeps no state of its own.
 * @param {CardState} initial the card's state when it is first drawn
 * @param {{ role: string, onEvent: (event: CardEvent) => void }} options
 */
export function approvalCard(initial, options) {
  const { view } = initial;
  const id = `ap-${view.id}`;
  /** @type {Parts} */
  const ui = {
    id,
    view,
    initial,
    phone: narrow(),
    emit: options.onEvent,
    controls: [],
    preview: h('p', { class: 'ap-preview', id: `${id}-preview`, 'aria-live': 'polite' }),
    submitRemember: h('button', { type: 'submit' }, `Approve for ${hoursLabel(initial)}`),
    hoursInput: null,
    overrideInput: null,
  };
  const drawn = cardElement(ui, options.role);
  /** Draws `state` over what was drawn. @param {CardState} state */
  const draw = (state) => drawCard(ui, drawn, state);
  draw(initial);

  return {
    el: drawn.el,
    draw,
    heading: () => drawn.heading,
    /** Puts the focus on the field an answer was refused for. @param {CardState['invalid']} field */
    focus(field) {
      if (field === 'hours') ui.hoursInput?.focus();
      else if (field === 'override-reason') ui.overrideInput?.focus();
    },
  };
}
