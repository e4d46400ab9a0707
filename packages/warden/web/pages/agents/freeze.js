// The kill switch on the agents pages: whether an agent, or its whole
// workspace, is frozen — by whom, since when, why — read from
// `GET /v1/freezes`. A role that may change policies (an admin) freezes with
// a reason typed in the page (`PUT /v1/agents/:id/freeze`, `PUT /v1/freeze`)
// and thaws (`DELETE` of the same); every other role sees the state only.
// After either, the freezes are read again, so the page shows what the
// server holds; a refusal is shown in the server's words.
//
// What the switch holds is its state (`agent-state.js`: `freezeState`,
// `reduceFreeze`): pure, tested in Node. `freezePanel` is the wiring: it
// feeds the state the API's answers and what is typed, and draws it.

import { api, query } from '../../lib/api.js';
import { code, h, replace, time } from '../../lib/dom.js';
import {
  callsText,
  freezeAction,
  freezeBody,
  freezeFormOpen,
  freezeOf,
  freezeReadOnlyText,
  freezeState,
  freezeTitle,
  freezesShown,
  reduceFreeze,
} from './agent-state.js';
import { errorText, loading } from './common.js';

export { freezeOf };

/**
 * @typedef {import('../../lib/types.js').Freeze} Freeze
 * @typedef {import('./agent-state.js').FreezeState} FreezeState
 * @typedef {import('./agent-state.js').FreezeEvent} FreezeEvent
 */

/** "Frozen by alice at 2026-… UTC" and the reason, as a sentence. @param {Freeze} f */
function frozenBy(f) {
  return [
    'Frozen by ',
    h('strong', { class: 'freeze-by' }, f.by),
    f.frozenAt === null ? '' : [' at ', time(f.frozenAt)],
    f.reason === null
      ? h('span', { class: 'muted' }, ' — no reason given.')
      : [' — reason: ', h('q', { class: 'freeze-reason' }, f.reason)],
    f.managed
      ? h(
          'span',
          { class: 'freeze-managed' },
          ' The installation operator set this freeze in the managed policy; only they lift it.',
        )
      : '',
  ];
}

/** A "frozen" badge for an agent of a list. @param {Freeze} f */
export function frozenBadge(f) {
  return h('span', { class: 'badge badge-deny freeze-badge', title: freezeTitle(f) }, 'frozen');
}

/** A freeze in force, said with its headline. @param {Freeze} f @param {import('../../lib/types.js').Child} headline */
function frozenState(f, headline) {
  return h(
    'div',
    { class: 'freeze-state', dataset: { state: 'frozen' } },
    h(
      'p',
      { class: 'freeze-headline' },
      h('span', { class: 'badge badge-deny' }, 'frozen'),
      headline,
    ),
    h('p', null, frozenBy(f)),
  );
}

/** Whether the whole workspace is frozen. @param {FreezeState} state */
function workspaceShown(state) {
  const { own } = freezesShown(state);
  return own === null
    ? h(
        'p',
        { class: 'freeze-state', dataset: { state: 'thawed' } },
        'Workspace ',
        code(state.workspace),
        ' is not frozen.',
      )
    : frozenState(own, [
        ' Workspace ',
        code(state.workspace),
        ' is frozen: every call of every agent in it is denied, whatever the policy says, and no approval or override lifts that.',
      ]);
}

/** Whether an agent is frozen, and whether its workspace is. @param {FreezeState} state */
function agentShown(state) {
  const { own, ws } = freezesShown(state);
  return [
    own === null
      ? h(
          'p',
          { class: 'freeze-state', dataset: { state: 'thawed' } },
          h('span', { class: 'badge badge-allow' }, 'not frozen'),
          ws === null
            ? ' Its calls are decided by the policy.'
            : ' Not frozen on its own — but its whole workspace is:',
        )
      : frozenState(
          own,
          ' Every call of this agent is denied, whatever the policy says, and no approval or override lifts that.',
        ),
    ws === null
      ? h(
          'p',
          { class: 'muted freeze-workspace', dataset: { state: 'thawed' } },
          'Its workspace ',
          code(state.workspace),
          ' is not frozen.',
        )
      : h(
          'div',
          { class: 'freeze-workspace freeze-banner', dataset: { state: 'frozen' } },
          h(
            'p',
            { class: 'freeze-headline' },
            'Its whole workspace ',
            code(state.workspace),
            ' is frozen',
            own === null ? ': this agent’s calls are denied too.' : ' as well.',
          ),
          h('p', null, frozenBy(ws)),
        ),
  ];
}

/**
 * The parts of a switch that stay across drawings: the reason typed (so
 * what is typed and where the focus is stay), and the Freeze and Thaw buttons.
 * @typedef {{
 *   reason: HTMLInputElement,
 *   reasonId: string,
 *   freeze: HTMLButtonElement,
 *   thaw: HTMLButtonElement,
 *   emit: (event: FreezeEvent) => void,
 * }} Controls
 */

/** The Freeze form (for a whole workspace, folded). @param {FreezeState} state @param {Controls} c */
function freezeForm(state, c) {
  const form = h(
    'form',
    {
      class: 'freeze-form',
      onsubmit: (/** @type {SubmitEvent} */ event) => {
        event.preventDefault();
        c.emit({ type: 'change', method: 'PUT' });
      },
    },
    h('label', { for: c.reasonId }, 'Reason'),
    h(
      'p',
      { class: 'muted ag-small', id: `${c.reasonId}-hint` },
      `Optional; one line, at most 500 characters, shown to the agent in every deny. Freezing denies ${callsText(state)} from now on, and the prompts waiting for an answer.`,
    ),
    h('div', { class: 'row' }, h('div', { class: 'freeze-input' }, c.reason), c.freeze),
  );
  // A whole workspace is one step further away: the form opens first.
  return state.agent === null
    ? h(
        'details',
        { class: 'freeze-details', open: freezeFormOpen(state) },
        h('summary', null, 'Freeze the whole workspace…'),
        form,
      )
    : form;
}

/** What the switch offers the person now. @param {FreezeState} state @param {Controls} c */
function actionShown(state, c) {
  switch (freezeAction(state)) {
    case 'read-only':
      return h('p', { class: 'muted freeze-readonly' }, freezeReadOnlyText(state));
    case 'managed':
      return h(
        'p',
        { class: 'muted freeze-readonly' },
        'No admin can thaw this freeze: it stands until the managed policy no longer holds it.',
      );
    case 'freeze':
      return freezeForm(state, c);
    case 'thaw':
      return h('div', { class: 'row freeze-form' }, c.thaw);
    default:
      return null;
  }
}

/**
 * What a switch shows for a state.
 * @param {FreezeState} state @param {Controls} c @returns {import('../../lib/types.js').Child[]}
 */
function drawFreeze(state, c) {
  if (c.reason.value !== state.reason) c.reason.value = state.reason;
  c.freeze.disabled = state.busy;
  c.thaw.disabled = state.busy;
  /** @type {import('../../lib/types.js').Child[]} */
  const shown = [];
  if (state.freezes === null)
    shown.push(
      state.readError === null
        ? loading()
        : h('p', { class: 'error', role: 'alert' }, `Cannot read the freezes: ${state.readError}`),
    );
  else shown.push(state.agent === null ? workspaceShown(state) : agentShown(state));
  shown.push(actionShown(state, c));
  if (state.failed !== null)
    shown.push(h('p', { class: 'error freeze-error', role: 'alert' }, state.failed));
  shown.push(h('p', { class: 'freeze-said', role: 'status' }, state.said ?? ''));
  return shown;
}

/**
 * The controls a freeze panel keeps across redraws: the reason typed, and the
 * Freeze and Thaw buttons; each reports to `dispatch`.
 * @param {string} reasonId @param {boolean} workspaceWide
 * @param {(event: FreezeEvent) => void} dispatch @returns {Controls}
 */
function freezeControls(reasonId, workspaceWide, dispatch) {
  /** @type {Controls} */
  const c = {
    reasonId,
    reason: h('input', {
      type: 'text',
      id: reasonId,
      name: 'reason',
      autocomplete: 'off',
      'aria-describedby': `${reasonId}-hint`,
      oninput: () => dispatch({ type: 'typed', reason: c.reason.value }),
    }),
    freeze: h(
      'button',
      { type: 'submit', class: 'danger' },
      workspaceWide ? 'Freeze workspace' : 'Freeze',
    ),
    thaw: h(
      'button',
      { type: 'button', onclick: () => dispatch({ type: 'change', method: 'DELETE' }) },
      workspaceWide ? 'Thaw workspace' : 'Thaw',
    ),
    emit: (event) => dispatch(event),
  };
  return c;
}

/**
 * The kill switch of one agent (`agent` a string) or of a whole workspace
 * (`agent` null): its state and, for a role that may change policies, the
 * Freeze form or the Thaw button. `onChange` is told the freezes after each
 * change. `el` is the element to place; `load()` reads the freezes (again).
 * @param {{
 *   ctx: import('../../lib/types.js').PageContext,
 *   workspace: string,
 *   agent: string | null,
 *   onChange?: (freezes: readonly Freeze[]) => void,
 * }} options
 */
export function freezePanel({ ctx, workspace, agent, onChange }) {
  /** @type {FreezeState} */
  let state = freezeState({
    workspace,
    agent,
    role: ctx.identity.role,
    mayChange: ctx.can('policy'),
  });
  const path =
    (agent === null ? '/v1/freeze' : `/v1/agents/${encodeURIComponent(agent)}/freeze`) +
    query({ workspace });
  const key = agent === null ? 'workspace' : 'agent';
  const el = h('div', { class: 'freeze', dataset: { freeze: key } });
  const reasonId = `freeze-reason-${key}`;

  /** The state after `event`, drawn; a change asked for is made. @param {FreezeEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduceFreeze(state, event);
    if (state === prev) return;
    if (event.type === 'change' && state.busy && !prev.busy) void change(event.method);
    // What is typed is in the field already; the answer to a change is drawn
    // with the freezes read after it.
    if (event.type === 'typed' || event.type === 'frozen' || event.type === 'thawed') return;
    if (event.type === 'change-refused') return;
    draw();
  };

  const c = freezeControls(reasonId, agent === null, dispatch);

  const draw = () => {
    el.classList.toggle('freeze-on', freezesShown(state).own !== null);
    replace(el, drawFreeze(state, c));
  };

  const load = async () => {
    try {
      /** @type {import('../../lib/types.js').FreezeList} */
      const { freezes } = await api('GET', `/v1/freezes${query({ workspace })}`);
      dispatch({ type: 'loaded', freezes });
    } catch (error) {
      dispatch({ type: 'load-failed', message: errorText(error) });
    }
    return state.freezes;
  };

  /** @param {'PUT' | 'DELETE'} method */
  const change = async (method) => {
    const refocus = el.contains(document.activeElement);
    try {
      if (method === 'PUT') {
        /** @type {import('../../lib/types.js').Frozen} */
        const frozen = await api('PUT', path, freezeBody(state));
        dispatch({ type: 'frozen', denied: frozen.denied.length });
      } else {
        await api('DELETE', path);
        dispatch({ type: 'thawed' });
      }
    } catch (error) {
      dispatch({ type: 'change-refused', method, message: errorText(error) });
    }
    const freezes = await load();
    // The focus goes back to the button that acts now (Freeze or Thaw).
    const action = freezeAction(state);
    if (refocus && (action === 'freeze' || action === 'thaw'))
      (action === 'freeze' ? c.freeze : c.thaw).focus();
    if (freezes !== null) onChange?.(freezes);
  };

  draw();
  void load();
  // Signed in again after the token stopped working: read the state again (what was typed stays).
  const restored = () => {
    if (el.isConnected) void load();
    else window.removeEventListener('warden:session-restored', restored);
  };
  window.addEventListener('warden:session-restored', restored);
  return { el, load };
}
