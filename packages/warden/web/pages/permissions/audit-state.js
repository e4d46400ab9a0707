// The permissions audit tab's state apart from its drawing, so that what the
// tab does can be tested in Node without a browser: the filters as the
// person set them and what they ask the API for, the decisions read (or
// that they are being read, or why they could not be), the advisory view's
// window and what it read, and what a decision row shows. Pure: no DOM, no
// `fetch`, no `window`; the tab (`audit.js`) feeds it the person's input and
// the API's answers, and draws what it returns.

/**
 * @typedef {import('../../lib/types.js').DecisionEntry} AuditEntry
 * @typedef {import('../../lib/types.js').Advisories} Advisories
 * @typedef {import('../../lib/types.js').RuleEntry} RuleEntry
 */

/** The windows the filters offer: value and label. @type {readonly [string, string][]} */
export const SPANS = [
  ['1h', 'the last hour'],
  ['24h', 'the last 24 hours'],
  ['7d', 'the last 7 days'],
  ['30d', 'the last 30 days'],
];

/** The outcomes the filter offers: value and label. @type {readonly [string, string][]} */
export const OUTCOMES = [
  ['', 'any outcome'],
  ['allow', 'allowed'],
  ['ask', 'asked a human'],
  ['deny', 'denied'],
];

/** How many decisions the filter may show. @type {readonly [string, string][]} */
export const LIMITS = [
  ['50', '50'],
  ['100', '100'],
  ['500', '500'],
];

/** The filters a `filter` event may set. */
const FILTERS = ['agent', 'since', 'outcome', 'limit', 'advisorySince'];

/**
 * @typedef {{
 *   readonly workspace: string,
 *   readonly agent: string,
 *   readonly since: string,
 *   readonly outcome: string,
 *   readonly advisoryOnly: boolean,
 *   readonly limit: string,
 *   readonly advisorySince: string,
 *   readonly decisions: readonly AuditEntry[] | null,
 *   readonly loading: boolean,
 *   readonly error: string,
 *   readonly advisories: Advisories | null,
 *   readonly advisoryError: string,
 * }} AuditState
 */

/**
 * What reaches the tab: a filter changed, the decisions asked for and what
 * the API answered, the advisory view's window changed, asked for, answered.
 * @typedef {(
 *   | { type: 'filter', name: 'agent' | 'since' | 'outcome' | 'limit' | 'advisorySince', value: string }
 *   | { type: 'advisory-only', on: boolean }
 *   | { type: 'loading' }
 *   | { type: 'read', decisions: readonly AuditEntry[] }
 *   | { type: 'read-failed', message: string }
 *   | { type: 'advisories-loading' }
 *   | { type: 'advisories', answer: Advisories }
 *   | { type: 'advisories-failed', message: string }
 * )} AuditEvent
 */

/** The audit tab of `workspace` before anything is read: the last week, any outcome, 100 decisions. @param {string} workspace @returns {AuditState} */
export function auditState(workspace) {
  return {
    workspace,
    agent: '',
    since: '7d',
    outcome: '',
    advisoryOnly: false,
    limit: '100',
    advisorySince: '7d',
    decisions: null,
    loading: false,
    error: '',
    advisories: null,
    advisoryError: '',
  };
}

/** What `GET /v1/permissions/audit` is asked, from the filters. @param {AuditState} state */
export function auditQuery(state) {
  return {
    workspace: state.workspace,
    agent: state.agent.trim(),
    since: state.since,
    outcome: state.outcome,
    advisory: state.advisoryOnly ? '1' : '',
    limit: state.limit,
  };
}

/** What `GET /v1/permissions/advisories` is asked, from the window. @param {AuditState} state */
export function advisoriesQuery(state) {
  return { workspace: state.workspace, since: state.advisorySince };
}

/** The advisory rules a decision hit. @param {AuditEntry} entry */
export function hitsOf(entry) {
  const advisories = entry.decision?.advisories;
  return Array.isArray(advisories) ? advisories : [];
}

/** The badge an outcome shows: an "ask" is a prompt. @param {AuditEntry} entry */
export function outcomeBadge(entry) {
  return entry.outcome === 'ask' ? 'prompt' : entry.outcome;
}

/** Who overrode or answered a decision, in the words after its badge (null for neither). @param {AuditEntry} entry */
export function outcomeNotes(entry) {
  return [
    entry.override ? ` overridden by ${entry.override.by}` : null,
    entry.approval
      ? ` ${entry.approval.answer ?? entry.approval.state} by ${entry.approval.by ?? '—'}`
      : null,
  ];
}

/** Why a decision was what it was: its reason, or the failure as JSON. @param {AuditEntry} entry */
export function whyText(entry) {
  return (
    entry.decision?.reason ?? (entry.failure === undefined ? '' : JSON.stringify(entry.failure))
  );
}

/** Where a request was made: `space payments, mode review` (empty for neither). @param {{ space?: string, mode?: string }} request */
export function whereText(request) {
  return [
    request.space === undefined ? null : `space ${request.space}`,
    request.mode === undefined ? null : `mode ${request.mode}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The caption of the decisions table. @param {readonly AuditEntry[]} decisions */
export function decisionsCaption(decisions) {
  return `${decisions.length} decision(s), newest first; advisory hits are highlighted`;
}

/**
 * The workspace rule an advisory row is about, and whether this role may make
 * it hard from here (a rule written in the policy file and still advisory).
 * @param {readonly RuleEntry[]} rules @param {string} id @param {boolean} canWrite
 */
export function advisoryRule(rules, id, canWrite) {
  const rule = rules.find((x) => x.id === id && x.layer === 'workspace');
  const hardens =
    canWrite && rule !== undefined && rule.path !== null && rule.enforcement === 'advisory';
  return { rule, hardens };
}

/**
 * The tab after `event`.
 * @param {AuditState} state @param {AuditEvent} event @returns {AuditState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'filter':
      return FILTERS.includes(event.name) ? { ...state, [event.name]: event.value } : state;
    case 'advisory-only':
      return { ...state, advisoryOnly: event.on };
    case 'loading':
      return { ...state, loading: true, error: '' };
    case 'read':
      return { ...state, loading: false, decisions: event.decisions, error: '' };
    case 'read-failed':
      return {
        ...state,
        loading: false,
        decisions: null,
        error: `Cannot read the permissions audit: ${event.message}`,
      };
    case 'advisories-loading':
      return { ...state, advisoryError: '' };
    case 'advisories':
      return { ...state, advisories: event.answer, advisoryError: '' };
    case 'advisories-failed':
      return {
        ...state,
        advisories: null,
        advisoryError: `Cannot read what the advisory rules would have done: ${event.message}`,
      };
    default:
      return state;
  }
}
