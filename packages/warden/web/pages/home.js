// The start page: the workspaces this token may see, each leading to its
// permissions screen; and where to go next.

import { api } from '../lib/api.js';
import { code, h, replace, section } from '../lib/dom.js';

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export async function render(main, ctx) {
  const bound = ctx.identity.workspace;
  if (bound !== null) {
    ctx.navigate(`/workspaces/${encodeURIComponent(bound)}/settings/workspace/permissions`);
    return;
  }
  /** @type {import('../lib/types.js').WorkspaceList} */
  const { workspaces } = ctx.can('read') ? await api('GET', '/v1/workspaces') : { workspaces: [] };
  replace(
    main,
    h('h1', null, 'Workspaces'),
    section(
      'Choose a workspace',
      workspaces.length === 0
        ? h('p', null, 'No workspace has a policy yet: ', code('warden policy apply FILE'), '.')
        : h(
            'ul',
            { class: 'list' },
            workspaces.map((w) =>
              h(
                'li',
                null,
                h(
                  'a',
                  {
                    href: `/workspaces/${encodeURIComponent(w.workspace)}/settings/workspace/permissions`,
                  },
                  w.workspace,
                ),
                h('span', { class: 'muted' }, ` revision ${w.revision ?? '—'}`),
              ),
            ),
          ),
    ),
  );
}
