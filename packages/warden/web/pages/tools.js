// The gateway's pinned tools of a workspace (`GET /v1/tool-pins`): each
// downstream tool by the hash of the definition (name, description, input
// schema) it had when the gateway first listed it, when and by whom it was
// pinned. A tool whose definition changed since is marked, and its pinned and
// new definitions are shown side by side — as text, never as markup: a
// description is whatever the downstream server wrote. The gateway refuses
// such a tool until an admin accepts the new definition
// (`POST /v1/tool-pins/accept`), which a role that may change policies does
// here; every other role sees the change only. After an acceptance the pins
// are read again, so the page shows what the server holds; a refusal is shown
// in the server's words. The shell's navigation counts the changed tools
// (`warden:tool-pins`).
//
// What the page holds is its state (`tools/state.js`): pure, tested in Node.
// `render` is the wiring: it feeds the state the API's answers, draws each
// new state (`drawPins`), and does what the person asks (accept a definition).

import { api, query } from '../lib/api.js';
import { code, h, replace, section, time } from '../lib/dom.js';
import { folded, foldedPre } from '../lib/fold.js';
import { errorText, failure, loading } from './agents/common.js';
import { changedPins, pinsState, readOnlyText, reduce, summaryText } from './tools/state.js';

export { changedPins };

/**
 * @typedef {import('../lib/types.js').ToolPin} ToolPin
 * @typedef {import('../lib/types.js').ToolDefinition} ToolDefinition
 * @typedef {import('./tools/state.js').PinsState} PinsState
 * @typedef {import('./tools/state.js').PinsEvent} PinsEvent
 */

/** The first 12 hex digits of a hash, with the whole of it on hover. @param {string} hash */
export function shortHash(hash) {
  return h('code', { class: 'pin-hash', title: hash }, hash.slice(0, 12));
}

/** Tells the shell how many tools of `workspace` changed. @param {string} workspace @param {number} changed */
export function announceChanged(workspace, changed) {
  window.dispatchEvent(new CustomEvent('warden:tool-pins', { detail: { workspace, changed } }));
}

/** A definition as the console reads it: unknown fields dropped, missing ones null. @param {unknown} value @returns {ToolDefinition} */
function definitionOf(value) {
  const o =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? /** @type {Record<string, unknown>} */ (value)
      : {};
  return {
    name: typeof o.name === 'string' ? o.name : null,
    description: typeof o.description === 'string' ? o.description : null,
    inputSchema: o.inputSchema === undefined ? null : o.inputSchema,
  };
}

/** A value as indented JSON text. @param {unknown} value */
function formatted(value) {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The fields of a definition compared, each as the text shown. */
const FIELDS = /** @type {const} */ ([
  { key: 'name', label: 'Name', text: (/** @type {ToolDefinition} */ d) => d.name },
  {
    key: 'description',
    label: 'Description',
    text: (/** @type {ToolDefinition} */ d) => d.description,
  },
  {
    key: 'schema',
    label: 'Input schema',
    text: (/** @type {ToolDefinition} */ d) =>
      d.inputSchema === null ? null : formatted(d.inputSchema),
  },
]);

/**
 * How the page draws a state, and where the person's input goes.
 * @typedef {{ state: PinsState, emit: (event: PinsEvent) => void }} Drawing
 */

/**
 * A fold of `part` as the state has it, reporting each fold and unfold.
 * @param {Drawing} d @param {string} part
 */
function foldOf(d, part) {
  return {
    open: d.state.unfolded.includes(part),
    onToggle: (/** @type {boolean} */ open) => d.emit({ type: 'fold', part, open }),
  };
}

/**
 * One field's text in a `<pre>` (a long one folded), or "none".
 * @param {Drawing} d @param {string} tool @param {string | null} text @param {string} field @param {'old' | 'new' | 'pinned'} side
 */
function shownText(d, tool, text, field, side) {
  return text === null
    ? h('p', { class: 'muted pin-none', dataset: { field, side } }, 'none')
    : foldedPre(text, {
        limit: 2000,
        what: `the ${field}`,
        attrs: { class: 'pin-text', dataset: { field, side } },
        ...foldOf(d, `${side}:${field}:${tool}`),
      });
}

/** A tool's name as code, a long one folded. @param {Drawing} d @param {string} tool @param {string} where */
function toolName(d, tool, where) {
  return folded(tool, {
    limit: 80,
    render: code,
    what: 'the tool name',
    ...foldOf(d, `name:${where}:${tool}`),
  });
}

/** The pinned definition of a tool, folded. @param {Drawing} d @param {ToolPin} pin */
function pinnedDefinition(d, pin) {
  const def = definitionOf(pin.definition);
  const part = `definition:${pin.tool}`;
  const details = h(
    'details',
    { class: 'pin-definition', open: d.state.unfolded.includes(part) },
    h('summary', null, 'Definition'),
    FIELDS.filter((f) => f.key !== 'name').map((f) => [
      h('h4', null, f.label),
      shownText(d, pin.tool, f.text(def), f.key, 'pinned'),
    ]),
  );
  details.addEventListener('toggle', () => {
    if (details.open !== d.state.unfolded.includes(part))
      d.emit({ type: 'fold', part, open: details.open });
  });
  return details;
}

/** A changed tool: its pinned and new definitions side by side, and accepting the new one. @param {Drawing} d @param {ToolPin} pin */
function changeCard(d, pin) {
  const { state, emit } = d;
  const pending = /** @type {NonNullable<ToolPin['pending']>} */ (pin.pending);
  const before = definitionOf(pin.definition);
  const after = definitionOf(pending.definition);
  const headingId = `pin-change-${encodeURIComponent(pin.tool)}`;
  return h(
    'article',
    { class: 'pin-change', dataset: { tool: pin.tool }, 'aria-labelledby': headingId },
    h(
      'h3',
      { id: headingId },
      h('span', { class: 'badge badge-deny' }, 'changed'),
      ' ',
      toolName(d, pin.tool, 'change'),
    ),
    h(
      'p',
      null,
      'A new definition was offered at ',
      time(pending.seenAt),
      '. The gateway refuses this tool until an admin accepts it; until then its agents cannot call it.',
    ),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'pin-diff' },
        h('caption', { class: 'visually-hidden' }, `Pinned and new definition of ${pin.tool}`),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col', class: 'pin-field' }, 'Field'),
            h('th', { scope: 'col' }, 'Pinned definition ', shortHash(pin.hash)),
            h('th', { scope: 'col' }, 'New definition ', shortHash(pending.hash)),
          ),
        ),
        h(
          'tbody',
          null,
          FIELDS.map((f) => {
            const old = f.text(before);
            const now = f.text(after);
            const differs = old !== now;
            return h(
              'tr',
              { dataset: { field: f.key, differs } },
              h(
                'th',
                { scope: 'row' },
                f.label,
                h('br'),
                differs
                  ? h('span', { class: 'badge badge-deny' }, 'changed')
                  : h('span', { class: 'muted pin-same' }, 'same'),
              ),
              h('td', null, shownText(d, pin.tool, old, f.key, 'old')),
              h('td', null, shownText(d, pin.tool, now, f.key, 'new')),
            );
          }),
        ),
      ),
    ),
    state.mayAccept
      ? h(
          'div',
          { class: 'row pin-actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'primary',
              disabled: state.busy !== null,
              onclick: () => emit({ type: 'accept', tool: pin.tool }),
            },
            state.busy === pin.tool ? 'Accepting…' : 'Accept new definition',
          ),
          h(
            'span',
            { class: 'muted ag-small' },
            'The gateway lets the tool through again, with this definition pinned.',
          ),
        )
      : h('p', { class: 'muted pins-readonly' }, readOnlyText(state)),
  );
}

/** The list of pinned tools. @param {Drawing} d @param {readonly ToolPin[]} pins */
function pinsTable(d, pins) {
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'pins-list' },
      h('caption', { class: 'visually-hidden' }, `Pinned tools of workspace ${d.state.workspace}`),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Tool', 'State', 'Pinned hash', 'Pinned', 'By'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        null,
        pins.map((pin) => {
          const isChanged = pin.pending !== null;
          return h(
            'tr',
            { dataset: { tool: pin.tool, state: isChanged ? 'changed' : 'pinned' } },
            h(
              'th',
              { scope: 'row', tabindex: '-1', class: 'pin-tool' },
              toolName(d, pin.tool, 'row'),
              pinnedDefinition(d, pin),
            ),
            h(
              'td',
              { class: 'pin-state' },
              isChanged
                ? [
                    h('span', { class: 'badge badge-deny' }, 'changed'),
                    h('span', { class: 'muted ag-small' }, ' refused; new definition '),
                    shortHash(/** @type {NonNullable<ToolPin['pending']>} */ (pin.pending).hash),
                  ]
                : h('span', { class: 'badge badge-allow' }, 'pinned'),
            ),
            h('td', { class: 'pin-current' }, shortHash(pin.hash)),
            h('td', null, time(pin.pinnedAt)),
            h(
              'td',
              { class: 'pin-by' },
              folded(pin.pinnedBy, {
                limit: 80,
                what: 'who pinned it',
                ...foldOf(d, `by:${pin.tool}`),
              }),
            ),
          );
        }),
      ),
    ),
  );
}

/**
 * What the page's body shows for a state.
 * @param {Drawing} d @returns {import('../lib/types.js').Child[]}
 */
export function drawPins(d) {
  const { state } = d;
  /** @type {import('../lib/types.js').Child[]} */
  const shown = [];
  if (state.failed !== null)
    shown.push(h('p', { class: 'error pins-error', role: 'alert' }, state.failed));
  shown.push(h('p', { class: 'pins-said', role: 'status' }, state.said ?? ''));
  if (state.pins === null) {
    shown.push(
      state.readError === null
        ? loading()
        : failure('Cannot read the pinned tools', state.readError),
    );
    return shown;
  }
  const pins = state.pins;
  if (pins.length === 0) {
    shown.push(
      h(
        'p',
        { class: 'muted pins-empty' },
        'No tool is pinned yet: the gateway pins each downstream tool the first time it lists it.',
      ),
    );
    return shown;
  }
  const summary = summaryText(pins);
  shown.push(
    h(
      'p',
      {
        class: summary.changed === 0 ? 'pins-summary' : 'pins-summary freeze-banner',
        dataset: { changed: summary.changed },
      },
      summary.head,
      summary.changed === 0 ? summary.tail : h('strong', null, summary.tail),
    ),
    pinsTable(d, pins),
  );
  const changed = changedPins(pins);
  if (changed.length > 0)
    shown.push(
      h('h2', { class: 'pins-changes' }, 'Changed definitions'),
      changed.map((pin) => changeCard(d, pin)),
    );
  return shown;
}

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export async function render(main, ctx) {
  const workspace = ctx.params.workspace ?? '';
  const title = h('h1', null, 'Pinned tools');
  if (!ctx.can('read')) {
    replace(
      main,
      title,
      h(
        'p',
        { class: 'error', role: 'alert' },
        `${/^[aeiou]/i.test(ctx.identity.role) ? 'An' : 'A'} \`${ctx.identity.role}\` token may not read the pinned tools.`,
      ),
    );
    return;
  }
  /** @type {PinsState} */
  let state = pinsState({ workspace, role: ctx.identity.role, mayAccept: ctx.can('policy') });
  const body = h('div', { class: 'pins' });
  let left = false;

  /** The next state after `event`, drawn unless `quiet`. @param {PinsEvent} event @param {boolean} [quiet] */
  const dispatch = (event, quiet = false) => {
    const prev = state;
    state = reduce(state, event);
    if (event.type === 'accept' && state.busy === event.tool && prev.busy === null)
      void accept(event.tool);
    // Folding is drawn by the fold itself; the state only remembers it.
    if (quiet || left || state === prev || event.type === 'fold' || event.type === 'focused')
      return;
    draw();
  };

  const draw = () => {
    replace(body, drawPins({ state, emit: (event) => dispatch(event) }));
    if (state.focus !== null) {
      const tool = state.focus;
      dispatch({ type: 'focused' });
      const row = [...body.querySelectorAll('tr[data-tool]')].find(
        (r) => r instanceof HTMLElement && r.dataset.tool === tool,
      );
      const cell = row?.querySelector('th');
      if (cell instanceof HTMLElement) cell.focus();
    }
  };

  const load = async () => {
    try {
      /** @type {import('../lib/types.js').ToolPinList} */
      const { pins } = await api('GET', `/v1/tool-pins${query({ workspace })}`);
      dispatch({ type: 'loaded', pins });
      announceChanged(workspace, changedPins(pins).length);
    } catch (error) {
      dispatch({ type: 'load-failed', message: errorText(error) });
    }
  };

  /**
   * Accepts the definition shown: one that changed again since is refused (409), and the list
   * is read again to show it (the focus back on the tool's row then).
   * @param {string} tool
   */
  const accept = async (tool) => {
    const hash = state.pins?.find((p) => p.tool === tool)?.pending?.hash ?? '';
    try {
      /** @type {ToolPin} */
      const pin = await api('POST', `/v1/tool-pins/accept${query({ workspace })}`, {
        tool,
        hash,
      });
      dispatch({ type: 'accepted', tool, hash: pin.hash }, true);
    } catch (error) {
      dispatch({ type: 'accept-refused', tool, message: errorText(error) }, true);
    }
    await load();
  };

  replace(
    main,
    title,
    h(
      'p',
      { class: 'muted' },
      'The gateway pins each downstream tool of workspace ',
      code(workspace),
      ' by its definition — name, description and input schema — the first time it lists it. A tool whose definition changes since is refused until an admin accepts the new one.',
    ),
    section(`Tools of ${workspace}`, body),
  );
  draw();
  void load();
  return () => {
    left = true;
  };
}
