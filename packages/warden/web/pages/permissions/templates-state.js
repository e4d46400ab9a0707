// The policy templates tab's state apart from its drawing, so that what the
// tab does can be tested in Node without a browser: the templates read (or
// why they could not be), the scopes a template may be applied in, and for
// each template the form as the person filled it in, its preview or the
// revision it was applied as, whether "Apply" may be pressed, and what failed.
// Pure: no DOM, no `fetch`, no `window`; the tab (`templates.js`) feeds it
// the API's answers and the person's input, and draws what it returns.

import { lines } from './text.js';

/**
 * @typedef {import('../../lib/types.js').Template} Template
 * @typedef {import('../../lib/types.js').TemplateApplied} TemplateApplied
 * @typedef {import('../../lib/types.js').Preview} Preview
 * @typedef {import('../../lib/types.js').MatrixColumn} MatrixColumn
 */

/** The enforcement a template may be applied with: value and label. @type {readonly [string, string][]} */
export const ENFORCEMENTS = [
  ['', 'as the template says (hard)'],
  ['hard', 'hard'],
  ['soft', 'soft (deny rules only)'],
  ['advisory', 'advisory (report only)'],
];

/**
 * One template's form and what came of it: the preview shown (and whether
 * "Apply" may send it: only until the form changes), or the revision applied.
 * @typedef {{
 *   readonly scope: string,
 *   readonly enforcement: string,
 *   readonly params: Readonly<Record<string, string>>,
 *   readonly result: null | { readonly kind: 'preview', readonly answer: Preview & { revision: number } } | { readonly kind: 'applied', readonly applied: TemplateApplied },
 *   readonly applicable: boolean,
 *   readonly error: string,
 * }} TemplateForm
 */

/**
 * @typedef {{
 *   readonly workspace: string,
 *   readonly templates: readonly Template[] | null,
 *   readonly error: string,
 *   readonly columns: readonly MatrixColumn[] | null,
 *   readonly forms: Readonly<Record<string, TemplateForm>>,
 * }} TemplatesState
 */

/**
 * What reaches the tab: the templates read (or not), the matrix read (its
 * columns are the scopes offered), a form's field changed, a preview or an
 * apply asked for, and what the API answered.
 * @typedef {(
 *   | { type: 'read', templates: readonly Template[] }
 *   | { type: 'read-failed', message: string }
 *   | { type: 'columns', columns: readonly MatrixColumn[] }
 *   | { type: 'field', template: string, name: string, value: string }
 *   | { type: 'asked', template: string }
 *   | { type: 'previewed', template: string, answer: Preview & { revision: number } }
 *   | { type: 'preview-failed', template: string, message: string }
 *   | { type: 'applied', template: string, applied: TemplateApplied }
 *   | { type: 'apply-failed', template: string, message: string }
 * )} TemplatesEvent
 */

/**
 * The tab of `workspace` before the templates are read.
 * @param {string} workspace @param {readonly MatrixColumn[] | null} [columns] the matrix's, once read
 * @returns {TemplatesState}
 */
export function templatesState(workspace, columns = null) {
  return { workspace, templates: null, error: '', columns, forms: {} };
}

/** A form as it starts: the workspace, the template's own enforcement, no parameter. @returns {TemplateForm} */
export function blankForm() {
  return {
    scope: 'workspace',
    enforcement: '',
    params: {},
    result: null,
    applicable: false,
    error: '',
  };
}

/** The form of `name` (a blank one before anything was typed). @param {TemplatesState} state @param {string} name */
export function formOf(state, name) {
  return state.forms[name] ?? blankForm();
}

/**
 * The scopes a template may be applied in: the matrix's columns but the
 * modes (the workspace alone before the matrix is read), as value and label.
 * @param {TemplatesState} state @param {(scope: string) => string} name how a scope is said
 * @returns {[string, string][]}
 */
export function scopeOptions(state, name) {
  const columns = (state.columns ?? []).filter((c) => c.kind !== 'mode');
  return (columns.length === 0 ? [{ scope: 'workspace' }] : columns).map((c) => [
    c.scope,
    name(c.scope),
  ]);
}

/** A parameter's example as its field's placeholder: a list one per line. @param {Template['params'][number]} param */
export function placeholder(param) {
  return Array.isArray(param.example) ? param.example.join('\n') : String(param.example);
}

/** A parameter's label: its name, and whether it is required. @param {Template['params'][number]} param */
export function paramLabel(param) {
  return `${param.name}${param.required ? ' (required)' : ''}`;
}

/** A parameter's help: its description, and for a list how to type one. @param {Template['params'][number]} param */
export function paramHelp(param) {
  if (param.kind !== 'list') return param.description;
  return `${param.description}${param.description.endsWith('.') ? '' : '.'} One per line.`;
}

/**
 * What a preview or an apply of `template` sends, from its form: the scope,
 * the enforcement when one was chosen, the parameters typed (a list one per
 * line; the empty ones left out).
 * @param {TemplatesState} state @param {Template} template
 */
export function templateArgs(state, template) {
  const form = formOf(state, template.name);
  /** @type {{ workspace: string, scope: string, enforcement?: string, params?: Record<string, string | string[]> }} */
  const out = { workspace: state.workspace, scope: form.scope };
  if (form.enforcement !== '') out.enforcement = form.enforcement;
  /** @type {Record<string, string | string[]>} */
  const values = {};
  for (const p of template.params) {
    const typed = form.params[p.name] ?? '';
    const v = p.kind === 'list' ? lines(typed) : typed.trim();
    if (v.length > 0) values[p.name] = v;
  }
  if (Object.keys(values).length > 0) out.params = values;
  return out;
}

/** What the toast says once `name` was applied. @param {string} name @param {TemplateApplied} applied */
export function appliedToast(name, applied) {
  return `Applied ${name}: revision ${applied.revision}`;
}

/**
 * `state` with the form of `name` changed by `change`.
 * @param {TemplatesState} state @param {string} name @param {(form: TemplateForm) => TemplateForm} change
 * @returns {TemplatesState}
 */
function withForm(state, name, change) {
  return { ...state, forms: { ...state.forms, [name]: change(formOf(state, name)) } };
}

/**
 * The tab after `event`.
 * @param {TemplatesState} state @param {TemplatesEvent} event @returns {TemplatesState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'read':
      // The templates drawn again: their forms start over.
      return { ...state, templates: event.templates, error: '', forms: {} };
    case 'read-failed':
      return { ...state, error: `Cannot read the templates: ${event.message}` };
    case 'columns':
      return { ...state, columns: event.columns };
    case 'field':
      // A preview no longer says what "Apply" would add: it waits for another.
      return withForm(state, event.template, (form) => {
        const applicable = false;
        if (event.name === 'scope') return { ...form, scope: event.value, applicable };
        if (event.name === 'enforcement') return { ...form, enforcement: event.value, applicable };
        return { ...form, params: { ...form.params, [event.name]: event.value }, applicable };
      });
    case 'asked':
      return withForm(state, event.template, (form) => ({ ...form, error: '' }));
    case 'previewed':
      return withForm(state, event.template, (form) => ({
        ...form,
        result: { kind: 'preview', answer: event.answer },
        applicable: true,
        error: '',
      }));
    case 'preview-failed':
      return withForm(state, event.template, (form) => ({
        ...form,
        result: null,
        applicable: false,
        error: `Cannot preview ${event.template}: ${event.message}`,
      }));
    case 'applied':
      return withForm(state, event.template, (form) => ({
        ...form,
        result: { kind: 'applied', applied: event.applied },
        applicable: false,
        error: '',
      }));
    case 'apply-failed':
      return withForm(state, event.template, (form) => ({
        ...form,
        error: `Cannot apply ${event.template}: ${event.message}`,
      }));
    default:
      return state;
  }
}
