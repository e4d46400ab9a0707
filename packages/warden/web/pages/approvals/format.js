// Words for approvals: what a scope means, the rule "approve for N hours"
// would write (from the approval's own offer, never guessed here), and how an
// approval ended. Plain strings: the page puts them in as text.

/** `agent:coder-1` → `agent coder-1`; `workspace` → `the whole workspace`. @param {string} scope */
export function scopeLabel(scope) {
  if (scope === 'workspace') return 'the whole workspace';
  const colon = scope.indexOf(':');
  return colon < 0 ? scope : `${scope.slice(0, colon)} ${scope.slice(colon + 1)}`;
}

/** One constraint value as text. @param {unknown} value */
function valueText(value) {
  if (Array.isArray(value)) return value.map((v) => String(v)).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * A rule draft of the offer as a sentence: `allow gitPush when refs: feature/**`.
 * @param {import('../../lib/types.js').RuleDraft} rule
 */
export function ruleText(rule) {
  const what = rule.command !== undefined ? `the command ${rule.command}` : (rule.action ?? '?');
  const when =
    rule.when === undefined || rule.when === null
      ? ''
      : ` when ${Object.entries(rule.when)
          .map(([key, value]) => `${key}: ${valueText(value)}`)
          .join('; ')}`;
  return `${rule.decision ?? 'allow'} ${what}${when}`;
}

/** What was asked: the command line, or the action classes. @param {any} view */
export function actionText(view) {
  const request = view.request ?? {};
  if (typeof request.command === 'string') return request.command;
  return Array.isArray(request.actions) ? request.actions.join(', ') : '';
}

/** The answer in words, without who gave it: `approved once`, `approved for 8 h in agent coder-1`. @param {any} answer */
export function answerText(answer) {
  if (answer.kind === 'once') return 'approved once';
  if (answer.kind === 'remember')
    return `approved for ${answer.hours ?? '?'} h in ${scopeLabel(answer.scope ?? '?')}`;
  if (answer.kind === 'override') return 'overridden';
  return 'denied';
}

/** The answer as the one who gave it says it: `approved once`, `overrode the soft deny`. @param {any} answer */
function ownAnswerText(answer) {
  if (answer.kind === 'override') return 'overrode the soft deny';
  if (answer.kind === 'deny') return 'denied it';
  return answerText(answer);
}

/**
 * What a card says when its time ran out, in the one wording the inbox uses
 * for it ("times out", "timed out"): a prompt is denied, a soft deny stays denied.
 * @param {boolean} soft @param {string | null} [why] the server's words (`no answer within 60 s`)
 */
export function timedOutText(soft, why = null) {
  const what = why ?? (soft ? 'no override in time' : 'no answer in time');
  return soft
    ? `Timed out: ${what}, so the call stays denied.`
    : `Timed out: ${what}, so the prompt is denied (an unanswered question is never a yes).`;
}

/**
 * How a settled approval ended, as the person looking at it reads it:
 * `You approved once.`, `Answered by bob: denied (not today).`, `Timed out: …`, `Ended without an answer: …`
 * @param {any} view @param {boolean} mine
 */
export function settledText(view, mine) {
  const a = view.answer;
  if (a === null || a === undefined) {
    // Ended at or after its time: it timed out (any other end comes before it).
    const timedOut =
      view.state === 'expired' &&
      typeof view.answeredAt === 'string' &&
      Date.parse(view.answeredAt) >= Date.parse(view.expiresAt);
    if (timedOut) return timedOutText(view.kind === 'override', view.closedReason ?? null);
    const what = view.state === 'cancelled' ? 'Cancelled' : 'Ended without an answer';
    return `${what}${view.closedReason ? `: ${view.closedReason}` : ''}. The agent was denied.`;
  }
  const why = a.reason === null || a.reason === undefined ? '' : ` (${a.reason})`;
  return mine ? `You ${ownAnswerText(a)}${why}.` : `Answered by ${a.by}: ${answerText(a)}${why}.`;
}

/** The arguments as indented JSON text (never markup). @param {unknown} value */
export function argumentsText(value) {
  if (value === undefined || value === null) return null;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
