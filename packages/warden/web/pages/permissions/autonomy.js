// The autonomy dial, per space (G30–G32): proposeOnly, actWithApproval (and
// unset) or actFreely, each stated plainly where it is set — above all what
// actFreely gives away. Setting it writes a new policy revision
// (PUT /v1/spaces/:id); the matrix shows what it does to each class.
//
// What the tab holds is its state (`autonomy-state.js`): pure, tested in
// Node. `mountAutonomy` is the wiring: it feeds the state the spaces read,
// the page's reads and the person's input, sends the setting the state asks
// for, and draws each new state; the form for another space is built once
// (what is typed stays typed).

import { api, query } from '../../lib/api.js';
import { code, h, replace, section, toast } from '../../lib/dom.js';
import {
  ACT_FREELY_STATEMENT,
  allSpaces,
  autonomyState,
  chosenOf,
  dialEffect,
  dialOptions,
  dialText,
  failureAt,
  newLevelOf,
  readErrorText,
  reduce,
  writtenText,
} from './autonomy-state.js';
import { alertBox, field, uid } from './ui.js';

export { ACT_FREELY_STATEMENT };

/**
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 * @typedef {import('../../lib/types.js').AutonomyLevel} AutonomyLevel
 * @typedef {import('./autonomy-state.js').AutonomyState} AutonomyState
 * @typedef {import('./autonomy-state.js').AutonomyEvent} AutonomyEvent
 * @typedef {import('./autonomy-state.js').SpaceDial} SpaceDial
 * @typedef {(event: AutonomyEvent) => void} Emit
 */

/**
 * The parts of the tab a new state redraws. `cards` are the space cards
 * drawn last, `boxes` where each says what failed (by space; `''` is the
 * form for another space).
 * @typedef {{
 *   box: HTMLElement,
 *   body: HTMLElement,
 *   statement: HTMLElement,
 *   levels: HTMLElement,
 *   other: HTMLElement | null,
 *   newSpace: HTMLInputElement,
 *   newLevel: HTMLSelectElement,
 *   cards: Element[],
 *   boxes: Map<string, HTMLElement>,
 * }} Parts
 */

/** Which classes the dial changes in this space, read from the matrix. @param {AutonomyState} state @param {string} space */
function effectLine(state, space) {
  const changed = dialEffect(state.data, space);
  if (changed.length === 0) return null;
  return h(
    'p',
    { class: 'effect' },
    'In this space the dial changes: ',
    changed.map(({ cls, from, to }, i) => [i === 0 ? '' : ', ', code(cls), ` ${from} → ${to}`]),
    '.',
  );
}

/** A space's dial: a radio per setting, each with what it means. @param {Emit} emit @param {AutonomyState} state @param {SpaceDial} space @param {readonly AutonomyLevel[]} levels */
function dialFieldset(emit, state, space, levels) {
  const name = uid('dial');
  const current = chosenOf(state, space);
  return h(
    'fieldset',
    { class: 'choices dial' },
    h('legend', null, `Autonomy of space ${space.id}`),
    dialOptions(levels).map((o) => {
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
          onchange: () => emit({ type: 'choose', space: space.id, value: o.value }),
        }),
        h('label', { for: id, class: 'inline' }, o.label),
        h('span', { id: `${id}-meaning`, class: 'muted' }, ` — ${o.meaning}`),
      );
    }),
  );
}

/**
 * A space's card: the space, its dial as it stands, what actFreely means
 * here, what the dial changes, and — for a role that may — the dial to set.
 * @param {Emit} emit @param {AutonomyState} state @param {PermissionsEnv} env @param {SpaceDial} space
 * @param {readonly AutonomyLevel[]} levels @param {Map<string, HTMLElement>} boxes
 */
function spaceCard(emit, state, env, space, levels, boxes) {
  const title = uid('space');
  let form = null;
  if (env.canWrite) {
    const local = alertBox();
    boxes.set(space.id, local);
    form = h(
      'form',
      {
        onsubmit: (event) => {
          event.preventDefault();
          emit({ type: 'set', space: space.id });
        },
      },
      dialFieldset(emit, state, space, levels),
      h('button', { type: 'submit', class: 'primary' }, `Set the autonomy of ${space.id}`),
      local,
    );
  }
  return h(
    'section',
    { class: 'card space', 'aria-labelledby': title, dataset: { space: space.id } },
    h('h3', { id: title }, `Space ${space.id}`),
    h(
      'p',
      null,
      form === null ? null : 'Now: ',
      h('strong', { class: 'dial-value' }, dialText(space)),
      ` — ${space.meaning}`,
    ),
    space.effective === 'actFreely'
      ? h(
          'div',
          { class: 'statement', role: 'note' },
          h('strong', null, 'What actFreely means here: '),
          ACT_FREELY_STATEMENT,
        )
      : null,
    effectLine(state, space.id),
    form,
  );
}

/** The form for a space no card shows yet, built once. @param {Emit} emit */
function otherSpace(emit) {
  const newBox = alertBox();
  const newSpace = h('input', {
    type: 'text',
    name: 'space',
    autocomplete: 'off',
    spellcheck: 'false',
    oninput: (/** @type {Event} */ event) =>
      emit({
        type: 'new-name',
        value: /** @type {HTMLInputElement} */ (event.currentTarget).value,
      }),
  });
  const newLevel = h('select', {
    name: 'autonomy',
    onchange: (/** @type {Event} */ event) =>
      emit({
        type: 'new-level',
        value: /** @type {HTMLSelectElement} */ (event.currentTarget).value,
      }),
  });
  const other = section(
    'Set the dial of another space',
    h(
      'form',
      {
        class: 'row',
        onsubmit: (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          emit({ type: 'set-new' });
        },
      },
      field('Space', newSpace),
      field('Autonomy', newLevel),
      h('button', { type: 'submit' }, 'Set'),
    ),
    newBox,
  );
  return { other, newSpace, newLevel, newBox };
}

/** The settings the dial has, each with what it means; and the other space's choices. @param {Parts} parts @param {AutonomyState} state */
function drawLevels(parts, state) {
  const levels = state.spaces?.levels ?? [];
  replace(
    parts.levels,
    levels.map((l) => h('li', null, code(l.level), ` — ${l.meaning}`)),
    h('li', null, code('unset'), ' — behaves as actWithApproval'),
  );
  replace(
    parts.newLevel,
    levels.map((l) => h('option', { value: l.level }, l.level)),
  );
}

/** The space cards (or that there is none), after the list of settings. @param {Parts} parts @param {AutonomyState} state @param {Emit} emit @param {PermissionsEnv} env */
function drawCards(parts, state, emit, env) {
  for (const card of parts.cards) card.remove();
  for (const [id] of parts.boxes) if (id !== '') parts.boxes.delete(id);
  const levels = state.spaces?.levels ?? [];
  const all = allSpaces(state);
  parts.cards =
    all.length === 0
      ? [h('p', { class: 'muted' }, 'The policy names no space yet.')]
      : all.map((s) => spaceCard(emit, state, env, s, levels, parts.boxes));
  parts.levels.after(...parts.cards);
}

/**
 * Draws what changed from `prev` to `state`; each part only when its state did.
 * @param {Parts} parts @param {AutonomyState | null} prev @param {AutonomyState} state @param {Emit} emit @param {PermissionsEnv} env
 */
function drawAutonomy(parts, prev, state, emit, env) {
  if (prev === null || prev.readError !== state.readError) replace(parts.box, readErrorText(state));
  if (state.spaces === null) {
    replace(parts.body);
    parts.cards = [];
    return;
  }
  const fresh = parts.body.firstChild === null;
  if (fresh) replace(parts.body, parts.statement, parts.levels, parts.other);
  if (fresh || prev?.spaces?.levels !== state.spaces.levels) drawLevels(parts, state);
  if (fresh || prev?.spaces !== state.spaces || prev?.data !== state.data)
    drawCards(parts, state, emit, env);
  if (parts.newSpace.value !== state.newName) parts.newSpace.value = state.newName;
  if (parts.newLevel.value !== newLevelOf(state)) parts.newLevel.value = newLevelOf(state);
  for (const [at, box] of parts.boxes) replace(box, failureAt(state, at));
}

/** What a refused request says. @param {unknown} error */
function message(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @param {HTMLElement} panel @param {PermissionsEnv} env */
export function mountAutonomy(panel, env) {
  let state = autonomyState(env.state.data);

  /** @param {AutonomyEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    // A dial picked is drawn by its radio; the state only remembers it.
    if (state === prev || event.type === 'choose') return;
    drawAutonomy(parts, prev, state, dispatch, env);
    if (state.setting !== null && state.setting !== prev.setting) void set();
    if (state.written !== null && state.written !== prev.written) {
      toast(writtenText(state.written));
      void Promise.all([load(), env.state.load()]);
    }
  };

  const load = async () => {
    try {
      dispatch({
        type: 'loaded',
        spaces: await api('GET', `/v1/spaces${query({ workspace: env.workspace })}`),
      });
    } catch (error) {
      dispatch({ type: 'load-failed', message: message(error) });
    }
  };

  const set = async () => {
    const setting = /** @type {NonNullable<AutonomyState['setting']>} */ (state.setting);
    try {
      /** @type {import('../../lib/types.js').Written} */
      const answer = await api(
        'PUT',
        `/v1/spaces/${encodeURIComponent(setting.space)}${query({ workspace: env.workspace })}`,
        { autonomy: setting.autonomy },
      );
      dispatch({ type: 'set-done', revision: answer.revision });
    } catch (error) {
      dispatch({ type: 'set-failed', message: message(error) });
    }
  };

  const other = otherSpace(dispatch);
  /** @type {Parts} */
  const parts = {
    box: alertBox(),
    body: h('div'),
    statement: h(
      'div',
      { class: 'statement', role: 'note', id: 'act-freely-statement' },
      h('strong', null, 'actFreely, plainly: '),
      ACT_FREELY_STATEMENT,
    ),
    levels: h('ul', { class: 'list levels' }),
    other: env.canWrite ? other.other : null,
    newSpace: other.newSpace,
    newLevel: other.newLevel,
    cards: [],
    boxes: new Map([['', other.newBox]]),
  };
  replace(panel, parts.box, parts.body);
  drawAutonomy(parts, null, state, dispatch, env);
  void load();
  return env.state.subscribe((data) => dispatch({ type: 'read', data }));
}
