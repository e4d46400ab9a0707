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
// asks for (send an answer, read an approval again, a toast, a notification).

import { ApiError, api, query } from '../lib/api.js';
import { h, replace, section, toast } from '../lib/dom.js';
import { listen } from '../lib/sse.js';
import { approvalCard } from './approvals/card.js';
import { inboxTitle, notifier } from './approvals/notify.js';
import { POLL_MS, arrivalText, inboxState, openIds, overdue, reduce } from './approvals/state.js';

/**
 * @typedef {import('../lib/types.js').ApprovalView} ApprovalView
 * @typedef {import('./approvals/state.js').InboxState} InboxState
 * @typedef {import('./approvals/state.js').InboxEvent} InboxEvent
 */

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export function render(main, ctx) {
  if (!ctx.can('read')) {
    replace(
      main,
      h('h1', null, 'Approvals'),
      h(
        'p',
        { class: 'error', role: 'alert' },
        `${/^[aeiou]/i.test(ctx.identity.role) ? 'An' : 'A'} \`${ctx.identity.role}\` token may not read approvals: sign in with a person's token.`,
      ),
    );
    return undefined;
  }
  /** @type {InboxState} */
  let state = inboxState({
    me: ctx.identity.name,
    role: ctx.identity.role,
    mayAnswer: ctx.can('answer'),
    mayOverride: ctx.can('override'),
  });
  const stop = new AbortController();
  const view = inboxView(state);
  const notices = notifier();

  /** Each event: the next state, drawn, and what it asks the page to do. @param {InboxEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    if (state === prev) return;
    view.draw(prev, state);
    if (!stop.signal.aborted) document.title = inboxTitle(state.pending.length);
    if (state.say !== null) toast(state.say);
    if (state.stopped && !prev.stopped) stop.abort();
    if (event.type === 'arrived' && state.pending.length > prev.pending.length)
      notices.arrived(state.pending.length, arrivalText(event.view));
    if (event.type === 'card') {
      const card = state.cards[event.id];
      const before = prev.cards[event.id];
      if (card?.invalid) view.focus(event.id, card.invalid);
      if (card?.phase === 'sending' && before?.phase !== 'sending' && card.sending !== null)
        void answer(card.view, card.sending);
    }
  };
  view.onCard = (id, event) => dispatch({ type: 'card', id, event });

  /** Sends an answer; the API's settled approval, or its refusal, goes back to the state. @param {ApprovalView} approval @param {import('../lib/types.js').AnswerBody} body */
  const answer = async (approval, body) => {
    const path = `/v1/approvals/${encodeURIComponent(approval.id)}/${body.kind === 'override' ? 'override' : 'answer'}`;
    try {
      /** @type {ApprovalView} */
      const settled = await api(
        'POST',
        path,
        body.kind === 'override' ? { reason: body.reason } : body,
      );
      dispatch({ type: 'answered', view: settled });
    } catch (error) {
      dispatch({
        type: 'not-answered',
        id: approval.id,
        message: error instanceof Error ? error.message : String(error),
      });
      // Settled by someone else meanwhile: show how, and not a form that cannot work any more.
      if (error instanceof ApiError && (error.status === 409 || error.status === 404))
        void recheck(approval.id);
    }
  };

  /**
   * Reads one approval again and settles its card when it is no longer pending;
   * with `orExpire`, a card still pending (or gone) is closed as timed out.
   * @param {string} id @param {boolean} [orExpire]
   */
  const recheck = async (id, orExpire = false) => {
    try {
      /** @type {ApprovalView} */
      const approval = await api('GET', `/v1/approvals/${encodeURIComponent(id)}`);
      if (approval.state !== 'pending') dispatch({ type: 'settled', view: approval });
      else if (orExpire) dispatch({ type: 'expired', id });
    } catch (error) {
      if (orExpire || (error instanceof ApiError && error.status === 404))
        dispatch({ type: 'expired', id });
    }
  };

  /** Cards past their time whose end is being read. */
  const checking = new Set();
  const ticker = window.setInterval(() => {
    const now = Date.now();
    dispatch({ type: 'tick', now });
    for (const id of overdue(state, now)) {
      if (checking.has(id)) continue;
      checking.add(id);
      void recheck(id, true).finally(() => checking.delete(id));
    }
  }, 1000);

  if (state.live) openChannel();
  else pollPending();

  function openChannel() {
    listen('/v1/approvals/stream', {
      signal: stop.signal,
      onState: (s) => {
        if (s === 'closed') dispatch({ type: 'disconnected' });
        else if (s === 'refused') dispatch({ type: 'channel-refused' });
      },
      onEvent: (name, data) => {
        if (name === 'ready') {
          dispatch({ type: 'ready', name: data?.name, roles: data?.roles });
          // After a reconnect, what was shown may have ended meanwhile.
          if (state.readies > 1) for (const id of openIds(state)) void recheck(id);
        } else if (name === 'approval') dispatch({ type: 'arrived', view: data, now: Date.now() });
        else if (name === 'settled') dispatch({ type: 'settled', view: data });
        else if (name === 'revoked') dispatch({ type: 'revoked', message: data?.message });
      },
    });
  }

  function pollPending() {
    let timer = 0;
    const once = async () => {
      try {
        const bound = ctx.identity.workspace;
        const workspaces =
          bound !== null && bound !== undefined
            ? [bound]
            : /** @type {import('../lib/types.js').WorkspaceList} */ (
                await api('GET', '/v1/workspaces')
              ).workspaces.map((w) => w.workspace);
        const seen = new Set();
        for (const workspace of workspaces) {
          const { approvals } = await api(
            'GET',
            `/v1/approvals${query({ workspace, state: 'pending', limit: 100 })}`,
          );
          for (const approval of approvals) {
            seen.add(approval.id);
            dispatch({ type: 'arrived', view: approval, now: Date.now() });
          }
        }
        for (const id of openIds(state)) if (!seen.has(id)) void recheck(id);
        dispatch({ type: 'polled' });
      } catch (error) {
        dispatch({
          type: 'poll-failed',
          message: error instanceof Error ? error.message : String(error),
        });
      }
      if (!stop.signal.aborted) timer = window.setTimeout(() => void once(), POLL_MS);
    };
    stop.signal.addEventListener('abort', () => window.clearTimeout(timer));
    void once();
  }

  replace(main, ...view.parts(notices.el));
  document.title = inboxTitle(0);

  return () => {
    stop.abort();
    window.clearInterval(ticker);
  };
}

/**
 * The inbox drawn from its state: the channel's line, the problem, the
 * waiting and the settled cards. Built once; `draw` patches what changed
 * between two states, and moves a card without taking its focus away.
 * @param {InboxState} initial
 */
function inboxView(initial) {
  const channel = h('p', { class: 'ap-live', role: 'status', id: 'inbox-state' });
  const problem = h('p', { class: 'error', role: 'alert', id: 'inbox-problem' });
  const pendingList = h('ol', {
    class: 'ap-inbox',
    id: 'inbox-pending',
    'aria-labelledby': 's-waiting-for-an-answer',
    'aria-live': 'polite',
    'aria-relevant': 'additions removals',
  });
  const empty = h('p', { class: 'muted ap-empty', id: 'inbox-empty' }, 'Nothing is waiting.');
  const settledList = h('ol', {
    class: 'ap-inbox ap-settled-list',
    id: 'inbox-settled',
    'aria-labelledby': 's-just-settled',
    'aria-live': 'polite',
    'aria-relevant': 'additions',
  });
  const settledEmpty = h(
    'p',
    { class: 'muted ap-empty' },
    'Nothing settled while this page was open.',
  );
  /** @type {Map<string, ReturnType<typeof approvalCard>>} */
  const cards = new Map();

  /** @param {InboxState['channel']} c */
  const drawChannel = (c) => {
    channel.className = `ap-live ap-live-${c.kind}`;
    replace(channel, h('span', { class: 'ap-dot', 'aria-hidden': 'true' }), c.text);
  };

  /**
   * Puts `list`'s cards in the order of `ids`, moving only those out of place.
   * @param {HTMLElement} list @param {readonly string[]} ids
   */
  const arrange = (list, ids) => {
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
  };

  const view = {
    /** Where a card's events go (the page sets it). @type {(id: string, event: import('./approvals/card-state.js').CardEvent) => void} */
    onCard: (id, event) => void [id, event],
    /** The page's parts, with the notification control. @param {HTMLElement} notices */
    parts: (notices) => [
      h('h1', null, 'Approvals'),
      channel,
      initial.leftOut === null
        ? null
        : h('p', { class: 'muted', id: 'inbox-scope' }, initial.leftOut),
      notices,
      problem,
      section('Waiting for an answer', pendingList, empty),
      section('Just settled', settledList, settledEmpty),
    ],
    /** @param {string} id @param {import('./approvals/card-state.js').CardState['invalid']} field */
    focus: (id, field) => cards.get(id)?.focus(field),
    /** Draws `next` over `prev`. @param {InboxState} prev @param {InboxState} next */
    draw(prev, next) {
      if (next.channel !== prev.channel) drawChannel(next.channel);
      if (next.problem !== prev.problem) replace(problem, next.problem);
      if (
        next.cards === prev.cards &&
        next.pending === prev.pending &&
        next.settled === prev.settled
      )
        return;
      for (const [id, card] of Object.entries(next.cards)) {
        const ui = cards.get(id);
        if (ui === undefined)
          cards.set(
            id,
            approvalCard(card, { role: next.role, onEvent: (event) => view.onCard(id, event) }),
          );
        else if (card !== prev.cards[id]) ui.draw(card);
      }
      // A card that leaves the waiting list with the focus in it hands it on.
      const focused = [...cards].find(
        ([id, ui]) =>
          !next.pending.includes(id) &&
          pendingList.contains(ui.el) &&
          ui.el.contains(document.activeElement),
      );
      arrange(settledList, next.settled);
      arrange(pendingList, next.pending);
      for (const [id, ui] of cards)
        if (next.cards[id] === undefined) {
          ui.el.remove();
          cards.delete(id);
        }
      if (focused !== undefined) {
        const heading = /** @type {HTMLElement | null} */ (pendingList.querySelector('h3'));
        (
          heading ?? /** @type {HTMLElement} */ (focused[1].el.querySelector('.ap-outcome'))
        ).focus();
      }
      empty.hidden = next.pending.length > 0;
      settledEmpty.hidden = next.settled.length > 0;
    },
  };
  drawChannel(initial.channel);
  empty.hidden = false;
  settledEmpty.hidden = false;
  return view;
}
