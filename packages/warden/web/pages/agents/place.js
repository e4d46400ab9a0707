// Where an agent acts, on the agents pages: its registered space (and with
// it the autonomy dial) and mode (and with it the command net), "none" when
// it has none — and the control an admin places it with. The choices are
// the spaces and modes the workspace's policy names (the permissions
// matrix's columns), plus none. `PUT /v1/agents/:id` resets every field it
// is not sent, so the agent's name, role and model go back unchanged. The
// choices and the request body are pure functions; the form draws itself
// from one small state that its handlers change.

import { api, query } from '../../lib/api.js';
import { h, replace, rich } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { errorText } from './common.js';

/**
 * @typedef {{ readonly space: string | null, readonly mode: string | null }} Placement
 * @typedef {{ readonly spaces: readonly string[], readonly modes: readonly string[] }} PlaceChoices
 * @typedef {Pick<import('../../lib/types.js').Agent, 'id' | 'name' | 'role' | 'model' | 'space' | 'mode'>} Placeable
 */

/**
 * A space or a mode as the agents pages show it: "none" when the agent has
 * none, a long name folded.
 * @param {string | null | undefined} value @param {string} what e.g. `the space`
 */
export function placedShown(value, what) {
  return value === null || value === undefined
    ? h('span', { class: 'muted placed-none' }, 'none')
    : folded(value, { limit: 80, what });
}

/**
 * `in space \`infra\` and mode \`review\``: where an agent acts, in the
 * words the matrix's agent columns use.
 * @param {Placement} p
 */
export function placementWords(p) {
  if (p.space === null && p.mode === null) return 'in no space and no mode';
  if (p.mode === null) return `in space \`${p.space}\` and no mode`;
  if (p.space === null) return `in no space and mode \`${p.mode}\``;
  return `in space \`${p.space}\` and mode \`${p.mode}\``;
}

/**
 * The spaces and modes an agent may be placed in: the matrix's space and mode
 * columns (the policy's own, and any an agent is already in) and the
 * policy's modes, each once in the matrix's order, with the agent's present
 * ones kept even when the policy no longer names them.
 * @param {Pick<import('../../lib/types.js').PermissionsMatrix, 'columns' | 'modes'>} matrix
 * @param {Placement} current
 * @returns {PlaceChoices}
 */
export function placeChoices(matrix, current) {
  /** @param {'space' | 'mode'} kind @param {readonly string[]} more @param {string | null} own */
  const of = (kind, more, own) => {
    const ids = matrix.columns.flatMap((c) => (c.kind === kind && c.id !== null ? [c.id] : []));
    const all = [...ids, ...more, ...(own === null ? [] : [own])];
    return [...new Set(all)];
  };
  return { spaces: of('space', [], current.space), modes: of('mode', matrix.modes, current.mode) };
}

/**
 * The body of `PUT /v1/agents/:id` that places `agent`: its name, role and
 * model as they are (a field left out would be reset), the new space and mode.
 * @param {Placeable} agent @param {Placement} to
 */
export function placementBody(agent, to) {
  return { name: agent.name, role: agent.role, space: to.space, mode: to.mode, model: agent.model };
}

/** A message as a sentence: its first letter capital, a full stop at its end. @param {string} text */
function sentence(text) {
  const t = text.trim();
  if (t === '') return t;
  const capital = `${t.slice(0, 1).toUpperCase()}${t.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * The control that places `agent` in `workspace`: a space picker, a mode
 * picker (each with "none") and a button. Its choices are read when it is
 * made; after a placement is saved, `onPlaced` is told the registration the
 * server answers. Shown only to a role that may change agents (`policy`).
 * @param {{
 *   workspace: string,
 *   agent: Placeable,
 *   onPlaced: (record: import('../../lib/types.js').Agent | Placeable) => void,
 * }} options
 */
export function placeForm({ workspace, agent, onPlaced }) {
  /**
   * @type {{
   *   current: Placeable,
   *   choices: PlaceChoices | null,
   *   readError: unknown,
   *   space: string,
   *   mode: string,
   *   busy: boolean,
   *   failed: string | null,
   *   said: string | null,
   * }}
   */
  const state = {
    current: agent,
    choices: null,
    readError: null,
    space: agent.space ?? '',
    mode: agent.mode ?? '',
    busy: false,
    failed: null,
    said: null,
  };

  /** @type {HTMLSelectElement} */
  const spaceSelect = h('select', {
    id: 'place-space',
    name: 'space',
    onchange: () => {
      state.space = spaceSelect.value;
    },
  });
  /** @type {HTMLSelectElement} */
  const modeSelect = h('select', {
    id: 'place-mode',
    name: 'mode',
    onchange: () => {
      state.mode = modeSelect.value;
    },
  });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Place');
  const alert = h('p', { class: 'error', role: 'alert', id: 'place-error' });
  const status = h('p', { class: 'muted', role: 'status', id: 'place-said' });

  /** Options of a picker: none, then each choice; the one chosen selected. @param {readonly string[]} ids @param {string} chosen */
  const options = (ids, chosen) => [
    h('option', { value: '', selected: chosen === '' }, 'none'),
    ids.map((id) => h('option', { value: id, selected: id === chosen }, id)),
  ];

  const render = () => {
    const ready = state.choices !== null;
    replace(spaceSelect, ready ? options(state.choices?.spaces ?? [], state.space) : null);
    replace(modeSelect, ready ? options(state.choices?.modes ?? [], state.mode) : null);
    for (const control of [spaceSelect, modeSelect, button])
      if (ready && !state.busy) control.removeAttribute('disabled');
      else control.setAttribute('disabled', '');
    replace(
      alert,
      state.readError !== null
        ? `Cannot read the spaces and modes of the policy: ${errorText(state.readError)}`
        : state.failed === null
          ? null
          : ['Not placed. ', rich(sentence(state.failed))],
    );
    replace(
      status,
      state.busy ? 'Placing…' : state.said === null ? null : ['Placed ', rich(state.said), '.'],
    );
  };

  /** @param {SubmitEvent} event */
  const submit = async (event) => {
    event.preventDefault();
    if (state.busy || state.choices === null) return;
    const to = {
      space: state.space === '' ? null : state.space,
      mode: state.mode === '' ? null : state.mode,
    };
    state.busy = true;
    state.failed = null;
    state.said = null;
    render();
    try {
      /** @type {import('../../lib/types.js').Agent | Placeable} */
      const record = await api(
        'PUT',
        `/v1/agents/${encodeURIComponent(agent.id)}${query({ workspace })}`,
        placementBody(state.current, to),
      );
      state.current = record;
      state.space = record.space ?? '';
      state.mode = record.mode ?? '';
      state.said = placementWords(record);
      onPlaced(record);
    } catch (error) {
      state.failed = errorText(error);
    }
    state.busy = false;
    render();
  };

  const el = h(
    'form',
    { class: 'ag-place', 'aria-labelledby': 'place-title', onsubmit: submit },
    h('h3', { id: 'place-title' }, 'Place this agent'),
    h(
      'p',
      { class: 'muted ag-small', id: 'place-help' },
      'The space (and with it the autonomy dial) and the mode (and with it the command net) its calls are decided in when its token binds none. ',
      'The permissions matrix decides its column there too.',
    ),
    h(
      'div',
      { class: 'row' },
      h('div', null, h('label', { for: 'place-space' }, 'Space'), spaceSelect),
      h('div', null, h('label', { for: 'place-mode' }, 'Mode'), modeSelect),
      button,
    ),
    alert,
    status,
  );
  render();

  void (async () => {
    try {
      /** @type {import('../../lib/types.js').PermissionsMatrix} */
      const matrix = await api('GET', `/v1/permissions/matrix${query({ workspace })}`);
      state.choices = placeChoices(matrix, { space: agent.space, mode: agent.mode });
    } catch (error) {
      state.readError = error;
    }
    render();
  })();

  return el;
}
