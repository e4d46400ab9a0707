// Writing one rule (G19, G20): scope, action class or command prefix,
// decision, constraints (G16–G18), enforcement (G25–G27), expiry (G12).
// "Preview" asks the server what the change would do to the matrix, and
// reads the rule back as its sentence; "Save" writes the whole document as a
// new revision, attributed to the signed-in name, only if the policy is still
// at the revision this form read — otherwise it says so and keeps the form.

import { ApiError, api, query } from '../../lib/api.js';
import { badge, code, h, replace, toast } from '../../lib/dom.js';
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
  ['prompt', 'Ask a human', 'a connected approver decides; with none connected it is denied (G22)'],
  ['deny', 'Deny', 'the call is refused'],
];

/** @type {[string, string][]} */
const ENFORCEMENTS = [
  ['hard', 'Hard — nothing overrides it'],
  ['soft', 'Soft — a deny an overrider may lift, with a reason (G26)'],
  ['advisory', 'Advisory — never enforced; the audit log records what it would have done (G25)'],
];

/** @type {['paths' | 'refs' | 'hosts' | 'commands', string, string][]} */
const CONSTRAINTS = [
  ['paths', 'Paths', 'Globs, one per line; `!` excludes: `repos/**`, `!**/.env`.'],
  ['refs', 'Git refs', 'Branch globs, one per line: `main`, `feature/**`, `!main`.'],
  ['hosts', 'Hosts', 'Host names, one per line; `*.internal` is any subdomain of `internal`.'],
  ['commands', 'Commands', 'Command prefixes, one per line (whole words): `npm test`.'],
];

/** The rule's id as the document allows it: no white space, no `:`. */
const ID = /^[^\s:]+$/;

/** A short line for one changed cell of the matrix. @param {import('../../lib/types.js').CellChange} change */
function changeLine(change) {
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
 * Opens the rule editor as a modal dialog.
 * @param {import('../../lib/types.js').PermissionsEnv} env
 * @param {{ entry?: import('../../lib/types.js').RuleEntry, scope?: string, action?: string, command?: string, enforcement?: import('../../lib/types.js').Enforcement }} options
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
  const initial = {
    id: raw === null ? freshId(data.document, subject, initialScope) : (raw.id ?? ''),
    kind: initialCommand === undefined ? 'action' : 'command',
    action: raw?.action ?? options.action ?? 'gitPush',
    command: initialCommand ?? '',
    decision: raw?.decision ?? 'deny',
    enforcement: options.enforcement ?? raw?.enforcement ?? 'hard',
    when: raw?.when ?? {},
    expiresAt: raw?.expiresAt ?? '',
    note: raw?.note ?? '',
  };
  const titleId = uid('editor-title');
  const errors = alertBox();
  const result = h('div', { class: 'editor-result', 'aria-live': 'polite' });

  // Identity and place.
  const idInput = h('input', {
    type: 'text',
    name: 'id',
    value: initial.id,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'generated from the rule when empty',
  });
  /** @type {[string, string][]} */
  const scopes = data.columns.map((c) => [c.scope, scopeName(c.scope)]);
  if (!scopes.some(([s]) => s === initialScope))
    scopes.push([initialScope, scopeName(initialScope)]);
  scopes.push(['', 'Another agent or space…']);
  const scopeSelect = select(scopes, initialScope, { name: 'scope' });
  const otherScope = h('input', {
    type: 'text',
    name: 'other-scope',
    placeholder: 'agent:<id> or space:<id>',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const otherField = field('New scope', otherScope, 'A scope the matrix does not show yet.');
  const syncScope = () => {
    otherField.hidden = scopeSelect.value !== '';
  };
  scopeSelect.addEventListener('change', syncScope);
  syncScope();

  // What the rule is about.
  const kindName = uid('kind');
  /** @param {string} value @param {string} label */
  const kindRadio = (value, label) =>
    h(
      'label',
      { class: 'inline' },
      h('input', {
        type: 'radio',
        name: kindName,
        value,
        checked: initial.kind === value ? true : undefined,
      }),
      ` ${label}`,
    );
  const classSelect = select(
    data.classes.map((c) => [c.class, `${c.class} — ${c.covers}`]),
    initial.action,
    { name: 'action' },
  );
  const commandInput = h('input', {
    type: 'text',
    name: 'command',
    value: initial.command,
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'git push',
  });
  const classField = field('Action class', classSelect);
  const commandField = field(
    'Command prefix',
    commandInput,
    'Matches at a word boundary: `git push` covers `git push origin main`, not `git pushx` (G13).',
  );
  const kindOf = () =>
    /** @type {HTMLInputElement | null} */ (form.querySelector(`input[name="${kindName}"]:checked`))
      ?.value ?? 'action';

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
          checked: initial.decision === value ? true : undefined,
        }),
        ' ',
        badge(value),
        ` ${label}`,
        h('span', { class: 'muted' }, ` — ${help}`),
      ),
    ),
  );
  const decisionOf = () =>
    /** @type {HTMLInputElement | null} */ (
      form.querySelector(`input[name="${decisionName}"]:checked`)
    )?.value ?? 'deny';
  const enforcementSelect = select(ENFORCEMENTS, initial.enforcement, { name: 'enforcement' });
  const constraintHelp = h('p', { class: 'help muted' });
  const syncDecision = () => {
    const d = decisionOf();
    for (const option of enforcementSelect.options) {
      const bad =
        (option.value === 'soft' && d !== 'deny') || (option.value === 'advisory' && d === 'allow');
      option.disabled = bad;
      if (bad && option.selected) enforcementSelect.value = 'hard';
    }
    replace(
      constraintHelp,
      d === 'allow'
        ? 'An allow applies only when the request lies entirely within every value given here (G16); a cap holds at or under it (G17).'
        : 'A deny or ask applies when the request touches any value given here (G16); a cap applies when the request exceeds it (G17). A request that does not say a value it would need here asks a human (G18).',
    );
  };
  decisionSet.addEventListener('change', syncDecision);

  // Constraints.
  const constraintInputs = Object.fromEntries(
    CONSTRAINTS.map(([key]) => [
      key,
      h(
        'textarea',
        { name: key, rows: '2', spellcheck: 'false' },
        Array.isArray(initial.when[key]) ? initial.when[key].join('\n') : '',
      ),
    ]),
  );
  /** @param {string} name @param {number | undefined} value */
  const numberInput = (name, value) =>
    h('input', {
      type: 'number',
      name,
      min: '0',
      step: '1',
      inputmode: 'numeric',
      value: value === undefined ? undefined : String(value),
    });
  const maxCount = numberInput('maxCount', initial.when.maxCount);
  const maxCents = numberInput('maxCents', initial.when.maxCents);

  // Expiry, note, message.
  const initialLocal = initial.expiresAt === '' ? '' : localInput(initial.expiresAt);
  const expiresInput = h('input', {
    type: 'datetime-local',
    name: 'expiresAt',
    value: initialLocal === '' ? undefined : initialLocal,
  });
  const noteInput = h('input', { type: 'text', name: 'note', value: initial.note });
  const messageInput = h('input', {
    type: 'text',
    name: 'message',
    value: entry === null ? 'console: add a rule' : `console: change rule ${entry.id}`,
  });

  /** The rule as the document writes it, and its scope; or throws with what is wrong. */
  const readForm = () => {
    const scope = scopeSelect.value === '' ? otherScope.value.trim() : scopeSelect.value;
    if (scope === '')
      throw new Error('scope: say which agent or space (`agent:<id>`, `space:<id>`)');
    const id = idInput.value.trim();
    if (id !== '' && !ID.test(id)) throw new Error('id: an id holds no white space and no `:`');
    /** @type {import('../../lib/types.js').RawRule} */
    const rule = {};
    if (id !== '') rule.id = id;
    if (kindOf() === 'command') {
      const command = commandInput.value.trim();
      if (command === '') throw new Error('command: give the command prefix the rule is about');
      rule.command = command;
    } else rule.action = classSelect.value;
    rule.decision = /** @type {import('../../lib/types.js').Decision} */ (decisionOf());
    if (enforcementSelect.value !== 'hard')
      rule.enforcement = /** @type {import('../../lib/types.js').Enforcement} */ (
        enforcementSelect.value
      );
    /** @type {import('../../lib/types.js').Constraints} */
    const when = {};
    for (const [key] of CONSTRAINTS) {
      const values = lines(constraintInputs[key].value);
      if (values.length > 0) when[key] = values;
    }
    /** @type {['maxCount' | 'maxCents', HTMLInputElement][]} */
    const caps = [
      ['maxCount', maxCount],
      ['maxCents', maxCents],
    ];
    for (const [key, input] of caps) {
      if (input.value.trim() === '') continue;
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < 0) throw new Error(`${key}: a whole number, 0 or more`);
      when[key] = n;
    }
    if (Object.keys(when).length > 0) rule.when = when;
    if (expiresInput.value !== '') {
      if (expiresInput.value === initialLocal) rule.expiresAt = initial.expiresAt;
      else {
        const at = new Date(expiresInput.value);
        if (Number.isNaN(at.getTime())) throw new Error('expires: not a time');
        rule.expiresAt = at.toISOString().replace(/\.000Z$/, 'Z');
      }
    }
    if (raw?.origin !== undefined) rule.origin = raw.origin;
    if (noteInput.value.trim() !== '') rule.note = noteInput.value.trim();
    return { scope, rule };
  };

  const proposed = () => {
    const { scope, rule } = readForm();
    const base = /** @type {import('../../lib/types.js').PermissionsMatrix} */ (env.state.data)
      .document;
    return { document: withRule(base, entry, rule, scope), id: rule.id ?? null };
  };

  const reloadButton = () =>
    h(
      'button',
      {
        type: 'button',
        onclick: async () => {
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
        },
      },
      'Reload the policy',
    );

  /** @param {import('../../lib/types.js').PolicyDocument} document @param {string} message */
  const write = async (document, message) => {
    const expected = /** @type {import('../../lib/types.js').PermissionsMatrix} */ (env.state.data)
      .revision.revision;
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
          reloadButton(),
        );
        return;
      }
      fail(errors, 'Not saved', error);
    }
  };

  const previewButton = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        clear(errors);
        try {
          const { document, id } = proposed();
          const answer = await api('POST', '/v1/permissions/preview', {
            workspace: env.workspace,
            document,
          });
          replace(result, previewView(answer, id));
        } catch (error) {
          replace(result);
          fail(errors, 'Cannot preview', error);
        }
      },
    },
    'Preview',
  );

  const removeButton =
    entry === null || entry.path === null
      ? null
      : h(
          'button',
          {
            type: 'button',
            class: 'danger',
            onclick: async (event) => {
              const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
              if (button.dataset.confirm !== 'yes') {
                button.dataset.confirm = 'yes';
                button.textContent = `Remove ${entry.id} — click again to confirm`;
                return;
              }
              clear(errors);
              try {
                await write(
                  withoutRule(
                    /** @type {import('../../lib/types.js').PermissionsMatrix} */ (env.state.data)
                      .document,
                    entry,
                  ),
                  `console: remove rule ${entry.id}`,
                );
              } catch (error) {
                fail(errors, 'Not removed', error);
              }
            },
          },
          'Remove this rule',
        );

  const revisionNote = h('p', { class: 'muted' }, `Editing revision ${data.revision.revision}.`);

  const form = h(
    'form',
    {
      class: 'editor',
      novalidate: true,
      onsubmit: async (event) => {
        event.preventDefault();
        clear(errors);
        let next;
        try {
          next = proposed();
        } catch (error) {
          fail(errors, 'Not saved', error);
          return;
        }
        await write(next.document, messageInput.value.trim() || 'console');
      },
    },
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
          'Where the rule lives: narrowest first, space > agent > workspace > mode preset (G8).',
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
          CONSTRAINTS.map(([key, label, help]) => field(label, constraintInputs[key], help)),
          h(
            'div',
            { class: 'row' },
            field('At most this many (maxCount)', maxCount),
            field('At most these cents (maxCents)', maxCents),
          ),
        ),
        field(
          'Expires (your local time; empty: never)',
          expiresInput,
          'After this the rule no longer exists for decisions (G12).',
        ),
        field('Rule id', idInput, 'Letters, digits and dashes; no spaces, no `:`.'),
        field('Note', noteInput),
        field('Why (for the revision history)', messageInput),
      ),
    ),
    errors,
    h(
      'div',
      { class: 'row actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Save as a new revision'),
      previewButton,
      removeButton,
      h('button', { type: 'button', onclick: () => close() }, 'Cancel'),
    ),
    result,
  );

  const syncKind = () => {
    const isCommand = kindOf() === 'command';
    classField.hidden = isCommand;
    commandField.hidden = !isCommand;
  };
  form.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.name === kindName) syncKind();
  });
  syncKind();
  syncDecision();

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
