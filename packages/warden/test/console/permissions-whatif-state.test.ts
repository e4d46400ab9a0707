// The what-if check's state, tested in Node without a browser: the console
// keeps what the permissions screen's what-if tab does in a pure module
// (`web/pages/permissions/whatif-state.js`), events in and a new state out,
// so what a policy read proposes and drops in the form, the request the form
// makes or what is missing in it, and which answer of the engine is shown
// are checked here; the browser tests (`web-matrix-what-if.test.ts`,
// `web-permissions.test.ts`) keep what only a browser shows.

import { describe, expect, it } from 'vitest';
import {
  APPROVERS,
  failureText,
  offeredBy,
  promptDenied,
  reduce,
  requestJson,
  requestOf,
  whatIfState,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/permissions/whatif-state.js';

type State = ReturnType<typeof whatIfState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduce(s, e), state);

/** A policy read naming two agents, a space, two modes and three classes. */
function matrix(over: Record<string, unknown> = {}) {
  return {
    columns: [
      { scope: 'workspace', kind: 'workspace', id: null },
      { scope: 'agent:coder-1', kind: 'agent', id: 'coder-1' },
      { scope: 'agent:coder-2', kind: 'agent', id: 'coder-2' },
      { scope: 'space:payments', kind: 'space', id: 'payments' },
      { scope: 'mode:review', kind: 'mode', id: 'review' },
    ],
    modes: ['review', 'ship'],
    classes: [
      { class: 'gitPush', covers: 'pushing commits' },
      { class: 'fileDelete', covers: 'deleting files' },
      { class: 'netFetch', covers: 'fetching from the network' },
    ],
    ...over,
  };
}

const text = (key: string, value: string) => ({ type: 'text', key, value });
const read = () => whatIfState('acme', matrix());

describe('the form as the policy is read', () => {
  it('waits with an empty form, then offers what the policy names and proposes its first agent', () => {
    const waiting = whatIfState('acme');
    expect(waiting.offered).toBeNull();
    expect(waiting.form.agent).toBe('');
    expect(reduce(waiting, { type: 'read', data: null })).toBe(waiting);
    const state = reduce(waiting, { type: 'read', data: matrix() });
    expect(state.offered).toEqual({
      agents: ['coder-1', 'coder-2'],
      spaces: ['payments'],
      modes: ['review', 'ship'],
      classes: [
        ['gitPush', 'pushing commits'],
        ['fileDelete', 'deleting files'],
        ['netFetch', 'fetching from the network'],
      ],
    });
    expect(state.form.agent).toBe('coder-1');
  });

  it('keeps an agent typed, and drops a space or mode the new read no longer names', () => {
    const typed = feed(
      read(),
      text('agent', 'reviewer'),
      text('space', 'payments'),
      text('mode', 'ship'),
    );
    const again = reduce(typed, {
      type: 'read',
      data: matrix({ columns: [{ scope: 'workspace', kind: 'workspace', id: null }] }),
    });
    expect(again.form).toMatchObject({ agent: 'reviewer', space: '', mode: 'ship' });
    const noShip = reduce(typed, { type: 'read', data: matrix({ modes: ['review'] }) });
    expect(noShip.form).toMatchObject({ space: 'payments', mode: '' });
  });

  it('keeps the classes of the first read that names any', () => {
    const first = offeredBy(matrix(), null);
    const later = offeredBy(matrix({ classes: [{ class: 'other', covers: 'x' }] }), first);
    expect(later.classes).toBe(first.classes);
    const none = offeredBy(matrix({ classes: [] }), null);
    expect(offeredBy(matrix(), none).classes).toHaveLength(3);
  });
});

describe('the request the form makes', () => {
  const classes = ['gitPush', 'fileDelete', 'netFetch'];
  const form = read().form;

  it('needs an agent, and a class or a command line', () => {
    expect(requestOf({ ...form, agent: '  ' }, 'acme', classes)).toEqual({
      ok: false,
      message: 'agent: say which agent asks',
    });
    expect(requestOf(form, 'acme', classes)).toEqual({
      ok: false,
      message: 'pick at least one action class, or give a command line',
    });
    expect(requestOf({ ...form, command: 'git push origin main' }, 'acme', classes)).toEqual({
      ok: true,
      request: { workspace: 'acme', agent: 'coder-1', command: 'git push origin main' },
    });
  });

  it('lists the classes ticked in the order offered, with the arguments typed', () => {
    const made = requestOf(
      {
        ...form,
        agent: ' coder-2 ',
        space: 'payments',
        tool: ' Bash ',
        ticked: ['netFetch', 'gitPush'],
        paths: 'src/**\n\n  docs/** ',
        hosts: '',
        count: '3',
        cents: ' ',
        worktree: ' /srv/api ',
      },
      'acme',
      classes,
    );
    expect(made).toEqual({
      ok: true,
      request: {
        workspace: 'acme',
        agent: 'coder-2',
        space: 'payments',
        tool: 'Bash',
        actions: ['gitPush', 'netFetch'],
        worktree: '/srv/api',
        args: { paths: ['src/**', 'docs/**'], count: 3 },
      },
    });
  });

  it('refuses a count or cents that is not a whole number', () => {
    const ticked = { ...form, ticked: ['gitPush'] };
    expect(requestOf({ ...ticked, count: '1.5' }, 'acme', classes)).toEqual({
      ok: false,
      message: 'count: a whole number, 0 or more',
    });
    expect(requestOf({ ...ticked, cents: '-2' }, 'acme', classes)).toEqual({
      ok: false,
      message: 'cents: a whole number, 0 or more',
    });
  });
});

describe('a check and its answer', () => {
  const answer = { decision: 'prompt', outcome: 'deny', rule: 'ask-push', scope: 'workspace' };

  it('says what is missing instead of asking', () => {
    const state = reduce(read(), { type: 'check' });
    expect(state.checking).toBeNull();
    expect(failureText(state)).toBe(
      'Cannot check: pick at least one action class, or give a command line',
    );
    expect(requestJson(state)).toBe('');
  });

  it('asks with the request and the approver, shows the request, then the answer', () => {
    const asked = feed(
      read(),
      { type: 'tick', cls: 'gitPush', on: true },
      { type: 'tick', cls: 'fileDelete', on: true },
      { type: 'tick', cls: 'gitPush', on: false },
      text('approver', 'none'),
      { type: 'check' },
    );
    expect(asked.checking).toEqual({
      asked: 1,
      body: {
        request: { workspace: 'acme', agent: 'coder-1', actions: ['fileDelete'] },
        approver: 'none',
      },
    });
    expect(failureText(asked)).toBeNull();
    expect(JSON.parse(requestJson(asked))).toEqual(asked.checking.body.request);
    const answered = reduce(asked, { type: 'answered', asked: 1, answer });
    expect(answered.checking).toBeNull();
    expect(answered.answer).toBe(answer);
    expect(APPROVERS.map(([value]: [string, string]) => value)).toEqual(['', 'connected', 'none']);
  });

  it('sends no approver when the form assumes the one connected now', () => {
    const asked = feed(read(), text('command', 'rm -rf build'), { type: 'check' });
    expect(asked.checking.body).toEqual({
      request: { workspace: 'acme', agent: 'coder-1', command: 'rm -rf build' },
    });
  });

  it('shows only the answer to the last check asked', () => {
    const twice = feed(read(), text('command', 'ls'), { type: 'check' }, { type: 'check' });
    expect(twice.checking.asked).toBe(2);
    expect(reduce(twice, { type: 'answered', asked: 1, answer })).toBe(twice);
    expect(reduce(twice, { type: 'check-failed', asked: 1, message: 'late' })).toBe(twice);
    expect(reduce(twice, { type: 'answered', asked: 2, answer }).answer).toBe(answer);
  });

  it('drops the answer shown when a check fails, and says why', () => {
    const shown = feed(
      read(),
      text('command', 'ls'),
      { type: 'check' },
      { type: 'answered', asked: 1, answer },
      { type: 'check' },
      { type: 'check-failed', asked: 2, message: 'the server is gone' },
    );
    expect(shown.answer).toBeNull();
    expect(shown.checking).toBeNull();
    expect(failureText(shown)).toBe('The what-if check failed: the server is gone');
  });

  it('says when a prompt is denied for want of an approver', () => {
    expect(promptDenied(answer)).toBe(true);
    expect(promptDenied({ ...answer, outcome: 'prompt' })).toBe(false);
    expect(promptDenied({ ...answer, decision: 'deny' })).toBe(false);
  });
});
