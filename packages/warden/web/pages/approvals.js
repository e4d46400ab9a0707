// The approvals inbox (G22, G23, G26). For a role that may answer, the page
// holds the live approver channel (`GET /v1/approvals/stream`): while it is
// open its user is a connected approver, so prompts wait for an answer here;
// when it closes, prompts are denied at once. Each pending approval is a card
// with the answers the role may give; `settled` events move a card to "just
// settled" with who answered. A viewer sees the pending prompts (polled from
// `GET /v1/approvals`), without any answer, and is no approver. A role lists
// and counts only the approvals it acts on (`approvals/acts.js`): an approver
// the prompts, an overrider the soft denies, an admin both; a viewer, who acts
// on none, sees every kind. The prompt that times out soonest is on top; the tab's title counts the waiting ones,
// and a notification the person turns on says so when one arrives while the
// tab is hidden (`approvals/notify.js`).
//
// What the inbox holds is its state (`approvals/state.js`, each card's in
// `approvals/card-state.js`): pure, tested in Node. This page is the wiring:
// it feeds the state the stream's, the API's and the clock's events, draws
// each new state (`inboxView`, `approvals/card.js`), and does what a state
// asks for (`follow`: send an answer, read an approval again, a toast, a
// notification). What it talks to — the API (`sendAnswer`, `recheck`), the
// live channel (`openChannel`), the view-only poll (`pollPending`), the clock
// (`startTicker`) — each is a function of its own.

import { ApiError, api, query } from '../lib/api.js';
import { h, replace, section, toast } from '../lib/dom.js';
import { listen } from '../lib/sse.js';
import { approvalCard } from './approvals/card.js';
import { inboxTitle, notifier } from './approvals/notify.js';
import { POLL_MS, arrivalText, inboxState, openIds, reduce, toRecheck } from './approvals/state.js';

/**
 * @typedef {import('../lib/types.js').ApprovalView} ApprovalView
 * @typedef {import('./approvals/state.js').InboxState} InboxState
 * @typedef {import('./approvals/state.js').InboxEvent} InboxEvent
 * @typedef {import('./approvals/card-state.js').CardState} CardState
 * @typedef {import('./approvals/card-state.js').CardEvent} CardEvent
 */

/**
 * What the inbox's parts share: the page's context, the signal that stops
 * it, where events go, and the state as it is now.
 * @typedef {{
 *   ctx: import('../lib/types.js').PageContext,
 *   stop: AbortController,
 *   dispatch: (event: InboxEvent) => void,
 *   state: () => InboxState,
 * }} Inbox
 */

/** What a page says to a token that may not read approvals. @param {HTMLElement} main @param {string} role */
function refused(main, role) {
  replace(
    main,
    h('h1', null, 'Approvals'),
    h(
      'p',
      { class: 'error', role: 'alert' },
      `${/^[aeiou]/i.test(role) ? 'An' : 'A'} \`${role}\` token may not read approvals: sign in with a person's token.`,
    ),
  );
}

/** An error's words. @param {unknown} error */
function message(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads one approval again and settles its card when it is no longer pending;
 * with `orExpire`, a card still pending (or gone) is closed as timed out.
 * @param {Inbox} inbox @param {string} id @param {boolean} [orExpire]
 */
async function recheck(inbox, id, orExpire = false) {
  try {
    /** @type {ApprovalView} */
    const approval = await api('GET', `/v1/approvals/${encodeURIComponent(id)}`);
    if (approval.state !== 'pending') inbox.dispatch({ type: 'settled', view: approval });
    else if (orExpire) inbox.dispatch({ type: 'expired', id });
  } catch (error) {
    if (orExpire || (error instanceof ApiError && error.status === 404))
      inbox.dispatch({ type: 'expired', id });
  }
}

/**
 * Sends an answer; the API's settled approval, or its refusal, goes back to the state.
 * @param {Inbox} inbox @param {ApprovalView} approval @param {import('../lib/types.js').AnswerBody} body
 */
async function sendAnswer(inbox, approval, body) {
  const path = `/v1/approvals/${encodeURIComponent(approval.id)}/${body.kind === 'override' ? 'override' : 'answer'}`;
  try {
    /** @type {ApprovalView} */
    const settled = await api(
      'POST',
      path,
      body.kind === 'override' ? { reason: body.reason } : body,
    );
    inbox.dispatch({ type: 'answered', view: settled });
  } catch (error) {
    inbox.dispatch({ type: 'not-answered', id: approval.id, message: message(error) });
    // Settled by someone else meanwhile: show how, and not a form that cannot work any more.
    if (error instanceof ApiError && (error.status === 409 || error.status === 404))
      void recheck(inbox, approval.id);
  }
}

/**
 * The clock: every second the cards count down, and the overdue ones are
 * read again, each once at a time. Its timer, for the page to stop.
 * @param {Inbox} inbox
 */
function startTicker(inbox) {
  return window.setInterval(() => {
    const now = Date.now();
    inbox.dispatch({ type: 'tick', now });
    for (const id of toRecheck(inbox.state(), now)) {
      inbox.dispatch({ type: 'checking', id });
      void recheck(inbox, id, true).finally(() => inbox.dispatch({ type: 'checked', id }));
    }
  }, 1000);
}

/** The live approver channel: its states and events go to the inbox. @param {Inbox} inbox */
function openChannel(inbox) {
  listen('/v1/approvals/stream', {
    signal: inbox.stop.signal,
    onState: (s) => {
      if (s === 'closed') inbox.dispatch({ type: 'disconnected' });
      else if (s === 'refused') inbox.dispatch({ type: 'channel-refused' });
    },
    onEvent: (name, data) => {
      if (name === 'ready') {
        inbox.dispatch({ type: 'ready', name: data?.name, roles: data?.roles });
        // After a reconnect, what was shown may have ended meanwhile.
        if (inbox.state().readies > 1)
          for (const id of openIds(inbox.state())) void recheck(inbox, id);
      } else if (name === 'approval')
        inbox.dispatch({ type: 'arrived', view: data, now: Date.now() });
      else if (name === 'settled') inbox.dispatch({ type: 'settled', view: data });
      else if (name === 'revoked') inbox.dispatch({ type: 'revoked', message: data?.message });
    },
  });
}

/** The workspaces the view-only inbox reads: the token's, or every one. @param {Inbox} inbox */
async function workspacesOf(inbox) {
  const bound = inbox.ctx.identity.workspace;
  if (bound !== null && bound !== undefined) return [bound];
  /** @type {import('../lib/types.js').WorkspaceList} */
  const list = await api('GET', '/v1/workspaces');
  return list.workspaces.map((w) => w.workspace);
}

/** Reads the pending approvals once; a card no longer among them is read again. @param {Inbox} inbox */
async function pollOnce(inbox) {
  try {
    const seen = new Set();
    for (const workspace of await workspacesOf(inbox)) {
      const { approvals } = await api(
        'GET',
        `/v1/approvals${query({ workspace, state: 'pending', limit: 100 })}`,
      );
      for (const approval of approvals) {
        seen.add(approval.id);
        inbox.dispatch({ type: 'arrived', view: approval, now: Date.now() });
      }
    }
    for (const id of openIds(inbox.state())) if (!seen.has(id)) void recheck(inbox, id);
    inbox.dispatch({ type: 'polled' });
  } catch (error) {
    inbox.dispatch({ type: 'poll-failed', message: message(error) });
  }
}

/** The view-only inbox: the pending approvals read every `POLL_MS` until the page stops. @param {Inbox} inbox */
function pollPending(inbox) {
  let timer = 0;
  const once = async () => {
    await pollOnce(inbox);
    if (!inbox.stop.signal.aborted) timer = window.setTimeout(() => void once(), POLL_MS);
  };
  inbox.stop.signal.addEventListener('abort', () => window.clearTimeout(timer));
  void once();
}

/**
 * Does what a new state asks of the page: the tab's title, a toast, stopping,
 * a notification, a card's focus, an answer to send.
 * @param {Inbox} inbox @param {InboxState} prev @param {InboxState} state @param {InboxEvent} event
 * @param {{ view: { focus: (id: string, field: CardState['invalid']) => void }, notices: { arrived: (waiting: number, what: string) => void } }} page
 */
function follow(inbox, prev, state, event, page) {
  if (!inbox.stop.signal.aborted) document.title = inboxTitle(state.pending.length);
  if (state.say !== null) toast(state.say);
  if (state.stopped && !prev.stopped) inbox.stop.abort();
  if (event.type === 'arrived' && state.pending.length > prev.pending.length)
    page.notices.arrived(state.pending.length, arrivalText(event.view));
  if (event.type === 'card') {
    const card = state.cards[event.id];
    const before = prev.cards[event.id];
    if (card?.invalid) page.view.focus(event.id, card.invalid);
    if (card?.phase === 'sending' && before?.phase !== 'sending' && card.sending !== null)
      void sendAnswer(inbox, card.view, card.sending);
  }
}

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export function render(main, ctx) {
  if (!ctx.can('read')) {
    refused(main, ctx.identity.role);
    return undefined;
  }
  /** @type {InboxState} */
  let state = inboxState({
    me: ctx.identity.name,
    role: ctx.identity.role,
    mayAnswer: ctx.can('answer'),
    mayOverride: ctx.can('override'),
  });
  const page = { view: inboxView(state), notices: notifier() };
  /** @type {Inbox} */
  const inbox = {
    ctx,
    stop: new AbortController(),
    state: () => state,
    /** Each event: the next state, drawn, and what it asks the page to do. */
    dispatch: (event) => {
      const prev = state;
      state = reduce(state, event);
      if (state === prev) return;
      page.view.draw(prev, state);
      follow(inbox, prev, state, event, page);
    },
  };
  page.view.onCard = (id, event) => inbox.dispatch({ type: 'card', id, event });
  const ticker = startTicker(inbox);
  if (state.live) openChannel(inbox);
  else pollPending(inbox);

  replace(main, ...page.view.parts(page.notices.el));
  document.title = inboxTitle(0);

  return () => {
    inbox.stop.abort();
    window.clearInterval(ticker);
  };
}

/** The inbox's elements, built once, that `inboxView` patches. */
function inboxElements() {
  return {
    channel: h('p', { class: 'ap-live', role: 'status', id: 'inbox-state' }),
    problem: h('p', { class: 'error', role: 'alert', id: 'inbox-problem' }),
    pendingList: h('ol', {
      class: 'ap-inbox',
      id: 'inbox-pending',
      'aria-labelledby': 's-waiting-for-an-answer',
      'aria-live': 'polite',
      'aria-relevant': 'additions removals',
    }),
    empty: h('p', { class: 'muted ap-empty', id: 'inbox-empty' }, 'Nothing is waiting.'),
    settledList: h('ol', {
      class: 'ap-inbox ap-settled-list',
      id: 'inbox-settled',
      'aria-labelledby': 's-just-settled',
      'aria-live': 'polite',
      'aria-relevant': 'additions',
    }),
    settledEmpty: h('p', { class: 'muted ap-empty' }, 'Nothing settled while this page was open.'),
  };
}

/** The channel's line: its kind as a class, a dot, its words. @param {HTMLElement} channel @param {InboxState['channel']} c */
function drawChannel(channel, c) {
  channel.className = `ap-live ap-live-${c.kind}`;
  replace(channel, h('span', { class: 'ap-dot', 'aria-hidden': 'true' }), c.text);
}

/**
 * Puts `list`'s cards in the order of `ids`, moving only those out of place.
 * @param {HTMLElement} list @param {readonly string[]} ids @param {Map<string, ReturnType<typeof approvalCard>>} cards
 */
function arrange(list, ids, cards) {
  /** @type {Set<Element | undefined>} */
  const keep = new Set(ids.map((id) => cards.get(id)?.el));
  for (const child of [...list.children]) if (!keep.has(child)) child.remove();
  let at = list.firstElementChild;
  for (const id of ids) {
    const el = cards.get(id)?.el;
    if (el === undefined) continue;
    if (el === at) at = at.nextElementSibling;
    else list.insertBefore(el, at);
  }
}

/**
 * Draws the cards of `next` over `prev`: new cards built, changed ones
 * patched, both lists in order, gone ones removed; a card that leaves the
 * waiting list with the focus in it hands it on.
 * @param {ReturnType<typeof inboxElements>} els @param {Map<string, ReturnType<typeof approvalCard>>} cards
 * @param {InboxState} prev @param {InboxState} next @param {(id: string, event: CardEvent) => void} onCard
 */
function drawCards(els, cards, prev, next, onCard) {
  const { pendingList, settledList } = els;
  for (const [id, card] of Object.entries(next.cards)) {
    const ui = cards.get(id);
    if (ui === undefined)
      cards.set(id, approvalCard(card, { role: next.role, onEvent: (event) => onCard(id, event) }));
    else if (card !== prev.cards[id]) ui.draw(card);
  }
  const focused = [...cards].find(
    ([id, ui]) =>
      !next.pending.includes(id) &&
      pendingList.contains(ui.el) &&
      ui.el.contains(document.activeElement),
  );
  arrange(settledList, next.settled, cards);
  arrange(pendingList, next.pending, cards);
  for (const [id, ui] of cards)
    if (next.cards[id] === undefined) {
      ui.el.remove();
      cards.delete(id);
    }
  if (focused !== undefined) {
    const heading = /** @type {HTMLElement | null} */ (pendingList.querySelector('h3'));
    (heading ?? /** @type {HTMLElement} */ (focused[1].el.querySelector('.ap-outcome'))).focus();
  }
  els.empty.hidden = next.pending.length > 0;
  els.settledEmpty.hidden = next.settled.length > 0;
}

/**
 * The inbox drawn from its state: the channel's line, the problem, the
 * waiting and the settled cards. Built once; `draw` patches what changed
 * between two states, and moves a card without taking its focus away.
 * @param {InboxState} initial
 */
function inboxView(initial) {
  const els = inboxElements();
  /** @type {Map<string, ReturnType<typeof approvalCard>>} */
  const cards = new Map();
  const view = {
    /** Where a card's events go (the page sets it). @type {(id: string, event: CardEvent) => void} */
    onCard: (id, event) => void [id, event],
    /** The page's parts, with the notification control. @param {HTMLElement} notices */
    parts: (notices) => [
      h('h1', null, 'Approvals'),
      els.channel,
      initial.leftOut === null
        ? null
        : h('p', { class: 'muted', id: 'inbox-scope' }, initial.leftOut),
      notices,
      els.problem,
      section('Waiting for an answer', els.pendingList, els.empty),
      section('Just settled', els.settledList, els.settledEmpty),
    ],
    /** @param {string} id @param {CardState['invalid']} field */
    focus: (id, field) => cards.get(id)?.focus(field),
    /** Draws `next` over `prev`. @param {InboxState} prev @param {InboxState} next */
    draw(prev, next) {
      if (next.channel !== prev.channel) drawChannel(els.channel, next.channel);
      if (next.problem !== prev.problem) replace(els.problem, next.problem);
      if (
        next.cards !== prev.cards ||
        next.pending !== prev.pending ||
        next.settled !== prev.settled
      )
        drawCards(els, cards, prev, next, (id, event) => view.onCard(id, event));
    },
  };
  drawChannel(els.channel, initial.channel);
  els.empty.hidden = false;
  els.settledEmpty.hidden = false;
  return view;
}
