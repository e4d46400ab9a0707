// The kill switch on the agents pages: whether an agent, or its whole
// workspace, is frozen — by whom, since when, why — read from
// `GET /v1/freezes`. A role that may change policies (an admin) freezes with
// a reason typed in the page (`PUT /v1/agents/:id/freeze`, `PUT /v1/freeze`)
// and thaws (`DELETE` of the same); every other role sees the state only.
// After either, the freezes are read again, so the page shows what the
// server holds; a refusal is shown in the server's words.

import { api, query } from '../../lib/api.js';
import { code, h, replace, time } from '../../lib/dom.js';
import { errorText, loading } from './common.js';

/** @typedef {import('../../lib/types.js').Freeze} Freeze */

/**
 * The freeze of `agent` among `freezes` (`null`: the workspace's own); the
 * managed policy's, listed first, when both froze it.
 * @param {readonly Freeze[]} freezes @param {string | null} agent
 */
export function freezeOf(freezes, agent) {
  return freezes.find((f) => f.agent === agent) ?? null;
}

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

/** A one-line title for a freeze badge. @param {Freeze} f */
function titleOf(f) {
  return `Frozen by ${f.by}${f.frozenAt === null ? '' : ` at ${f.frozenAt}`}${f.reason === null ? '' : `: ${f.reason}`}`;
}

/** A "frozen" badge for an agent of a list. @param {Freeze} f */
export function frozenBadge(f) {
  return h('span', { class: 'badge badge-deny freeze-badge', title: titleOf(f) }, 'frozen');
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
  const mayChange = ctx.can('policy');
  const whole = agent === null;
  const calls = whole
    ? `every call of every agent in workspace ${workspace}`
    : `every call of agent ${agent}`;
  const path =
    (whole ? '/v1/freeze' : `/v1/agents/${encodeURIComponent(agent)}/freeze`) +
    query({ workspace });
  const key = whole ? 'workspace' : 'agent';

  /**
   * @type {{
   *   freezes: readonly Freeze[] | null,
   *   readError: unknown,
   *   busy: boolean,
   *   failed: string | null,
   *   said: string | null,
   * }}
   */
  const state = { freezes: null, readError: null, busy: false, failed: null, said: null };

  const el = h('div', { class: 'freeze', dataset: { freeze: key } });
  const reasonId = `freeze-reason-${key}`;
  const reason = h('input', {
    type: 'text',
    id: reasonId,
    name: 'reason',
    autocomplete: 'off',
    'aria-describedby': `${reasonId}-hint`,
  });
  /** The button that acts now (Freeze or Thaw): where the focus goes back after a change. */
  let action = /** @type {HTMLButtonElement | null} */ (null);

  const render = () => {
    const own = state.freezes === null ? null : freezeOf(state.freezes, agent);
    const ws = state.freezes === null || whole ? null : freezeOf(state.freezes, null);
    el.classList.toggle('freeze-on', own !== null);
    action = null;

    /** @type {import('../../lib/types.js').Child[]} */
    const shown = [];
    if (state.freezes === null && state.readError === null) shown.push(loading());
    else if (state.freezes === null)
      shown.push(
        h(
          'p',
          { class: 'error', role: 'alert' },
          `Cannot read the freezes: ${errorText(state.readError)}`,
        ),
      );
    else {
      if (whole)
        shown.push(
          own === null
            ? h(
                'p',
                { class: 'freeze-state', dataset: { state: 'thawed' } },
                'Workspace ',
                code(workspace),
                ' is not frozen.',
              )
            : h(
                'div',
                { class: 'freeze-state', dataset: { state: 'frozen' } },
                h(
                  'p',
                  { class: 'freeze-headline' },
                  h('span', { class: 'badge badge-deny' }, 'frozen'),
                  ' Workspace ',
                  code(workspace),
                  ' is frozen: every call of every agent in it is denied, whatever the policy says, and no approval or override lifts that.',
                ),
                h('p', null, frozenBy(own)),
              ),
        );
      else {
        shown.push(
          own === null
            ? h(
                'p',
                { class: 'freeze-state', dataset: { state: 'thawed' } },
                h('span', { class: 'badge badge-allow' }, 'not frozen'),
                ws === null
                  ? ' Its calls are decided by the policy.'
                  : ' Not frozen on its own — but its whole workspace is:',
              )
            : h(
                'div',
                { class: 'freeze-state', dataset: { state: 'frozen' } },
                h(
                  'p',
                  { class: 'freeze-headline' },
                  h('span', { class: 'badge badge-deny' }, 'frozen'),
                  ' Every call of this agent is denied, whatever the policy says, and no approval or override lifts that.',
                ),
                h('p', null, frozenBy(own)),
              ),
          ws === null
            ? h(
                'p',
                { class: 'muted freeze-workspace', dataset: { state: 'thawed' } },
                'Its workspace ',
                code(workspace),
                ' is not frozen.',
              )
            : h(
                'div',
                { class: 'freeze-workspace freeze-banner', dataset: { state: 'frozen' } },
                h(
                  'p',
                  { class: 'freeze-headline' },
                  'Its whole workspace ',
                  code(workspace),
                  ' is frozen',
                  own === null ? ': this agent’s calls are denied too.' : ' as well.',
                ),
                h('p', null, frozenBy(ws)),
              ),
        );
      }
      if (!mayChange)
        shown.push(
          h(
            'p',
            { class: 'muted freeze-readonly' },
            `Freezing and thawing take an admin token; ${/^[aeiou]/i.test(ctx.identity.role) ? 'an' : 'a'} \`${ctx.identity.role}\` token may only see the state.`,
          ),
        );
      else if (own?.managed === true)
        shown.push(
          h(
            'p',
            { class: 'muted freeze-readonly' },
            'No admin can thaw this freeze: it stands until the managed policy no longer holds it.',
          ),
        );
      else if (own === null) {
        action = h(
          'button',
          { type: 'submit', class: 'danger', disabled: state.busy },
          whole ? 'Freeze workspace' : 'Freeze',
        );
        const form = h(
          'form',
          {
            class: 'freeze-form',
            onsubmit: (/** @type {SubmitEvent} */ event) => {
              event.preventDefault();
              void change('PUT');
            },
          },
          h('label', { for: reasonId }, 'Reason'),
          h(
            'p',
            { class: 'muted ag-small', id: `${reasonId}-hint` },
            `Optional; one line, at most 500 characters, shown to the agent in every deny. Freezing denies ${calls} from now on, and the prompts waiting for an answer.`,
          ),
          h('div', { class: 'row' }, h('div', { class: 'freeze-input' }, reason), action),
        );
        // A whole workspace is one step further away: the form opens first.
        shown.push(
          whole
            ? h(
                'details',
                { class: 'freeze-details', open: state.busy || state.failed !== null },
                h('summary', null, 'Freeze the whole workspace…'),
                form,
              )
            : form,
        );
      } else {
        action = h(
          'button',
          { type: 'button', disabled: state.busy, onclick: () => void change('DELETE') },
          whole ? 'Thaw workspace' : 'Thaw',
        );
        shown.push(h('div', { class: 'row freeze-form' }, action));
      }
    }
    if (state.failed !== null)
      shown.push(h('p', { class: 'error freeze-error', role: 'alert' }, state.failed));
    shown.push(h('p', { class: 'freeze-said', role: 'status' }, state.said ?? ''));
    replace(el, shown);
  };

  const load = async () => {
    try {
      /** @type {import('../../lib/types.js').FreezeList} */
      const { freezes } = await api('GET', `/v1/freezes${query({ workspace })}`);
      state.freezes = freezes;
      state.readError = null;
    } catch (error) {
      state.freezes = null;
      state.readError = error;
    }
    render();
    return state.freezes;
  };

  /** @param {'PUT' | 'DELETE'} method */
  const change = async (method) => {
    if (state.busy) return;
    const refocus = el.contains(document.activeElement);
    state.busy = true;
    state.failed = null;
    state.said = null;
    render();
    try {
      if (method === 'PUT') {
        const text = reason.value.trim();
        /** @type {import('../../lib/types.js').Frozen} */
        const frozen = await api('PUT', path, text === '' ? {} : { reason: text });
        const n = frozen.denied.length;
        state.said = `Frozen: ${calls} is denied from now on${n === 0 ? '.' : `; ${n} waiting ${n === 1 ? 'approval was' : 'approvals were'} denied.`}`;
        reason.value = '';
      } else {
        await api('DELETE', path);
        state.said = whole
          ? `Thawed: the policy decides the calls in workspace ${workspace} again (an agent frozen on its own stays frozen).`
          : `Thawed: the policy decides the calls of agent ${agent} again.`;
      }
    } catch (error) {
      state.failed = `Cannot ${method === 'PUT' ? 'freeze' : 'thaw'}: ${errorText(error)}`;
    }
    state.busy = false;
    const freezes = await load();
    if (refocus) action?.focus();
    if (freezes !== null) onChange?.(freezes);
  };

  render();
  void load();
  // Signed in again after the token stopped working: read the state again (what was typed stays).
  const restored = () => {
    if (el.isConnected) void load();
    else window.removeEventListener('warden:session-restored', restored);
  };
  window.addEventListener('warden:session-restored', restored);
  return { el, load };
}
