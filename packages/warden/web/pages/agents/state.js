// The agents list's state apart from its drawing, so that what the list
// shows can be tested in Node without a browser: the registered agents, the
// workspace's newest audit entries and its freezes as they were read (or why
// they could not be), which quiet agents' own entries were asked for and
// what they said, and from all of that one row per agent — its freeze, its
// tools (assigned, or seen in the audit log) and its last activity. Pure: no
// DOM, no `fetch`, no `window`; the page (`../agents.js`) feeds it the API's
// answers and draws what it returns.

import { freezeOf } from './agent-state.js';

/**
 * @typedef {import('../../lib/types.js').Agent} Agent
 * @typedef {import('../../lib/types.js').AuditEntry} AuditEntry
 * @typedef {import('../../lib/types.js').Freeze} Freeze
 * @typedef {{ readonly last: string | null, readonly tools: readonly string[] }} Activity
 */

/** How many of the workspace's newest audit entries show who is active. */
export const SAMPLE = 500;
/** Per agent not in that sample: how many of its own entries name its tools. */
export const PER_AGENT = 50;

/** What each of the first three reads is, in the words of its failure. */
const READ_WORDS = {
  agents: 'Cannot read the registered agents',
  audit: 'Cannot read the audit log',
  freezes: 'Cannot read which agents are frozen',
};

/**
 * @typedef {{
 *   readonly workspace: string,
 *   readonly registered: readonly Agent[] | null,
 *   readonly sample: readonly AuditEntry[] | null,
 *   readonly freezes: readonly Freeze[] | null,
 *   readonly failed: Readonly<Partial<Record<'agents' | 'audit' | 'freezes', string>>>,
 *   readonly quiet: readonly string[] | null,
 *   readonly own: Readonly<Record<string, Activity>>,
 *   readonly ownFailed: readonly string[],
 *   readonly ownAnswered: readonly string[],
 * }} AgentsState
 */

/**
 * What reaches the list: each of the three first reads or its failure, the
 * quiet agents whose own entries are asked for, and each such answer.
 * @typedef {(
 *   | { type: 'agents-read', agents: readonly Agent[] }
 *   | { type: 'audit-read', entries: readonly AuditEntry[] }
 *   | { type: 'freezes-read', freezes: readonly Freeze[] }
 *   | { type: 'read-failed', what: 'agents' | 'audit' | 'freezes', message: string }
 *   | { type: 'own-asked', agents: readonly string[] }
 *   | { type: 'own-read', agent: string, entries: readonly AuditEntry[] }
 *   | { type: 'own-failed', agent: string, message: string }
 * )} AgentsEvent
 */

/**
 * The list of `workspace` before anything is read.
 * @param {string} workspace @returns {AgentsState}
 */
export function agentsState(workspace) {
  return {
    workspace,
    registered: null,
    sample: null,
    freezes: null,
    failed: {},
    quiet: null,
    own: {},
    ownFailed: [],
    ownAnswered: [],
  };
}

/**
 * Newest time and the tools named in `entries` (newest first), per agent;
 * changes to the policy are no one's activity.
 * @param {readonly AuditEntry[]} entries @returns {Record<string, Activity>}
 */
export function activity(entries) {
  /** @type {Record<string, { last: string | null, tools: string[] }>} */
  const seen = {};
  for (const entry of entries) {
    if (entry.kind === 'change') continue;
    const a = (seen[entry.agentId] ??= { last: null, tools: [] });
    a.last ??= typeof entry.occurredAt === 'string' ? entry.occurredAt : null;
    const tool = /** @type {{ tool?: unknown }} */ (entry).tool;
    if (typeof tool === 'string' && tool !== '' && tool !== '(none)' && !a.tools.includes(tool))
      a.tools.push(tool);
  }
  return seen;
}

/** Whether the first three reads have all answered. @param {AgentsState} state */
export function firstReadsDone(state) {
  const answered = (/** @type {'agents' | 'audit' | 'freezes'} */ what) =>
    state.failed[what] !== undefined;
  return (
    (state.registered !== null || answered('agents')) &&
    (state.sample !== null || answered('audit')) &&
    (state.freezes !== null || answered('freezes'))
  );
}

/** Every agent the list names, sorted: registered, seen in the audit log, or frozen. @param {AgentsState} state */
export function agentIds(state) {
  const seen = activity(state.sample ?? []);
  // A frozen agent is listed even when nothing else names it.
  const frozen = (state.freezes ?? []).flatMap((f) => (f.agent === null ? [] : [f.agent]));
  const ids = [...(state.registered ?? []).map((a) => a.id), ...Object.keys(seen), ...frozen];
  return [...new Set(ids)].sort();
}

/** The agents the workspace's newest entries do not name: their own entries are read. @param {AgentsState} state */
export function quietAgents(state) {
  const seen = activity(state.sample ?? []);
  return agentIds(state).filter((id) => seen[id] === undefined);
}

/** Whether everything the list needs has answered. @param {AgentsState} state */
export function listDone(state) {
  return (
    firstReadsDone(state) &&
    state.quiet !== null &&
    state.quiet.every((id) => state.ownAnswered.includes(id))
  );
}

/** What could not be read, each as a sentence, in the order the list says them. @param {AgentsState} state */
export function problemTexts(state) {
  const first = /** @type {const} */ (['agents', 'audit', 'freezes']).flatMap((what) => {
    const message = state.failed[what];
    return message === undefined ? [] : [`${READ_WORDS[what]}: ${message}`];
  });
  return [...first, ...state.ownFailed];
}

/**
 * One row of the list.
 * @typedef {{
 *   readonly id: string,
 *   readonly agent: Agent | null,
 *   readonly freeze: Freeze | null,
 *   readonly note: string | null,
 *   readonly tools: readonly string[],
 *   readonly assigned: boolean,
 *   readonly last: string | null,
 * }} AgentRow
 */

/**
 * The rows of the list: per agent its registration, its freeze, where it
 * comes from when not registered here, its tools — those its settings
 * assign, or those the audit log names, sorted — and its last activity.
 * @param {AgentsState} state @returns {AgentRow[]}
 */
export function agentRows(state) {
  const seen = { ...activity(state.sample ?? []), ...state.own };
  const byId = new Map((state.registered ?? []).map((a) => [a.id, a]));
  return agentIds(state).map((id) => {
    const agent = byId.get(id) ?? null;
    const act = seen[id];
    const assigned = Array.isArray(agent?.tools) ? agent.tools : null;
    return {
      id,
      agent,
      freeze: freezeOf(state.freezes ?? [], id),
      note: agent === null ? ' not registered' : agent.registered === false ? ' data folder' : null,
      tools: assigned ?? (act === undefined ? [] : [...act.tools].sort()),
      assigned: assigned !== null,
      last: agent?.lastActivity ?? act?.last ?? null,
    };
  });
}

/** What the tools cell says of an agent without any. @param {AgentRow} row */
export function noToolsText(row) {
  return row.assigned ? 'none' : 'none seen';
}

/** The note under the list: where its tools and last activity come from. */
export const SOURCES_TEXT = `Tools are those its AgentSettings.json assigns; for an agent without one, those named in the audit log (the workspace's newest ${SAMPLE} entries, or the agent's own newest ${PER_AGENT}). Last activity is the agent's newest audit entry.`;

/**
 * The list after `event`.
 * @param {AgentsState} state @param {AgentsEvent} event @returns {AgentsState}
 */
export function reduce(state, event) {
  switch (event.type) {
    case 'agents-read':
      return { ...state, registered: event.agents };
    case 'audit-read':
      return { ...state, sample: event.entries };
    case 'freezes-read':
      return { ...state, freezes: event.freezes };
    case 'read-failed':
      return { ...state, failed: { ...state.failed, [event.what]: event.message } };
    case 'own-asked':
      return state.quiet === null ? { ...state, quiet: event.agents } : state;
    case 'own-read': {
      if (state.quiet === null || !state.quiet.includes(event.agent)) return state;
      const own = activity(event.entries)[event.agent];
      return {
        ...state,
        own: own === undefined ? state.own : { ...state.own, [event.agent]: own },
        ownAnswered: [...state.ownAnswered, event.agent],
      };
    }
    case 'own-failed':
      if (state.quiet === null || !state.quiet.includes(event.agent)) return state;
      return {
        ...state,
        ownFailed: [
          ...state.ownFailed,
          `Cannot read the audit log of ${event.agent}: ${event.message}`,
        ],
        ownAnswered: [...state.ownAnswered, event.agent],
      };
    default:
      return state;
  }
}
