// The approvals inbox's state, tested in Node without a browser: the console
// keeps what the inbox and each card do in pure modules
// (`web/pages/approvals/state.js`, `card-state.js`), events in and a new state
// out, so every transition is checked here; the browser tests keep what only
// a browser shows (focus, layout, the live channel end to end). Whether the
// inbox tells of a new prompt in a notification has its own module and test
// (`notify-state.js`, `approvals-notify-state.test.ts`).

import { describe, expect, it } from 'vitest';
// The console is plain JavaScript checked by its own tsconfig (`web/`); the
// tests' tsconfig does not read JavaScript, so these imports are untyped here.
import {
  DEFAULT_HOURS,
  MAX_HOURS,
  cardState,
  chosenScope,
  hoursLabel,
  inWords,
  reduceCard,
  // @ts-expect-error -- a JavaScript module of the console (see above)
} from '../../web/pages/approvals/card-state.js';
import {
  GRACE_MS,
  SETTLED_KEPT,
  arrivalText,
  inboxState,
  openIds,
  overdue,
  reduce,
  soonerFirst,
  toRecheck,
  // @ts-expect-error -- a JavaScript module of the console (see above)
} from '../../web/pages/approvals/state.js';

const T0 = Date.parse('2026-12-06T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

type Scope = { scope: string; rules: unknown[]; effective: boolean; why?: string };

/** An approval as the API shows it, pending, asked at T0, timing out after `seconds`. */
function approval(id: string, over: Record<string, unknown> = {}, seconds = 60) {
  return {
    id,
    kind: 'prompt',
    state: 'pending',
    workspace: 'acme',
    agent: 'coder-1',
    tool: 'gitPush',
    callId: `call-${id}`,
    decisionId: `d-${id}`,
    request: { actions: ['gitPush'] },
    arguments: { ref: 'main' },
    decision: { decision: 'prompt', reason: 'pushing asks', rule: 'r1', scope: 'workspace' },
    facets: [],
    rememberable: true,
    scopes: [
      { scope: 'agent:coder-1', rules: [{ effect: 'allow', facet: 'gitPush' }], effective: true },
      { scope: 'workspace', rules: [{ effect: 'allow', facet: 'gitPush' }], effective: true },
      {
        scope: 'space:repo',
        rules: [],
        effective: false,
        why: 'a narrower rule decides first',
      },
    ] satisfies Scope[],
    createdAt: at(0),
    expiresAt: at(seconds * 1000),
    answer: null,
    answeredAt: null,
    closedReason: null,
    ...over,
  };
}

const softDeny = (id: string) =>
  approval(id, { kind: 'override', rememberable: false, scopes: [] });

/** The same approval, settled by `by` with `answer`. */
function settled(view: ReturnType<typeof approval>, by: string, answer: Record<string, unknown>) {
  return {
    ...view,
    state: answer.kind === 'deny' ? 'denied' : 'approved',
    answer: { ...answer, by },
    answeredAt: at(5000),
  };
}

const approver = { mayAnswer: true, mayOverride: false };
const overrider = { mayAnswer: false, mayOverride: true };
const viewer = { mayAnswer: false, mayOverride: false };

type Card = ReturnType<typeof cardState>;
const run = (card: Card, ...events: unknown[]): Card =>
  events.reduce((s: Card, e: unknown) => reduceCard(s, e), card);

describe('a card', () => {
  it('starts open, for 8 hours in the first scope that lifts the prompt', () => {
    const card = cardState(approval('a1'), approver);
    expect(card).toMatchObject({
      id: 'a1',
      soft: false,
      actions: 'prompt',
      remembers: true,
      phase: 'open',
      sending: null,
      error: '',
      hours: String(DEFAULT_HOURS),
      scope: 'agent:coder-1',
      end: null,
      unfolded: [],
    });
    expect(hoursLabel(card)).toBe('8 h');
    expect(chosenScope(card)?.scope).toBe('agent:coder-1');
  });

  it('gives the answers of the role: a prompt’s to an approver, a soft deny’s to an overrider, none to others', () => {
    expect(cardState(approval('a'), approver).actions).toBe('prompt');
    expect(cardState(approval('a'), overrider).actions).toBe('none');
    expect(cardState(approval('a'), viewer).actions).toBe('none');
    expect(cardState(softDeny('s'), overrider).actions).toBe('override');
    expect(cardState(softDeny('s'), approver).actions).toBe('none');
    expect(cardState(softDeny('s'), approver).soft).toBe(true);
  });

  it('sends nothing for a role that cannot act, whatever it submits', () => {
    const card = cardState(approval('a'), viewer);
    for (const answer of ['once', 'remember', 'deny', 'override'])
      expect(reduceCard(card, { type: 'submit', answer })).toBe(card);
    const soft = cardState(softDeny('s'), approver);
    expect(reduceCard(soft, { type: 'submit', answer: 'override' })).toBe(soft);
  });

  it('sends "approve once"', () => {
    const card = run(cardState(approval('a'), approver), { type: 'submit', answer: 'once' });
    expect(card.phase).toBe('sending');
    expect(card.sending).toEqual({ kind: 'once' });
  });

  it('remembers the hours and the scope chosen, and sends them', () => {
    const card = run(
      cardState(approval('a'), approver),
      { type: 'hours', value: '24' },
      { type: 'scope', scope: 'workspace' },
    );
    expect(card.hours).toBe('24');
    expect(card.scope).toBe('workspace');
    expect(hoursLabel(card)).toBe('24 h');
    const sent = reduceCard(card, { type: 'submit', answer: 'remember' });
    expect(sent.sending).toEqual({ kind: 'remember', hours: 24, scope: 'workspace' });
  });

  it('cannot choose a scope that would not lift the prompt, nor one not offered', () => {
    const card = cardState(approval('a'), approver);
    expect(reduceCard(card, { type: 'scope', scope: 'space:repo' }).scope).toBe('agent:coder-1');
    expect(reduceCard(card, { type: 'scope', scope: 'elsewhere' }).scope).toBe('agent:coder-1');
  });

  it('refuses hours that are no number above 0, and says where to fix it', () => {
    for (const value of ['', '0', '-3', 'abc']) {
      const card = run(
        cardState(approval('a'), approver),
        { type: 'hours', value },
        { type: 'submit', answer: 'remember' },
      );
      expect(card.phase).toBe('open');
      expect(card.sending).toBeNull();
      expect(card.invalid).toBe('hours');
      expect(card.error).toBe(`Say for how many hours: a number above 0 (at most ${MAX_HOURS}).`);
      expect(hoursLabel(card)).toBe('… h');
    }
  });

  it('refuses "approve for a while" without a scope, and offers only "once" when nothing can be remembered', () => {
    const none = approval('a', {
      scopes: [{ scope: 'workspace', rules: [], effective: false }],
    });
    const card = cardState(none, approver);
    expect(card.remembers).toBe(false);
    expect(card.scope).toBeNull();
    expect(reduceCard(card, { type: 'submit', answer: 'remember' })).toBe(card);
    const unknown = cardState(approval('b', { rememberable: false }), approver);
    expect(unknown.remembers).toBe(false);
  });

  it('denies with the reason written (trimmed), or without one', () => {
    const card = cardState(approval('a'), approver);
    expect(
      run(card, { type: 'deny-reason', value: '  not today ' }, { type: 'submit', answer: 'deny' })
        .sending,
    ).toEqual({ kind: 'deny', reason: 'not today' });
    expect(
      run(card, { type: 'deny-reason', value: '   ' }, { type: 'submit', answer: 'deny' }).sending,
    ).toEqual({
      kind: 'deny',
    });
  });

  it('overrides a soft deny only with a reason, and keeps it denied without one', () => {
    const card = cardState(softDeny('s'), overrider);
    const missing = reduceCard(card, { type: 'submit', answer: 'override' });
    expect(missing.phase).toBe('open');
    expect(missing.overrideMissing).toBe(true);
    expect(missing.invalid).toBe('override-reason');
    expect(missing.error).toBe('An override needs a reason: it is recorded in the audit log.');
    const given = run(
      missing,
      { type: 'override-reason', value: ' tests only ' },
      { type: 'submit', answer: 'override' },
    );
    expect(given.sending).toEqual({ kind: 'override', reason: 'tests only' });
    expect(given.overrideMissing).toBe(false);
    expect(given.error).toBe('');
    expect(run(card, { type: 'submit', answer: 'deny' }).sending).toEqual({ kind: 'deny' });
    // "approve once" is a prompt's answer, not a soft deny's.
    expect(reduceCard(card, { type: 'submit', answer: 'once' })).toBe(card);
  });

  it('sends one answer at a time', () => {
    const sending = run(cardState(approval('a'), approver), { type: 'submit', answer: 'once' });
    expect(reduceCard(sending, { type: 'submit', answer: 'deny' })).toBe(sending);
    expect(reduceCard(sending, { type: 'sent' }).phase).toBe('sent');
  });

  it('shows the API’s refusal and keeps what was written, ready to send again', () => {
    const sending = run(
      cardState(approval('a'), approver),
      { type: 'hours', value: '12' },
      { type: 'scope', scope: 'workspace' },
      { type: 'deny-reason', value: 'maybe' },
      { type: 'submit', answer: 'remember' },
    );
    const refused = reduceCard(sending, { type: 'refused', message: 'hours: at most 168' });
    expect(refused).toMatchObject({
      phase: 'open',
      sending: null,
      error: 'Not answered: hours: at most 168',
      hours: '12',
      scope: 'workspace',
      denyReason: 'maybe',
      end: null,
    });
    // A new attempt clears the error.
    const again = reduceCard(refused, { type: 'submit', answer: 'once' });
    expect(again.error).toBe('');
    expect(again.phase).toBe('sending');
  });

  it('counts down with the clock given, and says when the time is up', () => {
    const card = cardState(approval('a', {}, 3 * 3600), approver);
    expect(reduceCard(card, { type: 'tick', now: T0 }).left).toBe('(3 h left)');
    expect(reduceCard(card, { type: 'tick', now: T0 + 3 * 3600_000 - 5 * 60_000 }).left).toBe(
      '(5 min left)',
    );
    const near = reduceCard(card, { type: 'tick', now: T0 + 3 * 3600_000 - 29_400 });
    expect(near.left).toBe('(29 s left)');
    expect(near.over).toBe(false);
    const zero = reduceCard(near, { type: 'tick', now: T0 + 3 * 3600_000 });
    expect(zero.left).toBe('(timed out)');
    expect(zero.over).toBe(true);
    expect(inWords(119_000)).toBe('119 s');
    expect(inWords(-5)).toBe('0 s');
  });

  it('ends when settled: no countdown, no error, and nothing but folding changes it after', () => {
    const view = approval('a');
    const card = run(
      cardState(view, approver),
      { type: 'tick', now: T0 },
      { type: 'submit', answer: 'once' },
      { type: 'refused', message: 'busy' },
    );
    const end = reduceCard(card, {
      type: 'settled',
      settled: settled(view, 'bob', { kind: 'once' }),
      mine: false,
    });
    expect(end.end).toMatchObject({ kind: 'settled', mine: false });
    expect(end.left).toBe('');
    expect(end.error).toBe('');
    expect(reduceCard(end, { type: 'tick', now: T0 + 1000 })).toBe(end);
    expect(reduceCard(end, { type: 'submit', answer: 'once' })).toBe(end);
    expect(reduceCard(end, { type: 'expired' })).toBe(end);
    expect(reduceCard(end, { type: 'fold', part: 'arguments', open: true }).unfolded).toEqual([
      'arguments',
    ]);
  });

  it('ends as timed out', () => {
    const card = run(
      cardState(approval('a'), approver),
      { type: 'tick', now: T0 + 61_000 },
      {
        type: 'expired',
      },
    );
    expect(card.end).toEqual({ kind: 'expired' });
    expect(card.left).toBe('');
  });

  it('remembers which long parts are unfolded, and folds them again', () => {
    const card = run(
      cardState(approval('a'), approver),
      { type: 'fold', part: 'action', open: true },
      { type: 'fold', part: 'arguments', open: true },
      { type: 'fold', part: 'action', open: true },
    );
    expect(card.unfolded).toEqual(['arguments', 'action']);
    expect(reduceCard(card, { type: 'fold', part: 'action', open: false }).unfolded).toEqual([
      'arguments',
    ]);
  });
});

type Inbox = ReturnType<typeof inboxState>;
const feed = (inbox: Inbox, ...events: unknown[]): Inbox =>
  events.reduce((s: Inbox, e: unknown) => reduce(s, e), inbox);
const approverInbox = () =>
  inboxState({ me: 'alice', role: 'approver', mayAnswer: true, mayOverride: false });

describe('the inbox', () => {
  it('connects an approver live and says what it leaves out; a viewer only looks', () => {
    const live = approverInbox();
    expect(live.live).toBe(true);
    expect(live.channel).toEqual({
      kind: 'connecting',
      text: 'Connecting to the live approver channel…',
    });
    expect(live.leftOut).toMatch(/^Listed: the prompts you may answer\./);
    const look = inboxState({ me: 'vic', role: 'viewer', mayAnswer: false, mayOverride: false });
    expect(look.live).toBe(false);
    expect(look.channel.kind).toBe('view');
    expect(look.channel.text).toMatch(/^Viewing only: your role \(viewer\)/);
    expect(look.leftOut).toBeNull();
  });

  it('lists arriving approvals with the one that times out soonest on top, each once', () => {
    const inbox = feed(
      approverInbox(),
      { type: 'arrived', view: approval('late', {}, 300), now: T0 },
      { type: 'arrived', view: approval('soon', {}, 30), now: T0 },
      { type: 'arrived', view: approval('mid', {}, 120), now: T0 },
      { type: 'arrived', view: approval('soon', {}, 30), now: T0 },
    );
    expect(inbox.pending).toEqual(['soon', 'mid', 'late']);
    expect(inbox.cards.soon.left).toBe('(30 s left)');
    expect(openIds(inbox)).toEqual(['soon', 'mid', 'late']);
    // Same deadline: the one asked first.
    const a = approval('a', { createdAt: at(0) });
    const b = approval('b', { createdAt: at(1) });
    expect(soonerFirst(a, b)).toBeLessThan(0);
    expect(arrivalText(a)).toBe('coder-1 · gitPush');
    expect(arrivalText(approval('c', { tool: null, request: { command: 'rm -rf x' } }))).toBe(
      'coder-1 · rm -rf x',
    );
  });

  it('leaves out what the role does not act on: an approver’s inbox has no soft denies', () => {
    const inbox = feed(approverInbox(), { type: 'arrived', view: softDeny('s'), now: T0 });
    expect(inbox.pending).toEqual([]);
    expect(inbox.cards).toEqual({});
    const look = feed(
      inboxState({ me: 'vic', role: 'viewer', mayAnswer: false, mayOverride: false }),
      { type: 'arrived', view: softDeny('s'), now: T0 },
    );
    expect(look.pending).toEqual(['s']);
    expect(look.cards.s.actions).toBe('none');
  });

  it('moves an approval settled elsewhere to "just settled", and says who answered', () => {
    const view = approval('a');
    const inbox = feed(
      approverInbox(),
      { type: 'arrived', view, now: T0 },
      { type: 'settled', view: settled(view, 'bob', { kind: 'deny', reason: 'not today' }) },
    );
    expect(inbox.pending).toEqual([]);
    expect(inbox.settled).toEqual(['a']);
    expect(inbox.cards.a.end).toMatchObject({ kind: 'settled', mine: false });
    expect(inbox.say).toBe('coder-1: denied by bob');
    // A second `settled` for it changes nothing, and the toast is said once.
    const again = reduce(inbox, { type: 'settled', view: settled(view, 'bob', { kind: 'deny' }) });
    expect(again.settled).toEqual(['a']);
    expect(again.say).toBeNull();
  });

  it('settles an answer sent from this page as "you", with a toast of the answer', () => {
    const view = approval('a');
    const sending = feed(
      approverInbox(),
      { type: 'arrived', view, now: T0 },
      { type: 'card', id: 'a', event: { type: 'submit', answer: 'once' } },
    );
    expect(sending.mine).toEqual(['a']);
    expect(sending.cards.a.sending).toEqual({ kind: 'once' });
    const done = reduce(sending, {
      type: 'answered',
      view: settled(view, 'alice', { kind: 'once' }),
    });
    expect(done.cards.a.end).toMatchObject({ kind: 'settled', mine: true });
    expect(done.settled).toEqual(['a']);
    expect(done.say).toBe('coder-1: approved once');
  });

  it('takes the stream’s `settled` for this page’s answer as "you", without a second toast', () => {
    const view = approval('a');
    const inbox = feed(
      approverInbox(),
      { type: 'arrived', view, now: T0 },
      { type: 'card', id: 'a', event: { type: 'submit', answer: 'once' } },
      { type: 'settled', view: settled(view, 'alice', { kind: 'once' }) },
    );
    expect(inbox.cards.a.end).toMatchObject({ kind: 'settled', mine: true });
    expect(inbox.say).toBeNull();
    const answered = reduce(inbox, {
      type: 'answered',
      view: settled(view, 'alice', { kind: 'once' }),
    });
    expect(answered.settled).toEqual(['a']);
    expect(answered.say).toBe('coder-1: approved once');
  });

  it('shows an answer the API refused in its card, and keeps the card waiting as it was', () => {
    const inbox = feed(
      approverInbox(),
      { type: 'arrived', view: approval('a'), now: T0 },
      { type: 'card', id: 'a', event: { type: 'hours', value: '500' } },
      { type: 'card', id: 'a', event: { type: 'submit', answer: 'remember' } },
      { type: 'not-answered', id: 'a', message: 'hours: at most 168' },
    );
    expect(inbox.pending).toEqual(['a']);
    expect(inbox.mine).toEqual([]);
    expect(inbox.cards.a).toMatchObject({
      phase: 'open',
      error: 'Not answered: hours: at most 168',
      hours: '500',
      end: null,
    });
    // Settled by someone else meanwhile (what a recheck after a 409 finds): "by bob".
    const view = approval('a');
    const after = reduce(inbox, { type: 'settled', view: settled(view, 'bob', { kind: 'once' }) });
    expect(after.cards.a.end).toMatchObject({ mine: false });
    expect(after.say).toBe('coder-1: approved once by bob');
  });

  it('counts down every waiting card, and closes one whose time ran out as timed out', () => {
    const inbox = feed(
      approverInbox(),
      { type: 'arrived', view: approval('a', {}, 30), now: T0 },
      { type: 'arrived', view: approval('b', {}, 600), now: T0 },
      { type: 'tick', now: T0 + 30_000 },
    );
    expect(inbox.cards.a).toMatchObject({ left: '(timed out)', over: true });
    expect(inbox.cards.b.left).toBe('(10 min left)');
    // Its end is read from the API only after a grace, in case it arrives by itself.
    expect(overdue(inbox, T0 + 30_000 + GRACE_MS)).toEqual([]);
    expect(overdue(inbox, T0 + 30_000 + GRACE_MS + 1)).toEqual(['a']);
    const closed = reduce(inbox, { type: 'expired', id: 'a' });
    expect(closed.pending).toEqual(['b']);
    expect(closed.settled).toEqual(['a']);
    expect(closed.cards.a.end).toEqual({ kind: 'expired' });
    expect(overdue(closed, T0 + 60_000)).toEqual([]);
  });

  it('reads an overdue approval again once at a time, until its read is done', () => {
    const inbox = feed(
      approverInbox(),
      { type: 'arrived', view: approval('a', {}, 30), now: T0 },
      { type: 'arrived', view: approval('b', {}, 30), now: T0 },
      { type: 'tick', now: T0 + 30_000 },
    );
    const late = T0 + 30_000 + GRACE_MS + 1;
    expect(inbox.checking).toEqual([]);
    expect(toRecheck(inbox, late)).toEqual(['a', 'b']);
    const reading = feed(inbox, { type: 'checking', id: 'a' }, { type: 'checking', id: 'a' });
    expect(reading.checking).toEqual(['a']);
    expect(toRecheck(reading, late)).toEqual(['b']);
    // Still overdue while it is read: only not read twice at once.
    expect(overdue(reading, late)).toEqual(['a', 'b']);
    const done = reduce(reading, { type: 'checked', id: 'a' });
    expect(done.checking).toEqual([]);
    expect(toRecheck(done, late)).toEqual(['a', 'b']);
    expect(reduce(done, { type: 'checked', id: 'a' }).checking).toBe(done.checking);
  });

  it('keeps the last settled approvals only', () => {
    let inbox = approverInbox();
    for (let i = 0; i < SETTLED_KEPT + 3; i += 1) {
      const view = approval(`a${i}`);
      inbox = feed(
        inbox,
        { type: 'arrived', view, now: T0 },
        { type: 'settled', view: settled(view, 'bob', { kind: 'once' }) },
      );
    }
    expect(inbox.settled).toHaveLength(SETTLED_KEPT);
    expect(inbox.settled[0]).toBe(`a${SETTLED_KEPT + 2}`);
    expect(Object.keys(inbox.cards)).toHaveLength(SETTLED_KEPT);
    expect(inbox.cards.a0).toBeUndefined();
  });

  it('says the channel’s state: connected (again), disconnected, refused', () => {
    const ready = reduce(approverInbox(), { type: 'ready', name: 'alice', roles: ['approver'] });
    expect(ready.channel).toEqual({
      kind: 'open',
      text: 'Connected as alice (approver): prompts wait for your answer while this page is open.',
    });
    expect(ready.readies).toBe(1);
    const down = reduce(ready, { type: 'disconnected' });
    expect(down.channel.kind).toBe('closed');
    expect(down.channel.text).toMatch(/^Disconnected: reconnecting…/);
    expect(reduce(down, { type: 'ready' }).readies).toBe(2);
    const refused = reduce(ready, { type: 'channel-refused' });
    expect(refused.channel.text).toBe('The server refused the live channel for this token.');
    expect(refused.problem).toBe(
      'The live approver channel was refused: this page cannot answer prompts.',
    );
    expect(reduce(refused, { type: 'ready' }).problem).toBe('');
  });

  it('stops for good when the token is revoked', () => {
    const revoked = feed(
      approverInbox(),
      { type: 'ready' },
      { type: 'revoked', message: 'token revoked' },
    );
    expect(revoked.stopped).toBe(true);
    expect(revoked.channel).toEqual({ kind: 'closed', text: 'Not connected.' });
    expect(revoked.problem).toBe(
      'Your token was revoked (token revoked): this page is no longer an approver. Sign in again.',
    );
    expect(reduce(revoked, { type: 'disconnected' }).channel.text).toBe('Not connected.');
    expect(reduce(revoked, { type: 'ready' }).channel.text).toBe('Not connected.');
  });

  it('says when the view-only inbox cannot read the pending approvals, until a read works', () => {
    const look = inboxState({ me: 'vic', role: 'viewer', mayAnswer: false, mayOverride: false });
    const failed = reduce(look, { type: 'poll-failed', message: 'network down' });
    expect(failed.problem).toBe('Cannot read the pending approvals: network down');
    expect(reduce(failed, { type: 'polled' }).problem).toBe('');
  });

  it('ignores events for cards it does not have', () => {
    const inbox = approverInbox();
    expect(reduce(inbox, { type: 'expired', id: 'x' }).cards).toEqual({});
    expect(
      reduce(inbox, { type: 'card', id: 'x', event: { type: 'submit', answer: 'once' } }),
    ).toEqual(inbox);
    expect(
      reduce(inbox, { type: 'settled', view: approval('x', { state: 'denied' }) }).settled,
    ).toEqual([]);
  });
});
