// Suggested rules: prompts a human approved "once" again and again, as the
// rules that would have answered them (the scope's own offers), each with
// its blast radius — how many past decisions, not allowed then, the rules
// would allow, and the cells of the permissions matrix they change. An admin accepts one into the policy as its next revision;
// other roles read them and are told that accepting takes an admin token.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { ruleText } from '../approvals/format.js';
import { changeLine } from './editor.js';
import { alertBox, clear, fail, scopeName } from './ui.js';

/** How far back the suggestions look, and the fewest approvals one needs (the server's defaults). */
const SINCE = '7d';

/** `3 prompts` / `1 prompt`. @param {number} n @param {string} one @param {string} [many] */
function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A list of names as text, or a dash. @param {readonly string[]} names */
function names(names) {
  return names.length === 0 ? '—' : names.join(', ');
}

/**
 * The blast radius in words: would allow N of M past decisions not allowed then;
 * those that were denied (not only asked) are said in red.
 * @param {import('../../lib/types.js').Suggestion['blastRadius']} blast
 */
function blastView(blast) {
  return h(
    'div',
    { class: 'blast' },
    h(
      'p',
      { class: 'blast-radius' },
      h('strong', null, 'Blast radius: '),
      `would allow ${blast.wouldAllow} of ${count(blast.looked, 'past decision')} not allowed then`,
      blast.wereDenied > 0
        ? [
            ' — ',
            h(
              'span',
              { class: 'blast-denied' },
              `${blast.wereDenied} of them ${blast.wereDenied === 1 ? 'was' : 'were'} denied`,
            ),
          ]
        : null,
      '.',
    ),
    blast.cells.length === 0
      ? h(
          'p',
          { class: 'muted blast-cells' },
          'No cell of the permissions matrix changes: the rules decide only the calls their conditions match.',
        )
      : h(
          'details',
          { class: 'blast-cells' },
          h('summary', null, `Matrix cells it changes (${blast.cells.length})`),
          h('ul', { class: 'list changes' }, blast.cells.map(changeLine)),
        ),
    blast.examples.length === 0
      ? null
      : h(
          'details',
          { class: 'blast-examples' },
          h('summary', null, `Examples (${blast.examples.length})`),
          h(
            'ul',
            null,
            blast.examples.map((e) =>
              h(
                'li',
                null,
                code(e.decisionId),
                ` · agent ${e.agent}`,
                e.tool === null ? '' : ` · tool ${e.tool}`,
                ` · was ${e.was === 'prompt' ? 'asked' : e.was}`,
              ),
            ),
          ),
        ),
  );
}

/**
 * One suggestion: scope, rules in words, the evidence, the blast radius, and Accept for an admin.
 * @param {import('../../lib/types.js').PermissionsEnv} env @param {import('../../lib/types.js').Suggestion} s
 */
function suggestionItem(env, s) {
  const box = alertBox();
  const done = h('p', { class: 'accepted', role: 'status' });
  /** @param {Event} event */
  const accept = async (event) => {
    const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    button.disabled = true;
    clear(box);
    try {
      /** @type {import('../../lib/types.js').AcceptedSuggestion} */
      const accepted = await api(
        'POST',
        `/v1/rules/suggestions/${encodeURIComponent(s.id)}/accept${query({ workspace: env.workspace, since: SINCE })}`,
      );
      button.remove();
      replace(done, `Accepted: the rules are now in revision ${accepted.revision} of the policy.`);
      void env.state.load();
    } catch (error) {
      button.disabled = false;
      fail(box, 'Cannot accept this suggestion', error);
    }
  };
  return h(
    'li',
    { class: 'suggestion', dataset: { suggestion: s.id, scope: s.scope } },
    h('h3', null, scopeName(s.scope)),
    h(
      'ul',
      { class: 'suggested-rules' },
      s.rules.map((r) =>
        h(
          'li',
          null,
          folded(
            ruleText(
              /** @type {import('../../lib/types.js').RuleDraft} */ (/** @type {unknown} */ (r)),
            ),
            { limit: 200, render: code, what: 'the rule' },
          ),
        ),
      ),
    ),
    h(
      'p',
      { class: 'evidence' },
      `${count(s.approvals, 'prompt')} approved once`,
      ' · agents: ',
      folded(names(s.agents), { limit: 200, what: 'the agents' }),
      ' · tools: ',
      folded(names(s.tools), { limit: 200, what: 'the tools' }),
      ' · from ',
      time(s.firstAt),
      ' to ',
      time(s.lastAt),
    ),
    blastView(s.blastRadius),
    env.canWrite
      ? h(
          'p',
          null,
          h(
            'button',
            { type: 'button', class: 'primary', onclick: accept },
            'Accept into the policy',
          ),
        )
      : h(
          'p',
          { class: 'muted' },
          `Accepting a suggestion writes its rules into the policy: that takes an admin token (your role: ${env.role}).`,
        ),
    done,
    box,
  );
}

/**
 * The suggested rules as their own tab of the permissions screen, read once
 * when the tab is first opened.
 * @param {HTMLElement} panel @param {import('../../lib/types.js').PermissionsEnv} env
 */
export function mountSuggestions(panel, env) {
  replace(panel, suggestionsSection(env));
}

/**
 * The suggested rules as a section, read once when it is made.
 * @param {import('../../lib/types.js').PermissionsEnv} env
 */
export function suggestionsSection(env) {
  const body = h(
    'div',
    { class: 'suggestions', 'aria-busy': 'true' },
    h('p', { class: 'muted' }, 'Loading…'),
  );
  const shown = section(
    'Suggested rules',
    h(
      'p',
      { class: 'muted' },
      'Prompts a human approved once, again and again over the last 7 days, as the rules that would have answered them. ',
      'The blast radius counts the past decisions, not allowed then, that the rules would allow.',
    ),
    body,
  );
  shown.classList.add('suggested');
  api('GET', `/v1/rules/suggestions${query({ workspace: env.workspace, since: SINCE })}`).then(
    (/** @type {import('../../lib/types.js').SuggestionList} */ { suggestions }) => {
      body.setAttribute('aria-busy', 'false');
      replace(
        body,
        suggestions.length === 0
          ? h(
              'p',
              { class: 'muted empty' },
              'No suggestion: no prompt was approved once often enough.',
            )
          : h(
              'ul',
              { class: 'list suggestion-list' },
              suggestions.map((s) => suggestionItem(env, s)),
            ),
      );
    },
    (error) => {
      body.setAttribute('aria-busy', 'false');
      const box = alertBox();
      fail(box, 'The suggested rules could not be read', error);
      replace(body, box);
    },
  );
  return shown;
}
