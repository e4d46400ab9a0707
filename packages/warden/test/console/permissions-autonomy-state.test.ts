// The autonomy tab's state, tested in Node without a browser: the console
// keeps what the permissions screen's autonomy tab does in a pure module
// (`web/pages/permissions/autonomy-state.js`), events in and a new state out,
// so the spaces a card is drawn for, what each dial offers and shows picked,
// what the dial changes in a space, and the setting asked for, written or
// refused are checked here; the browser tests (`web-permissions.test.ts`,
// `web-accessible.test.ts`, `web-phone.test.ts`) keep what only a browser
// shows.

import { describe, expect, it } from 'vitest';
import {
  ACT_FREELY_STATEMENT,
  DEFAULT_LEVEL,
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
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/permissions/autonomy-state.js';

type State = ReturnType<typeof autonomyState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduce(s, e), state);

const levels = [
  { level: 'proposeOnly', meaning: 'proposes, never acts' },
  { level: 'actWithApproval', meaning: 'asks before it acts' },
  { level: 'actFreely', meaning: 'acts unless denied' },
];

/** Two spaces the spaces route knows: `payments` at actFreely, `docs` unset. */
function spaces() {
  return {
    spaces: [
      { id: 'payments', autonomy: 'actFreely', effective: 'actFreely', meaning: 'acts' },
      { id: 'docs', autonomy: null, effective: 'actWithApproval', meaning: 'asks' },
    ],
    levels,
  };
}

/** A matrix naming one more space (`billing`), where the dial turns two asks of `payments` into allows. */
function matrix() {
  const cell = (scope: string, decision: string, effective: string) => ({
    scope,
    decision,
    effective,
  });
  return {
    columns: [
      { scope: 'workspace', kind: 'workspace', id: null },
      { scope: 'space:payments', kind: 'space', id: 'payments' },
      { scope: 'space:billing', kind: 'space', id: 'billing', autonomyMeaning: 'asks first' },
    ],
    rows: [
      {
        class: 'gitPush',
        cells: [cell('workspace', 'prompt', 'prompt'), cell('space:payments', 'prompt', 'allow')],
      },
      { class: 'fileDelete', cells: [cell('space:payments', 'deny', 'deny')] },
      { class: 'netFetch', cells: [cell('space:payments', 'prompt', 'allow')] },
    ],
  };
}

const loaded = () => feed(autonomyState(matrix()), { type: 'loaded', spaces: spaces() });

describe('the spaces as they are read', () => {
  it('shows no space before the spaces are read, and says why they could not be', () => {
    const waiting = autonomyState();
    expect(allSpaces(waiting)).toEqual([]);
    expect(readErrorText(waiting)).toBeNull();
    const failed = reduce(waiting, { type: 'load-failed', message: 'forbidden' });
    expect(readErrorText(failed)).toBe('Cannot read the spaces: forbidden');
    const read = reduce(failed, { type: 'loaded', spaces: spaces() });
    expect(readErrorText(read)).toBeNull();
    expect(allSpaces(read).map((s: { id: string }) => s.id)).toEqual(['docs', 'payments']);
    expect(allSpaces(reduce(read, { type: 'load-failed', message: 'gone' }))).toEqual([]);
  });

  it('adds the spaces only the matrix names, their dial unset, in order of name', () => {
    expect(allSpaces(loaded())).toEqual([
      { id: 'billing', autonomy: null, effective: DEFAULT_LEVEL, meaning: 'asks first' },
      spaces().spaces[1],
      spaces().spaces[0],
    ]);
  });

  it('says what the dial changes in a space, in the words the tab uses', () => {
    expect(dialEffect(matrix(), 'payments')).toEqual([
      { cls: 'gitPush', from: 'ask', to: 'allow' },
      { cls: 'netFetch', from: 'ask', to: 'allow' },
    ]);
    expect(dialEffect(matrix(), 'billing')).toEqual([]);
    expect(dialEffect(null, 'payments')).toEqual([]);
  });

  it('offers unset with what it behaves as, then each level; shows the dial as set', () => {
    expect(dialOptions(levels)).toEqual([
      { value: '', label: 'unset', meaning: 'behaves as actWithApproval: asks before it acts' },
      { value: 'proposeOnly', label: 'proposeOnly', meaning: 'proposes, never acts' },
      { value: 'actWithApproval', label: 'actWithApproval', meaning: 'asks before it acts' },
      { value: 'actFreely', label: 'actFreely', meaning: 'acts unless denied' },
    ]);
    const [payments, docs] = spaces().spaces;
    expect(dialText(payments)).toBe('actFreely');
    expect(dialText(docs)).toBe('unset (actWithApproval)');
    expect(ACT_FREELY_STATEMENT.join('')).toContain('a prompt is allowed and nobody is asked');
  });
});

describe('setting a dial', () => {
  it('sets what the card’s dial shows picked, the dial as set until another is picked', () => {
    const state = loaded();
    const [payments, docs] = spaces().spaces;
    expect(chosenOf(state, payments)).toBe('actFreely');
    expect(chosenOf(state, docs)).toBe('');
    const unset = reduce(state, { type: 'set', space: 'payments' });
    expect(unset.setting).toEqual({ space: 'payments', autonomy: 'actFreely', at: 'payments' });
    const picked = feed(
      state,
      { type: 'choose', space: 'payments', value: '' },
      { type: 'set', space: 'payments' },
    );
    expect(chosenOf(picked, payments)).toBe('');
    expect(picked.setting).toEqual({ space: 'payments', autonomy: null, at: 'payments' });
    expect(reduce(state, { type: 'set', space: 'nowhere' })).toBe(state);
  });

  it('sets one at a time, then says what it wrote and shows the dials as set', () => {
    const asked = feed(
      loaded(),
      { type: 'choose', space: 'docs', value: 'proposeOnly' },
      { type: 'set', space: 'docs' },
    );
    expect(reduce(asked, { type: 'set', space: 'payments' })).toBe(asked);
    const done = reduce(asked, { type: 'set-done', revision: 9 });
    expect(done.setting).toBeNull();
    expect(done.chosen).toEqual({});
    expect(writtenText(done.written)).toBe('Space docs: proposeOnly (revision 9)');
    expect(reduce(done, { type: 'set-done', revision: 10 })).toBe(done);
  });

  it('says on the card why a setting was refused, until the spaces are read again', () => {
    const refused = feed(
      loaded(),
      { type: 'set', space: 'payments' },
      { type: 'set-failed', message: 'role viewer may not' },
    );
    expect(refused.setting).toBeNull();
    expect(failureAt(refused, 'payments')).toBe(
      'Cannot set the autonomy of payments: role viewer may not',
    );
    expect(failureAt(refused, 'docs')).toBeNull();
    expect(failureAt(reduce(refused, { type: 'loaded', spaces: spaces() }), 'payments')).toBeNull();
  });

  it('sets another space by name, at the level picked, and starts its form again', () => {
    const state = loaded();
    expect(newLevelOf(state)).toBe('actWithApproval');
    const nameless = feed(state, { type: 'new-name', value: '   ' }, { type: 'set-new' });
    expect(nameless.setting).toBeNull();
    expect(failureAt(nameless, '')).toBe('Not set: give the space a name');
    const asked = feed(
      nameless,
      { type: 'new-name', value: ' search ' },
      { type: 'new-level', value: 'actFreely' },
      { type: 'set-new' },
    );
    expect(failureAt(asked, '')).toBeNull();
    expect(asked.setting).toEqual({ space: 'search', autonomy: 'actFreely', at: '' });
    const done = reduce(asked, { type: 'set-done', revision: 3 });
    expect(done.newName).toBe('');
    expect(newLevelOf(done)).toBe('actWithApproval');
    expect(writtenText(done.written)).toBe('Space search: actFreely (revision 3)');
  });

  it('picks the first level offered when the one asked for is not', () => {
    const state = reduce(autonomyState(), {
      type: 'loaded',
      spaces: { spaces: [], levels: [levels[0]] },
    });
    expect(newLevelOf(state)).toBe('proposeOnly');
    expect(writtenText({ space: 'x', autonomy: null, at: 'x', revision: 1 })).toBe(
      'Space x: unset (revision 1)',
    );
  });
});
