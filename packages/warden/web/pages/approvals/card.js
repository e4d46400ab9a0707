// One approval in the inbox: everything a human needs to answer it — agent,
// tool, what was asked, the facets and rule that prompted, the arguments (as
// text: they are the agent's, foreign data) — and the answers this role may
// give: once, for N hours in a scope (showing the rule it writes, from the
// approval's offer), deny with an optional reason; for a soft deny, override
// with a required reason. A role that may not answer sees no buttons.

import { code, h, replace, time } from '../../lib/dom.js';
import { actionText, argumentsText, ruleText, scopeLabel, settledText } from './format.js';

const DEFAULT_HOURS = 8;
/** The server's default limit for "approve for N hours" (it checks, whatever this says). */
const MAX_HOURS = 168;

/** @param {number} ms */
function inWords(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${Math.round(m / 60)} h`;
}

/** `key: values` rows of the request's arguments (`refs`, `paths`, `hosts`, `count`, `cents`). @param {any} view */
function requestArgs(view) {
  const args = view.request?.args;
  if (args === undefined || args === null || typeof args !== 'object') return [];
  return Object.entries(args).map(([key, value]) => [
    `${key.slice(0, 1).toUpperCase()}${key.slice(1)}`,
    Array.isArray(value) ? value.map(String).join(', ') : String(value),
  ]);
}

/**
 * Text as the server writes it, with `back-quoted` parts shown as code: text
 * nodes and `<code>` elements, never parsed as markup.
 * @param {unknown} text
 */
function rich(text) {
  return String(text ?? '')
    .split('`')
    .map((part, i) => (i % 2 === 1 ? code(part) : part))
    .filter((part) => part !== '');
}

/**
 * The standing denies a remembered rule never lifts, as the offer lists them:
 * what stays denied, by which rule, where, hard or soft.
 * @param {any} scope @param {string} id
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
          rich(d.sentence),
          typeof d.example === 'string'
            ? [' For example ', code(d.example), ' stays denied.']
            : null,
        ),
      ),
    ),
  );
}

/** @param {[string, unknown][]} rows */
function facts(rows) {
  return h(
    'dl',
    { class: 'ap-facts' },
    rows
      .filter(([, value]) => value !== null && value !== undefined && value !== '')
      .map(([term, value]) => [h('dt', null, term), h('dd', null, value)]),
  );
}

/** The facets that asked (a prompt) or denied (a soft deny), with their rules. @param {any} view */
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
        f.because === undefined ? null : h('span', { class: 'muted' }, ` · ${f.because}`),
      ),
    ),
  );
}

/**
 * @param {any} view the approval as the API shows it
 * @param {{
 *   me: string,
 *   role: string,
 *   mayAnswer: boolean,
 *   mayOverride: boolean,
 *   onAnswer: (view: any, body: Record<string, unknown>) => Promise<unknown>,
 * }} options
 */
export function approvalCard(view, options) {
  const id = `ap-${view.id}`;
  const headingId = `${id}-h`;
  const soft = view.kind === 'override';
  const alert = h('p', { class: 'error', role: 'alert', id: `${id}-alert` });
  const outcome = h('p', { class: 'ap-outcome', id: `${id}-outcome`, tabindex: '-1' });
  const countdown = h('span', { class: 'ap-countdown', 'aria-hidden': 'true' });
  /** @type {HTMLElement[]} */
  const controls = [];
  const track = (el) => {
    controls.push(el);
    return el;
  };
  let busy = false;

  const fail = (message) => {
    replace(alert, message);
  };
  const send = async (body) => {
    if (busy) return;
    busy = true;
    replace(alert);
    for (const c of controls) c.setAttribute('disabled', '');
    try {
      await options.onAnswer(view, body);
    } catch (error) {
      fail(`Not answered: ${error instanceof Error ? error.message : String(error)}`);
      for (const c of controls) c.removeAttribute('disabled');
    } finally {
      busy = false;
    }
  };

  const actions = h('div', { class: 'ap-actions' });
  if (!soft && options.mayAnswer) buildPromptActions();
  else if (soft && options.mayOverride) buildOverrideActions();
  else
    replace(
      actions,
      h(
        'p',
        { class: 'muted ap-note' },
        soft
          ? `Your role (${options.role}) may not override a soft deny: that needs the overrider role.`
          : `Your role (${options.role}) may not answer prompts: that needs the approver role.`,
      ),
    );

  function buildPromptActions() {
    const once = track(
      h(
        'button',
        { type: 'button', class: 'primary', onclick: () => send({ kind: 'once' }) },
        'Approve once',
      ),
    );
    const scopes = Array.isArray(view.scopes) ? view.scopes : [];
    const effective = scopes.filter((s) => s.effective);
    let remember;
    if (view.rememberable === true && effective.length > 0) {
      const hoursId = `${id}-hours`;
      const hours = track(
        h('input', {
          id: hoursId,
          name: 'hours',
          type: 'number',
          min: '1',
          max: String(MAX_HOURS),
          step: '1',
          value: String(DEFAULT_HOURS),
          inputmode: 'numeric',
          class: 'ap-hours',
        }),
      );
      const preview = h('p', { class: 'ap-preview', id: `${id}-preview`, 'aria-live': 'polite' });
      const submit = track(h('button', { type: 'submit' }, `Approve for ${DEFAULT_HOURS} h`));
      const radios = scopes.map((s, i) => {
        const radioId = `${id}-scope-${i}`;
        const radio = track(
          h('input', {
            type: 'radio',
            name: `${id}-scope`,
            id: radioId,
            value: s.scope,
            checked: s === effective[0],
            disabled: !s.effective,
            'aria-describedby':
              Array.isArray(s.staysDenied) && s.staysDenied.length > 0
                ? `${radioId}-rule ${radioId}-stays`
                : `${radioId}-rule`,
          }),
        );
        if (!s.effective) controls.pop(); // stays disabled whatever happens
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
            s.effective
              ? (s.rules ?? []).map((r, j) => [j > 0 ? '; ' : null, code(ruleText(r))])
              : (s.why ?? 'a narrower rule decides first'),
          ),
          s.effective ? staysDenied(s, `${radioId}-stays`) : null,
        );
      });
      const picked = () => {
        const checked = radios
          .map((r) => r.querySelector('input'))
          .find((input) => input !== null && input.checked);
        return scopes.find((s) => s.scope === checked?.value);
      };
      const showPreview = () => {
        const scope = picked();
        const n = Number(hours.value);
        const label = Number.isFinite(n) && n > 0 ? `${n} h` : '… h';
        replace(submit, `Approve for ${label}`);
        if (scope === undefined) {
          replace(preview, 'Pick a scope.');
          return;
        }
        replace(
          preview,
          'Will write ',
          (scope.rules ?? []).length === 1 ? 'the rule ' : 'the rules ',
          (scope.rules ?? []).map((r, j) => [j > 0 ? '; ' : null, code(ruleText(r))]),
          ` for ${scopeLabel(scope.scope)}, with origin remembered, gone after ${label}.`,
          Array.isArray(scope.staysDenied) && scope.staysDenied.length > 0
            ? ` What the standing policy denies stays denied: ${scope.staysDenied.length === 1 ? 'rule' : 'rules'} ${scope.staysDenied.map((d) => d.rule).join(', ')}.`
            : '',
        );
      };
      remember = h(
        'form',
        {
          class: 'ap-remember',
          novalidate: true,
          'aria-labelledby': `${id}-remember-h`,
          oninput: showPreview,
          onchange: showPreview,
          onsubmit: (event) => {
            event.preventDefault();
            const n = Number(hours.value);
            const scope = picked();
            if (!Number.isFinite(n) || n <= 0) {
              fail(`Say for how many hours: a number above 0 (at most ${MAX_HOURS}).`);
              hours.focus();
              return;
            }
            if (scope === undefined) {
              fail('Pick the scope the rule is written in.');
              return;
            }
            void send({ kind: 'remember', hours: n, scope: scope.scope });
          },
        },
        h('h4', { id: `${id}-remember-h` }, 'Approve for a while'),
        h('div', { class: 'row' }, h('div', null, h('label', { for: hoursId }, 'Hours'), hours)),
        h('fieldset', { class: 'ap-scopes' }, h('legend', null, 'Scope of the rule'), radios),
        preview,
        submit,
      );
      showPreview();
    } else {
      remember = h(
        'p',
        { class: 'muted ap-note' },
        `Only “approve once” is offered: ${(view.onlyOnce ?? 'nothing here can be remembered').replace(/^only "approve once":\s*/, '')}.`,
      );
    }
    const reasonId = `${id}-deny-reason`;
    const reason = track(
      h('input', {
        id: reasonId,
        name: 'reason',
        type: 'text',
        maxlength: '2000',
        autocomplete: 'off',
      }),
    );
    const deny = h(
      'form',
      {
        class: 'ap-deny',
        onsubmit: (event) => {
          event.preventDefault();
          const r = reason.value.trim();
          void send({ kind: 'deny', ...(r === '' ? {} : { reason: r }) });
        },
      },
      h('label', { for: reasonId }, 'Reason for denying (optional)'),
      h(
        'div',
        { class: 'row' },
        reason,
        track(h('button', { type: 'submit', class: 'danger' }, 'Deny')),
      ),
    );
    replace(actions, h('div', { class: 'row' }, once), remember, deny);
  }

  function buildOverrideActions() {
    const reasonId = `${id}-override-reason`;
    const reason = track(
      h('textarea', {
        id: reasonId,
        name: 'reason',
        rows: '2',
        maxlength: '2000',
        'aria-required': 'true',
        'aria-describedby': `${id}-override-help`,
      }),
    );
    const override = h(
      'form',
      {
        class: 'ap-override',
        onsubmit: (event) => {
          event.preventDefault();
          const r = reason.value.trim();
          if (r === '') {
            reason.setAttribute('aria-invalid', 'true');
            fail('An override needs a reason: it is recorded in the audit log.');
            reason.focus();
            return;
          }
          reason.removeAttribute('aria-invalid');
          void send({ kind: 'override', reason: r });
        },
      },
      h('label', { for: reasonId }, 'Reason for overriding (required)'),
      reason,
      h(
        'p',
        { class: 'muted', id: `${id}-override-help` },
        'The override lets exactly this call through once when the agent retries it, and is audited with your name and reason.',
      ),
      track(h('button', { type: 'submit', class: 'primary' }, 'Override')),
    );
    const keepId = `${id}-keep-reason`;
    const keepReason = track(
      h('input', {
        id: keepId,
        name: 'reason',
        type: 'text',
        maxlength: '2000',
        autocomplete: 'off',
      }),
    );
    const keep = h(
      'form',
      {
        class: 'ap-deny',
        onsubmit: (event) => {
          event.preventDefault();
          const r = keepReason.value.trim();
          void send({ kind: 'deny', ...(r === '' ? {} : { reason: r }) });
        },
      },
      h('label', { for: keepId }, 'Reason for keeping it denied (optional)'),
      h(
        'div',
        { class: 'row' },
        keepReason,
        track(h('button', { type: 'submit', class: 'danger' }, 'Keep denied')),
      ),
    );
    replace(actions, override, keep);
  }

  const args = argumentsText(view.arguments);
  const argsId = `${id}-args`;
  const el = h(
    'li',
    { class: `ap-card card${soft ? ' ap-card-soft' : ''}`, dataset: { id: view.id } },
    h(
      'article',
      { 'aria-labelledby': headingId },
      h(
        'header',
        { class: 'ap-head' },
        h(
          'h3',
          { id: headingId, tabindex: '-1' },
          h(
            'span',
            { class: `badge ${soft ? 'badge-deny' : 'badge-prompt'}` },
            soft ? 'soft deny' : 'ask',
          ),
          ' ',
          view.agent,
          ' · ',
          view.tool ?? (actionText(view) || '—'),
        ),
        h(
          'p',
          { class: 'muted ap-when' },
          'asked ',
          time(view.createdAt),
          ' · ',
          soft ? 'may be overridden until ' : 'answer by ',
          time(view.expiresAt),
          ' ',
          countdown,
        ),
      ),
      facts([
        ['Agent', view.agent],
        ['Workspace', view.workspace],
        ['Tool', view.tool === null || view.tool === undefined ? null : code(view.tool)],
        ['Action', actionText(view) === '' ? null : code(actionText(view))],
        ['Space', view.request?.space],
        ['Mode', view.request?.mode],
        ...requestArgs(view),
        [soft ? 'Denied because' : 'Because', view.decision?.reason],
      ]),
      h('h4', null, soft ? 'Denied by' : 'Asks about'),
      facetList(view) ??
        h(
          'p',
          { class: 'muted' },
          `rule ${view.decision?.rule ?? '?'} in ${view.decision?.scope ?? '?'}`,
        ),
      soft
        ? h(
            'p',
            { class: 'muted' },
            'A soft deny: an overrider may override it with a reason (G26).',
          )
        : null,
      h('h4', { id: `${argsId}-h` }, 'Arguments'),
      args === null
        ? h('p', { class: 'muted ap-args' }, 'none sent')
        : h(
            'pre',
            { class: 'ap-args', id: argsId, 'aria-labelledby': `${argsId}-h`, tabindex: '0' },
            args,
          ),
      actions,
      alert,
      outcome,
    ),
  );

  return {
    el,
    view,
    heading: () => el.querySelector('h3'),
    /** Updates the time left; true once the time is up. @param {number} now */
    tick(now) {
      const left = Date.parse(view.expiresAt) - now;
      countdown.textContent = left > 0 ? `(${inWords(left)} left)` : '(time is up)';
      return left <= 0;
    },
    /** Shows how it ended and takes the answers away. @param {any} settled @param {boolean} mine */
    settle(settled, mine) {
      replace(actions);
      replace(alert);
      replace(countdown);
      el.classList.add('ap-done');
      el.classList.toggle('ap-done-allow', settled.state === 'approved');
      replace(outcome, settledText(settled, mine));
    },
    /** The time ran out before an answer reached this page. */
    expire() {
      replace(actions);
      replace(countdown);
      el.classList.add('ap-done');
      replace(
        outcome,
        soft
          ? 'The override window closed: the call stays denied.'
          : 'No answer in time: the prompt is denied (an unanswered question is never a yes).',
      );
    },
  };
}
