// The policy matrix's state apart from its drawing, so that what the matrix
// does can be tested in Node without a browser: the matrix read (or that it
// could not be), which columns the filter shows, which cell is open beside it
// and what explains that cell, where the focus goes when a cell opens or
// closes, and which long sentences are unfolded. Pure: no DOM, no `fetch`, no
// `window`; the matrix tab (`matrix.js`) feeds it the page's reads and the
// person's input, and draws what it returns.

import { commonEvent } from '../../lib/state.js';

/**
 * @typedef {import('../../lib/types.js').PermissionsMatrix} PermissionsMatrix
 * @typedef {import('../../lib/types.js').MatrixColumn} MatrixColumn
 * @typedef {import('../../lib/types.js').MatrixCell} MatrixCell
 * @typedef {import('../../lib/types.js').RuleEntry} RuleEntry
 */

/** The kinds of scope the filter offers: value and label. @type {readonly [string, string][]} */
export const KINDS = [
  ['all', 'All scopes'],
  ['workspace', 'The workspace'],
  ['agent', 'Agents'],
  ['space', 'Spaces'],
  ['mode', 'Modes'],
];

/**
 * @typedef {{ readonly cls: string, readonly scope: string }} CellRef
 * @typedef {{
 *   readonly workspace: string,
 *   readonly data: PermissionsMatrix | null,
 *   readonly failed: boolean,
 *   readonly kind: string,
 *   readonly name: string,
 *   readonly selected: CellRef | null,
 *   readonly focus: null | 'detail' | CellRef,
 *   readonly unfolded: readonly string[],
 * }} MatrixState
 */

/**
 * What reaches the matrix: the page read the policy (or failed to), the
 * filter changed, a cell opened or closed, the focus placed, a long sentence
 * unfolded or folded.
 * @typedef {(
 *   | { type: 'read', data: PermissionsMatrix | null, failed: boolean }
 *   | { type: 'filter-kind', kind: string }
 *   | { type: 'filter-name', text: string }
 *   | { type: 'open', cls: string, scope: string }
 *   | { type: 'close' }
 *   | { type: 'focused' }
 *   | { type: 'fold', part: string, open: boolean }
 * )} MatrixEvent
 */

/**
 * The matrix of `workspace` before the policy is read (or as last read).
 * @param {string} workspace @param {PermissionsMatrix | null} [data] @param {boolean} [failed]
 * @returns {MatrixState}
 */
export function matrixState(workspace, data = null, failed = false) {
  return {
    workspace,
    data,
    failed,
    kind: 'all',
    name: '',
    selected: null,
    focus: null,
    unfolded: [],
  };
}

/** The name a column goes by: its id, or the workspace's. @param {MatrixState} state @param {MatrixColumn} column */
export function columnName(state, column) {
  return column.id ?? state.workspace;
}

/** Whether the filter shows `column`. @param {MatrixState} state @param {MatrixColumn} column */
export function shows(state, column) {
  return (
    (state.kind === 'all' || column.kind === state.kind) &&
    (state.name === '' || columnName(state, column).toLowerCase().includes(state.name))
  );
}

/** The columns the filter shows. @param {MatrixState} state @returns {MatrixColumn[]} */
export function shownColumns(state) {
  return state.data === null ? [] : state.data.columns.filter((c) => shows(state, c));
}

/** How many scopes show, of how many. @param {MatrixState} state */
export function countText(state) {
  const all = state.data?.columns.length ?? 0;
  const shown = shownColumns(state).length;
  return shown === all ? `${all} scopes` : `${shown} of ${all} scopes`;
}

/** What shows while there is no matrix. @param {MatrixState} state */
export function waitingText(state) {
  return state.failed ? 'The matrix could not be read.' : 'Loading…';
}

/** Whether the cell of `cls` in `scope` is the open one. @param {MatrixState} state @param {string} cls @param {string} scope */
export function isSelected(state, cls, scope) {
  return state.selected?.cls === cls && state.selected?.scope === scope;
}

/** A decision in the words a cell uses: `prompt` is "ask". @param {string} decision */
export function decisionWord(decision) {
  return decision === 'prompt' ? 'ask' : decision;
}

/** Whether an advisory rule (reported, never enforced) is written in this cell. @param {PermissionsMatrix} data @param {MatrixCell} cell */
export function advisoryHere(data, cell) {
  return cell.rules.some((id) =>
    data.rules.some((r) => r.id === id && r.layer === 'workspace' && r.enforcement === 'advisory'),
  );
}

/** A cell button's classes: its decision, where it is decided, managed, open. @param {MatrixCell} cell @param {boolean} selected */
export function cellClass(cell, selected) {
  return [
    'cell',
    `cell-${cell.effective}`,
    cell.inherited ? 'cell-inherited' : 'cell-here',
    cell.managed ? 'cell-managed' : '',
    selected ? 'cell-selected' : '',
  ]
    .filter((c) => c !== '')
    .join(' ');
}

/** The small lines under a cell's badge, in order. @param {PermissionsMatrix} data @param {MatrixCell} cell */
export function cellNotes(data, cell) {
  return [
    cell.decision === cell.effective ? null : `${decisionWord(cell.decision)} before dial`,
    cell.exceptions.length === 0 ? null : `+${cell.exceptions.length} when…`,
    cell.managed ? 'managed' : null,
    advisoryHere(data, cell) ? 'advisory rule' : null,
  ].filter((n) => n !== null);
}

/**
 * The agent column heading's place ("space payments · mode review"), a
 * space's dial, a mode's command net; null when the column has none.
 * @param {MatrixColumn} column
 * @returns {{ kind: 'place' | 'dial' | 'net', text: string, tone?: string } | null}
 */
export function columnNote(column) {
  if (column.kind === 'agent') {
    const where = [
      column.space === null || column.space === undefined ? null : `space ${column.space}`,
      column.mode === null || column.mode === undefined ? null : `mode ${column.mode}`,
    ].filter((part) => part !== null);
    return where.length === 0 ? null : { kind: 'place', text: where.join(' · ') };
  }
  if (column.kind === 'space')
    return {
      kind: 'dial',
      text: column.autonomy === null ? 'actWithApproval (unset)' : (column.autonomy ?? ''),
      tone: column.effectiveAutonomy,
    };
  if (column.kind === 'mode' && column.commandNet !== undefined && column.commandNet.length > 0)
    return { kind: 'net', text: `net: ${column.commandNet.length}` };
  return null;
}

/**
 * What explains the open cell: its row, cell and column, the rule that
 * decides it, the workspace's rules written there and the managed ones; null
 * when no cell is open or the matrix read has no such cell.
 * @param {MatrixState} state
 */
export function openCell(state) {
  const { data, selected } = state;
  if (data === null || selected === null) return null;
  const row = data.rows.find((r) => r.class === selected.cls);
  const cell = row?.cells.find((c) => c.scope === selected.scope);
  if (row === undefined || cell === undefined) return null;
  /** @param {string} id @param {'workspace' | 'managed'} layer */
  const byId = (id, layer) => data.rules.find((r) => r.id === id && r.layer === layer);
  /** @param {readonly string[]} ids @param {'workspace' | 'managed'} layer @returns {RuleEntry[]} */
  const all = (ids, layer) => ids.flatMap((id) => byId(id, layer) ?? []);
  return {
    cls: selected.cls,
    scope: selected.scope,
    row,
    cell,
    column: data.columns.find((c) => c.scope === selected.scope),
    decider: byId(cell.rule, cell.managed ? 'managed' : 'workspace'),
    here: all(cell.rules, 'workspace'),
    pinned: all(cell.managedRules, 'managed'),
  };
}

/**
 * The matrix after `event`.
 * @param {MatrixState} state @param {MatrixEvent} event @returns {MatrixState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'read': {
      const next = { ...state, data: event.data, failed: event.failed };
      // A cell the new read does not have closes; with no read yet, it waits.
      if (next.data !== null && next.selected !== null && openCell(next) === null)
        return { ...next, selected: null, unfolded: [] };
      return next;
    }
    case 'filter-kind':
      return { ...state, kind: event.kind };
    case 'filter-name':
      return { ...state, name: event.text.trim().toLowerCase() };
    case 'open':
      return {
        ...state,
        selected: { cls: event.cls, scope: event.scope },
        focus: 'detail',
        unfolded: isSelected(state, event.cls, event.scope) ? state.unfolded : [],
      };
    case 'close':
      // The focus goes back to the cell the explanation was of.
      return state.selected === null
        ? state
        : { ...state, selected: null, focus: state.selected, unfolded: [] };
    default:
      return commonEvent(state, event);
  }
}
