// Writing one rule (G19, G20): scope, action class or command prefix,
// decision, constraints (G16–G18), enforcement (G25–G27), expiry (G12).
// "Preview" asks the server what the change would do to the matrix, and
// reads the rule back as its sentence; "Save" writes the whole document as a
// new revision, attributed to the signed-in name, only if the policy is still
// at the revision this form read — otherwise it says so and keeps the form.
//
// What the editor holds is its state (`editor-state.js`): pure, tested in
// Node. `openEditor` is the wiring: it builds the form once, feeds the state
// the person's input and the API's answers, sends the requests the state
// holds, and draws each new state into the parts that show it.

import { ApiError, api, query } from '../../lib/api.js';
import { badge, checkedOf, code, h, replace, toast, valueOf } from '../../lib/dom.js';
import {
  CONSTRAINTS,
  DECISIONS,
  ENFORCEMENTS,
  conflictText,
  constraintText,
  editorState,
  fits,
  mayRemove,
  reduce,
  reloadedText,
  removeText,
  revisionText,
  savedText,
  titleText,
} from './editor-state.js';
import { alertBox, fail, field, rich, scopeName, select, uid, wholeNumber } from './ui.js';

/**
 * @typedef {import('../../lib/types.js').Enforcement} Enforcement
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').RuleEntry} RuleEntry
 * @typedef {import('./editor-state.js').EditorState} EditorState
 * @typedef {import('./editor-state.js').EditorEvent} EditorEvent
 * @typedef {import('./editor-state.js').ListKey} ListKey
 * @typedef {import('./editor-state.js').TextKey} TextKey
 */

/** A short line for one changed cell of the matrix. @param {import('../../lib/types.js').CellChange} change */
export function changeLine(change) {
  /** @param {import('../../lib/types.js').CellBrief | null} c */
  const word = (c) =>
    c === null
      ? 'no column'
      : `${c.effective === 'prompt' ? 'ask' : c.effective}${c.decision === c.effective ? '' : ` (${c.decision} before the dial)`} by ${c.rule}`;
  return h(
    'li',
    { dataset: { class: change.class, scope: change.scope } },
    code(change.class),
    ` in ${scopeName(change.scope)}: `,
    word(change.before),
    ' → ',
    h('strong', null, word(change.after)),
  );
}

/**
 * What a proposed document does: the rules as sentences, the changed cells, warnings.
 * @param {import('../../lib/types.js').Preview} preview @param {string | null} focusId
 */
export function previewView(preview, focusId = null) {
  const { added, changed, removed } = preview.rules;
  /** @param {import('../../lib/types.js').RuleEntry} r @param {string} what */
  const ruleItem = (r, what) =>
    h(
      'li',
      { dataset: { rule: r.id } },
      h('span', { class: 'tag' }, what),
      ' ',
      rich(r.sentence),
      ' ',
      h('span', { class: 'muted' }, `[${r.id}]`),
    );
  const focus = [...added, ...changed.map((c) => c.after)].find((r) => r.id === focusId);
  return h(
    'div',
    { class: 'preview' },
    focus === undefined
      ? null
      : h('p', { class: 'sentence' }, h('strong', null, 'Reads as: '), rich(focus.sentence)),
    h('h3', null, 'Rules'),
    added.length + changed.length + removed.length === 0
      ? h('p', { class: 'muted' }, 'No rule changes.')
      : h(
          'ul',
          { class: 'list' },
          added.map((r) => ruleItem(r, 'added')),
          changed.map((c) => ruleItem(c.after, 'changed')),
          removed.map((r) => ruleItem(r, 'removed')),
        ),
    h('h3', null, 'Matrix cells that change'),
    preview.changes.length === 0
      ? h(
          'p',
          { class: 'muted' },
          'No cell changes: the rule decides only requests its conditions match (or only a command), or a narrower rule decides first.',
        )
      : h('ul', { class: 'list changes' }, preview.changes.map(changeLine)),
    preview.warnings.length === 0
      ? null
      : [
          h('h3', null, 'Warnings'),
          h(
            'ul',
            { class: 'list' },
            preview.warnings.map((w) =>
              h(
                'li',
                null,
                code(w.rule),
                ' ',
                rich(w.message),
                h('span', { class: 'muted' }, ` (${w.code})`),
              ),
            ),
          ),
        ],
  );
}

/**
 * How the form is built from the state it opens with, and where the person's input goes.
 * @typedef {{ state: EditorState, emit: (event: EditorEvent) => void }} Drawing
 */

/**
 * The parts of the dialog a new state redraws.
 * @typedef {{
 *   scopeSelect: HTMLSelectElement,
 *   otherField: HTMLElement,
 *   classField: HTMLElement,
 *   commandField: HTMLElement,
 *   enforcementSelect: HTMLSelectElement,
 *   constraintHelp: HTMLElement,
 *   revisionNote: HTMLElement,
 *   errors: HTMLElement,
 *   result: HTMLElement,
 *   remove: HTMLButtonElement | null,
 * }} Parts
 */

/** A handler that sends the control's value as one text field of the form. @param {Drawing} d @param {TextKey} key */
function writes(d, key) {
  return (/** @type {Event} */ event) => d.emit({ type: 'text', key, value: valueOf(event) });
}

/** A text input of the form (no spell check, no autocomplete). @param {Drawing} d @param {TextKey} key @param {Record<string, unknown>} attrs */
function textInput(d, key, attrs) {
  return h('input', {
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    ...attrs,
    oninput: writes(d, key),
  });
}

/** Where the rule lives: the scope select and the field for a scope the matrix does not show. @param {Drawing} d */
function scopeFields(d) {
  const scopeSelect = select([...d.state.scopes], d.state.form.scope, {
    name: 'scope',
    onchange: (/** @type {Event} */ event) => d.emit({ type: 'scope', value: valueOf(event) }),
  });
  const otherField = field(
    'New scope',
    textInput(d, 'otherScope', { name: 'other-scope', placeholder: 'agent:<id> or space:<id>' }),
    'A scope the matrix does not show yet.',
  );
  return { scopeSelect, otherField };
}

/** What the rule is about: an action class or a command prefix. @param {Drawing} d */
function aboutFields(d) {
  const kindName = uid('kind');
  /** @param {'action' | 'command'} value @param {string} label */
  const kindRadio = (value, label) =>
    h(
      'label',
      { class: 'inline' },
      h('input', {
        type: 'radio',
        name: kindName,
        value,
        checked: d.state.form.kind === value,
        onchange: (event) => {
          if (checkedOf(event)) d.emit({ type: 'kind', value });
        },
      }),
      ` ${label}`,
    );
  const kinds = h(
    'fieldset',
    { class: 'choices' },
    h('legend', null, 'The rule is about'),
    kindRadio('action', 'an action class'),
    kindRadio('command', 'a command prefix'),
  );
  const classField = field(
    'Action class',
    select([...d.state.classes], d.state.form.action, {
      name: 'action',
      onchange: writes(d, 'action'),
    }),
  );
  const commandField = field(
    'Command prefix',
    textInput(d, 'command', {
      name: 'command',
      value: d.state.form.command,
      placeholder: 'git push',
    }),
    'Matches at a word boundary: `git push` covers `git push origin main`, not `git pushx`.',
  );
  return { kinds, classField, commandField };
}

/** The decision's radios and the enforcement's select. @param {Drawing} d */
function decisionFields(d) {
  const decisionName = uid('decision');
  const decisionSet = h(
    'fieldset',
    { class: 'choices' },
    h('legend', null, 'Decision'),
    DECISIONS.map(([value, label, help]) =>
      h(
        'label',
        { class: 'choice' },
        h('input', {
          type: 'radio',
          name: decisionName,
          value,
          checked: d.state.form.decision === value,
          onchange: (event) => {
            if (checkedOf(event)) d.emit({ type: 'decision', value });
          },
        }),
        ' ',
        badge(value),
        ` ${label}`,
        h('span', { class: 'muted' }, ` — ${help}`),
      ),
    ),
  );
  const enforcementSelect = select([...ENFORCEMENTS], d.state.form.enforcement, {
    name: 'enforcement',
    onchange: (/** @type {Event} */ event) =>
      d.emit({ type: 'enforcement', value: /** @type {Enforcement} */ (valueOf(event)) }),
  });
  return { decisionSet, enforcementSelect };
}

/** The constraints: the lists and the caps, under the help the decision sets. @param {Drawing} d */
function constraintFields(d) {
  const { form } = d.state;
  const constraintHelp = h('p', { class: 'help muted' });
  /** @param {ListKey} key */
  const listInput = (key) =>
    h(
      'textarea',
      {
        name: key,
        rows: '2',
        spellcheck: 'false',
        oninput: (event) => d.emit({ type: 'list', key, value: valueOf(event) }),
      },
      form.lists[key],
    );
  /** @param {'maxCount' | 'maxCents'} name */
  const capInput = (name) =>
    wholeNumber(name, {
      value: form[name] === '' ? undefined : form[name],
      oninput: writes(d, name),
    });
  const constraints = h(
    'fieldset',
    { class: 'constraints' },
    h('legend', null, 'Only when (constraints, optional)'),
    constraintHelp,
    CONSTRAINTS.map(([key, label, help]) => field(label, listInput(key), help)),
    h(
      'div',
      { class: 'row' },
      field('At most this many (maxCount)', capInput('maxCount')),
      field('At most these cents (maxCents)', capInput('maxCents')),
    ),
  );
  return { constraints, constraintHelp };
}

/** Expiry, id, note and the revision's message. @param {Drawing} d */
function detailFields(d) {
  const { form } = d.state;
  return [
    field(
      'Expires (your local time; empty: never)',
      h('input', {
        type: 'datetime-local',
        name: 'expiresAt',
        value: form.expires === '' ? undefined : form.expires,
        oninput: writes(d, 'expires'),
      }),
      'After this the rule no longer exists for decisions.',
    ),
    field(
      'Rule id',
      textInput(d, 'id', {
        name: 'id',
        value: form.id,
        placeholder: 'generated from the rule when empty',
      }),
      'Letters, digits and dashes; no spaces, no `:`.',
    ),
    field(
      'Note',
      h('input', { type: 'text', name: 'note', value: form.note, oninput: writes(d, 'note') }),
    ),
    field(
      'Why (for the revision history)',
      h('input', {
        type: 'text',
        name: 'message',
        value: form.message,
        oninput: writes(d, 'message'),
      }),
    ),
  ];
}

/**
 * The whole form, built once; what changes afterwards is drawn into its `parts`.
 * @param {Drawing} d @param {string} titleId
 * @param {{ onSubmit: (event: SubmitEvent) => void, onPreview: () => void, onRemove: () => void, onCancel: () => void }} acts
 * @returns {{ form: HTMLFormElement, parts: Parts }}
 */
function buildForm(d, titleId, acts) {
  const errors = alertBox();
  const result = h('div', { class: 'editor-result', 'aria-live': 'polite' });
  const revisionNote = h('p', { class: 'muted' }, revisionText(d.state));
  const { scopeSelect, otherField } = scopeFields(d);
  const { kinds, classField, commandField } = aboutFields(d);
  const { decisionSet, enforcementSelect } = decisionFields(d);
  const { constraints, constraintHelp } = constraintFields(d);
  const remove = mayRemove(d.state)
    ? h('button', { type: 'button', class: 'danger', onclick: acts.onRemove }, removeText(d.state))
    : null;
  const form = h(
    'form',
    { class: 'editor', novalidate: true, onsubmit: acts.onSubmit },
    h('h2', { id: titleId }, titleText(d.state)),
    revisionNote,
    h(
      'div',
      { class: 'grid2' },
      h(
        'div',
        null,
        field(
          'Scope',
          scopeSelect,
          'Where the rule lives: narrowest first, space > agent > workspace > mode preset.',
        ),
        otherField,
        kinds,
        classField,
        commandField,
        decisionSet,
        field('Enforcement', enforcementSelect),
      ),
      h('div', null, constraints, detailFields(d)),
    ),
    errors,
    result,
    h(
      'div',
      { class: 'row actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Save as a new revision'),
      h('button', { type: 'button', onclick: acts.onPreview }, 'Preview'),
      remove,
      h('button', { type: 'button', onclick: acts.onCancel }, 'Cancel'),
    ),
  );
  const parts = {
    scopeSelect,
    otherField,
    classField,
    commandField,
    enforcementSelect,
    constraintHelp,
    revisionNote,
    errors,
    result,
    remove,
  };
  return { form, parts };
}

/** The enforcements the decision allows, the one chosen, and what the constraints mean. @param {Parts} parts @param {EditorState} state */
function drawDecision(parts, state) {
  for (const option of parts.enforcementSelect.options)
    option.disabled = !fits(state.form.decision, option.value);
  parts.enforcementSelect.value = state.form.enforcement;
  replace(parts.constraintHelp, constraintText(state.form.decision));
}

/** What went wrong last, with a way to read a newer revision after a conflict. @param {Parts} parts @param {EditorState} state @param {() => void} onReload */
function drawFailure(parts, state, onReload) {
  const failed = state.failed;
  if (failed === null) replace(parts.errors);
  else if (failed.kind === 'failed') replace(parts.errors, `${failed.what}: ${failed.message}`);
  else {
    const text = conflictText(failed.expected, failed.message);
    replace(
      parts.errors,
      h('strong', null, text.head),
      text.rest,
      ' ',
      h('button', { type: 'button', onclick: onReload }, 'Reload the policy'),
    );
  }
}

/** The preview answered, or that the policy was read again. @param {Parts} parts @param {EditorState} state */
function drawResult(parts, state) {
  const result = state.result;
  if (result === null) replace(parts.result);
  else if (result.kind === 'preview') replace(parts.result, previewView(result.preview, result.id));
  else replace(parts.result, h('p', { class: 'muted' }, reloadedText(result.revision)));
}

/**
 * Draws what changed from `prev` to `state`; each part only when its state did.
 * @param {Parts} parts @param {EditorState | null} prev @param {EditorState} state @param {() => void} onReload
 */
function drawEditor(parts, prev, state, onReload) {
  const { form } = state;
  if (prev === null || prev.form.scope !== form.scope) parts.otherField.hidden = form.scope !== '';
  if (prev === null || prev.form.kind !== form.kind) {
    parts.classField.hidden = form.kind === 'command';
    parts.commandField.hidden = form.kind !== 'command';
  }
  if (
    prev === null ||
    prev.form.decision !== form.decision ||
    prev.form.enforcement !== form.enforcement
  )
    drawDecision(parts, state);
  if (prev === null || prev.failed !== state.failed) drawFailure(parts, state, onReload);
  if (prev === null || prev.result !== state.result) drawResult(parts, state);
  if (prev === null || prev.revision !== state.revision)
    parts.revisionNote.textContent = revisionText(state);
  if (parts.remove !== null && (prev === null || prev.confirming !== state.confirming))
    replace(parts.remove, removeText(state));
}

/** What a refused request says. @param {unknown} error */
function message(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens the rule editor as a modal dialog.
 * @param {PermissionsEnv} env
 * @param {{ entry?: RuleEntry, scope?: string, action?: string, command?: string, enforcement?: Enforcement }} options
 */
export function openEditor(env, options = {}) {
  const data = env.state.data;
  if (data === null) return;
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  let state = editorState(data, options);
  /** The document and revision the page holds now: what a change is written on. */
  const base = () => /** @type {PermissionsMatrix} */ (env.state.data);

  /** @param {EditorEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    if (state === prev) return;
    drawEditor(parts, prev, state, reload);
    if (state.previewing !== null && state.previewing !== prev.previewing) void preview();
    if (state.writing !== null && state.writing !== prev.writing) void write();
    if (state.saved !== null && prev.saved === null) {
      toast(savedText(state.saved));
      close();
      void env.state.load();
    }
    if (state.scroll) {
      // The preview comes into view in the dialog: nobody has to scroll to find it.
      parts.result.scrollIntoView({ block: 'start' });
      dispatch({ type: 'scrolled' });
    }
  };

  const preview = async () => {
    const asking = /** @type {NonNullable<EditorState['previewing']>} */ (state.previewing);
    try {
      const answer = await api('POST', '/v1/permissions/preview', {
        workspace: env.workspace,
        document: asking.document,
      });
      dispatch({ type: 'previewed', asked: asking.asked, preview: answer });
    } catch (error) {
      dispatch({ type: 'preview-failed', asked: asking.asked, message: message(error) });
    }
  };

  const write = async () => {
    const writing = /** @type {NonNullable<EditorState['writing']>} */ (state.writing);
    try {
      /** @type {import('../../lib/types.js').Written} */
      const written = await api('PUT', '/v1/policy', {
        document: writing.document,
        message: writing.message,
        expectedRevision: writing.expected,
      });
      dispatch({ type: 'saved', written });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409)
        dispatch({ type: 'conflict', message: error.message });
      else dispatch({ type: 'write-refused', message: message(error) });
    }
  };

  const reload = async () => {
    await env.state.load();
    dispatch({ type: 'reloaded', revision: env.state.data?.revision.revision ?? null });
  };

  const titleId = uid('editor-title');
  const { form, parts } = buildForm({ state, emit: dispatch }, titleId, {
    onSubmit: (event) => {
      event.preventDefault();
      dispatch({ type: 'save', base: base().document, revision: base().revision.revision });
    },
    onPreview: () => dispatch({ type: 'preview', base: base().document }),
    onRemove: () =>
      dispatch({ type: 'remove', base: base().document, revision: base().revision.revision }),
    onCancel: () => close(),
  });
  drawEditor(parts, null, state, reload);

  const dialog = h('dialog', { class: 'editor-dialog', 'aria-labelledby': titleId }, form);
  const close = () => {
    if (dialog.open) dialog.close();
  };
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener !== null && opener.isConnected) opener.focus();
  });
  env.root.appendChild(dialog);
  dialog.showModal();
  parts.scopeSelect.focus();
}

/** Revokes a remembered rule (G23) and reloads; errors go to `box`. @param {import('../../lib/types.js').PermissionsEnv} env @param {import('../../lib/types.js').RuleEntry} rule @param {HTMLElement} box */
export async function revoke(env, rule, box) {
  try {
    await api(
      'DELETE',
      `/v1/rules/${encodeURIComponent(rule.id)}${query({ workspace: env.workspace })}`,
    );
    toast(`Revoked ${rule.id}`);
    await env.state.load();
  } catch (error) {
    fail(box, `Cannot revoke ${rule.id}`, error);
  }
}
