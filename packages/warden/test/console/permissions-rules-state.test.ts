// The rules tab's state, tested in Node without a browser: the console keeps
// what the permissions screen's rules tab does in a pure module
// (`web/pages/permissions/rules-state.js`), events in and a new state out, so
// the search and filters, the three lists they narrow, how much of a long
// list shows, the proof's line, the revoke questions kept open and the long
// texts kept whole are checked here; the browser tests (`web-permissions.test.ts`,
// `web-suggestions.test.ts`, `web-long-text.test.ts`) keep what only a
// browser shows.

import { describe, expect, it } from 'vitest';
import {
  FIXED_CHOICES,
  SHOWN_AT_FIRST,
  countText,
  filtered,
  isAsking,
  isUnfolded,
  lists,
  namedChoices,
  passes,
  passing,
  proofOfState,
  proofText,
  reduce,
  rulesState,
  shownOf,
  unfoldKey,
  waitingText,
  warningsByRule,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/permissions/rules-state.js';

type State = ReturnType<typeof rulesState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduce(s, e), state);

const rule = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  layer: 'workspace',
  path: `/rules/${id}`,
  scope: 'workspace',
  action: 'gitPush',
  decision: 'deny',
  origin: 'user',
  enforcement: 'hard',
  expiresAt: null,
  expired: false,
  sentence: `Rule ${id}.`,
  ...over,
});

/** A policy with rules of the document, a remembered approval, a managed rule; two warnings. */
function matrix() {
  return {
    revision: { revision: 4, author: 'ana', message: null },
    managed: { loaded: true, source: 'store' },
    rules: [
      rule('no-push'),
      rule('ask-delete', {
        scope: 'space:space-10',
        action: 'fileDelete',
        decision: 'prompt',
        origin: 'template',
        expiresAt: '2030-01-01T00:00:00Z',
      }),
      rule('npm-ok', {
        scope: 'space:space-2',
        action: undefined,
        command: 'npm test',
        decision: 'allow',
      }),
      rule('approved-1', {
        path: null,
        origin: 'remembered',
        decision: 'allow',
        expiresAt: '2020-01-01T00:00:00Z',
        expired: true,
        sentence: 'Allow pushing to `feature/x`.',
      }),
      rule('pinned', { layer: 'managed', path: null, origin: 'managed' }),
    ],
    warnings: [
      { rule: 'no-push', code: 'shadowed', message: 'never decides' },
      { rule: 'no-push', code: 'broad', message: 'very broad' },
      { rule: 'npm-ok', code: 'broad', message: 'very broad' },
    ],
    skipped: [],
  };
}

const read = () => rulesState(matrix(), false);
const ids = (rules: { id: string }[]) => rules.map((r) => r.id);
const filter = (key: string, value: string) => ({ type: 'filter', key, value });

describe('the rules as they are read', () => {
  it('waits for the policy, says when it could not be read, and counts its rules once it is', () => {
    const waiting = rulesState();
    expect(waitingText(waiting)).toBe('Loading…');
    expect(passing(waiting)).toEqual([]);
    const failed = reduce(waiting, { type: 'read', data: null, failed: true });
    expect(waitingText(failed)).toBe('The rules could not be read.');
    const shown = reduce(failed, { type: 'read', data: matrix(), failed: false });
    expect(countText(shown)).toBe('5 rules');
    expect(filtered(shown)).toBe(false);
  });

  it('sorts the three lists: the document’s, the remembered approvals, the managed layer’s', () => {
    const { doc, remembered, managed } = lists(read());
    expect(ids(doc)).toEqual(['no-push', 'ask-delete', 'npm-ok']);
    expect(ids(remembered)).toEqual(['approved-1']);
    expect(ids(managed)).toEqual(['pinned']);
  });

  it('offers the scopes in natural order and in words, and command rules as one class', () => {
    const named = namedChoices(matrix());
    expect(named.scope).toEqual([
      ['', 'any scope'],
      ['space:space-2', 'Space space-2'],
      ['space:space-10', 'Space space-10'],
      ['workspace', 'Workspace'],
    ]);
    expect(named.action).toEqual([
      ['', 'any class'],
      ['command', 'a command rule'],
      ['fileDelete', 'fileDelete'],
      ['gitPush', 'gitPush'],
    ]);
    expect(FIXED_CHOICES.map(([key]: [string]) => key)).toEqual(['decision', 'origin', 'expiry']);
  });

  it('gathers the warnings by the rule they are about', () => {
    const byRule = warningsByRule(matrix());
    expect(byRule.get('no-push')?.map((w: { code: string }) => w.code)).toEqual([
      'shadowed',
      'broad',
    ]);
    expect(byRule.get('npm-ok')).toHaveLength(1);
    expect(byRule.has('pinned')).toBe(false);
  });
});

describe('the search and filters', () => {
  it('search the id, the sentence, the scope, the class and the command, lower-cased', () => {
    const state = reduce(read(), filter('text', '  NPM TEST '));
    expect(state.filter.text).toBe('npm test');
    expect(ids(passing(state))).toEqual(['npm-ok']);
    expect(countText(state)).toBe('1 of 5 rules match');
    expect(filtered(state)).toBe(true);
    expect(ids(passing(reduce(read(), filter('text', 'feature/x'))))).toEqual(['approved-1']);
  });

  it('narrow by scope, class, decision and origin together', () => {
    const commands = reduce(read(), filter('action', 'command'));
    expect(ids(passing(commands))).toEqual(['npm-ok']);
    const denies = feed(read(), filter('decision', 'deny'), filter('origin', 'managed'));
    expect(ids(passing(denies))).toEqual(['pinned']);
    const scoped = reduce(read(), filter('scope', 'space:space-10'));
    expect(ids(lists(scoped).doc)).toEqual(['ask-delete']);
    expect(lists(scoped).remembered).toEqual([]);
  });

  it('tell rules with no expiry, expiring later and expired apart', () => {
    const by = (expiry: string) => ids(passing(reduce(read(), filter('expiry', expiry))));
    expect(by('none')).toEqual(['no-push', 'npm-ok', 'pinned']);
    expect(by('expires')).toEqual(['ask-delete']);
    expect(by('expired')).toEqual(['approved-1']);
  });

  it('leave the state as it is when nothing changes', () => {
    const state = reduce(read(), filter('text', 'push'));
    expect(reduce(state, filter('text', ' PUSH '))).toBe(state);
  });

  it('pass a rule on its own as they pass the list', () => {
    const f = { text: '', scope: '', action: '', decision: '', origin: '', expiry: '' };
    expect(passes(rule('x'), f)).toBe(true);
    expect(passes(rule('x'), { ...f, decision: 'allow' })).toBe(false);
    expect(passes(rule('x', { action: undefined }), { ...f, action: 'command' })).toBe(true);
  });
});

describe('long lists, the proof and the revoke questions', () => {
  it('show their first rules until shown in full', () => {
    const total = SHOWN_AT_FIRST + 20;
    expect(shownOf(read(), 'doc', total)).toBe(SHOWN_AT_FIRST);
    expect(shownOf(read(), 'doc', 3)).toBe(3);
    const all = reduce(read(), { type: 'show-all', list: 'doc' });
    expect(shownOf(all, 'doc', total)).toBe(total);
    expect(shownOf(all, 'warnings', total)).toBe(SHOWN_AT_FIRST);
    expect(reduce(all, { type: 'show-all', list: 'doc' })).toBe(all);
  });

  it('say nothing of the proof while it is read, then what its badges mean or why it is missing', () => {
    const state = read();
    expect(proofText(state)).toBe('');
    expect(proofOfState(state)).toBeNull();
    const proof = { rules: [] };
    const proved = reduce(state, { type: 'proof-read', proof });
    expect(proofOfState(proved)).toBe(proof);
    expect(proofText(proved)).toBe(
      'Each deny and ask rule is tried against disguises of what it stops; its badge says whether it holds.',
    );
    const failed = reduce(state, { type: 'proof-failed', message: 'no such route' });
    expect(proofOfState(failed)).toBeNull();
    expect(proofText(failed)).toBe('The proof of the rules could not be read: no such route');
  });

  it('keep a revoke question open across reads until it is answered', () => {
    const asked = reduce(read(), { type: 'ask-revoke', rule: 'approved-1' });
    expect(isAsking(asked, 'approved-1')).toBe(true);
    expect(reduce(asked, { type: 'ask-revoke', rule: 'approved-1' })).toBe(asked);
    const reread = reduce(asked, { type: 'read', data: matrix(), failed: false });
    expect(isAsking(reread, 'approved-1')).toBe(true);
    const kept = reduce(reread, { type: 'keep', rule: 'approved-1' });
    expect(isAsking(kept, 'approved-1')).toBe(false);
    expect(reduce(kept, { type: 'keep', rule: 'approved-1' })).toBe(kept);
  });

  it('keep a long text shown whole when the proof or a new read arrives, until it is folded again', () => {
    const key = unfoldKey('rule', 'workspace', 'long-note');
    expect(isUnfolded(read(), key)).toBe(false);
    const opened = reduce(read(), { type: 'unfold', key, open: true });
    expect(isUnfolded(opened, key)).toBe(true);
    expect(reduce(opened, { type: 'unfold', key, open: true })).toBe(opened);
    // The same id in the managed layer, or another text of the rule, is another text.
    expect(isUnfolded(opened, unfoldKey('rule', 'managed', 'long-note'))).toBe(false);
    expect(isUnfolded(opened, unfoldKey('warning', 'workspace', 'long-note', 0))).toBe(false);
    const later = feed(
      opened,
      { type: 'proof-read', proof: { rules: [] } },
      { type: 'read', data: matrix(), failed: false },
      { type: 'filter', key: 'text', value: 'long' },
    );
    expect(isUnfolded(later, key)).toBe(true);
    const folded = reduce(later, { type: 'unfold', key, open: false });
    expect(isUnfolded(folded, key)).toBe(false);
    expect(reduce(folded, { type: 'unfold', key, open: false })).toBe(folded);
  });

  it('name each long text by what it is and where, so that no two names meet', () => {
    expect(unfoldKey('rule', 'workspace', 'a')).not.toBe(unfoldKey('rule', 'workspace:a'));
    expect(unfoldKey('warning', 'workspace', 'a', 1)).toBe(
      unfoldKey('warning', 'workspace', 'a', '1'),
    );
    expect(unfoldKey('note', 3)).not.toBe(unfoldKey('note', 4));
  });
});
