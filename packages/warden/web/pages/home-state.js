// The start page's state apart from its drawing, so that what it shows can
// be tested in Node without a browser: where a token bound to one workspace
// goes at once, the workspaces read, and per workspace how many of its
// pinned tools changed (none when its pins cannot be read). Pure: no DOM, no
// `fetch`, no `window`; the page (`./home.js`) feeds it the API's answers and
// draws what it returns.

/**
 * @typedef {import('../lib/types.js').WorkspaceList['workspaces'][number]} Workspace
 * @typedef {{
 *   readonly workspaces: readonly Workspace[] | null,
 *   readonly changed: Readonly<Record<string, number>>,
 * }} HomeState
 * @typedef {(
 *   | { type: 'read', workspaces: readonly Workspace[] }
 *   | { type: 'counted', workspace: string, changed: number }
 * )} HomeEvent
 */

/** The permissions screen of `workspace`. @param {string} workspace */
export function permissionsHref(workspace) {
  return `/workspaces/${encodeURIComponent(workspace)}/settings/workspace/permissions`;
}

/** The pinned tools of `workspace`. @param {string} workspace */
export function toolsHref(workspace) {
  return `/workspaces/${encodeURIComponent(workspace)}/tools`;
}

/** Where a token bound to a workspace goes at once (its permissions screen), or null. @param {string | null} bound */
export function landing(bound) {
  return bound === null ? null : permissionsHref(bound);
}

/** The page before the workspaces are read. @returns {HomeState} */
export function homeState() {
  return { workspaces: null, changed: {} };
}

/**
 * One line per workspace: its links, its revision and its changed tools.
 * @param {HomeState} state
 */
export function homeRows(state) {
  return (state.workspaces ?? []).map((w) => {
    const changed = state.changed[w.workspace] ?? 0;
    return {
      workspace: w.workspace,
      permissions: permissionsHref(w.workspace),
      tools: toolsHref(w.workspace),
      revision: ` revision ${w.revision ?? '—'} · `,
      changed: changed === 0 ? null : `${changed} changed`,
    };
  });
}

/** The page after `event`. @param {HomeState} state @param {HomeEvent} event @returns {HomeState} */
export function reduce(state, event) {
  switch (event.type) {
    case 'read':
      return { ...state, workspaces: event.workspaces };
    case 'counted':
      return { ...state, changed: { ...state.changed, [event.workspace]: event.changed } };
    default:
      return state;
  }
}
