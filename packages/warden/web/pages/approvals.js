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

import { ApiError, api, query } from '../lib/api.js';
import { h, replace, section, toast } from '../lib/dom.js';
import { listen } from '../lib/sse.js';
import { inboxShows, leftOutText } from './approvals/acts.js';
import { approvalCard } from './approvals/card.js';
import { actionText, answerText } from './approvals/format.js';
import { inboxTitle, notifier } from './approvals/notify.js';

const POLL_MS = 3000;
/** A card that timed out is closed this long after, unless its end arrived. */
const GRACE_MS = 2000;
const SETTLED_KEPT = 20;

/**
 * The order of the waiting prompts: the one that times out soonest first, then
 * the one asked first. Negative when `a` goes before `b`.
 * @param {import('../lib/types.js').ApprovalView} a @param {import('../lib/types.js').ApprovalView} b
 */
function soonerFirst(a, b) {
  const left = Date.parse(a.expiresAt) - Date.parse(b.expiresAt);
  if (left !== 0 && !Number.isNaN(left)) return left;
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

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
  const me = ctx.identity.name;
  const role = ctx.identity.role;
  const mayAnswer = ctx.can('answer');
  const mayOverride = ctx.can('override');
  const live = mayAnswer || mayOverride;
  const powers = { mayAnswer, mayOverride };
  const leftOut = leftOutText(powers);
  const stop = new AbortController();

  const state = h('p', { class: 'ap-live', role: 'status', id: 'inbox-state' });
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

  /** @type {Map<string, ReturnType<typeof approvalCard> & { done: boolean }>} */
  const cards = new Map();
  /** Approvals answered from this page (their `settled` event is "you", not "someone"). */
  const mine = new Set();

  const notices = notifier();

  /** Shows what is empty, and counts the waiting prompts in the tab's title. */
  const refreshEmpty = () => {
    empty.hidden = pendingList.childElementCount > 0;
    settledEmpty.hidden = settledList.childElementCount > 0;
    if (!stop.signal.aborted) document.title = inboxTitle(pendingList.childElementCount);
  };

  /** @param {string} kind @param {string} text */
  const setState = (kind, text) => {
    state.className = `ap-live ap-live-${kind}`;
    replace(state, h('span', { class: 'ap-dot', 'aria-hidden': 'true' }), text);
  };

  /** @param {ReturnType<typeof approvalCard> & { done: boolean }} card */
  const moveToSettled = (card) => {
    const hadFocus = card.el.contains(document.activeElement);
    card.done = true;
    settledList.prepend(card.el);
    while (settledList.childElementCount > SETTLED_KEPT) settledList.lastElementChild?.remove();
    refreshEmpty();
    if (hadFocus) {
      const next = /** @type {HTMLElement | null} */ (pendingList.querySelector('h3'));
      (next ?? /** @type {HTMLElement} */ (card.el.querySelector('.ap-outcome'))).focus();
    }
  };

  /** @param {import('../lib/types.js').ApprovalView} view */
  const settle = (view) => {
    const card = cards.get(view.id);
    if (card === undefined || card.done) return;
    const byMe = mine.has(view.id) && view.answer?.by === me;
    card.settle(view, byMe);
    moveToSettled(card);
    if (!byMe && view.answer)
      toast(`${view.agent}: ${answerText(view.answer)} by ${view.answer.by}`);
  };

  /** @param {import('../lib/types.js').ApprovalView} view @param {import('../lib/types.js').AnswerBody} body */
  const answer = async (view, body) => {
    mine.add(view.id);
    const path =
      body.kind === 'override'
        ? `/v1/approvals/${encodeURIComponent(view.id)}/override`
        : `/v1/approvals/${encodeURIComponent(view.id)}/answer`;
    try {
      /** @type {import('../lib/types.js').ApprovalView} */
      const settled = await api(
        'POST',
        path,
        body.kind === 'override' ? { reason: body.reason } : body,
      );
      settle(settled);
      toast(`${settled.agent}: ${answerText(settled.answer ?? { kind: body.kind })}`);
    } catch (error) {
      mine.delete(view.id);
      // Settled by someone else meanwhile: show how, and not a form that cannot work any more.
      if (error instanceof ApiError && (error.status === 409 || error.status === 404))
        void recheck(view.id);
      throw error;
    }
  };

  /** @param {import('../lib/types.js').ApprovalView} view */
  const add = (view) => {
    // Not one this role acts on: neither listed nor counted (nor its end shown).
    if (!inboxShows(powers, view.kind)) return;
    if (view.state !== 'pending') {
      settle(view);
      return;
    }
    if (cards.has(view.id)) return;
    const card = {
      ...approvalCard(view, { me, role, mayAnswer, mayOverride, onAnswer: answer }),
      done: false,
    };
    cards.set(view.id, card);
    card.tick(Date.now());
    // Least time left first: the one that times out soonest is on top.
    const later = [...pendingList.children].find((li) => {
      const other = cards.get(li.getAttribute('data-id') ?? '')?.view;
      return other !== undefined && soonerFirst(view, other) < 0;
    });
    pendingList.insertBefore(card.el, later ?? null);
    refreshEmpty();
    notices.arrived(
      pendingList.childElementCount,
      `${view.agent} · ${view.tool ?? (actionText(view) || view.kind)}`,
    );
  };

  /** Closes a card whose approval can no longer be answered, saying it timed out. @param {string} id */
  const expire = (id) => {
    const card = cards.get(id);
    if (card === undefined || card.done) return;
    card.expire();
    moveToSettled(card);
  };

  /**
   * Reads one approval again and settles its card when it is no longer pending;
   * with `orExpire`, a card still pending (or gone) is closed as timed out.
   * @param {string} id @param {boolean} [orExpire]
   */
  const recheck = async (id, orExpire = false) => {
    try {
      /** @type {import('../lib/types.js').ApprovalView} */
      const view = await api('GET', `/v1/approvals/${encodeURIComponent(id)}`);
      if (view.state !== 'pending') settle(view);
      else if (orExpire) expire(id);
    } catch (error) {
      if (orExpire || (error instanceof ApiError && error.status === 404)) expire(id);
    }
  };

  /** Cards past their time whose end is being read. */
  const checking = new Set();
  const ticker = window.setInterval(() => {
    const now = Date.now();
    for (const [id, card] of cards) {
      if (card.done) continue;
      const over = card.tick(now);
      if (over && now > Date.parse(card.view.expiresAt) + GRACE_MS && !checking.has(id)) {
        checking.add(id);
        void recheck(id, true).finally(() => checking.delete(id));
      }
    }
  }, 1000);

  if (live) openChannel();
  else pollPending();

  function openChannel() {
    let readyBefore = false;
    setState('connecting', 'Connecting to the live approver channel…');
    listen('/v1/approvals/stream', {
      signal: stop.signal,
      onState: (s) => {
        if (stop.signal.aborted) return; // left, or the token was revoked: said already
        if (s === 'closed')
          setState(
            'closed',
            'Disconnected: reconnecting… While no approver is connected, prompts are denied at once.',
          );
        else if (s === 'refused') {
          setState('closed', 'The server refused the live channel for this token.');
          replace(
            problem,
            'The live approver channel was refused: this page cannot answer prompts.',
          );
        }
      },
      onEvent: (name, data) => {
        if (name === 'ready') {
          replace(problem);
          const roles = Array.isArray(data?.roles) ? data.roles.join(' and ') : role;
          setState(
            'open',
            `Connected as ${data?.name ?? me} (${roles}): prompts wait for your answer while this page is open.`,
          );
          // After a reconnect, what was shown may have ended meanwhile.
          if (readyBefore) for (const [id, card] of cards) if (!card.done) void recheck(id);
          readyBefore = true;
        } else if (name === 'approval') add(data);
        else if (name === 'settled') settle(data);
        else if (name === 'revoked') {
          stop.abort();
          setState('closed', 'Not connected.');
          replace(
            problem,
            `Your token was revoked (${data?.message ?? 'revoked'}): this page is no longer an approver. Sign in again.`,
          );
        }
      },
    });
  }

  function pollPending() {
    setState(
      'view',
      `Viewing only: your role (${role}) sees the waiting prompts but may not answer them, and this page does not count as a connected approver. It refreshes every ${POLL_MS / 1000} s.`,
    );
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
          for (const view of approvals) {
            seen.add(view.id);
            add(view);
          }
        }
        for (const [id, card] of cards) if (!card.done && !seen.has(id)) void recheck(id);
        replace(problem);
      } catch (error) {
        replace(
          problem,
          `Cannot read the pending approvals: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (!stop.signal.aborted) timer = window.setTimeout(() => void once(), POLL_MS);
    };
    stop.signal.addEventListener('abort', () => window.clearTimeout(timer));
    void once();
  }

  replace(
    main,
    h('h1', null, 'Approvals'),
    state,
    leftOut === null ? null : h('p', { class: 'muted', id: 'inbox-scope' }, leftOut),
    notices.el,
    problem,
    section('Waiting for an answer', pendingList, empty),
    section('Just settled', settledList, settledEmpty),
  );
  refreshEmpty();

  return () => {
    stop.abort();
    window.clearInterval(ticker);
  };
}
