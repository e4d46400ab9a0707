// The policy matrix (G20): the thirteen action classes down, the scopes
// across — the workspace, each agent, each space, each mode preset — and in
// each cell what a request of that class gets there, computed by the server
// with the engine decisions use. A cell opens what decides it, its
// exceptions and the rules written there, with the controls the role has,
// beside the matrix. At a team's size the scope headers and the class column
// stay in place while the table scrolls, and the columns can be narrowed to
// one kind of scope or to names that hold some text.
//
// What the matrix holds is its state (`matrix-state.js`): pure, tested in
// Node. `mountMatrix` is the wiring: it feeds the state the page's reads and
// the person's input, draws each new state (`drawTable`, `drawDetail`), and
// moves the focus where the state says.

import { badge, code, h, replace } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { openEditor } from './editor.js';
import {
  KINDS,
  cellClass,
  cellNotes,
  columnName,
  columnNote,
  countText,
  decisionWord,
  isSelected,
  matrixState,
  openCell,
  reduce,
  shownColumns,
  waitingText,
} from './matrix-state.js';
import { managedSourceText, ruleItem } from './rules.js';
import { alertBox, rich, scopeName, uid } from './ui.js';

/**
 * @typedef {import('../../lib/types.js').PermissionsEnv} PermissionsEnv
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').MatrixColumn} MatrixColumn
 * @typedef {import('../../lib/types.js').MatrixCell} MatrixCell
 * @typedef {import('./matrix-state.js').MatrixState} MatrixState
 * @typedef {import('./matrix-state.js').MatrixEvent} MatrixEvent
 */

/**
 * How the matrix draws a state, and where the person's input goes.
 * @typedef {{ state: MatrixState, emit: (event: MatrixEvent) => void, env: PermissionsEnv, ids: { detail: string, title: string } }} Drawing
 */

/** The column heading's second line, as a tag (see `columnNote`). @param {MatrixColumn} column */
function columnTag(column) {
  const shown = columnNote(column);
  if (shown === null) return null;
  if (shown.kind === 'place') return h('span', { class: 'tag col-place' }, shown.text);
  if (shown.kind === 'dial') return h('span', { class: `tag tag-${shown.tone}` }, shown.text);
  return h('span', { class: 'tag' }, shown.text);
}

/** A part of a cell's name that a screen reader says and the eye does not need. @param {string} text */
function spoken(text) {
  return h('span', { class: 'visually-hidden' }, text);
}

/** A small line under a cell's badge, set off from the one before it when spoken. @param {string} text */
function note(text) {
  return [spoken(', '), h('span', { class: 'cell-note' }, text)];
}

/**
 * What decides a cell, in the small line under its badge, with the words a
 * screen reader says before it: the built-in default, the rule written here,
 * or "↑ the scope" it inherits from.
 * @param {MatrixCell} cell
 */
function cellBy(cell) {
  if (cell.decidedIn === 'default')
    return [spoken(' by the built-in '), h('span', { class: 'cell-by' }, 'default')];
  if (!cell.inherited) return [spoken(' by rule '), h('span', { class: 'cell-by' }, cell.rule)];
  return [
    spoken(' inherited from '),
    h(
      'span',
      { class: 'cell-by' },
      h('span', { 'aria-hidden': 'true' }, '↑ '),
      scopeName(cell.decidedIn),
    ),
  ];
}

/** A long sentence folded, its fold kept in the state as `part`. @param {Drawing} d @param {string} text @param {string} what @param {string} part */
function foldedSentence(d, text, what, part) {
  return folded(text, {
    limit: 400,
    render: rich,
    what,
    open: d.state.unfolded.includes(part),
    onToggle: (open) => d.emit({ type: 'fold', part, open }),
  });
}

/** The cell of `row` in `cell`'s scope: a button that opens its explanation. @param {Drawing} d @param {PermissionsMatrix} data @param {string} cls @param {MatrixCell} cell */
function cellButton(d, data, cls, cell) {
  const selected = isSelected(d.state, cls, cell.scope);
  return h(
    'button',
    {
      type: 'button',
      class: cellClass(cell, selected),
      'aria-expanded': selected ? 'true' : 'false',
      'aria-controls': d.ids.detail,
      dataset: { class: cls, scope: cell.scope, effective: cell.effective },
      onclick: () => d.emit({ type: 'open', cls, scope: cell.scope }),
    },
    // Named by what it shows (the decision, what decides it, its notes),
    // after the class and scope it is the cell of, said but not shown.
    spoken(`${cls} in ${scopeName(cell.scope)}: `),
    badge(cell.effective),
    cellBy(cell),
    cellNotes(data, cell).map(note),
  );
}

/** The table of the columns the filter shows. @param {Drawing} d @param {PermissionsMatrix} data */
function drawTable(d, data) {
  const columns = shownColumns(d.state);
  const shown = new Set(columns.map((c) => c.scope));
  return h(
    'table',
    { class: 'matrix' },
    h(
      'caption',
      null,
      'What each action class gets in each scope when no conditional rule applies, after the space’s autonomy dial',
    ),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col', class: 'corner' }, 'Action class'),
        columns.map((column) =>
          h(
            'th',
            {
              scope: 'col',
              // The server's words for what the column answers (an agent's: where it acts), as plain text.
              title: column.label.replaceAll('`', ''),
              dataset: { scope: column.scope },
            },
            h('span', { class: 'col-kind' }, column.kind),
            h('span', { class: 'col-id' }, columnName(d.state, column)),
            columnTag(column),
          ),
        ),
      ),
    ),
    h(
      'tbody',
      null,
      data.rows.map((row) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, code(row.class), h('span', { class: 'covers' }, row.covers)),
          row.cells
            .filter((cell) => shown.has(cell.scope))
            .map((cell) => h('td', null, cellButton(d, data, row.class, cell))),
        ),
      ),
    ),
  );
}

/** What the matrix's main part shows: the table, or why there is none. @param {Drawing} d */
function drawBody(d) {
  const data = d.state.data;
  if (data === null) return h('p', { class: 'muted' }, waitingText(d.state));
  return shownColumns(d.state).length === 0
    ? h('p', { class: 'muted' }, 'No scope matches the filter.')
    : h('div', { class: 'scroll matrix-scroll' }, drawTable(d, data));
}

/** What decides the open cell, in a sentence. @param {Drawing} d @param {NonNullable<ReturnType<typeof openCell>>} open */
function decidedBy(d, open) {
  const { cell, cls, decider } = open;
  return cell.decidedIn === 'default'
    ? [
        'Decided by the built-in default ',
        code(cell.rule),
        `: no rule for ${cls} on this scope's chain decides.`,
      ]
    : [
        'Decided by ',
        code(cell.rule),
        cell.inherited
          ? [' inherited from ', h('strong', null, scopeName(cell.decidedIn))]
          : ' written here',
        decider === undefined
          ? '.'
          : [': ', foldedSentence(d, decider.sentence, 'the rule', 'decider')],
      ];
}

/** The open cell's exceptions and the rules written there, with the controls the role has. @param {Drawing} d @param {NonNullable<ReturnType<typeof openCell>>} open @param {PermissionsMatrix} data */
function cellRules(d, open, data) {
  const { cell, cls, scope, here, pinned } = open;
  const { env } = d;
  const itemBox = alertBox();
  const close = () => d.emit({ type: 'close' });
  return [
    cell.exceptions.length === 0
      ? null
      : [
          h('h3', null, 'Except when'),
          h(
            'ul',
            { class: 'list' },
            cell.exceptions.map((e, i) =>
              h(
                'li',
                null,
                badge(e.decision),
                ' ',
                foldedSentence(d, e.sentence, 'the exception', `exception:${i}`),
                h('span', { class: 'muted' }, ` [${e.rule}]`),
              ),
            ),
          ),
        ],
    h('h3', null, `Rules for ${cls} written in ${scopeName(scope)}`),
    here.length === 0
      ? h('p', { class: 'muted' }, 'None.')
      : h(
          'ul',
          { class: 'list rules' },
          here.map((r) => ruleItem(env, r, itemBox)),
        ),
    pinned.length === 0
      ? null
      : [
          h('h3', null, 'Managed rules here (read-only)'),
          h('p', { class: 'muted' }, 'Source: ', managedSourceText(data.managed), '.'),
          h(
            'ul',
            { class: 'list rules' },
            pinned.map((r) => ruleItem(env, r, itemBox)),
          ),
        ],
    itemBox,
    env.canWrite
      ? h(
          'p',
          { class: 'row' },
          h(
            'button',
            {
              type: 'button',
              class: 'primary',
              onclick: () => openEditor(env, { scope, action: cls }),
            },
            `Add a rule for ${cls} here`,
          ),
          h('button', { type: 'button', onclick: close }, 'Close'),
        )
      : [
          h('p', { class: 'muted' }, `Your role (${env.role}) may read the policy, not change it.`),
          h('p', { class: 'row' }, h('button', { type: 'button', onclick: close }, 'Close')),
        ],
  ];
}

/** The open cell's explanation: what it gets, what decides it, the rules there. @param {Drawing} d @param {NonNullable<ReturnType<typeof openCell>>} open @param {PermissionsMatrix} data */
function drawDetail(d, open, data) {
  const { cls, scope, row, cell, column } = open;
  return [
    h('h2', { id: d.ids.title, tabindex: '-1' }, code(cls), ` in ${scopeName(scope)}`),
    h('p', { class: 'muted' }, rich(`${row.covers}; ${column?.label ?? ''}.`)),
    h(
      'p',
      { class: 'gets' },
      'Gets ',
      badge(cell.effective),
      cell.decision === cell.effective
        ? null
        : h(
            'span',
            null,
            ` — ${decisionWord(cell.decision)} before the autonomy dial: this space is ${column?.effectiveAutonomy ?? ''}`,
          ),
      '.',
    ),
    h('p', null, decidedBy(d, open)),
    cellRules(d, open, data),
  ];
}

/** The filter over the columns: a kind of scope, and text their name holds. @param {(event: MatrixEvent) => void} emit @param {HTMLElement} shownCount */
function filterBar(emit, shownCount) {
  const kindId = uid('matrix-kind');
  const nameId = uid('matrix-name');
  return h(
    'div',
    { class: 'row matrix-filter' },
    h('label', { for: kindId }, 'Show'),
    h(
      'select',
      {
        id: kindId,
        onchange: (/** @type {Event} */ event) =>
          emit({
            type: 'filter-kind',
            kind: /** @type {HTMLSelectElement} */ (event.currentTarget).value,
          }),
      },
      KINDS.map(([value, label]) => h('option', { value }, label)),
    ),
    h('label', { for: nameId }, 'Named'),
    h('input', {
      id: nameId,
      type: 'search',
      autocomplete: 'off',
      placeholder: 'e.g. coder',
      oninput: (/** @type {Event} */ event) =>
        emit({
          type: 'filter-name',
          text: /** @type {HTMLInputElement} */ (event.currentTarget).value,
        }),
    }),
    shownCount,
  );
}

/** What the matrix says above itself. @param {PermissionsEnv} env */
function intro(env) {
  return h(
    'p',
    { class: 'muted' },
    'Each cell is what a request of the class gets in that scope when no rule with conditions applies: ',
    badge('allow'),
    ' allowed, ',
    badge('prompt'),
    ' a human is asked (denied when none is connected), ',
    badge('deny'),
    ' denied. “↑” means the cell inherits from a wider scope. Open a cell to see why',
    env.canWrite ? ', and to write a rule there.' : '.',
  );
}

/** @param {HTMLElement} panel @param {PermissionsEnv} env */
export function mountMatrix(panel, env) {
  const ids = { detail: uid('cell-detail'), title: uid('cell-title') };
  let state = matrixState(env.workspace, env.state.data, env.state.error !== null);
  const body = h('div', { class: 'matrix-main' });
  const shownCount = h('span', { class: 'muted matrix-count', role: 'status' });
  const detail = h('section', {
    id: ids.detail,
    class: 'card cell-detail',
    'aria-labelledby': ids.title,
    hidden: true,
  });
  const layout = h('div', { class: 'matrix-layout' }, body, detail);

  /** @param {MatrixEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    // Folding is drawn by the fold itself; the state only remembers it.
    if (state === prev || event.type === 'fold' || event.type === 'focused') return;
    draw();
  };

  const draw = () => {
    const d = { state, emit: dispatch, env, ids };
    replace(body, drawBody(d));
    if (state.data !== null) replace(shownCount, countText(state));
    const open = state.data === null ? null : openCell(state);
    if (open !== null && state.data !== null) replace(detail, drawDetail(d, open, state.data));
    detail.hidden = open === null;
    layout.classList.toggle('with-detail', open !== null);
    placeFocus();
  };

  /** Moves the focus where the state says: the explanation opened, or the cell it explained. */
  const placeFocus = () => {
    const focus = state.focus;
    if (focus === null) return;
    dispatch({ type: 'focused' });
    if (focus === 'detail') detail.querySelector('h2')?.focus();
    else
      /** @type {HTMLElement | null} */ (
        body.querySelector(
          `button.cell[data-class="${CSS.escape(focus.cls)}"][data-scope="${CSS.escape(focus.scope)}"]`,
        )
      )?.focus();
  };

  replace(panel, intro(env), alertBox(), filterBar(dispatch, shownCount), layout);
  draw();
  return env.state.subscribe((data, error) =>
    dispatch({ type: 'read', data, failed: error !== null }),
  );
}
