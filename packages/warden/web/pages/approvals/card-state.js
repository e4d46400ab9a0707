// One approval card's state apart from its drawing, so that what a card does
// can be tested in Node without a browser: the answer being written (hours,
// scope, reasons), whether it is being sent, the API's refusal, the time
// left, which long parts are unfolded, and how the approval ended. Pure: no
// DOM, no `fetch`, no timers; the clock comes in as an argument. The card
// (`card.js`) draws a state and turns DOM events into the events below.

import { unfold } from '../../lib/state.js';

/**
 * @typedef {import('../../lib/types.js').ApprovalView} ApprovalView
 * @typedef {import('../../lib/types.js').AnswerBody} AnswerBody
 * @typedef {import('../../lib/types.js').ScopeOffer} ScopeOffer
 * @typedef {import('./acts.js').ApprovalPowers} ApprovalPowers
 */

/** The hours "approve for a while" starts with. */
export const DEFAULT_HOURS = 8;
/** The server's default limit for "approve for N hours" (it checks, whatever this says). */
export const MAX_HOURS = 168;

/**
 * What a card shows that changes while it is on the page.
 * @typedef {{
 *   readonly id: string,
 *   readonly view: ApprovalView,
 *   readonly soft: boolean,
 *   readonly actions: 'prompt' | 'override' | 'none',
 *   readonly remembers: boolean,
 *   readonly phase: 'open' | 'sending' | 'sent',
 *   readonly sending: AnswerBody | null,
 *   readonly error: string,
 *   readonly invalid: null | 'hours' | 'scope' | 'override-reason',
 *   readonly hours: string,
 *   readonly scope: string | null,
 *   readonly denyReason: string,
 *   readonly overrideReason: string,
 *   readonly overrideMissing: boolean,
 *   readonly left: string,
 *   readonly over: boolean,
 *   readonly unfolded: readonly string[],
 *   readonly end: null | { readonly kind: 'settled', readonly settled: ApprovalView, readonly mine: boolean } | { readonly kind: 'expired' },
 * }} CardState
 */

/**
 * What happens to a card: the person writes or sends an answer, the API
 * answers, the clock moves, the approval ends, a long part is unfolded.
 * @typedef {(
 *   | { type: 'hours', value: string }
 *   | { type: 'scope', scope: string }
 *   | { type: 'deny-reason', value: string }
 *   | { type: 'override-reason', value: string }
 *   | { type: 'submit', answer: 'once' | 'remember' | 'deny' | 'override' }
 *   | { type: 'sent' }
 *   | { type: 'refused', message: string }
 *   | { type: 'tick', now: number }
 *   | { type: 'settled', settled: ApprovalView, mine: boolean }
 *   | { type: 'expired' }
 *   | { type: 'fold', part: string, open: boolean }
 * )} CardEvent
 */

/** The scopes the approval offers. @param {ApprovalView} view @returns {readonly ScopeOffer[]} */
export function offeredScopes(view) {
  return Array.isArray(view.scopes) ? view.scopes : [];
}

/**
 * Which answers a role gives on this approval: a prompt's (approve, deny) for
 * an approver, a soft deny's (override, keep denied) for an overrider, none otherwise.
 * @param {ApprovalView} view @param {ApprovalPowers} powers
 * @returns {'prompt' | 'override' | 'none'}
 */
export function actionsFor(view, powers) {
  if (view.kind === 'override') return powers.mayOverride ? 'override' : 'none';
  return powers.mayAnswer ? 'prompt' : 'none';
}

/**
 * A new card for `view`, as this role sees it, before the clock is read.
 * @param {ApprovalView} view @param {ApprovalPowers} powers @returns {CardState}
 */
export function cardState(view, powers) {
  const soft = view.kind === 'override';
  const effective = offeredScopes(view).filter((s) => s.effective);
  return {
    id: view.id,
    view,
    soft,
    actions: actionsFor(view, powers),
    remembers: !soft && view.rememberable === true && effective.length > 0,
    phase: 'open',
    sending: null,
    error: '',
    invalid: null,
    hours: String(DEFAULT_HOURS),
    scope: effective[0]?.scope ?? null,
    denyReason: '',
    overrideReason: '',
    overrideMissing: false,
    left: '',
    over: false,
    unfolded: [],
    end: null,
  };
}

/** The hours as the button says them: `8 h`, or `… h` while they are no number above 0. @param {CardState} state */
export function hoursLabel(state) {
  const n = Number(state.hours);
  return state.hours.trim() !== '' && Number.isFinite(n) && n > 0 ? `${n} h` : '… h';
}

/** The offered scope chosen for "approve for a while", if any. @param {CardState} state */
export function chosenScope(state) {
  return offeredScopes(state.view).find((s) => s.scope === state.scope);
}

/** The time left in words: `45 s`, `12 min`, `3 h`. @param {number} ms */
export function inWords(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${Math.round(m / 60)} h`;
}

/**
 * The card after `event`. Once the approval ended, only folding changes it.
 * @param {CardState} state @param {CardEvent} event @returns {CardState}
 */
export function reduceCard(state, event) {
  if (event.type === 'fold')
    return { ...state, unfolded: unfold(state.unfolded, event.part, event.open) };
  if (state.end !== null) return state;
  switch (event.type) {
    case 'hours':
      return { ...state, hours: event.value };
    case 'scope': {
      const offer = offeredScopes(state.view).find((s) => s.scope === event.scope);
      // One that would not lift the prompt cannot be chosen.
      return offer === undefined || !offer.effective ? state : { ...state, scope: event.scope };
    }
    case 'deny-reason':
      return { ...state, denyReason: event.value };
    case 'override-reason':
      return { ...state, overrideReason: event.value };
    case 'submit':
      return submit(state, event.answer);
    case 'sent':
      return state.phase === 'sending' ? { ...state, phase: 'sent' } : state;
    case 'refused':
      // The answer did not go through: the form is back as it was, and says why.
      return {
        ...state,
        phase: 'open',
        sending: null,
        error: `Not answered: ${event.message}`,
      };
    case 'tick': {
      const left = Date.parse(state.view.expiresAt) - event.now;
      return {
        ...state,
        left: left > 0 ? `(${inWords(left)} left)` : '(timed out)',
        over: left <= 0,
      };
    }
    case 'settled':
      return {
        ...state,
        end: { kind: 'settled', settled: event.settled, mine: event.mine },
        phase: state.phase === 'sending' ? 'sent' : state.phase,
        error: '',
        left: '',
      };
    case 'expired':
      return { ...state, end: { kind: 'expired' }, left: '' };
    default:
      return state;
  }
}

/**
 * Sending an answer: checked first (hours, scope, a reason for an override);
 * a valid one is `sending` until the API answers. An answer this role does
 * not give, or a second one while one is on its way, changes nothing.
 * @param {CardState} state @param {'once' | 'remember' | 'deny' | 'override'} answer
 * @returns {CardState}
 */
function submit(state, answer) {
  if (state.phase === 'sending') return state;
  const gives =
    state.actions === 'prompt'
      ? answer === 'once' || answer === 'deny' || (answer === 'remember' && state.remembers)
      : state.actions === 'override' && (answer === 'override' || answer === 'deny');
  if (!gives) return state;
  /** @param {AnswerBody} body @returns {CardState} */
  const send = (body) => ({ ...state, phase: 'sending', sending: body, error: '', invalid: null });
  /** @param {string} error @param {CardState['invalid']} invalid @returns {CardState} */
  const refuse = (error, invalid) => ({ ...state, error, invalid });
  if (answer === 'once') return send({ kind: 'once' });
  if (answer === 'remember') {
    const n = Number(state.hours);
    if (state.hours.trim() === '' || !Number.isFinite(n) || n <= 0)
      return refuse(`Say for how many hours: a number above 0 (at most ${MAX_HOURS}).`, 'hours');
    const scope = chosenScope(state);
    if (scope === undefined) return refuse('Pick the scope the rule is written in.', 'scope');
    return send({ kind: 'remember', hours: n, scope: scope.scope });
  }
  if (answer === 'deny') {
    const r = state.denyReason.trim();
    return send({ kind: 'deny', ...(r === '' ? {} : { reason: r }) });
  }
  const r = state.overrideReason.trim();
  if (r === '')
    return {
      ...refuse('An override needs a reason: it is recorded in the audit log.', 'override-reason'),
      overrideMissing: true,
    };
  return { ...send({ kind: 'override', reason: r }), overrideMissing: false };
}
