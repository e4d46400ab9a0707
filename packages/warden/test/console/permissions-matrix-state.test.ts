// The policy matrix's state, tested in Node without a browser: the console
// keeps what the permissions screen's matrix does in a pure module
// (`web/pages/permissions/matrix-state.js`), events in and a new state out,
// so the filter, the open cell and what explains it, the focus after opening
// and closing, and the words a cell and a heading show are checked here; the
// browser tests (`web-permissions.test.ts`, `web-matrix-what-if.test.ts`,
// `web-accessible.test.ts`) keep what only a browser shows.

import { describe, expect, it } from 'vitest';
import {
  KINDS,
  advisoryHere,
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
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/permissions/matrix-state.js';

type State = ReturnType<typeof matrixState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduce(s, e), state);

const column = (scope: string, kind: string, id: string | null, over = {}) => ({
  scope,
  kind,
  id,
  label: `the column of \`${scope}\``,
  ...over,
});

const cell = (scope: string, over: Record<string, unknown> = {}) => ({
  scope,
  decision: 'prompt',
  effective: 'prompt',
  rule: 'default-prompt',
  decidedIn: 'default',
  inherited: true,
  managed: false,
  exceptions: [],
  rules: [],
  managedRules: [],
  ...over,
});

/** A small matrix: the workspace, an agent, a space at `actFreely`, a mode; two classes. */
function matrix() {
  return {
    revision: { revision: 3 },
    managed: { loaded: true, source: 'file' },
    columns: [
      column('workspace', 'workspace', null),
      column('agent:coder-1', 'agent', 'coder-1', { space: 'payments', mode: null }),
      column('space:payments', 'space', 'payments', {
        autonomy: 'actFreely',
        effectiveAutonomy: 'actFreely',
      }),
      column('mode:review', 'mode', 'review', { commandNet: ['git push', 'rm'] }),
    ],
    rows: [
      {
        class: 'gitPush',
        covers: 'pushing commits',
        cells: [
          cell('workspace', {
            decision: 'deny',
            effective: 'deny',
            rule: 'no-push',
            decidedIn: 'workspace',
            inherited: false,
            rules: ['no-push', 'watch-push'],
          }),
          cell('agent:coder-1'),
          cell('space:payments', {
            effective: 'allow',
            exceptions: [{ decision: 'deny', sentence: 'deny on `main`', rule: 'main-guard' }],
          }),
          cell('mode:review', {
            managed: true,
            rule: 'pinned-push',
            decidedIn: 'managed:workspace',
            managedRules: ['pinned-push'],
          }),
        ],
      },
      {
        class: 'fileDelete',
        covers: 'deleting files',
        cells: [
          cell('workspace'),
          cell('agent:coder-1'),
          cell('space:payments'),
          cell('mode:review'),
        ],
      },
    ],
    rules: [
      { id: 'no-push', layer: 'workspace', enforcement: 'hard', sentence: 'Deny `gitPush`.' },
      { id: 'watch-push', layer: 'workspace', enforcement: 'advisory', sentence: 'Watch.' },
      { id: 'pinned-push', layer: 'managed', enforcement: 'hard', sentence: 'Managed.' },
      { id: 'no-push', layer: 'managed', enforcement: 'hard', sentence: 'Not this one.' },
    ],
  };
}

const read = () => matrixState('acme', matrix(), false);

/** The cells of the first row (`gitPush`), one per column. */
const pushes = (data: ReturnType<typeof matrix>) => data.rows[0]?.cells ?? [];

describe('the matrix as it is read', () => {
  it('waits for the policy, says when it could not be read, and shows it once it is', () => {
    const waiting = matrixState('acme');
    expect(waiting).toEqual({
      workspace: 'acme',
      data: null,
      failed: false,
      kind: 'all',
      name: '',
      selected: null,
      focus: null,
      unfolded: [],
    });
    expect(waitingText(waiting)).toBe('Loading…');
    const failed = reduce(waiting, { type: 'read', data: null, failed: true });
    expect(waitingText(failed)).toBe('The matrix could not be read.');
    expect(shownColumns(failed)).toEqual([]);
    const shown = reduce(failed, { type: 'read', data: matrix(), failed: false });
    expect(shown.failed).toBe(false);
    expect(countText(shown)).toBe('4 scopes');
  });

  it('names each column by its id, the workspace’s by the workspace', () => {
    const state = read();
    expect(state.data.columns.map((c: { id: string | null }) => columnName(state, c))).toEqual([
      'acme',
      'coder-1',
      'payments',
      'review',
    ]);
  });

  it('notes where an agent acts, a space’s dial and a mode’s command net under its heading', () => {
    const [workspace, agent, space, mode] = matrix().columns;
    expect(columnNote(workspace)).toBeNull();
    expect(columnNote(agent)).toEqual({ kind: 'place', text: 'space payments' });
    expect(columnNote({ ...agent, mode: 'review' })).toEqual({
      kind: 'place',
      text: 'space payments · mode review',
    });
    expect(columnNote({ ...agent, space: null })).toBeNull();
    expect(columnNote(space)).toEqual({ kind: 'dial', text: 'actFreely', tone: 'actFreely' });
    expect(columnNote({ ...space, autonomy: null, effectiveAutonomy: 'actWithApproval' })).toEqual({
      kind: 'dial',
      text: 'actWithApproval (unset)',
      tone: 'actWithApproval',
    });
    expect(columnNote(mode)).toEqual({ kind: 'net', text: 'net: 2' });
    expect(columnNote({ ...mode, commandNet: [] })).toBeNull();
  });
});

describe('the filter', () => {
  it('shows one kind of scope, or names that hold some text, and counts them', () => {
    expect(KINDS.map(([value]: [string, string]) => value)).toEqual([
      'all',
      'workspace',
      'agent',
      'space',
      'mode',
    ]);
    const agents = reduce(read(), { type: 'filter-kind', kind: 'agent' });
    expect(shownColumns(agents).map((c: { scope: string }) => c.scope)).toEqual(['agent:coder-1']);
    expect(countText(agents)).toBe('1 of 4 scopes');
    const named = reduce(read(), { type: 'filter-name', text: '  PAY ' });
    expect(named.name).toBe('pay');
    expect(shownColumns(named).map((c: { scope: string }) => c.scope)).toEqual(['space:payments']);
    // The workspace's column goes by the workspace's name.
    const acme = reduce(read(), { type: 'filter-name', text: 'acm' });
    expect(shownColumns(acme).map((c: { scope: string }) => c.scope)).toEqual(['workspace']);
    const none = feed(
      read(),
      { type: 'filter-kind', kind: 'mode' },
      { type: 'filter-name', text: 'x' },
    );
    expect(shownColumns(none)).toEqual([]);
    expect(countText(none)).toBe('0 of 4 scopes');
  });
});

describe('a cell', () => {
  it('is drawn with classes for its decision, where it is decided, managed and open', () => {
    const [here, inherited, , managed] = pushes(matrix());
    expect(cellClass(here, false)).toBe('cell cell-deny cell-here');
    expect(cellClass(inherited, true)).toBe('cell cell-prompt cell-inherited cell-selected');
    expect(cellClass(managed, false)).toBe('cell cell-prompt cell-inherited cell-managed');
  });

  it('notes the decision before the dial, its exceptions, managed and advisory rules', () => {
    const data = matrix();
    const [here, inherited, space, managed] = pushes(data);
    expect(advisoryHere(data, here)).toBe(true);
    expect(cellNotes(data, here)).toEqual(['advisory rule']);
    expect(cellNotes(data, inherited)).toEqual([]);
    expect(cellNotes(data, space)).toEqual(['ask before dial', '+1 when…']);
    expect(cellNotes(data, managed)).toEqual(['managed']);
    expect(decisionWord('prompt')).toBe('ask');
    expect(decisionWord('deny')).toBe('deny');
  });

  it('opens its explanation with the focus on it: the rule deciding it and the rules written there', () => {
    const opened = reduce(read(), { type: 'open', cls: 'gitPush', scope: 'workspace' });
    expect(opened.selected).toEqual({ cls: 'gitPush', scope: 'workspace' });
    expect(opened.focus).toBe('detail');
    expect(isSelected(opened, 'gitPush', 'workspace')).toBe(true);
    expect(isSelected(opened, 'gitPush', 'space:payments')).toBe(false);
    expect(isSelected(opened, 'fileDelete', 'workspace')).toBe(false);
    const open = openCell(opened);
    expect(open.row.covers).toBe('pushing commits');
    expect(open.column.scope).toBe('workspace');
    // The workspace's rule decides, not the managed rule of the same id.
    expect(open.decider.sentence).toBe('Deny `gitPush`.');
    expect(open.here.map((r: { id: string }) => r.id)).toEqual(['no-push', 'watch-push']);
    expect(open.pinned).toEqual([]);
    expect(reduce(opened, { type: 'focused' }).focus).toBeNull();
  });

  it('finds the managed rule that decides a managed cell', () => {
    const open = openCell(reduce(read(), { type: 'open', cls: 'gitPush', scope: 'mode:review' }));
    expect(open.decider.sentence).toBe('Managed.');
    expect(open.here).toEqual([]);
    expect(open.pinned.map((r: { id: string }) => r.id)).toEqual(['pinned-push']);
    const byDefault = openCell(
      reduce(read(), { type: 'open', cls: 'fileDelete', scope: 'workspace' }),
    );
    expect(byDefault.decider).toBeUndefined();
  });

  it('closes with the focus back on the cell it explained', () => {
    const closed = feed(
      read(),
      { type: 'open', cls: 'gitPush', scope: 'space:payments' },
      { type: 'focused' },
      { type: 'close' },
    );
    expect(closed.selected).toBeNull();
    expect(openCell(closed)).toBeNull();
    expect(closed.focus).toEqual({ cls: 'gitPush', scope: 'space:payments' });
    expect(reduce(read(), { type: 'close' })).toEqual(read());
  });

  it('stays open across a new read and a filter that hides its column, and closes when the read has it no more', () => {
    const opened = feed(
      read(),
      { type: 'open', cls: 'gitPush', scope: 'agent:coder-1' },
      { type: 'filter-kind', kind: 'space' },
      { type: 'read', data: matrix(), failed: false },
    );
    expect(opened.selected).toEqual({ cls: 'gitPush', scope: 'agent:coder-1' });
    expect(openCell(opened)).not.toBeNull();
    // A failed read keeps the matrix the page had.
    expect(reduce(opened, { type: 'read', data: opened.data, failed: true }).selected).toEqual(
      opened.selected,
    );
    const gone = matrix();
    gone.columns = gone.columns.filter((c) => c.scope !== 'agent:coder-1');
    for (const row of gone.rows) row.cells = row.cells.filter((c) => c.scope !== 'agent:coder-1');
    const closed = reduce(opened, { type: 'read', data: gone, failed: false });
    expect(closed.selected).toBeNull();
    expect(openCell(closed)).toBeNull();
  });

  it('remembers unfolded sentences while the same cell is open, and forgets them for another', () => {
    const unfolded = feed(
      read(),
      { type: 'open', cls: 'gitPush', scope: 'space:payments' },
      { type: 'fold', part: 'exception:0', open: true },
      { type: 'fold', part: 'decider', open: true },
      { type: 'read', data: matrix(), failed: false },
      { type: 'open', cls: 'gitPush', scope: 'space:payments' },
    );
    expect(unfolded.unfolded).toEqual(['exception:0', 'decider']);
    expect(reduce(unfolded, { type: 'fold', part: 'decider', open: false }).unfolded).toEqual([
      'exception:0',
    ]);
    expect(reduce(unfolded, { type: 'open', cls: 'gitPush', scope: 'workspace' }).unfolded).toEqual(
      [],
    );
    expect(reduce(unfolded, { type: 'close' }).unfolded).toEqual([]);
  });
});
