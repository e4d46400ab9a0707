// One agent: who it is (as registered), whether it or its workspace is frozen
// (the kill switch, which an admin throws or releases here), its audit
// timeline, its run receipts with a chart over time, its tasks, and the newest
// supervisor report that mentions it. Each part reads its own route and shows
// its own failure, so one refused call never blanks the page.

import { api, query } from '../lib/api.js';
import { code, h, replace, section } from '../lib/dom.js';
import { auditSection } from './agents/audit.js';
import { errorText, failure, loading, resolveWorkspace, workspacePicker } from './agents/common.js';
import { freezePanel } from './agents/freeze.js';
import { receiptsSection } from './agents/receipts.js';
import { reportSection } from './agents/report.js';
import { tasksSection } from './agents/tasks.js';

/** @param {{ workspace: string, agent: string }} where */
function overview(where) {
  const body = h('div', null, loading());
  const el = section('Overview', body);
  void (async () => {
    try {
      /** @type {{ agents: import('../lib/types.js').Agent[] }} */
      const { agents } = await api('GET', `/v1/agents${query({ workspace: where.workspace })}`);
      const a = agents.find((x) => x.id === where.agent);
      if (a === undefined) {
        replace(
          body,
          h(
            'p',
            { class: 'muted' },
            'Not registered in workspace ',
            code(where.workspace),
            ' (',
            code('PUT /v1/agents/:id'),
            '): what follows is what the audit log, the receipts and the taskboard hold for this id.',
          ),
        );
        return;
      }
      /** @param {string | null} v */
      const dash = (v) => v ?? h('span', { class: 'muted' }, '—');
      replace(
        body,
        h(
          'dl',
          { class: 'ag-facts' },
          [
            ['Workspace', code(a.workspace)],
            ['Name', dash(a.name)],
            ['Role', dash(a.role)],
            ['Space', dash(a.space)],
            ['Model', dash(a.model)],
          ].map(([term, value]) => [h('dt', null, term), h('dd', null, value)]),
        ),
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
    overview(where),
    section('Kill switch', freezePanel({ ctx, workspace, agent }).el),
    auditSection(where),
    receiptsSection(where),
    tasksSection(where),
    reportSection(where),
  );
}
