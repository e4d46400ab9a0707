// One agent: who it is (as registered) and where it acts — its space and
// mode, which an admin changes here — whether it or its workspace is frozen
// (the kill switch, which an admin throws or releases here), its audit
// timeline, its run receipts with a chart over time, its tasks, and the newest
// supervisor report that mentions it. Each part reads its own route and shows
// its own failure, so one refused call never blanks the page.
//
// What each part holds is its state (`agents/agent-state.js`): pure, tested
// in Node. The overview here feeds its state the agent read and the
// placement made, and draws it; each other part does the same in its module.

import { api, query } from '../lib/api.js';
import { code, h, replace, section } from '../lib/dom.js';
import { overviewState, placeableOf, reduceOverview } from './agents/agent-state.js';
import { auditSection } from './agents/audit.js';
import { errorText, failure, loading, resolveWorkspace, workspacePicker } from './agents/common.js';
import { freezePanel } from './agents/freeze.js';
import { placeForm, placedShown } from './agents/place.js';
import { receiptsSection } from './agents/receipts.js';
import { reportSection } from './agents/report.js';
import { tasksSection } from './agents/tasks.js';

/**
 * @typedef {import('./agents/agent-state.js').OverviewState} OverviewState
 * @typedef {import('./agents/agent-state.js').OverviewEvent} OverviewEvent
 * @typedef {import('./agents/agent-state.js').Placeable} Placeable
 */

/** What is known of the agent, as a list of facts. @param {OverviewState} state */
function facts(state) {
  const a = state.agent;
  /** @param {string | null} v */
  const dash = (v) => v ?? h('span', { class: 'muted' }, '—');
  return h(
    'dl',
    { class: 'ag-facts', id: 'agent-facts' },
    /** @type {[string, import('../lib/types.js').Child][]} */ ([
      ['Workspace', code(state.where.workspace)],
      ['Name', dash(a?.name ?? null)],
      ['Role', dash(a?.role ?? null)],
      ['Space', placedShown(a?.space ?? null, 'the space')],
      ['Mode', placedShown(a?.mode ?? null, 'the mode')],
      ['Model', dash(a?.model ?? null)],
    ]).map(([term, value]) => [
      h('dt', null, term),
      h('dd', { dataset: { fact: term.toLowerCase() } }, value),
    ]),
  );
}

/** That the agent is not registered here, and what the page shows of it. @param {OverviewState} state @param {boolean} mayPlace */
function unregisteredNote(state, mayPlace) {
  return h(
    'p',
    { class: 'muted' },
    'Not registered in workspace ',
    code(state.where.workspace),
    ' (',
    code('PUT /v1/agents/:id'),
    '): what follows is what the audit log, the receipts and the taskboard hold for this id.',
    mayPlace ? ' Placing it registers it.' : '',
  );
}

/**
 * Who the agent is, as registered, and where it acts; for a role that may
 * change agents, the control that places it (`agents/place.js`), made once
 * when the agent is read so that what it holds stays while the facts change.
 * @param {{ workspace: string, agent: string }} where @param {boolean} mayPlace
 */
function overview(where, mayPlace) {
  const body = h('div', null, loading());
  const el = section('Overview', body);
  /** @type {OverviewState} */
  let state = overviewState(where);
  const shown = h('div');
  /** @type {HTMLElement | null} */
  let note = null;

  /** @param {OverviewEvent} event */
  const dispatch = (event) => {
    const prev = state;
    state = reduceOverview(state, event);
    if (state.readError !== null) {
      replace(
        body,
        h('p', { class: 'error', role: 'alert' }, `Cannot read the agent: ${state.readError}`),
      );
      return;
    }
    if (!prev.read) {
      note = state.unregistered ? unregisteredNote(state, mayPlace) : null;
      replace(
        body,
        note,
        shown,
        mayPlace
          ? placeForm({
              workspace: where.workspace,
              agent: placeableOf(state),
              onPlaced: (record) => dispatch({ type: 'placed', record }),
            })
          : null,
      );
    } else if (!state.unregistered) note?.remove();
    replace(shown, facts(state));
  };

  void (async () => {
    try {
      /** @type {{ agents: import('../lib/types.js').Agent[] }} */
      const { agents } = await api('GET', `/v1/agents${query({ workspace: where.workspace })}`);
      dispatch({ type: 'read', agents });
    } catch (error) {
      dispatch({ type: 'read-failed', message: errorText(error) });
    }
  })();
  return el;
}

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export async function render(main, ctx) {
  const agent = ctx.params.agent ?? '';
  const heading = h('h1', { class: 'ag-title' }, 'Agent ', code(agent));
  const back = h('p', { class: 'ag-crumbs' }, h('a', { href: '/agents' }, '← All agents'));
  replace(main, back, heading, loading());
  if (!ctx.can('read')) {
    replace(
      main,
      back,
      heading,
      h(
        'p',
        { class: 'error', role: 'alert' },
        `${/^[aeiou]/i.test(ctx.identity.role) ? 'An' : 'A'} \`${ctx.identity.role}\` token may not read agents.`,
      ),
    );
    return;
  }
  let resolved;
  try {
    resolved = await resolveWorkspace(ctx);
  } catch (error) {
    replace(main, back, heading, failure('Cannot read the workspaces', error));
    return;
  }
  const { workspace, choices } = resolved;
  const path = `/agents/${encodeURIComponent(agent)}`;
  const picker = workspacePicker(ctx, choices, workspace, path);
  if (workspace === null) {
    replace(
      main,
      back,
      heading,
      picker ?? h('p', null, 'No workspace has a policy yet: there is nothing to show.'),
    );
    return;
  }
  back.firstElementChild?.setAttribute(
    'href',
    `/agents?workspace=${encodeURIComponent(workspace)}`,
  );
  const where = { workspace, agent };
  replace(
    main,
    back,
    heading,
    picker,
    overview(where, ctx.can('policy')),
    section('Kill switch', freezePanel({ ctx, workspace, agent }).el),
    auditSection(where),
    receiptsSection(where),
    tasksSection(where),
    reportSection(where),
  );
}
