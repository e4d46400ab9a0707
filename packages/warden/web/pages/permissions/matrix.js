// The policy matrix (G20): the thirteen action classes down, the scopes
// across — the workspace, each agent, each space, each mode preset — and in
// each cell what a request of that class gets there, computed by the server
// with the engine decisions use. A cell opens what decides it, its
// exceptions and the rules written there, with the controls the role has,
// beside the matrix. At a team's size the scope headers and the class column
// stay in place while the table scrolls, and the columns can be narrowed to
// one kind of scope or to names that hold some text.

import { badge, code, h, replace } from '../../lib/dom.js';
import { folded } from '../../lib/fold.js';
import { openEditor } from './editor.js';
import { managedSourceText, ruleItem } from './rules.js';
import { alertBox, rich, scopeName, uid } from './ui.js';

/**
 * The column heading's second line: the dial of a space, the net of a mode,
 * and for an agent the space and mode it is registered in — where its cells
 * are decided (nothing when it has neither: then it is decided as the
 * workspace's column, with its own rules).
 * @param {import('../../lib/types.js').MatrixColumn} column
 */
function columnNote(column) {
  if (column.kind === 'agent') {
    const where = [
      column.space === null || column.space === undefined ? null : `space ${column.space}`,
      column.mode === null || column.mode === undefined ? null : `mode ${column.mode}`,
    ].filter((part) => part !== null);
    return where.length === 0 ? null : h('span', { class: 'tag col-place' }, where.join(' · '));
  }
  if (column.kind === 'space')
    return h(
      'span',
      { class: `tag tag-${column.effectiveAutonomy}` },
      column.autonomy === null ? 'actWithApproval (unset)' : column.autonomy,
    );
  if (column.kind === 'mode' && column.commandNet !== undefined && column.commandNet.length > 0)
    return h('span', { class: 'tag' }, `net: ${column.commandNet.length}`);
  return null;
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
 * @param {import('../../lib/types.js').MatrixCell} cell
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

/** Whether an advisory rule (reported, never enforced) is written in this cell. @param {import('../../lib/types.js').PermissionsMatrix} data @param {import('../../lib/types.js').MatrixCell} cell */
function advisoryHere(data, cell) {
  return cell.rules.some((id) =>
    data.rules.some((r) => r.id === id && r.layer === 'workspace' && r.enforcement === 'advisory'),
  );
}

/** @type {[string, string][]} */
const KINDS = [
  ['all', 'All scopes'],
  ['workspace', 'The workspace'],
  ['agent', 'Agents'],
  ['space', 'Spaces'],
  ['mode', 'Modes'],
];

/** @param {HTMLElement} panel @param {import('../../lib/types.js').PermissionsEnv} env */
export function mountMatrix(panel, env) {
  const box = alertBox();
  const body = h('div', { class: 'matrix-main' });
  /** Which columns show: a kind of scope, and text their name holds. */
  const filter = { kind: 'all', name: '' };
  const kindId = uid('matrix-kind');
  const nameId = uid('matrix-name');
  const shownCount = h('span', { class: 'muted matrix-count', role: 'status' });
  const redraw = () => draw(env.state.data, env.state.error);
  const toolbar = h(
    'div',
    { class: 'row matrix-filter' },
    h('label', { for: kindId }, 'Show'),
    h(
      'select',
      {
        id: kindId,
        onchange: (/** @type {Event} */ event) => {
          filter.kind = /** @type {HTMLSelectElement} */ (event.currentTarget).value;
          redraw();
        },
      },
      KINDS.map(([value, label]) => h('option', { value }, label)),
    ),
    h('label', { for: nameId }, 'Named'),
    h('input', {
      id: nameId,
      type: 'search',
      autocomplete: 'off',
      placeholder: 'e.g. coder',
      oninput: (/** @type {Event} */ event) => {
        filter.name = /** @type {HTMLInputElement} */ (event.currentTarget).value
          .trim()
          .toLowerCase();
        redraw();
      },
    }),
    shownCount,
  );
  /** @param {import('../../lib/types.js').MatrixColumn} column */
  const shows = (column) =>
    (filter.kind === 'all' || column.kind === filter.kind) &&
    (filter.name === '' || (column.id ?? env.workspace).toLowerCase().includes(filter.name));
  const detailTitle = uid('cell-title');
  const detailId = uid('cell-detail');
  const detail = h('section', {
    id: detailId,
    class: 'card cell-detail',
    'aria-labelledby': detailTitle,
    hidden: true,
  });
  const layout = h('div', { class: 'matrix-layout' }, body, detail);
  /** @param {boolean} open */
  const setOpen = (open) => {
    detail.hidden = !open;
    layout.classList.toggle('with-detail', open);
  };
  /** @type {{ cls: string, scope: string } | null} */
  let selected = null;

  /** @param {import('../../lib/types.js').PermissionsMatrix} data @param {boolean} focus */
  const showDetail = (data, focus) => {
    if (selected === null) {
      setOpen(false);
      return;
    }
    const { cls, scope } = selected;
    const row = data.rows.find((r) => r.class === cls);
    const cell = row?.cells.find((c) => c.scope === scope);
    if (row === undefined || cell === undefined) {
      selected = null;
      setOpen(false);
      return;
    }
    const column = data.columns.find((c) => c.scope === scope);
    /** @param {string} id @param {'workspace' | 'managed'} layer */
    const byId = (id, layer) => data.rules.find((r) => r.id === id && r.layer === layer);
    const decider = byId(cell.rule, cell.managed ? 'managed' : 'workspace');
    const here = cell.rules.map((id) => byId(id, 'workspace')).filter((r) => r !== undefined);
    const pinned = cell.managedRules
      .map((id) => byId(id, 'managed'))
      .filter((r) => r !== undefined);
    const itemBox = alertBox();
    replace(
      detail,
      h('h2', { id: detailTitle, tabindex: '-1' }, code(cls), ` in ${scopeName(scope)}`),
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
              ` — ${cell.decision === 'prompt' ? 'ask' : cell.decision} before the autonomy dial: this space is ${column?.effectiveAutonomy ?? ''}`,
            ),
        '.',
      ),
      h(
        'p',
        null,
        cell.decidedIn === 'default'
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
                : [': ', folded(decider.sentence, { limit: 400, render: rich, what: 'the rule' })],
            ],
      ),
      cell.exceptions.length === 0
        ? null
        : [
            h('h3', null, 'Except when'),
            h(
              'ul',
              { class: 'list' },
              cell.exceptions.map((e) =>
                h(
                  'li',
                  null,
                  badge(e.decision),
                  ' ',
                  folded(e.sentence, { limit: 400, render: rich, what: 'the exception' }),
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
            h(
              'button',
              {
                type: 'button',
                onclick: close,
              },
              'Close',
            ),
          )
        : [
            h(
              'p',
              { class: 'muted' },
              `Your role (${env.role}) may read the policy, not change it.`,
            ),
            h('p', { class: 'row' }, h('button', { type: 'button', onclick: close }, 'Close')),
          ],
    );
    setOpen(true);
    if (focus) detail.querySelector('h2')?.focus();
  };

  /** Closes the cell's explanation; the focus goes back to the cell it explained. */
  const close = () => {
    const was = selected;
    selected = null;
    redraw();
    if (was !== null)
      /** @type {HTMLElement | null} */ (
        body.querySelector(
          `button.cell[data-class="${CSS.escape(was.cls)}"][data-scope="${CSS.escape(was.scope)}"]`,
        )
      )?.focus();
  };

  /** @param {import('../../lib/types.js').PermissionsMatrix | null} data @param {unknown} error */
  const draw = (data, error) => {
    if (data === null) {
      replace(
        body,
        h('p', { class: 'muted' }, error === null ? 'Loading…' : 'The matrix could not be read.'),
      );
      setOpen(false);
      return;
    }
    const columns = data.columns.filter(shows);
    const shown = new Set(columns.map((c) => c.scope));
    replace(
      shownCount,
      columns.length === data.columns.length
        ? `${data.columns.length} scopes`
        : `${columns.length} of ${data.columns.length} scopes`,
    );
    const table = h(
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
              h('span', { class: 'col-id' }, column.id ?? env.workspace),
              columnNote(column),
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
              .map((cell) => {
                const isSelected = selected?.cls === row.class && selected?.scope === cell.scope;
                return h(
                  'td',
                  null,
                  h(
                    'button',
                    {
                      type: 'button',
                      class: [
                        'cell',
                        `cell-${cell.effective}`,
                        cell.inherited ? 'cell-inherited' : 'cell-here',
                        cell.managed ? 'cell-managed' : '',
                        isSelected ? 'cell-selected' : '',
                      ]
                        .filter((c) => c !== '')
                        .join(' '),
                      'aria-expanded': isSelected ? 'true' : 'false',
                      'aria-controls': detailId,
                      dataset: { class: row.class, scope: cell.scope, effective: cell.effective },
                      onclick: () => {
                        selected = { cls: row.class, scope: cell.scope };
                        draw(env.state.data, env.state.error);
                        showDetail(data, true);
                      },
                    },
                    // Named by what it shows (the decision, what decides it, its notes),
                    // after the class and scope it is the cell of, said but not shown.
                    spoken(`${row.class} in ${scopeName(cell.scope)}: `),
                    badge(cell.effective),
                    cellBy(cell),
                    cell.decision === cell.effective
                      ? null
                      : note(`${cell.decision === 'prompt' ? 'ask' : cell.decision} before dial`),
                    cell.exceptions.length === 0 ? null : note(`+${cell.exceptions.length} when…`),
                    cell.managed ? note('managed') : null,
                    advisoryHere(data, cell) ? note('advisory rule') : null,
                  ),
                );
              }),
          ),
        ),
      ),
    );
    replace(
      body,
      columns.length === 0
        ? h('p', { class: 'muted' }, 'No scope matches the filter.')
        : h('div', { class: 'scroll matrix-scroll' }, table),
    );
    showDetail(data, false);
  };

  replace(
    panel,
    h(
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
    ),
    box,
    toolbar,
    layout,
  );
  draw(env.state.data, env.state.error);
  return env.state.subscribe(draw);
}
