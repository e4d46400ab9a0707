// The sign-in page's state, tested in Node without a browser: the console
// keeps what the page does in a pure module (`web/pages/sign-in-state.js`) —
// where a `?next=` may lead, an empty field, a token refused by the server or
// belonging to an agent — so each is checked here; `web-session.test.ts`
// keeps what only a browser shows (signing in against a real server).

import { describe, expect, it } from 'vitest';
import {
  EMPTY_TEXT,
  consoleRefusal,
  destination,
  nextPath,
  nextRefused,
  reduce,
  signInState,
  tokenOf,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/sign-in-state.js';

const origin = 'https://warden.example';
const start = (asked: string | null = null) => signInState({ asked, origin });

describe('where signing in leads', () => {
  it('keeps a path of this console, with its query and fragment', () => {
    expect(nextPath('/agents/a?workspace=acme#audit', origin)).toBe(
      '/agents/a?workspace=acme#audit',
    );
    expect(nextPath('/a/../approvals', origin)).toBe('/approvals');
  });

  it('refuses anything else', () => {
    for (const next of [
      null,
      '',
      'approvals',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ])
      expect(nextPath(next, origin), String(next)).toBeNull();
  });

  it('goes home, and says so, when the link asked for an address outside', () => {
    const outside = start('https://evil.example/');
    expect(nextRefused(outside)).toBe(true);
    expect(destination(outside)).toBe('/');
    const inside = start('/approvals');
    expect(nextRefused(inside)).toBe(false);
    expect(destination(inside)).toBe('/approvals');
    expect(nextRefused(start())).toBe(false);
    expect(destination(start())).toBe('/');
  });
});

describe('signing in', () => {
  it('starts with the focus on the field and nothing said', () => {
    expect(start()).toEqual({ asked: null, next: null, busy: false, error: null, focus: true });
    const placed = reduce(start(), { type: 'focused' });
    expect(placed.focus).toBe(false);
    expect(reduce(placed, { type: 'focused' })).toBe(placed);
  });

  it('says an empty field, and puts the focus back on it', () => {
    const placed = reduce(start(), { type: 'focused' });
    const empty = reduce(placed, { type: 'submit', typed: '   ' });
    expect(empty).toMatchObject({ busy: false, error: EMPTY_TEXT, focus: true });
    expect(tokenOf(placed, '   ')).toBeNull();
  });

  it('checks one token at a time, the said error cleared', () => {
    const failed = reduce(start(), { type: 'failed', message: 'old' });
    expect(tokenOf(failed, ' wdn_x ')).toBe('wdn_x');
    const busy = reduce(failed, { type: 'submit', typed: ' wdn_x ' });
    expect(busy).toMatchObject({ busy: true, error: null });
    expect(tokenOf(busy, 'wdn_y')).toBeNull();
    expect(reduce(busy, { type: 'submit', typed: 'wdn_y' })).toBe(busy);
  });

  it('says a token the server refused, with the focus back on the field', () => {
    const state = [
      { type: 'focused' },
      { type: 'submit', typed: 'wdn_bad' },
      { type: 'failed', message: 'The token is not valid.' },
    ].reduce((s, e) => reduce(s, e), start());
    expect(state).toMatchObject({ busy: false, error: 'The token is not valid.', focus: true });
  });

  it('refuses an agent’s token in words, and lets a person’s through', () => {
    const agent = { role: 'agent', agent: 'coder-1', name: 'coder', workspace: 'acme' };
    expect(consoleRefusal(agent)).toBe(
      'This is the token of agent coder-1 in workspace acme: agents act through the API, and the console is for people. Sign in with a token made for you, e.g. warden token create --role approver --name you.',
    );
    expect(consoleRefusal({ ...agent, agent: null, workspace: null })).toContain(
      'This is the token of agent coder: agents act',
    );
    expect(consoleRefusal({ ...agent, role: 'admin' })).toBeNull();
    const refused = reduce(reduce(start(), { type: 'submit', typed: 'wdn_a' }), {
      type: 'refused',
      message: 'no agents',
    });
    expect(refused).toMatchObject({ busy: false, error: 'no agents' });
  });
});
