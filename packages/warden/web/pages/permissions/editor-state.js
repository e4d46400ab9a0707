// The rule editor's state apart from its drawing, so that what the editor
// does can be tested in Node without a browser: the rule being written (each
// field as its input last set it), the rule and document it makes or what is
// wrong with it, the preview asked for and the server's answer, the write on
// its way and how it ended (saved, refused, or a conflict with a newer
// revision), the revision the form reads, and whether removing waits for its
// confirmation. Pure: no DOM, no `fetch`, no `window`; the editor
// (`editor.js`) feeds it the person's input and the API's answers, sends the
// requests it holds, and draws what it returns.

import { freshId, locate, withRule, withoutRule } from './document.js';
import { lines, localInput, scopeName } from './text.js';

/**
 * @typedef {import('../../lib/types.js').Decision} Decision
 * @typedef {import('../../lib/types.js').Enforcement} Enforcement
 * @typedef {import('../../lib/types.js').RawRule} RawRule
 * @typedef {import('../../lib/types.js').Constraints} Constraints
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').PolicyDocument} PolicyDocument
 * @typedef {import('../../lib/types.js').Preview} Preview
 * @typedef {import('../../lib/types.js').RuleEntry} RuleEntry
 * @typedef {import('../../lib/types.js').Written} Written
 * @typedef {'paths' | 'refs' | 'hosts' | 'commands'} ListKey
 * @typedef {'otherScope' | 'action' | 'command' | 'maxCount' | 'maxCents' | 'expires' | 'id' | 'note' | 'message'} TextKey
 */

/** The decisions a rule makes: value, label, what it means. @type {readonly [Decision, string, string][]} */
export const DECISIONS = [
  ['allow', 'Allow', 'the call goes ahead'],
  ['prompt', 'Ask a human', 'a connected approver decides; with none connected it is denied'],
  ['deny', 'Deny', 'the call is refused'],
];

/** How a rule is enforced: value and label. @type {readonly [Enforcement, string][]} */
export const ENFORCEMENTS = [
  ['hard', 'Hard — nothing overrides it'],
  ['soft', 'Soft — a deny an overrider may lift, with a reason'],
  ['advisory', 'Advisory — never enforced; the audit log records what it would have done'],
];

/** The constraint lists: key, label, help. @type {readonly [ListKey, string, string][]} */
export const CONSTRAINTS = [
  ['paths', 'Paths', 'Globs, one per line; `!` excludes: `repos/**`, `!**/.env`.'],
  ['refs', 'Git refs', 'Branch globs, one per line: `main`, `feature/**`, `!main`.'],
  ['hosts', 'Hosts', 'Host names, one per line; `*.internal` is any subdomain of `internal`.'],
  ['commands', 'Commands', 'Command prefixes, one per line (whole words): `npm test`.'],
];

/** The rule's id as the document allows it: no white space, no `:`. */
const ID = /^[^\s:]+$/;

/**
 * The rule being written, as the form's inputs last set it. `scope` is `''`
 * while "another agent or space" is picked (`otherScope`); the lists and caps
 * are the text of their inputs.
 * @typedef {{
 *   readonly scope: string,
 *   readonly otherScope: string,
 *   readonly kind: 'action' | 'command',
 *   readonly action: string,
 *   readonly command: string,
 *   readonly decision: Decision,
 *   readonly enforcement: Enforcement,
 *   readonly lists: Readonly<Record<ListKey, string>>,
 *   readonly maxCount: string,
 *   readonly maxCents: string,
 *   readonly expires: string,
 *   readonly id: string,
 *   readonly note: string,
 *   readonly message: string,
 * }} RuleForm
 */

/**
 * The parts of the rule being edited the form shows in another shape: its
 * expiry as written (the form shows it in local minutes) and its origin.
 * @typedef {{ readonly expiresAt: string, readonly expiresLocal: string, readonly origin: string | undefined }} Kept
 */

/**
 * What went wrong last: an action refused (in the server's words, or the
 * form's), or a save that met a newer revision than the form read.
 * @typedef {(
 *   | { readonly kind: 'failed', readonly what: string, readonly message: string }
 *   | { readonly kind: 'conflict', readonly expected: number, readonly message: string }
 * )} Failure
 */

/**
 * What the result area shows: the preview answered, or that the policy was read again.
 * @typedef {(
 *   | { readonly kind: 'preview', readonly preview: Preview, readonly id: string | null }
 *   | { readonly kind: 'reloaded', readonly revision: number | null }
 * )} Result
 */

/**
 * @typedef {{
 *   readonly entry: RuleEntry | null,
 *   readonly kept: Kept,
 *   readonly scopes: readonly [string, string][],
 *   readonly classes: readonly [string, string][],
 *   readonly form: RuleForm,
 *   readonly revision: number | null,
 *   readonly asked: number,
 *   readonly previewing: { readonly asked: number, readonly document: PolicyDocument, readonly id: string | null } | null,
 *   readonly writing: { readonly document: PolicyDocument, readonly message: string, readonly expected: number } | null,
 *   readonly result: Result | null,
 *   readonly failed: Failure | null,
 *   readonly confirming: boolean,
 *   readonly saved: Written | null,
 *   readonly scroll: boolean,
 * }} EditorState
 */

/**
 * What reaches the editor: an input changed, an action asked for (with the
 * document and revision the page holds now), the API's answers, the result
 * brought into view.
 * @typedef {(
 *   | { type: 'text', key: TextKey, value: string }
 *   | { type: 'list', key: ListKey, value: string }
 *   | { type: 'scope', value: string }
 *   | { type: 'kind', value: 'action' | 'command' }
 *   | { type: 'decision', value: Decision }
 *   | { type: 'enforcement', value: Enforcement }
 *   | { type: 'preview', base: PolicyDocument }
 *   | { type: 'previewed', asked: number, preview: Preview }
 *   | { type: 'preview-failed', asked: number, message: string }
 *   | { type: 'save', base: PolicyDocument, revision: number }
 *   | { type: 'remove', base: PolicyDocument, revision: number }
 *   | { type: 'saved', written: Written }
 *   | { type: 'write-refused', message: string }
 *   | { type: 'conflict', message: string }
 *   | { type: 'reloaded', revision: number | null }
 *   | { type: 'scrolled' }
 * )} EditorEvent
 */

/** Whether `enforcement` may go with `decision`: soft only denies, advisory never allows. @param {Decision} decision @param {string} enforcement */
export function fits(decision, enforcement) {
  return !(
    (enforcement === 'soft' && decision !== 'deny') ||
    (enforcement === 'advisory' && decision === 'allow')
  );
}

/** A constraint list as the lines of its input (the document is hand-edited JSON: anything else is empty). @param {unknown} values */
export function listText(values) {
  return Array.isArray(values) ? values.join('\n') : '';
}

/**
 * `action` if the class list offers it, else the first class offered (what its select shows).
 * @param {readonly { class: string }[]} classes @param {string} action
 */
export function offered(classes, action) {
  return classes.some((c) => c.class === action) ? action : (classes[0]?.class ?? action);
}

/**
 * The scopes the form offers: the matrix's columns, the one it opened on if
 * the matrix has no such column, and "another agent or space".
 * @param {readonly { scope: string }[]} columns @param {string} initial @returns {[string, string][]}
 */
export function scopeChoices(columns, initial) {
  /** @type {[string, string][]} */
  const scopes = columns.map((c) => [c.scope, scopeName(c.scope)]);
  if (!scopes.some(([s]) => s === initial)) scopes.push([initial, scopeName(initial)]);
  scopes.push(['', 'Another agent or space…']);
  return scopes;
}

/**
 * The editor as it opens: on a rule of the matrix's list (`entry`), or on a
 * new rule for a scope, an action class or a command, with an enforcement.
 * @param {Pick<PermissionsMatrix, 'document' | 'classes' | 'columns' | 'revision'>} data
 * @param {{ entry?: RuleEntry, scope?: string, action?: string, command?: string, enforcement?: Enforcement }} [options]
 * @returns {EditorState}
 */
export function editorState(data, options = {}) {
  const entry = options.entry ?? null;
  const raw = entry === null ? null : (locate(data.document, entry)?.raw ?? null);
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
  const decision = raw?.decision ?? 'deny';
  const enforcement = options.enforcement ?? raw?.enforcement ?? 'hard';
  return {
    entry,
    kept,
    scopes: scopeChoices(data.columns, initialScope),
    classes: data.classes.map((c) => [c.class, `${c.class} — ${c.covers}`]),
    form: {
      scope: initialScope,
      otherScope: '',
      kind: initialCommand === undefined ? 'action' : 'command',
      action: offered(data.classes, raw?.action ?? options.action ?? 'gitPush'),
      command: initialCommand ?? '',
      decision,
      enforcement: fits(decision, enforcement) ? enforcement : 'hard',
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
    },
    revision: data.revision.revision,
    asked: 0,
    previewing: null,
    writing: null,
    result: null,
    failed: null,
    confirming: false,
    saved: null,
    scroll: false,
  };
}

/**
 * The rule the form describes and its scope, or what is wrong with it.
 * @param {RuleForm} form @param {Kept} kept
 * @returns {{ ok: true, scope: string, rule: RawRule } | { ok: false, message: string }}
 */
export function ruleOf(form, kept) {
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

/** What a thrown error says. @param {unknown} error */
function said(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `base` with the form's rule written into it, and the rule's id; or what is wrong.
 * @param {EditorState} state @param {PolicyDocument} base
 * @returns {{ ok: true, document: PolicyDocument, id: string | null } | { ok: false, message: string }}
 */
export function proposal(state, base) {
  const read = ruleOf(state.form, state.kept);
  if (!read.ok) return read;
  try {
    return {
      ok: true,
      document: withRule(base, state.entry, read.rule, read.scope),
      id: read.rule.id ?? null,
    };
  } catch (error) {
    return { ok: false, message: said(error) };
  }
}

/** Whether the rule edited can be removed here (one of the document's own rules). @param {EditorState} state */
export function mayRemove(state) {
  return state.entry !== null && state.entry.path !== null;
}

/** The dialog's title. @param {EditorState} state */
export function titleText(state) {
  return state.entry === null ? 'Add a rule' : `Edit rule ${state.entry.id}`;
}

/** The line under the title. @param {EditorState} state */
export function revisionText(state) {
  return `Editing revision ${state.revision ?? '—'}.`;
}

/** The remove button's words: the second click confirms. @param {EditorState} state */
export function removeText(state) {
  return state.entry !== null && state.confirming
    ? `Remove ${state.entry.id} — click again to confirm`
    : 'Remove this rule';
}

/** What the constraints mean for the decision chosen. @param {Decision} decision */
export function constraintText(decision) {
  return decision === 'allow'
    ? 'An allow applies only when the request lies entirely within every value given here; a cap holds at or under it.'
    : 'A deny or ask applies when the request touches any value given here; a cap applies when the request exceeds it. A request that does not say a value it would need here asks a human.';
}

/** The result area's words after the policy was read again. @param {number | null} revision */
export function reloadedText(revision) {
  return `The policy is now read at revision ${revision ?? '—'}; your edits are still here: save again to write them on top of it.`;
}

/** What a conflict says: the strong part, then the rest. @param {number} expected @param {string} message */
export function conflictText(expected, message) {
  return {
    head: 'Not saved — the policy changed since this form read it. ',
    rest: `This form read revision ${expected}; ${message}. Reload it to see the other change, then save again.`,
  };
}

/** The toast once a revision is written. @param {Written} written */
export function savedText(written) {
  return `Saved: revision ${written.revision}, by ${written.author}`;
}

/**
 * The editor with `form` changed by `change`.
 * @param {EditorState} state @param {Partial<RuleForm>} change @returns {EditorState}
 */
function withForm(state, change) {
  return { ...state, form: { ...state.form, ...change } };
}

/**
 * A write of `document` asked for, unless one is on its way.
 * @param {EditorState} state @param {PolicyDocument} document @param {string} message @param {number} expected
 * @returns {EditorState}
 */
function writes(state, document, message, expected) {
  return { ...state, failed: null, writing: { document, message, expected } };
}

/**
 * What an asked-for action does: a preview, a save, a remove.
 * @param {EditorState} state @param {Extract<EditorEvent, { type: 'preview' | 'save' | 'remove' }>} event
 * @returns {EditorState}
 */
function ask(state, event) {
  if (event.type === 'preview') {
    const made = proposal(state, event.base);
    if (!made.ok)
      return {
        ...state,
        previewing: null,
        result: null,
        failed: { kind: 'failed', what: 'Cannot preview', message: made.message },
      };
    const asked = state.asked + 1;
    return {
      ...state,
      asked,
      failed: null,
      previewing: { asked, document: made.document, id: made.id },
    };
  }
  // One write at a time: a second click while one is on its way does nothing.
  if (state.writing !== null) return state;
  if (event.type === 'save') {
    const made = proposal(state, event.base);
    if (!made.ok)
      return { ...state, failed: { kind: 'failed', what: 'Not saved', message: made.message } };
    return writes(state, made.document, state.form.message.trim() || 'console', event.revision);
  }
  const entry = state.entry;
  if (entry === null || !mayRemove(state)) return state;
  if (!state.confirming) return { ...state, confirming: true };
  try {
    const document = withoutRule(event.base, entry);
    return writes(state, document, `console: remove rule ${entry.id}`, event.revision);
  } catch (error) {
    return { ...state, failed: { kind: 'failed', what: 'Not removed', message: said(error) } };
  }
}

/**
 * The editor after `event`.
 * @param {EditorState} state @param {EditorEvent} event @returns {EditorState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'text':
      return withForm(state, { [event.key]: event.value });
    case 'list':
      return withForm(state, { lists: { ...state.form.lists, [event.key]: event.value } });
    case 'scope':
      return withForm(state, { scope: event.value });
    case 'kind':
      return withForm(state, { kind: event.value });
    case 'decision':
      // An enforcement that cannot go with the new decision goes back to hard.
      return withForm(state, {
        decision: event.value,
        enforcement: fits(event.value, state.form.enforcement) ? state.form.enforcement : 'hard',
      });
    case 'enforcement':
      return fits(state.form.decision, event.value)
        ? withForm(state, { enforcement: event.value })
        : state;
    case 'preview':
    case 'save':
    case 'remove':
      return ask(state, event);
    case 'previewed': {
      // Only the answer to the last preview asked: an earlier one is out of date.
      const asked = state.previewing;
      if (asked === null || asked.asked !== event.asked) return state;
      return {
        ...state,
        previewing: null,
        result: { kind: 'preview', preview: event.preview, id: asked.id },
        scroll: true,
      };
    }
    case 'preview-failed':
      if (state.previewing === null || state.previewing.asked !== event.asked) return state;
      return {
        ...state,
        previewing: null,
        result: null,
        failed: { kind: 'failed', what: 'Cannot preview', message: event.message },
      };
    case 'saved':
      return { ...state, writing: null, saved: event.written };
    case 'write-refused':
      return {
        ...state,
        writing: null,
        failed: { kind: 'failed', what: 'Not saved', message: event.message },
      };
    case 'conflict':
      if (state.writing === null) return state;
      return {
        ...state,
        writing: null,
        failed: { kind: 'conflict', expected: state.writing.expected, message: event.message },
      };
    case 'reloaded':
      return {
        ...state,
        revision: event.revision,
        failed: null,
        result: { kind: 'reloaded', revision: event.revision },
      };
    case 'scrolled':
      return state.scroll ? { ...state, scroll: false } : state;
    default:
      return state;
  }
}
