// Policy templates: the shipped library, a preview of exactly the rules a
// template adds (each as its sentence) and the matrix cells it changes, and
// applying it as a new revision whose rules have origin `template`.

import { api } from '../../lib/api.js';
import { code, h, replace, toast } from '../../lib/dom.js';
import { previewView } from './editor.js';
import { alertBox, clear, fail, field, lines, rich, scopeName, select, uid } from './ui.js';

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
/** @param {HTMLElement} panel @param {import('../../lib/types.js').PermissionsEnv} env */
export function mountTemplates(panel, env) {
  const box = alertBox();
  const body = h('div');

  /** @param {import('../../lib/types.js').Template} template */
  const card = (template) => {
    const local = alertBox();
    const result = h('div', { class: 'template-result', 'aria-live': 'polite' });
    const title = uid('tpl');
    const columns = (env.state.data?.columns ?? []).filter((c) => c.kind !== 'mode');
    const scope = select(
      (columns.length === 0 ? [{ scope: 'workspace' }] : columns).map((c) => [
        c.scope,
        scopeName(c.scope),
      ]),
      'workspace',
      { name: 'scope' },
    );
    const enforcement = select(
      [
        ['', 'as the template says (hard)'],
        ['hard', 'hard'],
        ['soft', 'soft (deny rules only)'],
        ['advisory', 'advisory (report only)'],
      ],
      '',
      { name: 'enforcement' },
    );
    const params = template.params.map((p) => {
      const example = Array.isArray(p.example) ? p.example.join('\n') : String(p.example);
      const control =
        p.kind === 'list'
          ? h('textarea', { name: p.name, rows: '2', placeholder: example, spellcheck: 'false' })
          : h('input', { type: 'text', name: p.name, placeholder: example, spellcheck: 'false' });
      return { p, control };
    });
    const args = () => {
      /** @type {{ workspace: string, scope: string, enforcement?: string, params?: Record<string, string | string[]> }} */
      const out = { workspace: env.workspace, scope: scope.value };
      if (enforcement.value !== '') out.enforcement = enforcement.value;
      /** @type {Record<string, string | string[]>} */
      const values = {};
      for (const { p, control } of params) {
        const v = p.kind === 'list' ? lines(control.value) : control.value.trim();
        if ((Array.isArray(v) && v.length > 0) || (!Array.isArray(v) && v !== ''))
          values[p.name] = v;
      }
      if (Object.keys(values).length > 0) out.params = values;
      return out;
    };
    const applyButton = env.canWrite
      ? h(
          'button',
          {
            type: 'button',
            class: 'primary',
            disabled: true,
            onclick: async () => {
              clear(local);
              try {
                /** @type {import('../../lib/types.js').TemplateApplied} */
                const applied = await api(
                  'POST',
                  `/v1/templates/${encodeURIComponent(template.name)}/apply`,
                  { ...args(), message: `template ${template.name} (console)` },
                );
                toast(`Applied ${template.name}: revision ${applied.revision}`);
                replace(
                  result,
                  h(
                    'p',
                    { class: 'applied' },
                    `Applied as revision ${applied.revision}: added `,
                    applied.added.map((r, i) => [i === 0 ? '' : ', ', code(r.id)]),
                    '.',
                  ),
                );
                /** @type {HTMLButtonElement} */ (applyButton).disabled = true;
                await env.state.load();
              } catch (error) {
                fail(local, `Cannot apply ${template.name}`, error);
              }
            },
          },
          'Apply',
        )
      : null;
    const invalidate = () => {
      if (applyButton !== null) applyButton.disabled = true;
    };
    const preview = async () => {
      clear(local);
      try {
        const answer = await api(
          'POST',
          `/v1/permissions/templates/${encodeURIComponent(template.name)}/preview`,
          args(),
        );
        replace(
          result,
          h('p', { class: 'muted' }, `Against revision ${answer.revision}:`),
          previewView(answer),
        );
        if (applyButton !== null) applyButton.disabled = false;
      } catch (error) {
        replace(result);
        invalidate();
        fail(local, `Cannot preview ${template.name}`, error);
      }
    };
    const form = h(
      'form',
      {
        onsubmit: (event) => {
          event.preventDefault();
          void preview();
        },
        oninput: invalidate,
        onchange: invalidate,
      },
      h(
        'div',
        { class: 'row' },
        field('Scope', scope),
        field('Enforcement', enforcement),
        params.map(({ p, control }) =>
          field(
            `${p.name}${p.required ? ' (required)' : ''}`,
            control,
            `${p.description}${p.kind === 'list' ? `${p.description.endsWith('.') ? '' : '.'} One per line.` : ''}`,
          ),
        ),
      ),
      h(
        'div',
        { class: 'row actions' },
        h('button', { type: 'submit' }, 'Preview'),
        applyButton,
        env.canWrite
          ? null
          : h('span', { class: 'muted' }, `Your role (${env.role}) may preview, not apply.`),
      ),
      local,
    );
    return h(
      'section',
      { class: 'card template', 'aria-labelledby': title, dataset: { template: template.name } },
      h(
        'h3',
        { id: title },
        template.title,
        ' ',
        h('span', { class: 'muted' }, code(template.name)),
      ),
      ...described(template.description),
      form,
      result,
    );
  };

  const load = async () => {
    try {
      /** @type {{ templates: import('../../lib/types.js').Template[] }} */
      const { templates } = await api('GET', '/v1/templates');
      replace(body, templates.map(card));
    } catch (error) {
      fail(box, 'Cannot read the templates', error);
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
  let seen = env.state.data !== null;
  return env.state.subscribe((data) => {
    if (!seen && data !== null) {
      seen = true;
      void load();
    }
  });
}
