// The agents of a workspace: each with its role, where it acts (the space and
// mode it is registered in, "none" without; an admin places it on its own
// page), its tools and when it last did anything. `GET /v1/agents` lists the registered agents and those of the
// data folder, with the tools their settings assign and their newest audit
// entry; for an agent without settings the tools it used come from the audit
// log — the workspace's newest entries, and for an agent not among them its
// own newest entries. Agents seen only in the audit log are listed too,
// marked so. A frozen agent carries a badge (`GET /v1/freezes`), and a frozen
// workspace is said above everything else, with the kill switch of the whole
// workspace for an admin.
//
// What the list holds is its state (`agents/state.js`): pure, tested in Node.
// `render` is the wiring: it feeds the state the API's answers and draws it
// (`drawAgents`).

import { api, query } from '../lib/api.js';
import { code, h, replace, section, time } from '../lib/dom.js';
import { folded } from '../lib/fold.js';
import {
  agentHref,
  errorText,
  failure,
  loading,
  resolveWorkspace,
  workspacePicker,
} from './agents/common.js';
import { freezePanel, frozenBadge } from './agents/freeze.js';
import { placedShown } from './agents/place.js';
import {
  PER_AGENT,
  SAMPLE,
  SOURCES_TEXT,
  agentRows,
  agentsState,
  firstReadsDone,
  listDone,
  noToolsText,
  problemTexts,
  quietAgents,
  reduce,
} from './agents/state.js';

/**
 * @typedef {import('./agents/state.js').AgentsState} AgentsState
 * @typedef {import('./agents/state.js').AgentsEvent} AgentsEvent
 * @typedef {import('./agents/state.js').AgentRow} AgentRow
 */

/** A registered agent's field, a long one folded; a dash when it has none. @param {string | null | undefined} value @param {string} what */
function shown(value, what) {
  return value === null || value === undefined
    ? h('span', { class: 'muted' }, '—')
    : folded(value, { limit: 80, what });
}

/** An agent's tools as code, a long list folded; "none" or "none seen" without. @param {AgentRow} row */
function toolsShown(row) {
  return row.tools.length === 0
    ? h('span', { class: 'muted' }, noToolsText(row))
    : folded(row.tools.join(' '), {
        limit: 200,
        render: (text) => text.split(' ').map((t, i) => [i > 0 ? ' ' : null, code(t)]),
        what: 'the tools',
      });
}

/** One agent's row. @param {AgentRow} row @param {string} workspace */
function agentRow(row, workspace) {
  const a = row.agent;
  return h(
    'tr',
    { dataset: { agent: row.id, frozen: row.freeze !== null } },
    h(
      'th',
      { scope: 'row' },
      h('a', { href: agentHref(row.id, workspace) }, row.id),
      row.freeze === null ? null : [' ', frozenBadge(row.freeze)],
      row.note === null ? null : h('span', { class: 'muted ag-small' }, row.note),
    ),
    h('td', null, shown(a?.role, 'the role')),
    h('td', null, shown(a?.name, 'the name')),
    h('td', { dataset: { col: 'space' } }, placedShown(a?.space, 'the space')),
    h('td', { dataset: { col: 'mode' } }, placedShown(a?.mode, 'the mode')),
    h('td', null, shown(a?.model, 'the model')),
    h('td', null, toolsShown(row)),
    h('td', null, time(row.last)),
  );
}

/** The table of agents. @param {AgentsState} state @param {readonly AgentRow[]} rows */
function agentsTable(state, rows) {
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'ag-agents' },
      h('caption', { class: 'visually-hidden' }, `Agents of workspace ${state.workspace}`),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Agent', 'Role', 'Name', 'Space', 'Mode', 'Model', 'Tools', 'Last activity'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((row) => agentRow(row, state.workspace)),
      ),
    ),
  );
}

/**
 * What the list's body shows for a state: loading until everything it reads
 * has answered, then what could not be read and the agents.
 * @param {AgentsState} state @returns {import('../lib/types.js').Child[]}
 */
export function drawAgents(state) {
  if (!listDone(state)) return [loading()];
  const problems = problemTexts(state).map((text) =>
    h('p', { class: 'error', role: 'alert' }, text),
  );
  const rows = agentRows(state);
  if (rows.length === 0)
    return [
      ...problems,
      h(
        'p',
        { class: 'muted' },
        'No agent here yet: none is registered (',
        code('PUT /v1/agents/:id'),
        ') and none appears in the audit log.',
      ),
    ];
  return [...problems, agentsTable(state, rows), h('p', { class: 'muted ag-small' }, SOURCES_TEXT)];
}

/** What a role that may not read agents is told. @param {import('../lib/types.js').PageContext} ctx */
function refused(ctx) {
  return h(
    'p',
    { class: 'error', role: 'alert' },
    `${/^[aeiou]/i.test(ctx.identity.role) ? 'An' : 'A'} \`${ctx.identity.role}\` token may not read agents.`,
  );
}

/**
 * Reads what the list shows into `dispatch`: the registered agents, the
 * workspace's newest entries and its freezes, then the own entries of each
 * agent those do not name.
 * @param {string} workspace @param {() => AgentsState} current @param {(event: AgentsEvent) => void} dispatch
 */
async function readAll(workspace, current, dispatch) {
  /** @param {'agents' | 'audit' | 'freezes'} what @param {string} path @param {(answer: any) => AgentsEvent} read */
  const first = (what, path, read) =>
    api('GET', path).then(
      (answer) => dispatch(read(answer)),
      (error) => dispatch({ type: 'read-failed', what, message: errorText(error) }),
    );
  await Promise.all([
    first('agents', `/v1/agents${query({ workspace })}`, (a) => ({
      type: 'agents-read',
      agents: a.agents,
    })),
    first('audit', `/v1/audit${query({ workspace, limit: SAMPLE })}`, (a) => ({
      type: 'audit-read',
      entries: a.entries,
    })),
    first('freezes', `/v1/freezes${query({ workspace })}`, (a) => ({
      type: 'freezes-read',
      freezes: a.freezes,
    })),
  ]);
  if (!firstReadsDone(current())) return;
  const quiet = quietAgents(current());
  dispatch({ type: 'own-asked', agents: quiet });
  // An agent quiet lately: its own newest entries.
  await Promise.all(
    quiet.map(async (agent) => {
      try {
        const { entries } = await api(
          'GET',
          `/v1/audit${query({ workspace, agent, limit: PER_AGENT })}`,
        );
        dispatch({ type: 'own-read', agent, entries });
      } catch (error) {
        dispatch({ type: 'own-failed', agent, message: errorText(error) });
      }
    }),
  );
}

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export async function render(main, ctx) {
  replace(main, h('h1', null, 'Agents'), loading());
  if (!ctx.can('read')) {
    replace(main, h('h1', null, 'Agents'), refused(ctx));
    return;
  }
  let resolved;
  try {
    resolved = await resolveWorkspace(ctx);
  } catch (error) {
    replace(main, h('h1', null, 'Agents'), failure('Cannot read the workspaces', error));
    return;
  }
  const { workspace, choices } = resolved;
  const picker = workspacePicker(ctx, choices, workspace, '/agents');
  if (workspace === null) {
    replace(
      main,
      h('h1', null, 'Agents'),
      picker ??
        h(
          'p',
          null,
          'No workspace has a policy yet: ',
          code('warden policy apply FILE'),
          ' makes one.',
        ),
    );
    return;
  }

  /** @type {AgentsState} */
  let state = agentsState(workspace);
  const body = h('div', null, loading());
  const kill = freezePanel({ ctx, workspace, agent: null }).el;
  kill.classList.add('card');
  replace(main, h('h1', null, 'Agents'), picker, kill, section(`Agents of ${workspace}`, body));

  /** @param {AgentsEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduce(state, event);
    // The body changes once, when everything it shows has answered.
    if (state !== prev && listDone(state) && !listDone(prev)) replace(body, drawAgents(state));
  };
  await readAll(workspace, () => state, dispatch);
}
