// The one header every page of the console shows: the same links in the same
// order whatever the page (Workspaces, Permissions, Approvals, Agents, Tools),
// the current one marked, and who is signed in. Pages never build their own:
// the shell draws it with `renderHeader` whenever the page or the identity
// changes, so a page reached one way cannot show other links than a page
// reached another way.

import { api } from './api.js';
import { h, replace } from './dom.js';

/**
 * @typedef {'workspaces' | 'permissions' | 'approvals' | 'agents' | 'tools'} NavKey
 * @typedef {{ key: NavKey, label: string, href: string, title?: string }} NavLink
 */

/** The workspace's part of a path. @param {string} ws */
const enc = (ws) => encodeURIComponent(ws);

/**
 * The header's links, in their one order. Without a workspace chosen, the
 * links that need one lead to the list of workspaces, to choose it there.
 * @param {string | null} workspace
 * @returns {NavLink[]}
 */
export function navLinks(workspace) {
  const choose = 'Choose a workspace first';
  return [
    { key: 'workspaces', label: 'Workspaces', href: '/' },
    workspace === null
      ? { key: 'permissions', label: 'Permissions', href: '/', title: choose }
      : {
          key: 'permissions',
          label: 'Permissions',
          href: `/workspaces/${enc(workspace)}/settings/workspace/permissions`,
        },
    { key: 'approvals', label: 'Approvals', href: '/approvals' },
    { key: 'agents', label: 'Agents', href: '/agents' },
    workspace === null
      ? { key: 'tools', label: 'Tools', href: '/', title: choose }
      : { key: 'tools', label: 'Tools', href: `/workspaces/${enc(workspace)}/tools` },
  ];
}

/** Fills a navigation badge with the number of changed tools (empty at none). @param {HTMLElement} el @param {number} changed */
function showChanged(el, changed) {
  replace(
    el,
    changed === 0
      ? null
      : [
          ' ',
          h(
            'span',
            {
              class: 'badge badge-deny',
              title: `${changed} pinned ${changed === 1 ? 'tool' : 'tools'} changed: refused until an admin accepts the new definition`,
            },
            String(changed),
            h('span', { class: 'visually-hidden' }, ' changed'),
          ),
        ],
  );
  el.dataset.changed = String(changed);
}

/**
 * The badge beside "Tools" counting the tools of `ws` whose definition
 * changed: read now when the role may read, and told again by a page that
 * reads the pins (`warden:tool-pins`), whose later reading wins.
 * @param {string} ws @param {boolean} mayRead
 */
function toolsCount(ws, mayRead) {
  const count = h('span', { class: 'nav-count', dataset: { workspace: ws } });
  if (mayRead)
    api('GET', `/v1/tool-pins?workspace=${enc(ws)}`).then(
      (/** @type {import('./types.js').ToolPinList} */ { pins }) => {
        if (count.dataset.changed === undefined)
          showChanged(count, pins.filter((p) => p.pending !== null).length);
      },
      () => undefined,
    );
  return count;
}

/**
 * Draws the header's navigation and who is signed in. Signed out, both are
 * empty (the sign-in page has nothing to link to yet).
 * @param {{
 *   identity: import('./types.js').Identity | null,
 *   workspace: string | null,
 *   current: NavKey | null,
 *   onSignOut: () => void,
 * }} options
 */
export function renderHeader({ identity, workspace, current, onSignOut }) {
  const nav = document.getElementById('nav');
  const who = document.getElementById('who');
  if (nav === null || who === null) return;
  if (identity === null) {
    replace(nav);
    replace(who);
    return;
  }
  const mayRead = identity.permissions?.includes('read') === true;
  replace(
    nav,
    navLinks(workspace).map((link) =>
      h(
        'a',
        {
          href: link.href,
          title: link.title,
          'aria-current': link.key === current ? 'page' : undefined,
          dataset: { nav: link.key },
        },
        link.label,
        link.key === 'tools' && workspace !== null ? toolsCount(workspace, mayRead) : null,
      ),
    ),
  );
  replace(
    who,
    h('span', null, identity.name, ' · ', h('span', { class: 'role' }, identity.role)),
    // A token that expires says when, before it does.
    identity.expiresAt === null || identity.expiresAt === undefined
      ? null
      : h(
          'span',
          {
            class: 'muted token-expiry',
            title: `This token stops working at ${identity.expiresAt}`,
          },
          ` · token until ${new Date(identity.expiresAt).toLocaleString()}`,
        ),
    workspace === null ? null : h('span', { class: 'muted who-workspace' }, ` · ${workspace}`),
    h('button', { class: 'link', type: 'button', onclick: onSignOut }, 'Sign out'),
  );
}

// A page that read the pinned tools says how many changed: the badge follows.
window.addEventListener('warden:tool-pins', (event) => {
  const detail = /** @type {CustomEvent<{ workspace: string, changed: number }>} */ (event).detail;
  for (const el of document.querySelectorAll('#nav .nav-count'))
    if (el instanceof HTMLElement && el.dataset.workspace === detail.workspace)
      showChanged(el, detail.changed);
});
