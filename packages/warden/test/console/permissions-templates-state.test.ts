// The policy templates tab's state, tested in Node without a browser: the
// console keeps what the templates tab does in a pure module
// (`web/pages/permissions/templates-state.js`), events in and a new state
// out, so the scopes offered, what a preview or an apply sends, when "Apply"
// may be pressed and what a failure says are checked here; the browser test
// (`web-permissions.test.ts`) keeps what only a browser shows.

import { describe, expect, it } from 'vitest';
import {
  ENFORCEMENTS,
  appliedToast,
  blankForm,
  formOf,
  paramHelp,
  paramLabel,
  placeholder,
  reduce,
  scopeOptions,
  templateArgs,
  templatesState,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/permissions/templates-state.js';

type State = ReturnType<typeof templatesState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduce(s, e), state);

const template = {
  name: 'no-package-installs',
  title: 'No package installs',
  description: 'Denies installs. More.',
  params: [
    {
      name: 'registries',
      kind: 'list',
      required: false,
      description: 'Registries allowed',
      example: ['npmjs.org', 'pypi.org'],
    },
    { name: 'branch', kind: 'string', required: true, description: 'The branch.', example: 'main' },
  ],
};

const columns = [
  { scope: 'workspace', kind: 'workspace', id: null },
  { scope: 'agent:coder-1', kind: 'agent', id: 'coder-1' },
  { scope: 'mode:review', kind: 'mode', id: 'review' },
];

const preview = { revision: 4, rules: { added: [], changed: [], removed: [] } };
const applied = { revision: 5, added: [{ id: 'tpl-a' }, { id: 'tpl-b' }] };

describe('templates state', () => {
  it('starts with nothing read and a blank form for any template', () => {
    const state = templatesState('acme');
    expect(state.templates).toBeNull();
    expect(state.error).toBe('');
    expect(formOf(state, 'anything')).toEqual(blankForm());
    expect(blankForm()).toMatchObject({ scope: 'workspace', enforcement: '', applicable: false });
  });

  it('offers the workspace alone before the matrix is read, then its columns but the modes', () => {
    const name = (s: string) => `<${s}>`;
    expect(scopeOptions(templatesState('acme'), name)).toEqual([['workspace', '<workspace>']]);
    const read = reduce(templatesState('acme'), { type: 'columns', columns });
    expect(scopeOptions(read, name)).toEqual([
      ['workspace', '<workspace>'],
      ['agent:coder-1', '<agent:coder-1>'],
    ]);
    expect(scopeOptions(templatesState('acme', columns), name)).toHaveLength(2);
  });

  it('says a parameter as its field does: label, placeholder, help', () => {
    const [list, text] = template.params;
    expect(paramLabel(list)).toBe('registries');
    expect(paramLabel(text)).toBe('branch (required)');
    expect(placeholder(list)).toBe('npmjs.org\npypi.org');
    expect(placeholder(text)).toBe('main');
    expect(paramHelp(list)).toBe('Registries allowed. One per line.');
    expect(paramHelp({ ...list, description: 'Registries.' })).toBe('Registries. One per line.');
    expect(paramHelp(text)).toBe('The branch.');
    expect(ENFORCEMENTS.map(([v]: [string, string]) => v)).toEqual([
      '',
      'hard',
      'soft',
      'advisory',
    ]);
  });

  it('sends the scope, the enforcement chosen and the parameters typed, lists one per line', () => {
    const blank = templatesState('acme');
    expect(templateArgs(blank, template)).toEqual({ workspace: 'acme', scope: 'workspace' });
    const filled = feed(
      blank,
      { type: 'field', template: template.name, name: 'scope', value: 'agent:coder-1' },
      { type: 'field', template: template.name, name: 'enforcement', value: 'advisory' },
      { type: 'field', template: template.name, name: 'registries', value: ' npmjs.org \n\n x.io' },
      { type: 'field', template: template.name, name: 'branch', value: '  ' },
    );
    expect(templateArgs(filled, template)).toEqual({
      workspace: 'acme',
      scope: 'agent:coder-1',
      enforcement: 'advisory',
      params: { registries: ['npmjs.org', 'x.io'] },
    });
    const branch = reduce(filled, {
      type: 'field',
      template: template.name,
      name: 'branch',
      value: ' release ',
    });
    expect(templateArgs(branch, template).params).toEqual({
      registries: ['npmjs.org', 'x.io'],
      branch: 'release',
    });
  });

  it('lets "Apply" send a preview only until the form changes', () => {
    const previewed = feed(
      templatesState('acme'),
      { type: 'asked', template: template.name },
      { type: 'previewed', template: template.name, answer: preview },
    );
    expect(formOf(previewed, template.name)).toMatchObject({
      applicable: true,
      error: '',
      result: { kind: 'preview', answer: preview },
    });
    const changed = reduce(previewed, {
      type: 'field',
      template: template.name,
      name: 'branch',
      value: 'x',
    });
    // The preview stays in sight; it is no longer what "Apply" would send.
    expect(formOf(changed, template.name).applicable).toBe(false);
    expect(formOf(changed, template.name).result).toEqual({ kind: 'preview', answer: preview });
    // Another template's form is its own.
    expect(formOf(changed, 'other')).toEqual(blankForm());
  });

  it('shows the revision applied, and cannot apply it twice', () => {
    const done = feed(
      templatesState('acme'),
      { type: 'previewed', template: template.name, answer: preview },
      { type: 'applied', template: template.name, applied },
    );
    expect(formOf(done, template.name)).toMatchObject({
      applicable: false,
      result: { kind: 'applied', applied },
    });
    expect(appliedToast(template.name, applied)).toBe('Applied no-package-installs: revision 5');
  });

  it('says what failed: the read, a preview (which clears it), an apply (which keeps it)', () => {
    const unread = reduce(templatesState('acme'), { type: 'read-failed', message: 'down' });
    expect(unread.error).toBe('Cannot read the templates: down');
    expect(reduce(unread, { type: 'read', templates: [template] }).error).toBe('');

    const previewed = reduce(templatesState('acme'), {
      type: 'previewed',
      template: template.name,
      answer: preview,
    });
    const failed = reduce(previewed, {
      type: 'preview-failed',
      template: template.name,
      message: 'branch is required',
    });
    expect(formOf(failed, template.name)).toMatchObject({
      result: null,
      applicable: false,
      error: 'Cannot preview no-package-installs: branch is required',
    });
    const refused = reduce(previewed, {
      type: 'apply-failed',
      template: template.name,
      message: 'conflict',
    });
    expect(formOf(refused, template.name)).toMatchObject({
      applicable: true,
      error: 'Cannot apply no-package-installs: conflict',
    });
    // Asking again clears what failed before.
    expect(
      formOf(reduce(refused, { type: 'asked', template: template.name }), template.name).error,
    ).toBe('');
  });

  it('starts the forms over when the templates are read again', () => {
    const typed = feed(
      templatesState('acme'),
      { type: 'read', templates: [template] },
      { type: 'field', template: template.name, name: 'branch', value: 'x' },
    );
    expect(formOf(typed, template.name).params).toEqual({ branch: 'x' });
    const again = reduce(typed, { type: 'read', templates: [template] });
    expect(again.templates).toEqual([template]);
    expect(formOf(again, template.name)).toEqual(blankForm());
  });

  it('leaves the state as it was for an event it does not know', () => {
    const state = templatesState('acme');
    expect(reduce(state, { type: 'nothing' })).toBe(state);
  });
});
