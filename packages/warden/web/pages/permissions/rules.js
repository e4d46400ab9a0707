// Every rule decisions read, each as its sentence with origin and expiry
// (G19): the policy document's rules (editable by an admin), the remembered
// approvals beside it (revocable, G23), and the managed layer (read-only,
// with where it comes from, G29). Lint warnings say which rules never decide;
// each deny and prompt rule carries its proof's verdict (read once per page).
// A search and filters (scope, class, decision, origin, expiry) narrow every
// list at once; a rule's lint warnings stand beside it. The rules suggested
// by prompts approved once again and again have their own tab
// (suggestions.js), not a place below hundreds of rules and warnings.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { openEditor, revoke } from './editor.js';
import { proofBadge, proofOf } from './proof.js';
import { alertBox, originTag, rich, scopeName, uid } from './ui.js';

/** Rules a list shows before "Show all": a long policy stays quick to draw. */
const SHOWN_AT_FIRST = 100;

/** Natural order: `space-2` before `space-10`. */
const NATURAL = new Intl.Collator('en', { numeric: true });

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

/** A rule's expiry: never, until a time, or expired. @param {import('../../lib/types.js').RuleEntry} rule */
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
 * One rule as a list item: sentence, id, origin, enforcement, expiry, and what the role may do to it.
 * @param {import('../../lib/types.js').PermissionsEnv} env @param {import('../../lib/types.js').RuleEntry} rule @param {HTMLElement} box where a failed action says why
 * @param {import('../../lib/types.js').RuleProof | null} [proof] the rule's proof, shown as a badge when given
 * @param {readonly import('../../lib/types.js').LintWarning[]} [warnings] what lint says about it, shown beneath it
 * @param {Set<string> | null} [asking] ids whose revoke question is open: it stays open when the list is drawn again
 */
export function ruleItem(env, rule, box, proof = null, warnings = [], asking = null) {
  const actions = [];
  if (rule.readOnly) {
    actions.push(
      h(
        'span',
        { class: 'readonly' },
        'read-only: managed by ',
        managedSourceText(env.state.data?.managed),
      ),
    );
  } else if (env.canWrite && rule.revocable) {
    // Revoking takes a second click: the agents lose the approval at once.
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
    actions.push(slot);
  } else if (env.canWrite && rule.path !== null) {
    actions.push(
      h(
        'button',
        {
          type: 'button',
          'aria-label': `Edit rule ${rule.id}`,
          onclick: () => openEditor(env, { entry: rule }),
        },
        'Edit',
      ),
    );
  }
  return h(
    'li',
    {
      class: `rule${rule.expired ? ' is-expired' : ''}`,
      dataset: { rule: rule.id, layer: rule.layer },
    },
    h(
      'p',
      { class: 'sentence' },
      folded(rule.sentence, { limit: 400, render: rich, what: 'the rule' }),
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
    warnings.slice(0, WARNINGS_SHOWN).map(warningLine),
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
          warnings.slice(WARNINGS_SHOWN).map(warningLine),
        ),
  );
}

/** Warnings shown beside a rule before the rest fold away. */
const WARNINGS_SHOWN = 2;

/** One lint warning beside its rule. @param {import('../../lib/types.js').LintWarning} w */
function warningLine(w) {
  return h(
    'p',
    { class: 'rule-warning', dataset: { code: w.code } },
    h('span', { class: 'tag tag-warning' }, 'warning'),
    ' ',
    folded(w.message, { limit: 400, render: rich, what: 'the warning' }),
  );
}

/**
 * @typedef {{ text: string, scope: string, action: string, decision: string, origin: string, expiry: string }} RuleFilter
 */

/** @type {[keyof RuleFilter, string, [string, string][]][]} */
const FIXED_CHOICES = [
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

/** Whether a rule passes the filter. @param {import('../../lib/types.js').RuleEntry} r @param {RuleFilter} f */
function passes(r, f) {
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

/** @param {HTMLElement} panel @param {import('../../lib/types.js').PermissionsEnv} env */
export function mountRules(panel, env) {
  const box = alertBox();
  const body = h('div');
  /** @type {RuleFilter} */
  const filter = { text: '', scope: '', action: '', decision: '', origin: '', expiry: '' };
  /** The lists shown in full (`doc`, `remembered`, `managed`). */
  const expanded = new Set();
  /** Remembered rules whose "Revoke it?" is open: a redraw (the proof arriving, a change) keeps it open. */
  const asking = new Set();
  const redraw = () => draw(env.state.data, env.state.error);
  /** The button that shows the rest of the list `key`. @param {string} key @param {string} label @param {...import('../../lib/types.js').Child} after */
  const showAll = (key, label, ...after) =>
    h(
      'p',
      { class: 'more-rules' },
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            expanded.add(key);
            redraw();
          },
        },
        label,
      ),
      ...after,
    );
  const count = h('span', { class: 'muted rule-count', role: 'status' });
  /** A labelled select of the filter's `key`. @param {keyof RuleFilter} key @param {string} label @param {[string, string][]} choices */
  const select = (key, label, choices) => {
    const id = uid(`rules-${key}`);
    const el = h(
      'select',
      {
        id,
        dataset: { filter: key },
        onchange: (/** @type {Event} */ event) => {
          filter[key] = /** @type {HTMLSelectElement} */ (event.currentTarget).value;
          redraw();
        },
      },
      choices.map(([value, text]) => h('option', { value, selected: filter[key] === value }, text)),
    );
    return h('span', { class: 'filter-field' }, h('label', { for: id }, label), el);
  };
  const searchId = uid('rules-search');
  const search = h('input', {
    id: searchId,
    type: 'search',
    autocomplete: 'off',
    placeholder: 'id, words of the sentence, scope',
    oninput: (/** @type {Event} */ event) => {
      filter.text = /** @type {HTMLInputElement} */ (event.currentTarget).value
        .trim()
        .toLowerCase();
      redraw();
    },
  });
  const selects = h('span', { class: 'rule-selects' });
  const toolbar = h(
    'div',
    { class: 'row rule-filter', role: 'search' },
    h('span', { class: 'filter-field' }, h('label', { for: searchId }, 'Search'), search),
    selects,
    count,
  );
  /** @type {import('../../lib/types.js').PolicyProof | null} the policy's proof: null while it is read or when it could not be */
  let proof = null;
  const proofLine = h('p', { class: 'proof-state muted', role: 'status' });
  /** @param {import('../../lib/types.js').PermissionsMatrix | null} data @param {unknown} error */
  const draw = (data, error) => {
    if (data === null) {
      replace(
        body,
        h('p', { class: 'muted' }, error === null ? 'Loading…' : 'The rules could not be read.'),
      );
      return;
    }
    const scopes = [...new Set(data.rules.map((r) => r.scope))].sort(NATURAL.compare);
    const actions = [...new Set(data.rules.map((r) => r.action ?? 'command'))].sort();
    replace(
      selects,
      select('scope', 'Scope', [
        ['', 'any scope'],
        ...scopes.map((sc) => /** @type {[string, string]} */ ([sc, scopeName(sc)])),
      ]),
      select('action', 'Class', [
        ['', 'any class'],
        ...actions.map(
          (a) => /** @type {[string, string]} */ ([a, a === 'command' ? 'a command rule' : a]),
        ),
      ]),
      FIXED_CHOICES.map(([key, label, choices]) => select(key, label, choices)),
    );
    const passing = data.rules.filter((r) => passes(r, filter));
    replace(
      count,
      passing.length === data.rules.length
        ? `${data.rules.length} rules`
        : `${passing.length} of ${data.rules.length} rules match`,
    );
    /** @type {Map<string, import('../../lib/types.js').LintWarning[]>} */
    const warningsOf = new Map();
    for (const w of data.warnings) warningsOf.set(w.rule, [...(warningsOf.get(w.rule) ?? []), w]);
    const doc = passing.filter((r) => r.layer === 'workspace' && r.path !== null);
    const remembered = passing.filter((r) => r.layer === 'workspace' && r.path === null);
    const managed = passing.filter((r) => r.layer === 'managed');
    const filtered = passing.length !== data.rules.length;
    /** @param {import('../../lib/types.js').RuleEntry[]} rules @param {string} empty @param {string} key */
    const list = (rules, empty, key) => {
      if (rules.length === 0)
        return h('p', { class: 'muted' }, filtered ? 'No rule here matches the filter.' : empty);
      // A long list shows its first rules; the rest on request (or narrowed by the filters).
      const limit = expanded.has(key) ? rules.length : SHOWN_AT_FIRST;
      const item = (/** @type {import('../../lib/types.js').RuleEntry} */ r) =>
        ruleItem(
          env,
          r,
          box,
          proofOf(proof, r),
          r.layer === 'workspace' ? (warningsOf.get(r.id) ?? []) : [],
          asking,
        );
      return [
        h('ul', { class: 'list rules' }, rules.slice(0, limit).map(item)),
        rules.length <= limit
          ? null
          : showAll(
              key,
              `Show all ${rules.length} (${rules.length - limit} more)`,
              h('span', { class: 'muted' }, ' — or narrow them with the search and filters above.'),
            ),
      ];
    };
    replace(
      body,
      section(
        'Rules of the policy',
        h(
          'p',
          { class: 'muted' },
          `Revision ${data.revision.revision}, by ${data.revision.author}`,
          data.revision.message === null
            ? ''
            : [' — ', folded(data.revision.message, { limit: 200, what: 'the note' })],
          '. ',
          env.canWrite
            ? 'Each change is saved as a new revision in your name.'
            : `Your role (${env.role}) may read the rules, not change them.`,
        ),
        proofLine,
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
        list(doc, 'The policy has no rules of its own: the built-in defaults decide.', 'doc'),
      ),
      section(
        'Remembered approvals',
        h(
          'p',
          { class: 'muted' },
          'Rules an approver wrote by answering "approve for N hours": bound to what they saw, gone when they expire',
          env.canWrite ? ', revocable before that.' : '.',
        ),
        list(remembered, 'No remembered approval is in force.', 'remembered'),
      ),
      section(
        'Managed rules (read-only)',
        h(
          'p',
          null,
          'Source: ',
          h('strong', { class: 'managed-source' }, managedSourceText(data.managed)),
          '.',
        ),
        h(
          'p',
          { class: 'muted' },
          'The managed layer is resolved on its own and merged strictest: it can only tighten, never loosen.',
        ),
        list(managed, 'No managed rule.', 'managed'),
      ),
      data.warnings.length === 0 && data.skipped.length === 0
        ? null
        : section(
            'Warnings',
            h(
              'p',
              { class: 'muted' },
              `${data.warnings.length} in all; each also stands beside its rule above.`,
            ),
            h(
              'ul',
              { class: 'list' },
              data.skipped.map((s) =>
                h('li', null, 'Left out: ', folded(s, { limit: 400, render: rich })),
              ),
              data.warnings
                .slice(0, expanded.has('warnings') ? data.warnings.length : SHOWN_AT_FIRST)
                .map((w) =>
                  h(
                    'li',
                    null,
                    folded(w.rule, { limit: 80, render: code, what: 'the rule id' }),
                    ' ',
                    folded(w.message, { limit: 400, render: rich, what: 'the warning' }),
                    ' ',
                    h('span', { class: 'muted' }, `(${w.code})`),
                  ),
                ),
            ),
            data.warnings.length <= SHOWN_AT_FIRST || expanded.has('warnings')
              ? null
              : showAll('warnings', `Show all ${data.warnings.length} warnings`),
          ),
    );
  };
  replace(panel, box, toolbar, body);
  draw(env.state.data, env.state.error);
  api('GET', `/v1/policy/proof${query({ workspace: env.workspace })}`).then(
    (/** @type {import('../../lib/types.js').PolicyProof} */ answer) => {
      proof = answer;
      replace(
        proofLine,
        'Each deny and ask rule is tried against disguises of what it stops; its badge says whether it holds.',
      );
      proofLine.dataset.proof = 'read';
      draw(env.state.data, env.state.error);
    },
    (error) => {
      proofLine.className = 'proof-state error';
      replace(
        proofLine,
        `The proof of the rules could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
      proofLine.dataset.proof = 'failed';
    },
  );
  return env.state.subscribe(draw);
}
