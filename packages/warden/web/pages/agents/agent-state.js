// One agent's page, its state apart from its drawing, so that what each of
// its parts does can be tested in Node without a browser: who the agent is as
// registered; the control that places it (the choices read, the space and
// mode picked, the placement on its way and what it did); the kill switch
// (the freezes read, the reason typed, the freeze or thaw on its way, what
// it did or why it was refused); the audit timeline's filter and paging; the
// run receipts and their totals; the tasks and the filter over them; the
// search for the newest supervisor report that mentions the agent. Each part
// has its own state, an initial-state function and a reducer, because each
// reads its own route and shows its own failure. Pure: no DOM, no `fetch`,
// no `window`; the parts (`./*.js`) feed them the API's answers and the
// person's input, and draw what they return.

/**
 * @typedef {import('../../lib/types.js').Agent} Agent
 * @typedef {import('../../lib/types.js').AuditEntry} AuditEntry
 * @typedef {import('../../lib/types.js').Freeze} Freeze
 * @typedef {import('../../lib/types.js').Run} Run
 * @typedef {import('../../lib/types.js').Task} Task
 * @typedef {import('../../lib/types.js').Report} Report
 * @typedef {import('../../lib/types.js').ReportAgentRow} ReportAgentRow
 * @typedef {import('../../lib/types.js').ReportFinding} ReportFinding
 * @typedef {{ readonly workspace: string, readonly agent: string }} Where
 */

/** `a` or `an` before `word`. @param {string} word */
function article(word) {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

// ---- who the agent is (the overview)

/**
 * @typedef {Pick<Agent, 'id' | 'name' | 'role' | 'model' | 'space' | 'mode'>} Placeable
 * @typedef {{
 *   readonly where: Where,
 *   readonly read: boolean,
 *   readonly agent: Placeable | null,
 *   readonly readError: string | null,
 *   readonly unregistered: boolean,
 * }} OverviewState
 * @typedef {(
 *   | { type: 'read', agents: readonly Agent[] }
 *   | { type: 'read-failed', message: string }
 *   | { type: 'placed', record: Placeable }
 * )} OverviewEvent
 */

/** The overview before the agents are read. @param {Where} where @returns {OverviewState} */
export function overviewState(where) {
  return { where, read: false, agent: null, readError: null, unregistered: false };
}

/** The agent as the place control starts from: its registration, or its id alone. @param {OverviewState} state @returns {Placeable} */
export function placeableOf(state) {
  return (
    state.agent ?? {
      id: state.where.agent,
      name: null,
      role: null,
      model: null,
      space: null,
      mode: null,
    }
  );
}

/** The overview after `event`. @param {OverviewState} state @param {OverviewEvent} event @returns {OverviewState} */
export function reduceOverview(state, event) {
  switch (event.type) {
    case 'read': {
      const agent = event.agents.find((a) => a.id === state.where.agent) ?? null;
      return { ...state, read: true, agent, readError: null, unregistered: agent === null };
    }
    case 'read-failed':
      return { ...state, read: false, readError: event.message };
    case 'placed':
      // Placing an agent registers it: the note that it is not goes.
      return { ...state, agent: event.record, unregistered: false };
    default:
      return state;
  }
}

// ---- where the agent acts (the place control)

/**
 * @typedef {{ readonly space: string | null, readonly mode: string | null }} Placement
 * @typedef {{ readonly spaces: readonly string[], readonly modes: readonly string[] }} PlaceChoices
 * @typedef {{
 *   readonly current: Placeable,
 *   readonly choices: PlaceChoices | null,
 *   readonly readError: string | null,
 *   readonly space: string,
 *   readonly mode: string,
 *   readonly busy: boolean,
 *   readonly failed: string | null,
 *   readonly said: string | null,
 * }} PlaceState
 * @typedef {(
 *   | { type: 'choices-read', matrix: Pick<import('../../lib/types.js').PermissionsMatrix, 'columns' | 'modes'> }
 *   | { type: 'choices-failed', message: string }
 *   | { type: 'picked', field: 'space' | 'mode', value: string }
 *   | { type: 'place' }
 *   | { type: 'placed', record: Placeable }
 *   | { type: 'place-refused', message: string }
 * )} PlaceEvent
 */

/**
 * `in space \`infra\` and mode \`review\``: where an agent acts, in the
 * words the matrix's agent columns use.
 * @param {Placement} p
 */
export function placementWords(p) {
  if (p.space === null && p.mode === null) return 'in no space and no mode';
  if (p.mode === null) return `in space \`${p.space}\` and no mode`;
  if (p.space === null) return `in no space and mode \`${p.mode}\``;
  return `in space \`${p.space}\` and mode \`${p.mode}\``;
}

/**
 * The spaces and modes an agent may be placed in: the matrix's space and mode
 * columns (the policy's own, and any an agent is already in) and the
 * policy's modes, each once in the matrix's order, with the agent's present
 * ones kept even when the policy no longer names them.
 * @param {Pick<import('../../lib/types.js').PermissionsMatrix, 'columns' | 'modes'>} matrix
 * @param {Placement} current
 * @returns {PlaceChoices}
 */
export function placeChoices(matrix, current) {
  /** @param {'space' | 'mode'} kind @param {readonly string[]} more @param {string | null} own */
  const of = (kind, more, own) => {
    const ids = matrix.columns.flatMap((c) => (c.kind === kind && c.id !== null ? [c.id] : []));
    const all = [...ids, ...more, ...(own === null ? [] : [own])];
    return [...new Set(all)];
  };
  return { spaces: of('space', [], current.space), modes: of('mode', matrix.modes, current.mode) };
}

/**
 * The body of `PUT /v1/agents/:id` that places `agent`: its name, role and
 * model as they are (a field left out would be reset), the new space and mode.
 * @param {Placeable} agent @param {Placement} to
 */
export function placementBody(agent, to) {
  return { name: agent.name, role: agent.role, space: to.space, mode: to.mode, model: agent.model };
}

/** A message as a sentence: its first letter capital, a full stop at its end. @param {string} text */
export function sentence(text) {
  const t = text.trim();
  if (t === '') return t;
  const capital = `${t.slice(0, 1).toUpperCase()}${t.slice(1)}`;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The place control before its choices are read. @param {Placeable} agent @returns {PlaceState} */
export function placeState(agent) {
  return {
    current: agent,
    choices: null,
    readError: null,
    space: agent.space ?? '',
    mode: agent.mode ?? '',
    busy: false,
    failed: null,
    said: null,
  };
}

/** Where the place control would place the agent now ("" is none). @param {PlaceState} state @returns {Placement} */
export function placeTarget(state) {
  return {
    space: state.space === '' ? null : state.space,
    mode: state.mode === '' ? null : state.mode,
  };
}

/** Whether the pickers and the button can be used. @param {PlaceState} state */
export function placeReady(state) {
  return state.choices !== null && !state.busy;
}

/** The alert's text (marked up with `code` spans), or null. @param {PlaceState} state */
export function placeAlertText(state) {
  if (state.readError !== null)
    return `Cannot read the spaces and modes of the policy: ${state.readError}`;
  return state.failed === null ? null : `Not placed. ${sentence(state.failed)}`;
}

/** The status line's text (marked up with `code` spans), or null. @param {PlaceState} state */
export function placeSaidText(state) {
  if (state.busy) return 'Placing…';
  return state.said === null ? null : `Placed ${state.said}.`;
}

/** The place control after `event`. @param {PlaceState} state @param {PlaceEvent} event @returns {PlaceState} */
export function reducePlace(state, event) {
  switch (event.type) {
    case 'choices-read':
      return {
        ...state,
        choices: placeChoices(event.matrix, {
          space: state.current.space,
          mode: state.current.mode,
        }),
      };
    case 'choices-failed':
      return { ...state, readError: event.message };
    case 'picked':
      return { ...state, [event.field]: event.value };
    case 'place':
      // One placement at a time, once the choices are known.
      if (!placeReady(state)) return state;
      return { ...state, busy: true, failed: null, said: null };
    case 'placed':
      return {
        ...state,
        busy: false,
        current: event.record,
        space: event.record.space ?? '',
        mode: event.record.mode ?? '',
        said: placementWords(event.record),
      };
    case 'place-refused':
      return { ...state, busy: false, failed: event.message };
    default:
      return state;
  }
}

// ---- the kill switch

/**
 * @typedef {{
 *   readonly workspace: string,
 *   readonly agent: string | null,
 *   readonly role: string,
 *   readonly mayChange: boolean,
 *   readonly freezes: readonly Freeze[] | null,
 *   readonly readError: string | null,
 *   readonly reason: string,
 *   readonly busy: boolean,
 *   readonly failed: string | null,
 *   readonly said: string | null,
 * }} FreezeState
 * @typedef {(
 *   | { type: 'loaded', freezes: readonly Freeze[] }
 *   | { type: 'load-failed', message: string }
 *   | { type: 'typed', reason: string }
 *   | { type: 'change', method: 'PUT' | 'DELETE' }
 *   | { type: 'frozen', denied: number }
 *   | { type: 'thawed' }
 *   | { type: 'change-refused', method: 'PUT' | 'DELETE', message: string }
 * )} FreezeEvent
 */

/**
 * The freeze of `agent` among `freezes` (`null`: the workspace's own); the
 * managed policy's, listed first, when both froze it.
 * @param {readonly Freeze[]} freezes @param {string | null} agent
 */
export function freezeOf(freezes, agent) {
  return freezes.find((f) => f.agent === agent) ?? null;
}

/**
 * The kill switch of `agent` (null: of the whole workspace) before the freezes are read.
 * @param {{ workspace: string, agent: string | null, role: string, mayChange: boolean }} who
 * @returns {FreezeState}
 */
export function freezeState(who) {
  return {
    workspace: who.workspace,
    agent: who.agent,
    role: who.role,
    mayChange: who.mayChange,
    freezes: null,
    readError: null,
    reason: '',
    busy: false,
    failed: null,
    said: null,
  };
}

/**
 * The freezes that concern the switch: its own (the agent's, or the
 * workspace's), and for an agent its workspace's too.
 * @param {FreezeState} state
 */
export function freezesShown(state) {
  const own = state.freezes === null ? null : freezeOf(state.freezes, state.agent);
  const ws = state.freezes === null || state.agent === null ? null : freezeOf(state.freezes, null);
  return { own, ws };
}

/** Which calls a freeze denies, in words. @param {FreezeState} state */
export function callsText(state) {
  return state.agent === null
    ? `every call of every agent in workspace ${state.workspace}`
    : `every call of agent ${state.agent}`;
}

/**
 * What the switch offers: nothing to a role that may not change it, nothing
 * on a freeze only the managed policy lifts, else Freeze or Thaw.
 * @param {FreezeState} state @returns {'none' | 'read-only' | 'managed' | 'freeze' | 'thaw'}
 */
export function freezeAction(state) {
  if (state.freezes === null) return 'none';
  if (!state.mayChange) return 'read-only';
  const { own } = freezesShown(state);
  if (own?.managed === true) return 'managed';
  return own === null ? 'freeze' : 'thaw';
}

/** What a role that may not freeze is told. @param {FreezeState} state */
export function freezeReadOnlyText(state) {
  return `Freezing and thawing take an admin token; ${article(state.role)} \`${state.role}\` token may only see the state.`;
}

/** A one-line title for a freeze badge. @param {Freeze} f */
export function freezeTitle(f) {
  return `Frozen by ${f.by}${f.frozenAt === null ? '' : ` at ${f.frozenAt}`}${f.reason === null ? '' : `: ${f.reason}`}`;
}

/** The body of the freeze asked for: the reason typed, if any. @param {FreezeState} state */
export function freezeBody(state) {
  const text = state.reason.trim();
  return text === '' ? {} : { reason: text };
}

/** Whether the whole workspace's freeze form is open: while it acts, or after it failed. @param {FreezeState} state */
export function freezeFormOpen(state) {
  return state.busy || state.failed !== null;
}

/** The kill switch after `event`. @param {FreezeState} state @param {FreezeEvent} event @returns {FreezeState} */
export function reduceFreeze(state, event) {
  switch (event.type) {
    case 'loaded':
      return { ...state, freezes: event.freezes, readError: null };
    case 'load-failed':
      return { ...state, freezes: null, readError: event.message };
    case 'typed':
      return { ...state, reason: event.reason };
    case 'change':
      // One change at a time, by a role that may.
      if (state.busy || !state.mayChange) return state;
      return { ...state, busy: true, failed: null, said: null };
    case 'frozen': {
      const n = event.denied;
      return {
        ...state,
        busy: false,
        reason: '',
        said: `Frozen: ${callsText(state)} is denied from now on${n === 0 ? '.' : `; ${n} waiting ${n === 1 ? 'approval was' : 'approvals were'} denied.`}`,
      };
    }
    case 'thawed':
      return {
        ...state,
        busy: false,
        said:
          state.agent === null
            ? `Thawed: the policy decides the calls in workspace ${state.workspace} again (an agent frozen on its own stays frozen).`
            : `Thawed: the policy decides the calls of agent ${state.agent} again.`,
      };
    case 'change-refused':
      return {
        ...state,
        busy: false,
        failed: `Cannot ${event.method === 'PUT' ? 'freeze' : 'thaw'}: ${event.message}`,
      };
    default:
      return state;
  }
}

// ---- the audit timeline

/** How many entries a page of the timeline reads. */
export const AUDIT_PAGE = 25;
export const AUDIT_STATUSES = ['Ok', 'Error', 'Denied', 'NotFound', 'Staged'];
export const AUDIT_KINDS = ['call', 'decision', 'approval', 'change'];

/**
 * @typedef {{
 *   readonly status: string,
 *   readonly kind: string,
 *   readonly shown: readonly AuditEntry[],
 *   readonly generation: number,
 *   readonly asked: { readonly limit: number, readonly until: string | undefined } | null,
 *   readonly older: boolean,
 *   readonly count: string | null,
 *   readonly error: string | null,
 * }} AuditState
 * @typedef {(
 *   | { type: 'load', more: boolean }
 *   | { type: 'filter', status: string, kind: string }
 *   | { type: 'read', generation: number, entries: readonly AuditEntry[] }
 *   | { type: 'read-failed', generation: number, message: string }
 * )} AuditEvent
 */

/** The timeline before anything is read. @returns {AuditState} */
export function auditState() {
  return {
    status: '',
    kind: '',
    shown: [],
    generation: 0,
    asked: null,
    older: true,
    count: null,
    error: null,
  };
}

/**
 * The next read: a first page, or (`more`) the page before the oldest entry
 * shown — `until` is exclusive, so the oldest millisecond is read again and
 * as many more entries asked for as it already shows.
 * @param {AuditState} state @param {boolean} more
 */
export function auditRequest(state, more) {
  const last = state.shown.at(-1);
  const oldest = last === undefined ? null : Date.parse(last.occurredAt);
  const sameMs =
    oldest === null ? 0 : state.shown.filter((e) => Date.parse(e.occurredAt) === oldest).length;
  return {
    limit: more ? AUDIT_PAGE + sameMs : AUDIT_PAGE,
    until: more && oldest !== null ? new Date(oldest + 1).toISOString() : undefined,
  };
}

/** What the count line says of `shown` entries. @param {number} shown @param {boolean} filtered */
export function auditCountText(shown, filtered) {
  if (shown === 0)
    return filtered ? 'No entry matches the filter.' : 'No audit entry for this agent yet.';
  return `Showing ${shown} ${shown === 1 ? 'entry' : 'entries'}, newest first.`;
}

/** Whether a read is on its way. @param {AuditState} state */
export function auditLoading(state) {
  return state.asked !== null;
}

/** The timeline after `event`. @param {AuditState} state @param {AuditEvent} event @returns {AuditState} */
export function reduceAudit(state, event) {
  switch (event.type) {
    case 'load':
      return {
        ...state,
        generation: state.generation + 1,
        asked: auditRequest(state, event.more),
        error: null,
      };
    case 'filter': {
      const cleared = { ...state, status: event.status, kind: event.kind, shown: [] };
      return reduceAudit(cleared, { type: 'load', more: false });
    }
    case 'read': {
      // An answer to an older read (the filter changed since) is dropped.
      if (event.generation !== state.generation || state.asked === null) return state;
      const ids = new Set(state.shown.map((e) => e.id));
      const fresh = event.entries.filter((e) => !ids.has(e.id));
      const shown = [...state.shown, ...fresh];
      return {
        ...state,
        shown,
        asked: null,
        older: event.entries.length >= state.asked.limit,
        count: auditCountText(shown.length, state.status !== '' || state.kind !== ''),
      };
    }
    case 'read-failed':
      if (event.generation !== state.generation) return state;
      return { ...state, asked: null, error: `Cannot read the audit log: ${event.message}` };
    default:
      return state;
  }
}

// ---- the run receipts

/** How many of the agent's newest runs are read. */
export const RUNS_LIMIT = 100;

/**
 * @typedef {{ readonly runs: readonly Run[] | null, readonly readError: string | null }} ReceiptsState
 * @typedef {(
 *   | { type: 'read', runs: readonly Run[] }
 *   | { type: 'read-failed', message: string }
 * )} ReceiptsEvent
 */

/** The receipts before they are read. @returns {ReceiptsState} */
export function receiptsState() {
  return { runs: null, readError: null };
}

/** The totals over `runs`, each with its term. @param {readonly Run[]} runs @returns {[string, number][]} */
export function runTotals(runs) {
  /** @param {'tokensIn' | 'tokensOut' | 'costCents' | 'steps'} key */
  const sum = (key) => runs.reduce((total, r) => total + (r[key] ?? 0), 0);
  return [
    ['Runs', runs.length],
    ['Steps', sum('steps')],
    ['Tokens in', sum('tokensIn')],
    ['Tokens out', sum('tokensOut')],
    ['Cost (cents)', sum('costCents')],
  ];
}

/** Which runs the chart shows. @param {readonly Run[]} runs */
export function runsCaption(runs) {
  return runs.length === RUNS_LIMIT ? `The newest ${RUNS_LIMIT} runs.` : 'Every run of this agent.';
}

/** A run's status as a badge kind. @param {string} status */
export function runKind(status) {
  if (status === 'done') return 'allow';
  if (status === 'failed') return 'deny';
  return status === 'running' ? 'prompt' : 'none';
}

/** The receipts after `event`. @param {ReceiptsState} state @param {ReceiptsEvent} event @returns {ReceiptsState} */
export function reduceReceipts(state, event) {
  switch (event.type) {
    case 'read':
      return { runs: event.runs, readError: null };
    case 'read-failed':
      return { runs: null, readError: event.message };
    default:
      return state;
  }
}

// ---- the tasks

/** How many of the agent's tasks are read. */
export const TASKS_LIMIT = 200;

/** @type {readonly (readonly [string, string, (t: Task) => boolean])[]} */
const TASK_FILTERS = [
  ['all', 'All', () => true],
  ['open', 'Open', (t) => t.state === 'open'],
  ['overdue', 'Overdue', (t) => t.overdue === true],
  ['done', 'Done', (t) => t.state === 'done'],
];

/**
 * @typedef {{
 *   readonly tasks: readonly Task[] | null,
 *   readonly readError: string | null,
 *   readonly filter: string,
 * }} TasksState
 * @typedef {(
 *   | { type: 'read', tasks: readonly Task[] }
 *   | { type: 'read-failed', message: string }
 *   | { type: 'filter', key: string }
 * )} TasksEvent
 */

/** The tasks before they are read, all shown. @returns {TasksState} */
export function tasksState() {
  return { tasks: null, readError: null, filter: 'all' };
}

/** The filters, each with its key, label and count. @param {readonly Task[]} tasks */
export function taskFilters(tasks) {
  return TASK_FILTERS.map(([key, label, keep]) => ({
    key,
    label,
    count: tasks.filter(keep).length,
  }));
}

/** The tasks the filter keeps, and the filter's label. @param {TasksState} state */
export function shownTasks(state) {
  const [, label, keep] = TASK_FILTERS.find((f) => f[0] === state.filter) ?? TASK_FILTERS[0];
  return { label, tasks: (state.tasks ?? []).filter(keep) };
}

/** The status line: the filter and how many tasks it shows. @param {TasksState} state */
export function tasksShownText(state) {
  const { label, tasks } = shownTasks(state);
  return `${label}: ${tasks.length} ${tasks.length === 1 ? 'task' : 'tasks'}.`;
}

/** A task's state as its badge says it. @param {Task} t @returns {'overdue' | 'done' | 'open'} */
export function taskStateOf(t) {
  if (t.overdue === true) return 'overdue';
  return t.state === 'done' ? 'done' : 'open';
}

/** The tasks after `event`. @param {TasksState} state @param {TasksEvent} event @returns {TasksState} */
export function reduceTasks(state, event) {
  switch (event.type) {
    case 'read':
      return { ...state, tasks: event.tasks, readError: null };
    case 'read-failed':
      return { ...state, tasks: null, readError: event.message };
    case 'filter':
      return TASK_FILTERS.some((f) => f[0] === event.key) ? { ...state, filter: event.key } : state;
    default:
      return state;
  }
}

// ---- the newest supervisor report that mentions the agent

/** How many of the newest reports are searched for one that mentions the agent. */
export const REPORTS_SEARCHED = 20;

/**
 * @typedef {{
 *   readonly where: Where,
 *   readonly candidates: readonly Report[] | null,
 *   readonly listError: string | null,
 *   readonly tried: readonly string[],
 *   readonly found: Report | null,
 *   readonly problems: readonly string[],
 * }} ReportState
 * @typedef {(
 *   | { type: 'listed', reports: readonly Report[] }
 *   | { type: 'list-failed', message: string }
 *   | { type: 'read', id: string, report: Report }
 *   | { type: 'read-failed', id: string, message: string }
 * )} ReportEvent
 */

/** The search before the reports are listed. @param {Where} where @returns {ReportState} */
export function reportState(where) {
  return { where, candidates: null, listError: null, tried: [], found: null, problems: [] };
}

/**
 * Whether a report's data mentions the agent: in its summary's rows (of this
 * workspace) or in a finding.
 * @param {import('../../lib/types.js').ReportData | null | undefined} data @param {Where} where
 */
export function mentions(data, where) {
  if (data === null || data === undefined || typeof data !== 'object') return false;
  /** @param {ReportAgentRow} a */
  const here = (a) =>
    a.agent === where.agent && (a.workspace ?? where.workspace) === where.workspace;
  return (
    (Array.isArray(data.agents) && data.agents.some(here)) ||
    (Array.isArray(data.findings) && data.findings.some((f) => f.agent === where.agent))
  );
}

/** The id of the next report to read, or null when the search is over. @param {ReportState} state */
export function nextReport(state) {
  if (state.candidates === null || state.found !== null) return null;
  return state.candidates.find((r) => !state.tried.includes(r.id))?.id ?? null;
}

/** Whether the search is over (found, not found, or not listed). @param {ReportState} state */
export function reportDone(state) {
  return state.listError !== null || (state.candidates !== null && nextReport(state) === null);
}

/** What is said when no report mentions the agent. @param {ReportState} state */
export function noReportText(state) {
  const n = state.candidates?.length ?? 0;
  return n === 0
    ? 'No supervisor report is stored yet.'
    : `None of the newest ${n} supervisor reports mentions this agent.`;
}

/**
 * What the report found says of the agent: its findings, its summary row, the notes.
 * @param {ReportState} state
 * @returns {{ findings: readonly ReportFinding[], row: ReportAgentRow | undefined, notes: readonly string[] }}
 */
export function reportAbout(state) {
  const data = state.found?.data ?? {};
  return {
    findings: (data.findings ?? []).filter((f) => f.agent === state.where.agent),
    row: (data.agents ?? []).find((a) => a.agent === state.where.agent),
    notes: Array.isArray(data.notes) ? data.notes : [],
  };
}

/** The search after `event`. @param {ReportState} state @param {ReportEvent} event @returns {ReportState} */
export function reduceReport(state, event) {
  switch (event.type) {
    case 'listed':
      return {
        ...state,
        candidates: event.reports.filter(
          (r) => r.workspace === null || r.workspace === state.where.workspace,
        ),
      };
    case 'list-failed':
      return { ...state, listError: `Cannot read the supervisor reports: ${event.message}` };
    case 'read': {
      if (state.found !== null || state.tried.includes(event.id)) return state;
      const tried = [...state.tried, event.id];
      return mentions(event.report.data, state.where)
        ? { ...state, tried, found: event.report }
        : { ...state, tried };
    }
    case 'read-failed':
      if (state.tried.includes(event.id)) return state;
      return {
        ...state,
        tried: [...state.tried, event.id],
        problems: [...state.problems, `Cannot read report ${event.id}: ${event.message}`],
      };
    default:
      return state;
  }
}
