// The start page: the workspaces this token may see, each leading to its
// permissions screen and its pinned tools (with how many of them changed);
// and where to go next.

import { api, query } from '../lib/api.js';
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
  // How many pinned tools changed, per workspace (a workspace whose pins cannot be read shows none).
  const changed = await Promise.all(
    workspaces.map((w) =>
      api('GET', `/v1/tool-pins${query({ workspace: w.workspace })}`).then(
        (/** @type {import('../lib/types.js').ToolPinList} */ { pins }) =>
          pins.filter((p) => p.pending !== null).length,
        () => 0,
      ),
    ),
  );
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
            workspaces.map((w, i) =>
              h(
                'li',
                { dataset: { workspace: w.workspace } },
                h(
                  'a',
                  {
                    href: `/workspaces/${encodeURIComponent(w.workspace)}/settings/workspace/permissions`,
                  },
                  w.workspace,
                ),
                h('span', { class: 'muted' }, ` revision ${w.revision ?? '—'} · `),
                h(
                  'a',
                  { href: `/workspaces/${encodeURIComponent(w.workspace)}/tools` },
                  'pinned tools',
                ),
                (changed[i] ?? 0) === 0
                  ? null
                  : [
                      ' ',
                      h(
                        'span',
                        { class: 'badge badge-deny pins-changed' },
                        `${changed[i]} changed`,
                      ),
                    ],
              ),
            ),
          ),
    ),
  );
}
