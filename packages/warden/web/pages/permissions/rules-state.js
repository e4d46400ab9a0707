// The rules tab's state apart from its drawing, so that what the tab does can
// be tested in Node without a browser: the policy read (or that it could not
// be), the search and filters, which long lists are shown in full, the
// proof of the rules (on its way, read, or why not), which remembered
// rules have their "Revoke it?" open, and which long texts are shown whole
// (a redraw, when the proof or a new read arrives, keeps them so). Pure: no DOM, no `fetch`, no `window`;
// the rules tab (`rules.js`) feeds it the page's reads, the proof's answer
// and the person's input, and draws what it returns.

import { scopeName } from './text.js';

/**
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').RuleEntry} RuleEntry
 * @typedef {import('../../lib/types.js').LintWarning} LintWarning
 * @typedef {import('../../lib/types.js').PolicyProof} PolicyProof
 */

/**
 * What narrows the lists: text the rule holds (kept lower-cased and
 * trimmed), a scope, a class (`command` for command rules), a decision, an
 * origin, an expiry (`none`, `expires`, `expired`); `''` is any.
 * @typedef {{ readonly text: string, readonly scope: string, readonly action: string, readonly decision: string, readonly origin: string, readonly expiry: string }} RuleFilter
 */

/**
 * The proof of the rules: on its way, read, or why it could not be.
 * @typedef {(
 *   | { readonly kind: 'reading' }
 *   | { readonly kind: 'read', readonly proof: PolicyProof }
 *   | { readonly kind: 'failed', readonly message: string }
 * )} ProofRead
 */

/**
 * @typedef {{
 *   readonly data: PermissionsMatrix | null,
 *   readonly failed: boolean,
 *   readonly filter: RuleFilter,
 *   readonly expanded: readonly string[],
 *   readonly proof: ProofRead,
 *   readonly asking: readonly string[],
 *   readonly unfolded: readonly string[],
 * }} RulesState
 */

/**
 * What reaches the tab: the page read the policy (or failed to), the search
 * or a filter changed, a list shown in full, the proof read or not, a
 * remembered rule's revoke question opened or closed, a long text shown
 * whole or folded again (`key` names the text: `unfoldKey`).
 * @typedef {(
 *   | { type: 'read', data: PermissionsMatrix | null, failed: boolean }
 *   | { type: 'filter', key: keyof RuleFilter, value: string }
 *   | { type: 'show-all', list: string }
 *   | { type: 'proof-read', proof: PolicyProof }
 *   | { type: 'proof-failed', message: string }
 *   | { type: 'ask-revoke', rule: string }
 *   | { type: 'keep', rule: string }
 *   | { type: 'unfold', key: string, open: boolean }
 * )} RulesEvent
 */

/** Rules a list shows before "Show all": a long policy stays quick to draw. */
export const SHOWN_AT_FIRST = 100;

/** Natural order: `space-2` before `space-10`. */
const NATURAL = new Intl.Collator('en', { numeric: true });

/** The filters with fixed choices: key, label, `[value, label]` choices. @type {readonly [keyof RuleFilter, string, [string, string][]][]} */
export const FIXED_CHOICES = [
  [
    'decision',
    'Decision',
    [
      ['', 'any decision'],
      ['allow', 'allow'],
      ['prompt', 'ask'],
      ['deny', 'deny'],
    ],
  ],
  [
    'origin',
    'Origin',
    [
      ['', 'any origin'],
      ['user', 'user'],
      ['template', 'template'],
      ['remembered', 'remembered'],
      ['managed', 'managed'],
    ],
  ],
  [
    'expiry',
    'Expiry',
    [
      ['', 'any expiry'],
      ['none', 'no expiry'],
      ['expires', 'expires later'],
      ['expired', 'expired'],
    ],
  ],
];

/**
 * The tab before the policy is read (or as last read), the proof on its way.
 * @param {PermissionsMatrix | null} [data] @param {boolean} [failed]
 * @returns {RulesState}
 */
export function rulesState(data = null, failed = false) {
  return {
    data,
    failed,
    filter: { text: '', scope: '', action: '', decision: '', origin: '', expiry: '' },
    expanded: [],
    proof: { kind: 'reading' },
    asking: [],
    unfolded: [],
  };
}

/** Whether a rule passes the filter. @param {RuleEntry} r @param {RuleFilter} f */
export function passes(r, f) {
  if (f.scope !== '' && r.scope !== f.scope) return false;
  if (f.action !== '' && (r.action ?? 'command') !== f.action) return false;
  if (f.decision !== '' && r.decision !== f.decision) return false;
  if (f.origin !== '' && r.origin !== f.origin) return false;
  if (f.expiry === 'none' && r.expiresAt !== null) return false;
  if (f.expiry === 'expires' && (r.expiresAt === null || r.expired)) return false;
  if (f.expiry === 'expired' && !r.expired) return false;
  if (f.text === '') return true;
  const hay = `${r.id} ${r.sentence} ${r.scope} ${r.action ?? ''} ${r.command ?? ''}`.toLowerCase();
  return hay.includes(f.text);
}

/**
 * The scope and class filters' choices: any, then each the rules name (scopes
 * in natural order and in words, classes sorted, command rules as one).
 * @param {PermissionsMatrix} data
 * @returns {{ scope: [string, string][], action: [string, string][] }}
 */
export function namedChoices(data) {
  const scopes = [...new Set(data.rules.map((r) => r.scope))].sort(NATURAL.compare);
  const actions = [...new Set(data.rules.map((r) => r.action ?? 'command'))].sort();
  return {
    scope: [
      ['', 'any scope'],
      ...scopes.map((sc) => /** @type {[string, string]} */ ([sc, scopeName(sc)])),
    ],
    action: [
      ['', 'any class'],
      ...actions.map(
        (a) => /** @type {[string, string]} */ ([a, a === 'command' ? 'a command rule' : a]),
      ),
    ],
  };
}

/** The rules that pass the filter. @param {RulesState} state @returns {RuleEntry[]} */
export function passing(state) {
  return state.data === null ? [] : state.data.rules.filter((r) => passes(r, state.filter));
}

/** Whether the filter leaves out any rule. @param {RulesState} state */
export function filtered(state) {
  return passing(state).length !== (state.data?.rules.length ?? 0);
}

/** How many rules match, of how many. @param {RulesState} state */
export function countText(state) {
  const all = state.data?.rules.length ?? 0;
  const shown = passing(state).length;
  return shown === all ? `${all} rules` : `${shown} of ${all} rules match`;
}

/** What shows while there is no policy. @param {RulesState} state */
export function waitingText(state) {
  return state.failed ? 'The rules could not be read.' : 'Loading…';
}

/**
 * The rules that pass the filter, by list: the document's own, the
 * remembered approvals, the managed layer's.
 * @param {RulesState} state
 * @returns {{ doc: RuleEntry[], remembered: RuleEntry[], managed: RuleEntry[] }}
 */
export function lists(state) {
  const rules = passing(state);
  return {
    doc: rules.filter((r) => r.layer === 'workspace' && r.path !== null),
    remembered: rules.filter((r) => r.layer === 'workspace' && r.path === null),
    managed: rules.filter((r) => r.layer === 'managed'),
  };
}

/** How many of `total` the list `list` shows: all once shown in full, else the first. @param {RulesState} state @param {string} list @param {number} total */
export function shownOf(state, list, total) {
  return state.expanded.includes(list) ? total : Math.min(total, SHOWN_AT_FIRST);
}

/**
 * The lint warnings of the policy by the rule they are about.
 * @param {PermissionsMatrix} data @returns {Map<string, LintWarning[]>}
 */
export function warningsByRule(data) {
  /** @type {Map<string, LintWarning[]>} */
  const byRule = new Map();
  for (const w of data.warnings) byRule.set(w.rule, [...(byRule.get(w.rule) ?? []), w]);
  return byRule;
}

/** The proof read, or null while it is on its way or when it could not be. @param {RulesState} state */
export function proofOfState(state) {
  return state.proof.kind === 'read' ? state.proof.proof : null;
}

/** The line about the proof: empty while it is read. @param {RulesState} state */
export function proofText(state) {
  if (state.proof.kind === 'read')
    return 'Each deny and ask rule is tried against disguises of what it stops; its badge says whether it holds.';
  if (state.proof.kind === 'failed')
    return `The proof of the rules could not be read: ${state.proof.message}`;
  return '';
}

/** Whether the remembered rule `id` has its "Revoke it?" open. @param {RulesState} state @param {string} id */
export function isAsking(state, id) {
  return state.asking.includes(id);
}

/**
 * The name a long text of the tab goes by while it is shown whole: what it
 * is (`rule`, `warning`, `note`, …) and where (a rule's layer and id, a
 * position), so that the same text drawn again is found again.
 * @param {string} what @param {...(string | number)} where
 */
export function unfoldKey(what, ...where) {
  return [what, ...where.map(String)].join('\u0000');
}

/** Whether the long text `key` is shown whole. @param {RulesState} state @param {string} key */
export function isUnfolded(state, key) {
  return state.unfolded.includes(key);
}

/**
 * The tab after `event`.
 * @param {RulesState} state @param {RulesEvent} event @returns {RulesState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'read':
      return { ...state, data: event.data, failed: event.failed };
    case 'filter': {
      const value = event.key === 'text' ? event.value.trim().toLowerCase() : event.value;
      if (state.filter[event.key] === value) return state;
      return { ...state, filter: { ...state.filter, [event.key]: value } };
    }
    case 'show-all':
      return state.expanded.includes(event.list)
        ? state
        : { ...state, expanded: [...state.expanded, event.list] };
    case 'proof-read':
      return { ...state, proof: { kind: 'read', proof: event.proof } };
    case 'proof-failed':
      return { ...state, proof: { kind: 'failed', message: event.message } };
    case 'ask-revoke':
      return isAsking(state, event.rule)
        ? state
        : { ...state, asking: [...state.asking, event.rule] };
    case 'keep':
      return isAsking(state, event.rule)
        ? { ...state, asking: state.asking.filter((id) => id !== event.rule) }
        : state;
    case 'unfold':
      if (isUnfolded(state, event.key) === event.open) return state;
      return {
        ...state,
        unfolded: event.open
          ? [...state.unfolded, event.key]
          : state.unfolded.filter((key) => key !== event.key),
      };
    default:
      return state;
  }
}
