// One agent: who it is (as registered) and where it acts — its space and
// mode, which an admin changes here — whether it or its workspace is frozen
// (the kill switch, which an admin throws or releases here), its audit
// timeline, its run receipts with a chart over time, its tasks, and the newest
// supervisor report that mentions it. Each part reads its own route and shows
// its own failure, so one refused call never blanks the page.

import { api, query } from '../lib/api.js';
import { code, h, replace, section } from '../lib/dom.js';
import { auditSection } from './agents/audit.js';
import { errorText, failure, loading, resolveWorkspace, workspacePicker } from './agents/common.js';
import { freezePanel } from './agents/freeze.js';
import { placeForm, placedShown } from './agents/place.js';
import { receiptsSection } from './agents/receipts.js';
import { reportSection } from './agents/report.js';
import { tasksSection } from './agents/tasks.js';

/**
 * Who the agent is, as registered, and where it acts; for a role that may
 * change agents, the control that places it (`agents/place.js`).
 * @param {{ workspace: string, agent: string }} where @param {boolean} mayPlace
 */
function overview(where, mayPlace) {
  const body = h('div', null, loading());
  const el = section('Overview', body);
  /** @param {Pick<import('../lib/types.js').Agent, 'name' | 'role' | 'space' | 'mode' | 'model'> | null} a what `GET /v1/agents` lists of it, null: nothing */
  const facts = (a) => {
    /** @param {string | null} v */
    const dash = (v) => v ?? h('span', { class: 'muted' }, '—');
    return h(
      'dl',
      { class: 'ag-facts', id: 'agent-facts' },
      /** @type {[string, import('../lib/types.js').Child][]} */ ([
        ['Workspace', code(where.workspace)],
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
  };
  void (async () => {
    try {
      /** @type {{ agents: import('../lib/types.js').Agent[] }} */
      const { agents } = await api('GET', `/v1/agents${query({ workspace: where.workspace })}`);
      const a = agents.find((x) => x.id === where.agent) ?? null;
      const shown = h('div', null, facts(a));
      const note =
        a === null
          ? h(
              'p',
              { class: 'muted' },
              'Not registered in workspace ',
              code(where.workspace),
              ' (',
              code('PUT /v1/agents/:id'),
              '): what follows is what the audit log, the receipts and the taskboard hold for this id.',
              mayPlace ? ' Placing it registers it.' : '',
            )
          : null;
      replace(
        body,
        note,
        shown,
        mayPlace
          ? placeForm({
              workspace: where.workspace,
              agent: a ?? {
                id: where.agent,
                name: null,
                role: null,
                model: null,
                space: null,
                mode: null,
              },
              onPlaced: (record) => {
                note?.remove();
                replace(shown, facts(record));
              },
            })
          : null,
      );
    } catch (error) {
      replace(
        body,
        h('p', { class: 'error', role: 'alert' }, `Cannot read the agent: ${errorText(error)}`),
      );
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
