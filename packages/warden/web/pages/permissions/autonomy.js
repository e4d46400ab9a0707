// The autonomy dial, per space (G30–G32): proposeOnly, actWithApproval (and
// unset) or actFreely, each stated plainly where it is set — above all what
// actFreely gives away. Setting it writes a new policy revision
// (PUT /v1/spaces/:id); the matrix shows what it does to each class.

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, toast } from '../../lib/dom.js';
import { alertBox, clear, fail, field, uid } from './ui.js';

/** The plain statement of what actFreely means (G32, E17, E20). */
export const ACT_FREELY_STATEMENT = [
  'actFreely pre-approves whatever did not resolve to a deny: a prompt is allowed and nobody is asked. ',
  'Only an explicit deny — soft or hard — still stops a call. ',
  'Three things are never pre-approved, because they cannot be verified: a prompt the managed layer gives stays a prompt, ',
  'a deny rule that escalated because the request did not say what it needed to check stays a deny, ',
  'and a command Warden cannot read with confidence still asks.',
];

/** @param {HTMLElement} panel @param {import('../../lib/types.js').PermissionsEnv} env */
export function mountAutonomy(panel, env) {
  const box = alertBox();
  const body = h('div');
  /** @type {import('../../lib/types.js').Spaces | null} */
  let spaces = null;

  const load = async () => {
    try {
      spaces = await api('GET', `/v1/spaces${query({ workspace: env.workspace })}`);
      clear(box);
    } catch (error) {
      spaces = null;
      fail(box, 'Cannot read the spaces', error);
    }
    draw();
  };

  /** @param {string} space @param {string | null} autonomy @param {HTMLElement} local */
  const set = async (space, autonomy, local) => {
    clear(local);
    try {
      /** @type {import('../../lib/types.js').Written} */
      const answer = await api(
        'PUT',
        `/v1/spaces/${encodeURIComponent(space)}${query({ workspace: env.workspace })}`,
        { autonomy },
      );
      toast(`Space ${space}: ${autonomy ?? 'unset'} (revision ${answer.revision})`);
      await Promise.all([load(), env.state.load()]);
    } catch (error) {
      fail(local, `Cannot set the autonomy of ${space}`, error);
    }
  };

  /** Which classes the dial changes in this space, read from the matrix. @param {string} space */
  const effect = (space) => {
    const data = env.state.data;
    if (data === null) return null;
    const changed = data.rows
      .map((row) => ({ row, cell: row.cells.find((c) => c.scope === `space:${space}`) }))
      .flatMap(({ row, cell }) =>
        cell !== undefined && cell.decision !== cell.effective ? [{ row, cell }] : [],
      );
    if (changed.length === 0) return null;
    return h(
      'p',
      { class: 'effect' },
      'In this space the dial changes: ',
      changed.map(({ row, cell }, i) => [
        i === 0 ? '' : ', ',
        code(row.class),
        ` ${cell.decision === 'prompt' ? 'ask' : cell.decision} → ${cell.effective === 'prompt' ? 'ask' : cell.effective}`,
      ]),
      '.',
    );
  };

  /**
   * @param {{ id: string, autonomy: string | null, effective: string, meaning?: string | undefined }} space
   * @param {readonly import('../../lib/types.js').AutonomyLevel[]} levels */
  const spaceCard = (space, levels) => {
    const local = alertBox();
    const name = uid('dial');
    const options = [
      {
        value: '',
        label: 'unset',
        meaning: `behaves as actWithApproval: ${levels.find((l) => l.level === 'actWithApproval')?.meaning ?? ''}`,
      },
      ...levels.map((l) => ({ value: l.level, label: l.level, meaning: l.meaning })),
    ];
    const current = space.autonomy ?? '';
    const title = uid('space');
    const statement =
      space.effective === 'actFreely'
        ? h(
            'div',
            { class: 'statement', role: 'note' },
            h('strong', null, 'What actFreely means here: '),
            ACT_FREELY_STATEMENT,
          )
        : null;
    /** The card: the space, its dial as it stands (`now` before it where it can change), then `rest`. @param {string | null} now @param {import('../../lib/types.js').Child[]} rest */
    const card = (now, ...rest) =>
      h(
        'section',
        { class: 'card space', 'aria-labelledby': title, dataset: { space: space.id } },
        h('h3', { id: title }, `Space ${space.id}`),
        h(
          'p',
          null,
          now,
          h('strong', { class: 'dial-value' }, space.autonomy ?? 'unset (actWithApproval)'),
          ` — ${space.meaning}`,
        ),
        statement,
        effect(space.id),
        ...rest,
      );
    if (!env.canWrite) return card(null);
    const fieldset = h(
      'fieldset',
      { class: 'choices dial' },
      h('legend', null, `Autonomy of space ${space.id}`),
      options.map((o) => {
        const id = uid('dial-opt');
        return h(
          'div',
          { class: 'choice' },
          h('input', {
            type: 'radio',
            id,
            name,
            value: o.value,
            checked: o.value === current ? true : undefined,
            'aria-describedby': `${id}-meaning`,
          }),
          h('label', { for: id, class: 'inline' }, o.label),
          h('span', { id: `${id}-meaning`, class: 'muted' }, ` — ${o.meaning}`),
        );
      }),
    );
    return card(
      'Now: ',
      h(
        'form',
        {
          onsubmit: (event) => {
            event.preventDefault();
            const chosen = /** @type {HTMLInputElement | null} */ (
              fieldset.querySelector(`input[name="${name}"]:checked`)
            );
            void set(space.id, chosen === null || chosen.value === '' ? null : chosen.value, local);
          },
        },
        fieldset,
        h('button', { type: 'submit', class: 'primary' }, `Set the autonomy of ${space.id}`),
        local,
      ),
    );
  };

  const draw = () => {
    if (spaces === null) {
      replace(body);
      return;
    }
    const levels = spaces.levels;
    const known = new Set(spaces.spaces.map((s) => s.id));
    // Spaces named only by rules or agents have the dial unset.
    const more = (env.state.data?.columns ?? []).flatMap((c) =>
      c.kind === 'space' && c.id !== null && !known.has(c.id)
        ? [{ id: c.id, autonomy: null, effective: 'actWithApproval', meaning: c.autonomyMeaning }]
        : [],
    );
    const all = [...spaces.spaces, ...more].sort((a, b) => a.id.localeCompare(b.id));
    const newBox = alertBox();
    const newSpace = h('input', {
      type: 'text',
      name: 'space',
      autocomplete: 'off',
      spellcheck: 'false',
    });
    const newLevel = h(
      'select',
      { name: 'autonomy' },
      spaces.levels.map((l) =>
        h(
          'option',
          { value: l.level, selected: l.level === 'actWithApproval' ? true : undefined },
          l.level,
        ),
      ),
    );
    replace(
      body,
      h(
        'div',
        { class: 'statement', role: 'note', id: 'act-freely-statement' },
        h('strong', null, 'actFreely, plainly: '),
        ACT_FREELY_STATEMENT,
      ),
      h(
        'ul',
        { class: 'list levels' },
        spaces.levels.map((l) => h('li', null, code(l.level), ` — ${l.meaning}`)),
        h('li', null, code('unset'), ' — behaves as actWithApproval'),
      ),
      all.length === 0
        ? h('p', { class: 'muted' }, 'The policy names no space yet.')
        : all.map((s) => spaceCard(s, levels)),
      env.canWrite
        ? section(
            'Set the dial of another space',
            h(
              'form',
              {
                class: 'row',
                onsubmit: (event) => {
                  event.preventDefault();
                  const id = newSpace.value.trim();
                  if (id === '') {
                    fail(newBox, 'Not set', new Error('give the space a name'));
                    return;
                  }
                  void set(id, newLevel.value, newBox);
                },
              },
              field('Space', newSpace),
              field('Autonomy', newLevel),
              h('button', { type: 'submit' }, 'Set'),
            ),
            newBox,
          )
        : null,
    );
  };

  replace(panel, box, body);
  void load();
  return env.state.subscribe(() => draw());
}
