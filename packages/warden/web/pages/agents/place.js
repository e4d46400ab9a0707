// Where an agent acts, on the agents pages: its registered space (and with
// it the autonomy dial) and mode (and with it the command net), "none" when
// it has none — and the control an admin places it with. The choices are
// the spaces and modes the workspace's policy names (the permissions
// matrix's columns), plus none. `PUT /v1/agents/:id` resets every field it
// is not sent, so the agent's name, role and model go back unchanged.
//
// What the control holds is its state (`agent-state.js`: `placeState`,
// `reducePlace`, with the choices and the request body): pure, tested in
// Node. `placeForm` is the wiring: it feeds the state the API's answers and
// what is picked, and draws it.

import { api, query } from '../../lib/api.js';
import { h, replace, rich } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import {
  placeAlertText,
  placeChoices,
  placeReady,
  placeSaidText,
  placeState,
  placeTarget,
  placementBody,
  placementWords,
  reducePlace,
} from './agent-state.js';
import { errorText } from './common.js';

export { placeChoices, placementBody, placementWords };

/**
 * @typedef {import('./agent-state.js').Placement} Placement
 * @typedef {import('./agent-state.js').PlaceChoices} PlaceChoices
 * @typedef {import('./agent-state.js').Placeable} Placeable
 * @typedef {import('./agent-state.js').PlaceState} PlaceState
 * @typedef {import('./agent-state.js').PlaceEvent} PlaceEvent
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

/** Options of a picker: none, then each choice; the one chosen selected. @param {readonly string[]} ids @param {string} chosen */
function options(ids, chosen) {
  return [
    h('option', { value: '', selected: chosen === '' }, 'none'),
    ids.map((id) => h('option', { value: id, selected: id === chosen }, id)),
  ];
}

/**
 * The parts of the control, made once (so the focus stays where it is).
 * @typedef {{
 *   space: HTMLSelectElement,
 *   mode: HTMLSelectElement,
 *   button: HTMLButtonElement,
 *   alert: HTMLParagraphElement,
 *   status: HTMLParagraphElement,
 * }} PlaceParts
 */

/** Draws a state into the control's parts. @param {PlaceState} state @param {PlaceParts} parts */
function drawPlace(state, parts) {
  const ready = state.choices !== null;
  replace(parts.space, ready ? options(state.choices?.spaces ?? [], state.space) : null);
  replace(parts.mode, ready ? options(state.choices?.modes ?? [], state.mode) : null);
  for (const control of [parts.space, parts.mode, parts.button])
    if (placeReady(state)) control.removeAttribute('disabled');
    else control.setAttribute('disabled', '');
  const alert = placeAlertText(state);
  // The server's words are marked up (`code`); a failed read is said as it is.
  replace(parts.alert, alert === null ? null : state.readError !== null ? alert : rich(alert));
  const said = placeSaidText(state);
  replace(parts.status, said === null ? null : rich(said));
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
  /** @type {PlaceState} */
  let state = placeState(agent);

  /** The state after `event`, drawn; a placement asked for is made. @param {PlaceEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reducePlace(state, event);
    if (state === prev) return;
    if (event.type === 'place' && state.busy) void place(placeTarget(state));
    // What is picked is in the picker already.
    if (event.type !== 'picked') drawPlace(state, parts);
  };

  /** @type {PlaceParts} */
  const parts = {
    space: h('select', {
      id: 'place-space',
      name: 'space',
      onchange: () => dispatch({ type: 'picked', field: 'space', value: parts.space.value }),
    }),
    mode: h('select', {
      id: 'place-mode',
      name: 'mode',
      onchange: () => dispatch({ type: 'picked', field: 'mode', value: parts.mode.value }),
    }),
    button: h('button', { type: 'submit', class: 'primary' }, 'Place'),
    alert: h('p', { class: 'error', role: 'alert', id: 'place-error' }),
    status: h('p', { class: 'muted', role: 'status', id: 'place-said' }),
  };

  /** @param {Placement} to */
  const place = async (to) => {
    try {
      /** @type {import('../../lib/types.js').Agent | Placeable} */
      const record = await api(
        'PUT',
        `/v1/agents/${encodeURIComponent(agent.id)}${query({ workspace })}`,
        placementBody(state.current, to),
      );
      dispatch({ type: 'placed', record });
      onPlaced(record);
    } catch (error) {
      dispatch({ type: 'place-refused', message: errorText(error) });
    }
  };

  const el = h(
    'form',
    {
      class: 'ag-place',
      'aria-labelledby': 'place-title',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        dispatch({ type: 'place' });
      },
    },
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
      h('div', null, h('label', { for: 'place-space' }, 'Space'), parts.space),
      h('div', null, h('label', { for: 'place-mode' }, 'Mode'), parts.mode),
      parts.button,
    ),
    parts.alert,
    parts.status,
  );
  drawPlace(state, parts);

  void (async () => {
    try {
      /** @type {import('../../lib/types.js').PermissionsMatrix} */
      const matrix = await api('GET', `/v1/permissions/matrix${query({ workspace })}`);
      dispatch({ type: 'choices-read', matrix });
    } catch (error) {
      dispatch({ type: 'choices-failed', message: errorText(error) });
    }
  })();

  return el;
}
