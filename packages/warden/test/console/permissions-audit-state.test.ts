// The permissions audit tab's state, tested in Node without a browser: the
// console keeps what the audit tab does in a pure module
// (`web/pages/permissions/audit-state.js`), events in and a new state out,
// so what the filters ask the API for, what the decisions list shows while
// it is read and once it failed, and the words a decision row and the
// advisory view show are checked here; the browser test
// (`web-permissions.test.ts`) keeps what only a browser shows.

import { describe, expect, it } from 'vitest';
import {
  LIMITS,
  OUTCOMES,
  SPANS,
  advisoriesQuery,
  advisoryRule,
  auditQuery,
  auditState,
  decisionsCaption,
  hitsOf,
  outcomeBadge,
  outcomeNotes,
  reduce,
  whereText,
  whyText,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/permissions/audit-state.js';

type State = ReturnType<typeof auditState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduce(s, e), state);

const entry = (over: Record<string, unknown> = {}) => ({
  id: 'd1',
  occurredAt: '2026-01-01T00:00:00Z',
  agentId: 'coder-1',
  outcome: 'ask',
  decision: { rule: 'ask-push', scope: 'workspace', reason: 'pushes are asked' },
  ...over,
});

describe('audit state', () => {
  it('starts at the last week, any outcome, 100 decisions, nothing read', () => {
    const state = auditState('acme');
    expect(auditQuery(state)).toEqual({
      workspace: 'acme',
      agent: '',
      since: '7d',
      outcome: '',
      advisory: '',
      limit: '100',
    });
    expect(advisoriesQuery(state)).toEqual({ workspace: 'acme', since: '7d' });
    expect(state).toMatchObject({ decisions: null, loading: false, error: '', advisories: null });
    expect(SPANS.map(([v]: [string, string]) => v)).toEqual(['1h', '24h', '7d', '30d']);
    expect(OUTCOMES.map(([v]: [string, string]) => v)).toEqual(['', 'allow', 'ask', 'deny']);
    expect(LIMITS.map(([v]: [string, string]) => v)).toEqual(['50', '100', '500']);
  });

  it('asks for what the filters say: the agent trimmed, advisory hits only as 1', () => {
    const state = feed(
      auditState('acme'),
      { type: 'filter', name: 'agent', value: '  coder-1 ' },
      { type: 'filter', name: 'since', value: '' },
      { type: 'filter', name: 'outcome', value: 'deny' },
      { type: 'filter', name: 'limit', value: '500' },
      { type: 'advisory-only', on: true },
      { type: 'filter', name: 'advisorySince', value: '30d' },
    );
    expect(auditQuery(state)).toEqual({
      workspace: 'acme',
      agent: 'coder-1',
      since: '',
      outcome: 'deny',
      advisory: '1',
      limit: '500',
    });
    expect(advisoriesQuery(state)).toEqual({ workspace: 'acme', since: '30d' });
    // A filter it does not have changes nothing.
    expect(reduce(state, { type: 'filter', name: 'workspace', value: 'other' })).toBe(state);
  });

  it('shows the decisions being read, then read; a failure empties them and says why', () => {
    const decisions = [entry()];
    const loading = reduce(auditState('acme'), { type: 'loading' });
    expect(loading.loading).toBe(true);
    const read = reduce(loading, { type: 'read', decisions });
    expect(read).toMatchObject({ loading: false, decisions, error: '' });
    const failed = feed(read, { type: 'loading' }, { type: 'read-failed', message: 'down' });
    expect(failed).toMatchObject({
      loading: false,
      decisions: null,
      error: 'Cannot read the permissions audit: down',
    });
    // Reading again clears the error.
    expect(reduce(failed, { type: 'loading' }).error).toBe('');
  });

  it('keeps the advisory view until a read fails, and says why', () => {
    const answer = { decisions: 3, since: '2026-01-01T00:00:00Z', truncated: false, rules: [] };
    const read = feed(
      auditState('acme'),
      { type: 'advisories-loading' },
      { type: 'advisories', answer },
    );
    expect(read.advisories).toBe(answer);
    const asking = reduce(read, { type: 'advisories-loading' });
    expect(asking.advisories).toBe(answer);
    const failed = reduce(asking, { type: 'advisories-failed', message: 'no' });
    expect(failed).toMatchObject({
      advisories: null,
      advisoryError: 'Cannot read what the advisory rules would have done: no',
    });
    expect(reduce(failed, { type: 'advisories-loading' }).advisoryError).toBe('');
  });

  it('says a decision as its row does', () => {
    const hit = { rule: 'adv-1', facet: 'git', wouldBe: 'deny' };
    const plain = entry();
    expect(hitsOf(plain)).toEqual([]);
    expect(hitsOf(entry({ decision: { advisories: [hit] } }))).toEqual([hit]);
    expect(hitsOf(entry({ decision: undefined }))).toEqual([]);
    expect(outcomeBadge(plain)).toBe('prompt');
    expect(outcomeBadge(entry({ outcome: 'deny' }))).toBe('deny');
    expect(outcomeNotes(plain)).toEqual([null, null]);
    expect(
      outcomeNotes(
        entry({ override: { by: 'ann' }, approval: { state: 'approved', answer: 'once' } }),
      ),
    ).toEqual([' overridden by ann', ' once by —']);
    expect(whyText(plain)).toBe('pushes are asked');
    expect(whyText(entry({ decision: undefined, failure: { code: 'x' } }))).toBe('{"code":"x"}');
    expect(whyText(entry({ decision: undefined }))).toBe('');
    expect(whereText({ space: 'payments', mode: 'review' })).toBe('space payments, mode review');
    expect(whereText({})).toBe('');
    expect(decisionsCaption([plain, plain])).toBe(
      '2 decision(s), newest first; advisory hits are highlighted',
    );
  });

  it('offers to make a rule hard only to a writer, for an advisory rule written in the policy', () => {
    const rule = { id: 'adv-1', layer: 'workspace', path: ['rules', 0], enforcement: 'advisory' };
    const rules = [rule, { ...rule, id: 'adv-2', layer: 'managed' }];
    expect(advisoryRule(rules, 'adv-1', true)).toEqual({ rule, hardens: true });
    expect(advisoryRule(rules, 'adv-1', false)).toEqual({ rule, hardens: false });
    expect(advisoryRule(rules, 'adv-2', true)).toEqual({ rule: undefined, hardens: false });
    expect(advisoryRule([{ ...rule, enforcement: 'hard' }], 'adv-1', true).hardens).toBe(false);
    expect(advisoryRule([{ ...rule, path: null }], 'adv-1', true).hardens).toBe(false);
  });

  it('leaves the state as it was for an event it does not know', () => {
    const state = auditState('acme');
    expect(reduce(state, { type: 'nothing' })).toBe(state);
  });
});
