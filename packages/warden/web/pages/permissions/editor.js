// Writing one rule (G19, G20): scope, action class or command prefix,
// decision, constraints (G16–G18), enforcement (G25–G27), expiry (G12).
// "Preview" asks the server what the change would do to the matrix, and
// reads the rule back as its sentence; "Save" writes the whole document as a
// new revision, attributed to the signed-in name, only if the policy is still
// at the revision this form read — otherwise it says so and keeps the form.

import { ApiError, api, query } from '../../lib/api.js';
import { badge, checkedOf, code, h, replace, toast, valueOf } from '../../lib/dom.js';
import { freshId, locate, withRule, withoutRule } from './document.js';
import {
  alertBox,
  clear,
  fail,
  field,
  lines,
  localInput,
  rich,
  scopeName,
  select,
  uid,
} from './ui.js';

/** @type {[string, string, string][]} */
const DECISIONS = [
  ['allow', 'Allow', 'the call goes ahead'],
  ['prompt', 'Ask a human', 'a connected approver decides; with none connected it is denied'],
  ['deny', 'Deny', 'the call is refused'],
];

/** @type {[string, string][]} */
const ENFORCEMENTS = [
  ['hard', 'Hard — nothing overrides it'],
  ['soft', 'Soft — a deny an overrider may lift, with a reason'],
  ['advisory', 'Advisory — never enforced; the audit log records what it would have done'],
];

/** @type {['paths' | 'refs' | 'hosts' | 'commands', string, string][]} */
const CONSTRAINTS = [
  ['paths', 'Paths', 'Globs, one per line; `!` excludes: `repos/**`, `!**/.env`.'],
  ['refs', 'Git refs', 'Branch globs, one per line: `main`, `feature/**`, `!main`.'],
  ['hosts', 'Hosts', 'Host names, one per line; `*.internal` is any subdomain of `internal`.'],
  ['commands', 'Commands', 'Command prefixes, one per line (whole words): `npm test`.'],
];

/**
 * @typedef {import('../../lib/types.js').Decision} Decision
 * @typedef {import('../../lib/types.js').Enforcement} Enforcement
 * @typedef {import('../../lib/types.js').RawRule} RawRule
 * @typedef {import('../../lib/types.js').Constraints} Constraints
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').PolicyDocument} PolicyDocument
 * @typedef {import('../../lib/types.js').RuleEntry} RuleEntry
 */

/** The rule's id as the document allows it: no white space, no `:`. */
const ID = /^[^\s:]+$/;

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
 * The rule being written, as the form's inputs last set it: each input's
 * handler writes its own field, and the rule is read from this alone.
 * `scope` is `''` while "another agent or space" is picked (`otherScope`);
 * the lists and caps are the text of their inputs.
 * @typedef {{
 *   scope: string,
 *   otherScope: string,
 *   kind: 'action' | 'command',
 *   action: string,
 *   command: string,
 *   decision: Decision,
 *   enforcement: Enforcement,
 *   lists: Record<'paths' | 'refs' | 'hosts' | 'commands', string>,
 *   maxCount: string,
 *   maxCents: string,
 *   expires: string,
 *   id: string,
 *   note: string,
 *   message: string,
 * }} RuleForm
 */

/**
 * The parts of the rule being edited the form shows in another shape: its
 * expiry as written (the form shows it in local minutes) and its origin.
 * @typedef {{ expiresAt: string, expiresLocal: string, origin: string | undefined }} Kept
 */

/** Whether `enforcement` may go with `decision`: soft only denies, advisory never allows. @param {Decision} decision @param {string} enforcement */
function fits(decision, enforcement) {
  return !(
    (enforcement === 'soft' && decision !== 'deny') ||
    (enforcement === 'advisory' && decision === 'allow')
  );
}

/** A constraint list as the lines of its input (the document is hand-edited JSON: anything else is empty). @param {unknown} values */
function listText(values) {
  return Array.isArray(values) ? values.join('\n') : '';
}

/**
 * `action` if the class list offers it, else the first class offered (what its select shows).
 * @param {readonly { class: string }[]} classes @param {string} action
 */
function offered(classes, action) {
  return classes.some((c) => c.class === action) ? action : (classes[0]?.class ?? action);
}

/**
 * The rule the form describes and its scope, or what is wrong with it.
 * @param {RuleForm} form @param {Kept} kept
 * @returns {{ ok: true, scope: string, rule: RawRule } | { ok: false, message: string }}
 */
function ruleOf(form, kept) {
  const scope = form.scope === '' ? form.otherScope.trim() : form.scope;
  if (scope === '')
    return { ok: false, message: 'scope: say which agent or space (`agent:<id>`, `space:<id>`)' };
  const id = form.id.trim();
  if (id !== '' && !ID.test(id))
    return { ok: false, message: 'id: an id holds no white space and no `:`' };
  /** @type {RawRule} */
  const rule = {};
  if (id !== '') rule.id = id;
  if (form.kind === 'command') {
    const command = form.command.trim();
    if (command === '')
      return { ok: false, message: 'command: give the command prefix the rule is about' };
    rule.command = command;
  } else rule.action = form.action;
  rule.decision = form.decision;
  if (form.enforcement !== 'hard') rule.enforcement = form.enforcement;
  /** @type {Constraints} */
  const when = {};
  for (const [key] of CONSTRAINTS) {
    const values = lines(form.lists[key]);
    if (values.length > 0) when[key] = values;
  }
  for (const key of /** @type {const} */ (['maxCount', 'maxCents'])) {
    if (form[key].trim() === '') continue;
    const n = Number(form[key]);
    if (!Number.isInteger(n) || n < 0)
      return { ok: false, message: `${key}: a whole number, 0 or more` };
    when[key] = n;
  }
  if (Object.keys(when).length > 0) rule.when = when;
  if (form.expires !== '') {
    if (form.expires === kept.expiresLocal) rule.expiresAt = kept.expiresAt;
    else {
      const at = new Date(form.expires);
      if (Number.isNaN(at.getTime())) return { ok: false, message: 'expires: not a time' };
      rule.expiresAt = at.toISOString().replace(/\.000Z$/, 'Z');
    }
  }
  if (kept.origin !== undefined) rule.origin = kept.origin;
  if (form.note.trim() !== '') rule.note = form.note.trim();
  return { ok: true, scope, rule };
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
  const entry = options.entry ?? null;
  const located = entry === null ? null : locate(data.document, entry);
  const raw = located?.raw ?? null;
  const initialScope = entry?.scope ?? options.scope ?? 'workspace';
  const initialCommand = raw?.command ?? options.command;
  const subject = raw?.action ?? options.action ?? initialCommand ?? 'rule';
  const when = raw?.when ?? {};
  const expiresAt = raw?.expiresAt ?? '';
  /** @type {Kept} */
  const kept = {
    expiresAt,
    expiresLocal: expiresAt === '' ? '' : localInput(expiresAt),
    origin: raw?.origin,
  };

  /** @type {RuleForm} */
  const form = {
    scope: initialScope,
    otherScope: '',
    kind: initialCommand === undefined ? 'action' : 'command',
    action: offered(data.classes, raw?.action ?? options.action ?? 'gitPush'),
    command: initialCommand ?? '',
    decision: raw?.decision ?? 'deny',
    enforcement: options.enforcement ?? raw?.enforcement ?? 'hard',
    lists: {
      paths: listText(when.paths),
      refs: listText(when.refs),
      hosts: listText(when.hosts),
      commands: listText(when.commands),
    },
    maxCount: when.maxCount === undefined ? '' : String(when.maxCount),
    maxCents: when.maxCents === undefined ? '' : String(when.maxCents),
    expires: kept.expiresLocal,
    id: raw === null ? freshId(data.document, subject, initialScope) : (raw.id ?? ''),
    note: raw?.note ?? '',
    message: entry === null ? 'console: add a rule' : `console: change rule ${entry.id}`,
  };

  if (!fits(form.decision, form.enforcement)) form.enforcement = 'hard';

  const titleId = uid('editor-title');
  const errors = alertBox();
  const result = h('div', { class: 'editor-result', 'aria-live': 'polite' });
  const revisionNote = h('p', { class: 'muted' }, `Editing revision ${data.revision.revision}.`);

  /**
   * A handler that writes the control's value into one text field of `form`.
   * @param {'otherScope' | 'action' | 'command' | 'maxCount' | 'maxCents' | 'expires' | 'id' | 'note' | 'message'} key
   */
  const writes = (key) => (/** @type {Event} */ event) => {
    form[key] = valueOf(event);
  };

  // Identity and place.
  /** @type {[string, string][]} */
  const scopes = data.columns.map((c) => [c.scope, scopeName(c.scope)]);
  if (!scopes.some(([s]) => s === initialScope))
    scopes.push([initialScope, scopeName(initialScope)]);
  scopes.push(['', 'Another agent or space…']);
  const scopeSelect = select(scopes, form.scope, {
    name: 'scope',
    onchange: (/** @type {Event} */ event) => {
      form.scope = valueOf(event);
      showScope();
    },
  });
  const otherField = field(
    'New scope',
    h('input', {
      type: 'text',
      name: 'other-scope',
      placeholder: 'agent:<id> or space:<id>',
      autocomplete: 'off',
      spellcheck: 'false',
      oninput: writes('otherScope'),
    }),
    'A scope the matrix does not show yet.',
  );

  // What the rule is about.
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
        checked: form.kind === value,
        onchange: (event) => {
          if (!checkedOf(event)) return;
          form.kind = value;
          showKind();
        },
      }),
      ` ${label}`,
    );
  const classField = field(
    'Action class',
    select(
      data.classes.map((c) => [c.class, `${c.class} — ${c.covers}`]),
      form.action,
      { name: 'action', onchange: writes('action') },
    ),
  );
  const commandField = field(
    'Command prefix',
    h('input', {
      type: 'text',
      name: 'command',
      value: form.command,
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'git push',
      oninput: writes('command'),
    }),
    'Matches at a word boundary: `git push` covers `git push origin main`, not `git pushx`.',
  );

  // Decision and enforcement.
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
          checked: form.decision === value,
          onchange: (event) => {
            if (!checkedOf(event)) return;
            form.decision = /** @type {Decision} */ (value);
            if (!fits(form.decision, form.enforcement)) form.enforcement = 'hard';
            showDecision();
          },
        }),
        ' ',
        badge(value),
        ` ${label}`,
        h('span', { class: 'muted' }, ` — ${help}`),
      ),
    ),
  );
  const enforcementSelect = select(ENFORCEMENTS, form.enforcement, {
    name: 'enforcement',
    onchange: (/** @type {Event} */ event) => {
      form.enforcement = /** @type {Enforcement} */ (valueOf(event));
    },
  });
  const constraintHelp = h('p', { class: 'help muted' });

  // Constraints.
  /** @param {'paths' | 'refs' | 'hosts' | 'commands'} key */
  const listInput = (key) =>
    h(
      'textarea',
      {
        name: key,
        rows: '2',
        spellcheck: 'false',
        oninput: (event) => {
          form.lists[key] = valueOf(event);
        },
      },
      form.lists[key],
    );
  /** @param {'maxCount' | 'maxCents'} name */
  const capInput = (name) =>
    h('input', {
      type: 'number',
      name,
      min: '0',
      step: '1',
      inputmode: 'numeric',
      value: form[name] === '' ? undefined : form[name],
      oninput: writes(name),
    });

  // Drawing what depends on the choices above.
  const showScope = () => {
    otherField.hidden = form.scope !== '';
  };
  const showKind = () => {
    classField.hidden = form.kind === 'command';
    commandField.hidden = form.kind !== 'command';
  };
  const showDecision = () => {
    for (const option of enforcementSelect.options)
      option.disabled = !fits(form.decision, option.value);
    enforcementSelect.value = form.enforcement;
    replace(
      constraintHelp,
      form.decision === 'allow'
        ? 'An allow applies only when the request lies entirely within every value given here; a cap holds at or under it.'
        : 'A deny or ask applies when the request touches any value given here; a cap applies when the request exceeds it. A request that does not say a value it would need here asks a human.',
    );
  };

  /** The document with the rule written into it, and the rule's id; or what is wrong. */
  const proposed = () => {
    const read = ruleOf(form, kept);
    if (!read.ok) throw new Error(read.message);
    const base = /** @type {PermissionsMatrix} */ (env.state.data).document;
    return { document: withRule(base, entry, read.rule, read.scope), id: read.rule.id ?? null };
  };

  const reload = async () => {
    await env.state.load();
    clear(errors);
    replace(
      result,
      h(
        'p',
        { class: 'muted' },
        `The policy is now read at revision ${env.state.data?.revision.revision ?? '—'}; your edits are still here: save again to write them on top of it.`,
      ),
    );
    revisionNote.textContent = `Editing revision ${env.state.data?.revision.revision ?? '—'}.`;
  };

  /** @param {PolicyDocument} document @param {string} message */
  const write = async (document, message) => {
    const expected = /** @type {PermissionsMatrix} */ (env.state.data).revision.revision;
    try {
      /** @type {import('../../lib/types.js').Written} */
      const written = await api('PUT', '/v1/policy', {
        document,
        message,
        expectedRevision: expected,
      });
      toast(`Saved: revision ${written.revision}, by ${written.author}`);
      close();
      await env.state.load();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        replace(
          errors,
          h('strong', null, 'Not saved — the policy changed since this form read it. '),
          `This form read revision ${expected}; ${error.message}. Reload it to see the other change, then save again.`,
          ' ',
          h('button', { type: 'button', onclick: reload }, 'Reload the policy'),
        );
        return;
      }
      fail(errors, 'Not saved', error);
    }
  };

  const preview = async () => {
    clear(errors);
    try {
      const { document, id } = proposed();
      const answer = await api('POST', '/v1/permissions/preview', {
        workspace: env.workspace,
        document,
      });
      replace(result, previewView(answer, id));
      // The preview comes into view in the dialog: nobody has to scroll to find it.
      result.scrollIntoView({ block: 'start' });
    } catch (error) {
      replace(result);
      fail(errors, 'Cannot preview', error);
    }
  };

  /** @param {SubmitEvent} event */
  const save = async (event) => {
    event.preventDefault();
    clear(errors);
    let next;
    try {
      next = proposed();
    } catch (error) {
      fail(errors, 'Not saved', error);
      return;
    }
    await write(next.document, form.message.trim() || 'console');
  };

  /** Removing asks twice: the first click asks to confirm. @param {RuleEntry} rule */
  const removeButton = (rule) => {
    let confirming = false;
    return h(
      'button',
      {
        type: 'button',
        class: 'danger',
        onclick: async (event) => {
          if (!confirming) {
            confirming = true;
            replace(
              /** @type {HTMLButtonElement} */ (event.currentTarget),
              `Remove ${rule.id} — click again to confirm`,
            );
            return;
          }
          clear(errors);
          try {
            await write(
              withoutRule(/** @type {PermissionsMatrix} */ (env.state.data).document, rule),
              `console: remove rule ${rule.id}`,
            );
          } catch (error) {
            fail(errors, 'Not removed', error);
          }
        },
      },
      'Remove this rule',
    );
  };

  const formEl = h(
    'form',
    { class: 'editor', novalidate: true, onsubmit: save },
    h('h2', { id: titleId }, entry === null ? 'Add a rule' : `Edit rule ${entry.id}`),
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
        h(
          'fieldset',
          { class: 'choices' },
          h('legend', null, 'The rule is about'),
          kindRadio('action', 'an action class'),
          kindRadio('command', 'a command prefix'),
        ),
        classField,
        commandField,
        decisionSet,
        field('Enforcement', enforcementSelect),
      ),
      h(
        'div',
        null,
        h(
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
        ),
        field(
          'Expires (your local time; empty: never)',
          h('input', {
            type: 'datetime-local',
            name: 'expiresAt',
            value: form.expires === '' ? undefined : form.expires,
            oninput: writes('expires'),
          }),
          'After this the rule no longer exists for decisions.',
        ),
        field(
          'Rule id',
          h('input', {
            type: 'text',
            name: 'id',
            value: form.id,
            autocomplete: 'off',
            spellcheck: 'false',
            placeholder: 'generated from the rule when empty',
            oninput: writes('id'),
          }),
          'Letters, digits and dashes; no spaces, no `:`.',
        ),
        field(
          'Note',
          h('input', { type: 'text', name: 'note', value: form.note, oninput: writes('note') }),
        ),
        field(
          'Why (for the revision history)',
          h('input', {
            type: 'text',
            name: 'message',
            value: form.message,
            oninput: writes('message'),
          }),
        ),
      ),
    ),
    errors,
    result,
    h(
      'div',
      { class: 'row actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Save as a new revision'),
      h('button', { type: 'button', onclick: preview }, 'Preview'),
      entry === null || entry.path === null ? null : removeButton(entry),
      h('button', { type: 'button', onclick: () => close() }, 'Cancel'),
    ),
  );
  showScope();
  showKind();
  showDecision();

  const dialog = h('dialog', { class: 'editor-dialog', 'aria-labelledby': titleId }, formEl);
  const close = () => {
    if (dialog.open) dialog.close();
  };
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener !== null && opener.isConnected) opener.focus();
  });
  env.root.appendChild(dialog);
  dialog.showModal();
  scopeSelect.focus();
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
