// The start page: the workspaces this token may see, each leading to its
// permissions screen and its pinned tools (with how many of them changed);
// and where to go next.
//
// What the page holds is its state (`home-state.js`): pure, tested in Node.
// `render` is the wiring: it feeds the state the API's answers and draws it
// once everything is read (`drawHome`).

import { api, query } from '../lib/api.js';
import { code, h, replace, section } from '../lib/dom.js';
import { homeRows, homeState, landing, reduce } from './home-state.js';

/** @typedef {import('./home-state.js').HomeState} HomeState */

/**
 * What the page shows for a state.
 * @param {HomeState} state @returns {import('../lib/types.js').Child[]}
 */
export function drawHome(state) {
  const rows = homeRows(state);
  return [
    h('h1', null, 'Workspaces'),
    section(
      'Choose a workspace',
      rows.length === 0
        ? h('p', null, 'No workspace has a policy yet: ', code('warden policy apply FILE'), '.')
        : h(
            'ul',
            { class: 'list' },
            rows.map((row) =>
              h(
                'li',
                { dataset: { workspace: row.workspace } },
                h('a', { href: row.permissions }, row.workspace),
                h('span', { class: 'muted' }, row.revision),
                h('a', { href: row.tools }, 'pinned tools'),
                row.changed === null
                  ? null
                  : [' ', h('span', { class: 'badge badge-deny pins-changed' }, row.changed)],
              ),
            ),
          ),
    ),
  ];
}

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export async function render(main, ctx) {
  const go = landing(ctx.identity.workspace);
  if (go !== null) {
    ctx.navigate(go);
    return;
  }
  /** @type {HomeState} */
  let state = homeState();
  /** @param {import('./home-state.js').HomeEvent} event */
  const dispatch = (event) => {
    state = reduce(state, event);
  };
  /** @type {import('../lib/types.js').WorkspaceList} */
  const { workspaces } = ctx.can('read') ? await api('GET', '/v1/workspaces') : { workspaces: [] };
  dispatch({ type: 'read', workspaces });
  // How many pinned tools changed, per workspace (a workspace whose pins cannot be read shows none).
  await Promise.all(
    workspaces.map((w) =>
      api('GET', `/v1/tool-pins${query({ workspace: w.workspace })}`).then(
        (/** @type {import('../lib/types.js').ToolPinList} */ { pins }) =>
          dispatch({
            type: 'counted',
            workspace: w.workspace,
            changed: pins.filter((p) => p.pending !== null).length,
          }),
        () => dispatch({ type: 'counted', workspace: w.workspace, changed: 0 }),
      ),
    ),
  );
  replace(main, drawHome(state));
}
