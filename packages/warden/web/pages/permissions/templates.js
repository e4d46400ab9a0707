// Policy templates: the shipped library, a preview of exactly the rules a
// template adds (each as its sentence) and the matrix cells it changes, and
// applying it as a new revision whose rules have origin `template`.
//
// What the tab holds is its state (`templates-state.js`): pure, tested in
// Node. `mountTemplates` is the wiring: it feeds the state the API's answers
// and the person's input, draws each new state (`templateCard` once per
// template, `drawCard` after), and sends what the person asked for.

import { api } from '../../lib/api.js';
import { code, h, replace, toast } from '../../lib/dom.js';
import { previewView } from './editor.js';
import {
  ENFORCEMENTS,
  appliedToast,
  formOf,
  paramHelp,
  paramLabel,
  placeholder,
  reduce,
  scopeOptions,
  templateArgs,
  templatesState,
} from './templates-state.js';
import { alertBox, field, rich, scopeName, select, uid } from './ui.js';

/**
 * @typedef {import('../../lib/types.js').Template} Template
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 * @typedef {import('./templates-state.js').TemplatesState} TemplatesState
 * @typedef {import('./templates-state.js').TemplatesEvent} TemplatesEvent
 * @typedef {import('./templates-state.js').TemplateForm} TemplateForm
 */

/**
 * A template's description: its first sentence leads; the rest — the fine
 * print of what it does and does not hold against — is one click away.
 * @param {string} text
 */
function described(text) {
  // The first sentence ends at a full stop outside a code span, before white space.
  let inCode = false;
  let end = -1;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '`') inCode = !inCode;
    else if (c === '.' && !inCode && (i + 1 === text.length || /\s/.test(text[i + 1] ?? ''))) {
      end = i + 1;
      break;
    }
  }
  const lead = end < 0 ? text : text.slice(0, end);
  const rest = end < 0 ? '' : text.slice(end).trim();
  return [
    h('p', { class: 'template-lead' }, rich(lead)),
    rest === ''
      ? null
      : h(
          'details',
          { class: 'template-more' },
          h('summary', null, 'What it holds, and what it does not'),
          h('p', null, rich(rest)),
        ),
  ];
}
/** An error's words. @param {unknown} error */
function message(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One template's card as it is built once: its form's fields keep what the
 * person types across draws; `drawCard` patches the parts that change.
 * @typedef {{ el: HTMLElement, local: HTMLElement, result: HTMLElement, applyButton: HTMLButtonElement | null, shown: TemplateForm | null }} Card
 */

/**
 * What a card's parts need: the tab's state when it is built, where the
 * person's input goes, and what the buttons do.
 * @typedef {{
 *   state: TemplatesState,
 *   env: PermissionsEnv,
 *   emit: (event: TemplatesEvent) => void,
 *   preview: (template: Template) => void,
 *   apply: (template: Template) => void,
 * }} Drawing
 */

/** The form's fields: scope, enforcement, and each parameter. @param {Drawing} d @param {Template} template */
function templateFields(d, template) {
  // Built with the templates, whose forms start blank: no parameter typed yet.
  const form = formOf(d.state, template.name);
  /** @param {string} name @returns {(event: Event) => void} */
  const emitting = (name) => (event) =>
    d.emit({
      type: 'field',
      template: template.name,
      name,
      value: /** @type {HTMLInputElement} */ (event.currentTarget).value,
    });
  const scope = select(scopeOptions(d.state, scopeName), form.scope, {
    name: 'scope',
    onchange: emitting('scope'),
  });
  const enforcement = select([...ENFORCEMENTS], form.enforcement, {
    name: 'enforcement',
    onchange: emitting('enforcement'),
  });
  return [
    field('Scope', scope),
    field('Enforcement', enforcement),
    template.params.map((p) => {
      const attrs = {
        name: p.name,
        placeholder: placeholder(p),
        spellcheck: 'false',
        oninput: emitting(p.name),
      };
      const control =
        p.kind === 'list'
          ? h('textarea', { rows: '2', ...attrs })
          : h('input', { type: 'text', ...attrs });
      return field(paramLabel(p), control, paramHelp(p));
    }),
  ];
}

/** One template: what it is, its form, and what its preview or apply gave. @param {Drawing} d @param {Template} template @returns {Card} */
function templateCard(d, template) {
  const local = alertBox();
  const result = h('div', { class: 'template-result', 'aria-live': 'polite' });
  const title = uid('tpl');
  const applyButton = d.env.canWrite
    ? h(
        'button',
        { type: 'button', class: 'primary', disabled: true, onclick: () => d.apply(template) },
        'Apply',
      )
    : null;
  const form = h(
    'form',
    {
      onsubmit: (event) => {
        event.preventDefault();
        d.preview(template);
      },
    },
    h('div', { class: 'row' }, templateFields(d, template)),
    h(
      'div',
      { class: 'row actions' },
      h('button', { type: 'submit' }, 'Preview'),
      applyButton,
      d.env.canWrite
        ? null
        : h('span', { class: 'muted' }, `Your role (${d.env.role}) may preview, not apply.`),
    ),
    local,
  );
  const el = h(
    'section',
    { class: 'card template', 'aria-labelledby': title, dataset: { template: template.name } },
    h('h3', { id: title }, template.title, ' ', h('span', { class: 'muted' }, code(template.name))),
    ...described(template.description),
    form,
    result,
  );
  return { el, local, result, applyButton, shown: null };
}

/** What a preview or an apply gave, drawn. @param {NonNullable<TemplateForm['result']>} result */
function resultView(result) {
  if (result.kind === 'preview')
    return [
      h('p', { class: 'muted' }, `Against revision ${result.answer.revision}:`),
      previewView(result.answer),
    ];
  const { applied } = result;
  return h(
    'p',
    { class: 'applied' },
    `Applied as revision ${applied.revision}: added `,
    applied.added.map((r, i) => [i === 0 ? '' : ', ', code(r.id)]),
    '.',
  );
}

/** Draws a card's form state over what it showed: only the parts that differ. @param {Card} card @param {TemplateForm} form */
function drawCard(card, form) {
  const was = card.shown;
  card.shown = form;
  if (form.error !== (was?.error ?? '')) replace(card.local, form.error);
  if (form.result !== (was?.result ?? null))
    replace(card.result, form.result === null ? [] : resultView(form.result));
  if (card.applyButton !== null) card.applyButton.disabled = !form.applicable;
}

/** @param {HTMLElement} panel @param {PermissionsEnv} env */
export function mountTemplates(panel, env) {
  let state = templatesState(env.workspace, env.state.data?.columns ?? null);
  const box = alertBox();
  const body = h('div');
  /** @type {Map<string, Card>} */
  let cards = new Map();

  /** @param {TemplatesEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    if (state !== prev) draw(prev);
  };

  /** @param {TemplatesState} prev */
  const draw = (prev) => {
    if (state.error !== prev.error) replace(box, state.error);
    if (state.templates !== prev.templates) {
      const d = { state, env, emit: dispatch, preview, apply };
      cards = new Map((state.templates ?? []).map((t) => [t.name, templateCard(d, t)]));
      replace(
        body,
        [...cards.values()].map((c) => c.el),
      );
    }
    for (const [name, card] of cards) drawCard(card, formOf(state, name));
  };

  /** @param {Template} template */
  const preview = async (template) => {
    dispatch({ type: 'asked', template: template.name });
    try {
      const answer = await api(
        'POST',
        `/v1/permissions/templates/${encodeURIComponent(template.name)}/preview`,
        templateArgs(state, template),
      );
      dispatch({ type: 'previewed', template: template.name, answer });
    } catch (error) {
      dispatch({ type: 'preview-failed', template: template.name, message: message(error) });
    }
  };

  /** @param {Template} template */
  const apply = async (template) => {
    dispatch({ type: 'asked', template: template.name });
    try {
      /** @type {import('../../lib/types.js').TemplateApplied} */
      const applied = await api(
        'POST',
        `/v1/templates/${encodeURIComponent(template.name)}/apply`,
        { ...templateArgs(state, template), message: `template ${template.name} (console)` },
      );
      toast(appliedToast(template.name, applied));
      dispatch({ type: 'applied', template: template.name, applied });
      await env.state.load();
    } catch (error) {
      dispatch({ type: 'apply-failed', template: template.name, message: message(error) });
    }
  };

  const load = async () => {
    try {
      /** @type {{ templates: Template[] }} */
      const { templates } = await api('GET', '/v1/templates');
      dispatch({ type: 'read', templates });
    } catch (error) {
      dispatch({ type: 'read-failed', message: message(error) });
    }
  };
  replace(
    panel,
    h(
      'p',
      { class: 'muted' },
      'Named sets of real rules. Preview shows exactly what applying adds.',
    ),
    box,
    body,
  );
  void load();
  // The scopes offered come from the matrix: draw again once it is read.
  return env.state.subscribe((data) => {
    if (state.columns !== null || data === null) return;
    dispatch({ type: 'columns', columns: data.columns });
    void load();
  });
}
