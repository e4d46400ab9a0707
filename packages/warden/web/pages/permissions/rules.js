// Every rule decisions read, each as its sentence with origin and expiry
// (G19): the policy document's rules (editable by an admin), the remembered
// approvals beside it (revocable, G23), and the managed layer (read-only,
// with where it comes from, G29). Lint warnings say which rules never decide;
// each deny and prompt rule carries its proof's verdict (read once per page).
// A search and filters (scope, class, decision, origin, expiry) narrow every
// list at once; a rule's lint warnings stand beside it. The rules suggested
// by prompts approved once again and again have their own tab
// (suggestions.js), not a place below hundreds of rules and warnings.
//
// What the tab holds is its state (`rules-state.js`): pure, tested in Node.
// `mountRules` is the wiring: it builds the search and filters once (what is
// typed stays typed), feeds the state the page's reads, the proof and the
// person's input, and draws each new state into the lists. A long text the
// person showed whole, or a revoke question they opened, stays so when the
// lists are drawn again.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { openEditor, revoke } from './editor.js';
import { proofBadge, proofOf } from './proof.js';
import {
  FIXED_CHOICES,
  countText,
  filtered,
  isAsking,
  isUnfolded,
  lists,
  namedChoices,
  proofOfState,
  proofText,
  reduce,
  rulesState,
  shownOf,
  unfoldKey,
  warningsByRule,
  waitingText,
} from './rules-state.js';
import { alertBox, originTag, rich, scopeName, uid } from './ui.js';

/**
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').RuleEntry} RuleEntry
 * @typedef {import('../../lib/types.js').LintWarning} LintWarning
 * @typedef {import('./rules-state.js').RulesState} RulesState
 * @typedef {import('./rules-state.js').RulesEvent} RulesEvent
 * @typedef {import('./rules-state.js').RuleFilter} RuleFilter
 */

/**
 * The remembered rules whose "Revoke it?" is open: asked, opened, closed.
 * A `Set` of ids will do; the rules tab keeps them in its state.
 * @typedef {{ has: (id: string) => boolean, add: (id: string) => unknown, delete: (id: string) => unknown }} Asking
 */

/**
 * The long texts shown whole, kept in the rules tab's state: whether one is,
 * and the person showing it whole or folding it again.
 * @typedef {{ isOpen: (key: string) => boolean, set: (key: string, open: boolean) => void }} Unfolding
 */

/**
 * `folded`'s options for the text `key`: shown whole as `unfolding` holds,
 * and each fold or unfold told to it (none where nothing keeps them).
 * @param {Unfolding | null} unfolding @param {string} key
 */
function kept(unfolding, key) {
  if (unfolding === null) return {};
  return {
    open: unfolding.isOpen(key),
    onToggle: (/** @type {boolean} */ open) => unfolding.set(key, open),
  };
}

/** Where the managed layer comes from, in words. @param {import('../../lib/types.js').PermissionsMatrix['managed'] | null | undefined} managed */
export function managedSourceText(managed) {
  if (managed === null || managed === undefined || !managed.loaded) return 'no managed layer';
  if (managed.source === 'env')
    return `the file ${managed.file ?? ''}, pinned by WARDEN_MANAGED_POLICY: no admin surface can change it`;
  if (managed.source === 'flag')
    return `the file ${managed.file ?? ''}, pinned by the server’s configuration (WARDEN_MANAGED_POLICY or managedPolicy): no admin surface can change it`;
  if (managed.source === 'store') return 'the managed layer stored on the server (PUT /v1/managed)';
  return String(managed.source);
}

/** A rule's expiry: never, until a time, or expired. @param {RuleEntry} rule */
function expiry(rule) {
  if (rule.expiresAt === null) return h('span', { class: 'muted' }, 'no expiry');
  return h(
    'span',
    { class: rule.expired ? 'expired' : undefined },
    rule.expired ? 'expired ' : 'until ',
    time(rule.expiresAt),
  );
}

/**
 * The revoke control of a remembered rule: "Revoke", then "Revoke it?" with
 * a second click to confirm (the agents lose the approval at once).
 * @param {PermissionsEnv} env @param {RuleEntry} rule @param {HTMLElement} box @param {Asking | null} asking
 */
function revokeSlot(env, rule, box, asking) {
  const slot = h('span', { class: 'revoke' });
  const ask = (focus = true) => {
    asking?.add(rule.id);
    const yes = h(
      'button',
      {
        type: 'button',
        class: 'danger',
        'aria-label': `Yes, revoke remembered rule ${rule.id}`,
        onclick: () => void revoke(env, rule, box),
      },
      'Yes, revoke',
    );
    replace(
      slot,
      h('span', { class: 'revoke-question' }, 'Revoke it? Calls it answers are asked again. '),
      yes,
      ' ',
      h('button', { type: 'button', onclick: offer }, 'Keep it'),
    );
    if (focus) yes.focus();
  };
  const offer = () => {
    asking?.delete(rule.id);
    const button = h(
      'button',
      {
        type: 'button',
        class: 'danger',
        'aria-label': `Revoke remembered rule ${rule.id}`,
        onclick: () => ask(),
      },
      'Revoke',
    );
    replace(slot, button);
    return button;
  };
  if (asking?.has(rule.id) === true) ask(false);
  else offer();
  return slot;
}

/** What the role may do to a rule: read it only, revoke it, edit it. @param {PermissionsEnv} env @param {RuleEntry} rule @param {HTMLElement} box @param {Asking | null} asking */
function ruleActions(env, rule, box, asking) {
  if (rule.readOnly)
    return [
      h(
        'span',
        { class: 'readonly' },
        'read-only: managed by ',
        managedSourceText(env.state.data?.managed),
      ),
    ];
  if (env.canWrite && rule.revocable) return [revokeSlot(env, rule, box, asking)];
  if (env.canWrite && rule.path !== null)
    return [
      h(
        'button',
        {
          type: 'button',
          'aria-label': `Edit rule ${rule.id}`,
          onclick: () => openEditor(env, { entry: rule }),
        },
        'Edit',
      ),
    ];
  return [];
}

/**
 * One rule as a list item: sentence, id, origin, enforcement, expiry, and what the role may do to it.
 * @param {PermissionsEnv} env @param {RuleEntry} rule @param {HTMLElement} box where a failed action says why
 * @param {import('../../lib/types.js').RuleProof | null} [proof] the rule's proof, shown as a badge when given
 * @param {readonly LintWarning[]} [warnings] what lint says about it, shown beneath it
 * @param {Asking | null} [asking] ids whose revoke question is open: it stays open when the list is drawn again
 * @param {Unfolding | null} [unfolding] the long texts shown whole: they stay so when the list is drawn again
 */
export function ruleItem(
  env,
  rule,
  box,
  proof = null,
  warnings = [],
  asking = null,
  unfolding = null,
) {
  const actions = ruleActions(env, rule, box, asking);
  /** @param {LintWarning} w @param {number} i */
  const warning = (w, i) =>
    warningLine(w, kept(unfolding, unfoldKey('warning', rule.layer, rule.id, i)));
  return h(
    'li',
    {
      class: `rule${rule.expired ? ' is-expired' : ''}`,
      dataset: { rule: rule.id, layer: rule.layer },
    },
    h(
      'p',
      { class: 'sentence' },
      folded(rule.sentence, {
        limit: 400,
        render: rich,
        what: 'the rule',
        ...kept(unfolding, unfoldKey('rule', rule.layer, rule.id)),
      }),
    ),
    h(
      'p',
      { class: 'meta' },
      code(rule.id),
      ' ',
      originTag(rule.origin),
      ' ',
      h('span', { class: `tag tag-${rule.enforcement}` }, rule.enforcement),
      proof === null ? null : [' ', proofBadge(proof)],
      ' · ',
      expiry(rule),
      ' · ',
      h('span', { class: 'muted' }, scopeName(rule.scope)),
      actions.length === 0 ? null : [' ', ...actions],
    ),
    warnings.slice(0, WARNINGS_SHOWN).map(warning),
    warnings.length <= WARNINGS_SHOWN
      ? null
      : h(
          'details',
          { class: 'rule-warnings-more' },
          h(
            'summary',
            null,
            `${warnings.length - WARNINGS_SHOWN} more ${warnings.length - WARNINGS_SHOWN === 1 ? 'warning' : 'warnings'}`,
          ),
          warnings.slice(WARNINGS_SHOWN).map((w, i) => warning(w, WARNINGS_SHOWN + i)),
        ),
  );
}

/** Warnings shown beside a rule before the rest fold away. */
const WARNINGS_SHOWN = 2;

/** One lint warning beside its rule. @param {LintWarning} w @param {{ open?: boolean, onToggle?: (open: boolean) => void }} keep */
function warningLine(w, keep) {
  return h(
    'p',
    { class: 'rule-warning', dataset: { code: w.code } },
    h('span', { class: 'tag tag-warning' }, 'warning'),
    ' ',
    folded(w.message, { limit: 400, render: rich, what: 'the warning', ...keep }),
  );
}

/**
 * How the tab draws a state, and where the person's input goes.
 * @typedef {{
 *   state: RulesState,
 *   data: PermissionsMatrix,
 *   emit: (event: RulesEvent) => void,
 *   env: PermissionsEnv,
 *   box: HTMLElement,
 *   proofLine: HTMLElement,
 *   asking: Asking,
 *   unfolding: Unfolding,
 * }} Drawing
 */

/** The button that shows the rest of the list `list`. @param {Drawing} d @param {string} list @param {string} label @param {...import('../../lib/types.js').Child} after */
function showAll(d, list, label, ...after) {
  return h(
    'p',
    { class: 'more-rules' },
    h('button', { type: 'button', onclick: () => d.emit({ type: 'show-all', list }) }, label),
    ...after,
  );
}

/**
 * A list of rules as the filter leaves it: its first rules, the rest on
 * request (or narrowed by the filters).
 * @param {Drawing} d @param {Map<string, LintWarning[]>} warnings @param {RuleEntry[]} rules @param {string} empty @param {string} list
 */
function ruleList(d, warnings, rules, empty, list) {
  if (rules.length === 0)
    return h(
      'p',
      { class: 'muted' },
      filtered(d.state) ? 'No rule here matches the filter.' : empty,
    );
  const limit = shownOf(d.state, list, rules.length);
  const proof = proofOfState(d.state);
  /** @param {RuleEntry} r */
  const item = (r) =>
    ruleItem(
      d.env,
      r,
      d.box,
      proofOf(proof, r),
      r.layer === 'workspace' ? (warnings.get(r.id) ?? []) : [],
      d.asking,
      d.unfolding,
    );
  return [
    h('ul', { class: 'list rules' }, rules.slice(0, limit).map(item)),
    rules.length <= limit
      ? null
      : showAll(
          d,
          list,
          `Show all ${rules.length} (${rules.length - limit} more)`,
          h('span', { class: 'muted' }, ' — or narrow them with the search and filters above.'),
        ),
  ];
}

/** The policy document's own rules, with its revision and the proof's line. @param {Drawing} d @param {RuleEntry[]} rules @param {Map<string, LintWarning[]>} warnings */
function policySection(d, rules, warnings) {
  const { env, data } = d;
  return section(
    'Rules of the policy',
    h(
      'p',
      { class: 'muted' },
      `Revision ${data.revision.revision}, by ${data.revision.author}`,
      data.revision.message === null
        ? ''
        : [
            ' — ',
            folded(data.revision.message, {
              limit: 200,
              what: 'the note',
              ...kept(d.unfolding, unfoldKey('note', data.revision.revision)),
            }),
          ],
      '. ',
      env.canWrite
        ? 'Each change is saved as a new revision in your name.'
        : `Your role (${env.role}) may read the rules, not change them.`,
    ),
    d.proofLine,
    env.canWrite
      ? h(
          'p',
          null,
          h(
            'button',
            { type: 'button', class: 'primary', onclick: () => openEditor(env, {}) },
            'Add a rule',
          ),
        )
      : null,
    ruleList(
      d,
      warnings,
      rules,
      'The policy has no rules of its own: the built-in defaults decide.',
      'doc',
    ),
  );
}

/** The managed layer's rules, with where they come from. @param {Drawing} d @param {RuleEntry[]} rules @param {Map<string, LintWarning[]>} warnings */
function managedSection(d, rules, warnings) {
  return section(
    'Managed rules (read-only)',
    h(
      'p',
      null,
      'Source: ',
      h('strong', { class: 'managed-source' }, managedSourceText(d.data.managed)),
      '.',
    ),
    h(
      'p',
      { class: 'muted' },
      'The managed layer is resolved on its own and merged strictest: it can only tighten, never loosen.',
    ),
    ruleList(d, warnings, rules, 'No managed rule.', 'managed'),
  );
}

/** Every lint warning and what was left out, when there are any. @param {Drawing} d */
function warningsSection(d) {
  const { data } = d;
  if (data.warnings.length === 0 && data.skipped.length === 0) return null;
  const shown = shownOf(d.state, 'warnings', data.warnings.length);
  return section(
    'Warnings',
    h(
      'p',
      { class: 'muted' },
      `${data.warnings.length} in all; each also stands beside its rule above.`,
    ),
    h(
      'ul',
      { class: 'list' },
      data.skipped.map((s, i) =>
        h(
          'li',
          null,
          'Left out: ',
          folded(s, { limit: 400, render: rich, ...kept(d.unfolding, unfoldKey('skipped', i)) }),
        ),
      ),
      data.warnings.slice(0, shown).map((w, i) =>
        h(
          'li',
          null,
          folded(w.rule, {
            limit: 80,
            render: code,
            what: 'the rule id',
            ...kept(d.unfolding, unfoldKey('lint-rule', i)),
          }),
          ' ',
          folded(w.message, {
            limit: 400,
            render: rich,
            what: 'the warning',
            ...kept(d.unfolding, unfoldKey('lint', i)),
          }),
          ' ',
          h('span', { class: 'muted' }, `(${w.code})`),
        ),
      ),
    ),
    shown >= data.warnings.length
      ? null
      : showAll(d, 'warnings', `Show all ${data.warnings.length} warnings`),
  );
}

/** The three lists and the warnings. @param {Drawing} d */
function drawLists(d) {
  const { doc, remembered, managed } = lists(d.state);
  const warnings = warningsByRule(d.data);
  return [
    policySection(d, doc, warnings),
    section(
      'Remembered approvals',
      h(
        'p',
        { class: 'muted' },
        'Rules an approver wrote by answering "approve for N hours": bound to what they saw, gone when they expire',
        d.env.canWrite ? ', revocable before that.' : '.',
      ),
      ruleList(d, warnings, remembered, 'No remembered approval is in force.', 'remembered'),
    ),
    managedSection(d, managed, warnings),
    warningsSection(d),
  ];
}

/**
 * A labelled select of the filter's `key`.
 * @param {(event: RulesEvent) => void} emit @param {keyof RuleFilter} key @param {string} label
 * @param {[string, string][]} choices @param {string} value
 */
function filterSelect(emit, key, label, choices, value) {
  const id = uid(`rules-${key}`);
  const el = h(
    'select',
    {
      id,
      dataset: { filter: key },
      onchange: (/** @type {Event} */ event) =>
        emit({
          type: 'filter',
          key,
          value: /** @type {HTMLSelectElement} */ (event.currentTarget).value,
        }),
    },
    choices.map(([v, text]) => h('option', { value: v, selected: value === v }, text)),
  );
  return h('span', { class: 'filter-field' }, h('label', { for: id }, label), el);
}

/** The filters' selects, with the scopes and classes the policy names. @param {(event: RulesEvent) => void} emit @param {RulesState} state @param {PermissionsMatrix} data */
function drawSelects(emit, state, data) {
  const named = namedChoices(data);
  return [
    filterSelect(emit, 'scope', 'Scope', named.scope, state.filter.scope),
    filterSelect(emit, 'action', 'Class', named.action, state.filter.action),
    FIXED_CHOICES.map(([key, label, choices]) =>
      filterSelect(emit, key, label, choices, state.filter[key]),
    ),
  ];
}

/** The search over the rules, built once. @param {(event: RulesEvent) => void} emit */
function searchField(emit) {
  const searchId = uid('rules-search');
  const search = h('input', {
    id: searchId,
    type: 'search',
    autocomplete: 'off',
    placeholder: 'id, words of the sentence, scope',
    oninput: (/** @type {Event} */ event) =>
      emit({
        type: 'filter',
        key: 'text',
        value: /** @type {HTMLInputElement} */ (event.currentTarget).value,
      }),
  });
  return h('span', { class: 'filter-field' }, h('label', { for: searchId }, 'Search'), search);
}

/** The line about the proof: its words, its tone, what became of it. @param {HTMLElement} line @param {RulesState} state */
function drawProof(line, state) {
  replace(line, proofText(state));
  if (state.proof.kind === 'failed') line.className = 'proof-state error';
  if (state.proof.kind !== 'reading') line.dataset.proof = state.proof.kind;
}

/** @param {HTMLElement} panel @param {PermissionsEnv} env */
export function mountRules(panel, env) {
  let state = rulesState(env.state.data, env.state.error !== null);
  const box = alertBox();
  const body = h('div');
  const count = h('span', { class: 'muted rule-count', role: 'status' });
  const selects = h('span', { class: 'rule-selects' });
  const proofLine = h('p', { class: 'proof-state muted', role: 'status' });
  /** @type {Asking} the revoke questions open, kept in the state; the items draw them */
  const asking = {
    has: (id) => isAsking(state, id),
    add: (id) => dispatch({ type: 'ask-revoke', rule: id }),
    delete: (id) => dispatch({ type: 'keep', rule: id }),
  };
  /** @type {Unfolding} the long texts shown whole, kept in the state; each toggle draws its own text */
  const unfolding = {
    isOpen: (key) => isUnfolded(state, key),
    set: (key, open) => dispatch({ type: 'unfold', key, open }),
  };

  /** @param {RulesEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    if (state !== prev) draw(prev);
  };

  /** Draws what changed from `prev`; a revoke question is drawn by its item, a long text by its toggle. @param {RulesState | null} prev */
  const draw = (prev) => {
    if (prev === null || prev.proof !== state.proof) drawProof(proofLine, state);
    if (prev !== null && (prev.asking !== state.asking || prev.unfolded !== state.unfolded)) return;
    if (prev !== null && state.proof.kind === 'failed' && prev.proof !== state.proof) return;
    const data = state.data;
    if (data === null) {
      replace(body, h('p', { class: 'muted' }, waitingText(state)));
      return;
    }
    if (prev === null || prev.data !== data) replace(selects, drawSelects(dispatch, state, data));
    replace(count, countText(state));
    replace(
      body,
      drawLists({ state, data, emit: dispatch, env, box, proofLine, asking, unfolding }),
    );
  };

  replace(
    panel,
    box,
    h('div', { class: 'row rule-filter', role: 'search' }, searchField(dispatch), selects, count),
    body,
  );
  draw(null);
  api('GET', `/v1/policy/proof${query({ workspace: env.workspace })}`).then(
    (/** @type {import('../../lib/types.js').PolicyProof} */ proof) =>
      dispatch({ type: 'proof-read', proof }),
    (error) =>
      dispatch({
        type: 'proof-failed',
        message: error instanceof Error ? error.message : String(error),
      }),
  );
  return env.state.subscribe((data, error) =>
    dispatch({ type: 'read', data, failed: error !== null }),
  );
}
