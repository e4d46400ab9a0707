// The approvals inbox's state apart from its drawing, so that what the inbox
// does can be tested in Node without a browser: which approvals wait (the
// one that times out soonest first) and which just settled, the live
// channel's state and the problem it reports, which answers were sent from
// this page, which overdue approvals are being read again, and what to tell
// the person in a toast. Pure: no DOM, no
// `fetch`, no timers, no stream; the page (`../approvals.js`) feeds it the
// stream's and the API's events and the clock, and draws what it returns.

import { inboxShows, leftOutText } from './acts.js';
import { cardState, reduceCard } from './card-state.js';
import { actionText, answerText } from './format.js';

/**
 * @typedef {import('../../lib/types.js').ApprovalView} ApprovalView
 * @typedef {import('./card-state.js').CardState} CardState
 * @typedef {import('./card-state.js').CardEvent} CardEvent
 * @typedef {import('./acts.js').ApprovalPowers} ApprovalPowers
 */

/** How long the view-only inbox waits between two reads of the pending approvals. */
export const POLL_MS = 3000;
/** A card that timed out is closed this long after, unless its end arrived. */
export const GRACE_MS = 2000;
/** How many settled cards the inbox keeps. */
export const SETTLED_KEPT = 20;

/**
 * @typedef {{
 *   readonly me: string,
 *   readonly role: string,
 *   readonly powers: ApprovalPowers,
 *   readonly live: boolean,
 *   readonly leftOut: string | null,
 *   readonly channel: { readonly kind: 'connecting' | 'open' | 'closed' | 'view', readonly text: string },
 *   readonly problem: string,
 *   readonly stopped: boolean,
 *   readonly readies: number,
 *   readonly cards: Readonly<Record<string, CardState>>,
 *   readonly pending: readonly string[],
 *   readonly settled: readonly string[],
 *   readonly mine: readonly string[],
 *   readonly checking: readonly string[],
 *   readonly say: string | null,
 * }} InboxState
 */

/**
 * What reaches the inbox: the live channel's states and events, the view-only
 * poll's outcome, the API's answer to an answer, the clock, an overdue
 * approval being read again (and read), and a card's own events.
 * @typedef {(
 *   | { type: 'connecting' }
 *   | { type: 'ready', name?: string, roles?: readonly string[] }
 *   | { type: 'disconnected' }
 *   | { type: 'channel-refused' }
 *   | { type: 'revoked', message?: string }
 *   | { type: 'viewing' }
 *   | { type: 'polled' }
 *   | { type: 'poll-failed', message: string }
 *   | { type: 'arrived', view: ApprovalView, now: number }
 *   | { type: 'settled', view: ApprovalView }
 *   | { type: 'answered', view: ApprovalView }
 *   | { type: 'not-answered', id: string, message: string }
 *   | { type: 'expired', id: string }
 *   | { type: 'tick', now: number }
 *   | { type: 'checking', id: string }
 *   | { type: 'checked', id: string }
 *   | { type: 'card', id: string, event: CardEvent }
 * )} InboxEvent
 */

/**
 * The inbox of a signed-in person, before anything arrived.
 * @param {{ me: string, role: string, mayAnswer: boolean, mayOverride: boolean }} who
 * @returns {InboxState}
 */
export function inboxState(who) {
  const powers = { mayAnswer: who.mayAnswer, mayOverride: who.mayOverride };
  const live = who.mayAnswer || who.mayOverride;
  return {
    me: who.me,
    role: who.role,
    powers,
    live,
    leftOut: leftOutText(powers),
    channel: live
      ? { kind: 'connecting', text: 'Connecting to the live approver channel…' }
      : { kind: 'view', text: viewingText(who.role) },
    problem: '',
    stopped: false,
    readies: 0,
    cards: {},
    pending: [],
    settled: [],
    mine: [],
    checking: [],
    say: null,
  };
}

/** @param {string} role */
function viewingText(role) {
  return `Viewing only: your role (${role}) sees the waiting prompts but may not answer them, and this page does not count as a connected approver. It refreshes every ${POLL_MS / 1000} s.`;
}

/**
 * The order of the waiting prompts: the one that times out soonest first, then
 * the one asked first. Negative when `a` goes before `b`.
 * @param {ApprovalView} a @param {ApprovalView} b
 */
export function soonerFirst(a, b) {
  const left = Date.parse(a.expiresAt) - Date.parse(b.expiresAt);
  if (left !== 0 && !Number.isNaN(left)) return left;
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

/** What a notification names an approval by: `coder-1 · gitPush`. @param {ApprovalView} view */
export function arrivalText(view) {
  return `${view.agent} · ${view.tool ?? (actionText(view) || view.kind)}`;
}

/** The ids of the cards still waiting for an answer. @param {InboxState} state */
export function openIds(state) {
  return state.pending.filter((id) => state.cards[id]?.end === null);
}

/**
 * The waiting cards whose time ran out more than `GRACE_MS` ago: their end is
 * read from the API, and without one they are closed as timed out.
 * @param {InboxState} state @param {number} now
 */
export function overdue(state, now) {
  return openIds(state).filter((id) => {
    const card = state.cards[id];
    return card !== undefined && card.over && now > Date.parse(card.view.expiresAt) + GRACE_MS;
  });
}

/**
 * The overdue cards not yet being read again: the ones to read now (each
 * once, until its read is done).
 * @param {InboxState} state @param {number} now
 */
export function toRecheck(state, now) {
  return overdue(state, now).filter((id) => !state.checking.includes(id));
}

/**
 * The inbox after `event`. `say` is what this event tells the person in a
 * toast (null when nothing).
 * @param {InboxState} state @param {InboxEvent} event @returns {InboxState}
 */
export function reduce(state, event) {
  return step({ ...state, say: null }, event);
}

/** @param {InboxState} state @param {InboxEvent} event @returns {InboxState} */
function step(state, event) {
  switch (event.type) {
    case 'connecting':
    case 'ready':
    case 'disconnected':
    case 'channel-refused':
    case 'revoked':
    case 'viewing':
      return channelStep(state, event);
    case 'polled':
      return { ...state, problem: '' };
    case 'poll-failed':
      return { ...state, problem: `Cannot read the pending approvals: ${event.message}` };
    case 'arrived':
      return arrive(state, event.view, event.now);
    case 'settled':
      return settle(state, event.view, false);
    case 'answered': {
      // Settled by this page's answer (its `settled` event may have come first).
      const mine =
        state.cards[event.view.id] === undefined ? state.mine : withId(state.mine, event.view.id);
      const next = settle({ ...state, mine }, event.view, true);
      return {
        ...next,
        say: `${event.view.agent}: ${answerText(event.view.answer ?? state.cards[event.view.id]?.sending ?? { kind: 'deny' })}`,
      };
    }
    case 'not-answered': {
      const card = state.cards[event.id];
      const mine = state.mine.filter((id) => id !== event.id);
      if (card === undefined) return { ...state, mine };
      return withCard(
        { ...state, mine },
        reduceCard(card, { type: 'refused', message: event.message }),
      );
    }
    case 'expired': {
      const card = state.cards[event.id];
      if (card === undefined || card.end !== null) return state;
      return toSettled(state, reduceCard(card, { type: 'expired' }));
    }
    case 'tick': {
      /** @type {Record<string, CardState>} */
      const cards = { ...state.cards };
      for (const id of openIds(state)) {
        const card = cards[id];
        if (card !== undefined) cards[id] = reduceCard(card, { type: 'tick', now: event.now });
      }
      return { ...state, cards };
    }
    case 'checking':
      return { ...state, checking: withId(state.checking, event.id) };
    case 'checked':
      return state.checking.includes(event.id)
        ? { ...state, checking: state.checking.filter((id) => id !== event.id) }
        : state;
    case 'card': {
      const card = state.cards[event.id];
      if (card === undefined) return state;
      const changed = reduceCard(card, event.event);
      // An answer on its way is this page's: its `settled` event is "you", not "someone".
      const sending = changed.phase === 'sending' && card.phase !== 'sending';
      return withCard(sending ? { ...state, mine: withId(state.mine, event.id) } : state, changed);
    }
    default:
      return state;
  }
}

/**
 * The live channel's states and events: connecting, connected (again),
 * disconnected, refused, revoked for good; or viewing only.
 * @param {InboxState} state @param {InboxEvent} event @returns {InboxState}
 */
function channelStep(state, event) {
  switch (event.type) {
    case 'connecting':
      return state.stopped
        ? state
        : {
            ...state,
            channel: { kind: 'connecting', text: 'Connecting to the live approver channel…' },
          };
    case 'ready': {
      if (state.stopped) return state;
      const roles = Array.isArray(event.roles) ? event.roles.join(' and ') : state.role;
      return {
        ...state,
        problem: '',
        readies: state.readies + 1,
        channel: {
          kind: 'open',
          text: `Connected as ${event.name ?? state.me} (${roles}): prompts wait for your answer while this page is open.`,
        },
      };
    }
    case 'disconnected':
      // Left, or the token was revoked: said already.
      return state.stopped
        ? state
        : {
            ...state,
            channel: {
              kind: 'closed',
              text: 'Disconnected: reconnecting… While no approver is connected, prompts are denied at once.',
            },
          };
    case 'channel-refused':
      return state.stopped
        ? state
        : {
            ...state,
            channel: {
              kind: 'closed',
              text: 'The server refused the live channel for this token.',
            },
            problem: 'The live approver channel was refused: this page cannot answer prompts.',
          };
    case 'revoked':
      return {
        ...state,
        stopped: true,
        channel: { kind: 'closed', text: 'Not connected.' },
        problem: `Your token was revoked (${event.message ?? 'revoked'}): this page is no longer an approver. Sign in again.`,
      };
    case 'viewing':
      return { ...state, channel: { kind: 'view', text: viewingText(state.role) } };
    default:
      return state;
  }
}

/** @param {readonly string[]} ids @param {string} id */
function withId(ids, id) {
  return ids.includes(id) ? ids : [...ids, id];
}

/** @param {InboxState} state @param {CardState} card @returns {InboxState} */
function withCard(state, card) {
  return state.cards[card.id] === card
    ? state
    : { ...state, cards: { ...state.cards, [card.id]: card } };
}

/**
 * An approval reaching the inbox: a pending one the role acts on waits, in
 * time-out order; one already ended is settled; others are not shown.
 * @param {InboxState} state @param {ApprovalView} view @param {number} now @returns {InboxState}
 */
function arrive(state, view, now) {
  // Not one this role acts on: neither listed nor counted (nor its end shown).
  if (!inboxShows(state.powers, view.kind)) return state;
  if (view.state !== 'pending') return settle(state, view, false);
  if (state.cards[view.id] !== undefined) return state;
  const card = reduceCard(cardState(view, state.powers), { type: 'tick', now });
  const cards = { ...state.cards, [view.id]: card };
  const at = state.pending.findIndex((id) => {
    const other = state.cards[id]?.view;
    return other !== undefined && soonerFirst(view, other) < 0;
  });
  const pending =
    at < 0
      ? [...state.pending, view.id]
      : [...state.pending.slice(0, at), view.id, ...state.pending.slice(at)];
  return { ...state, cards, pending };
}

/**
 * An approval that ended: its card says how and moves to "just settled"; one
 * not answered from this page is told in a toast, with who answered.
 * @param {InboxState} state @param {ApprovalView} view @param {boolean} answered the API's answer to this page's answer
 * @returns {InboxState}
 */
function settle(state, view, answered) {
  const card = state.cards[view.id];
  if (card === undefined || card.end !== null) return state;
  const byMe = state.mine.includes(view.id) && view.answer?.by === state.me;
  const next = toSettled(state, reduceCard(card, { type: 'settled', settled: view, mine: byMe }));
  if (answered || byMe || !view.answer) return next;
  return { ...next, say: `${view.agent}: ${answerText(view.answer)} by ${view.answer.by}` };
}

/** @param {InboxState} state @param {CardState} card @returns {InboxState} */
function toSettled(state, card) {
  const settled = [card.id, ...state.settled.filter((id) => id !== card.id)];
  const kept = settled.slice(0, SETTLED_KEPT);
  const dropped = new Set(settled.slice(SETTLED_KEPT));
  const cards = Object.fromEntries(
    Object.entries({ ...state.cards, [card.id]: card }).filter(([id]) => !dropped.has(id)),
  );
  return {
    ...state,
    cards,
    pending: state.pending.filter((id) => id !== card.id),
    settled: kept,
    mine: state.mine.filter((id) => cards[id] !== undefined),
  };
}
