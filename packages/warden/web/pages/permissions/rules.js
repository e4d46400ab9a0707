// Every rule decisions read, each as its sentence with origin and expiry
// (G19): the policy document's rules (editable by an admin), the remembered
// approvals beside it (revocable, G23), and the managed layer (read-only,
// with where it comes from, G29). Lint warnings say which rules never decide;
// each deny and prompt rule carries its proof's verdict (read once per page).
// Below them, the rules suggested by prompts approved once again and again.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, time } from '../../lib/dom.js';
import { openEditor, revoke } from './editor.js';
import { proofBadge, proofOf } from './proof.js';
import { suggestionsSection } from './suggestions.js';
import { alertBox, originTag, rich, scopeName } from './ui.js';

/** Where the managed layer comes from, in words. @param {import('../../lib/types.js').PermissionsMatrix['managed'] | null | undefined} managed */
export function managedSourceText(managed) {
  if (managed === null || managed === undefined || !managed.loaded) return 'no managed layer';
  if (managed.source === 'env')
    return `the file ${managed.file ?? ''}, pinned by WARDEN_MANAGED_POLICY: no admin surface can change it (G29)`;
  if (managed.source === 'flag')
    return `the file ${managed.file ?? ''}, pinned by the server’s configuration (WARDEN_MANAGED_POLICY or managedPolicy): no admin surface can change it (G29)`;
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
 */
export function ruleItem(env, rule, box, proof = null) {
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
    actions.push(
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'aria-label': `Revoke remembered rule ${rule.id}`,
          onclick: () => revoke(env, rule, box),
        },
        'Revoke',
      ),
    );
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
    h('p', { class: 'sentence' }, rich(rule.sentence)),
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
  );
}

/** @param {HTMLElement} panel @param {import('../../lib/types.js').PermissionsEnv} env */
export function mountRules(panel, env) {
  const box = alertBox();
  const body = h('div');
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
    const doc = data.rules.filter((r) => r.layer === 'workspace' && r.path !== null);
    const remembered = data.rules.filter((r) => r.layer === 'workspace' && r.path === null);
    const managed = data.rules.filter((r) => r.layer === 'managed');
    /** @param {import('../../lib/types.js').RuleEntry[]} rules @param {string} empty */
    const list = (rules, empty) =>
      rules.length === 0
        ? h('p', { class: 'muted' }, empty)
        : h(
            'ul',
            { class: 'list rules' },
            rules.map((r) => ruleItem(env, r, box, proofOf(proof, r))),
          );
    replace(
      body,
      section(
        'Rules of the policy',
        h(
          'p',
          { class: 'muted' },
          `Revision ${data.revision.revision}, by ${data.revision.author}`,
          data.revision.message === null ? '' : ` — ${data.revision.message}`,
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
        list(doc, 'The policy has no rules of its own: the built-in defaults decide.'),
      ),
      section(
        'Remembered approvals',
        h(
          'p',
          { class: 'muted' },
          'Rules an approver wrote by answering "approve for N hours" (G23): bound to what they saw, gone when they expire',
          env.canWrite ? ', revocable before that.' : '.',
        ),
        list(remembered, 'No remembered approval is in force.'),
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
          'The managed layer is resolved on its own and merged strictest: it can only tighten, never loosen (G28).',
        ),
        list(managed, 'No managed rule.'),
      ),
      data.warnings.length === 0 && data.skipped.length === 0
        ? null
        : section(
            'Warnings',
            h(
              'ul',
              { class: 'list' },
              data.warnings.map((w) =>
                h(
                  'li',
                  null,
                  code(w.rule),
                  ' ',
                  rich(w.message),
                  ' ',
                  h('span', { class: 'muted' }, `(${w.code})`),
                ),
              ),
              data.skipped.map((s) => h('li', null, 'Left out: ', rich(s))),
            ),
          ),
    );
  };
  replace(panel, box, body, suggestionsSection(env));
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
