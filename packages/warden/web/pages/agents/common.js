// What the agents pages share: which workspace they read (the URL's
// `?workspace=`, the console's current one, or the only one there is), a
// failed call shown in words, and small formatters.

import { api } from '../../lib/api.js';
import { h } from '../../lib/dom.js';

/** The message of a failed call. @param {unknown} error */
export function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

/** A failed call as an alert, saying what could not be read. @param {string} what @param {unknown} error */
export function failure(what, error) {
  return h('p', { class: 'error', role: 'alert' }, `${what}: ${errorText(error)}`);
}

export function loading() {
  return h('p', { class: 'muted' }, 'Loading…');
}

/**
 * The workspace to read and the ones to choose from. `workspace` is null when
 * there are several and none was chosen, or none at all.
 * @param {import('../../lib/types.js').PageContext} ctx
 * @returns {Promise<{ workspace: string | null, choices: string[] }>}
 */
export async function resolveWorkspace(ctx) {
  if (ctx.identity.workspace !== null) return { workspace: ctx.identity.workspace, choices: [] };
  const asked = new URLSearchParams(window.location.search).get('workspace');
  /** @type {import('../../lib/types.js').WorkspaceList} */
  const { workspaces } = await api('GET', '/v1/workspaces');
  const choices = workspaces.map((w) => w.workspace);
  if (asked !== null && asked !== '') return { workspace: asked, choices };
  const current = ctx.workspace();
  if (current !== null && current !== undefined && choices.includes(current))
    return { workspace: current, choices };
  return { workspace: choices.length === 1 ? choices[0] : null, choices };
}

/**
 * A workspace picker that goes to `path?workspace=…`.
 * @param {import('../../lib/types.js').PageContext} ctx @param {string[]} choices @param {string | null} current @param {string} path
 */
export function workspacePicker(ctx, choices, current, path) {
  if (choices.length < 2) return null;
  /** @type {HTMLSelectElement} */
  const select = h(
    'select',
    {
      id: 'workspace-pick',
      onchange: () => ctx.navigate(`${path}?workspace=${encodeURIComponent(select.value)}`),
    },
    current === null ? h('option', { value: '', selected: true }, 'Choose…') : null,
    choices.map((w) => h('option', { value: w, selected: w === current }, w)),
  );
  return h(
    'div',
    { class: 'row ag-picker' },
    h('div', null, h('label', { for: 'workspace-pick' }, 'Workspace'), select),
  );
}

/** `/agents/<id>?workspace=<w>`. @param {string} agent @param {string | null} workspace */
export function agentHref(agent, workspace) {
  const base = `/agents/${encodeURIComponent(agent)}`;
  return workspace === null ? base : `${base}?workspace=${encodeURIComponent(workspace)}`;
}

/** 12,345. @param {number | null | undefined} n */
export function num(n) {
  return typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US') : '—';
}

/** An audit status as a badge: Ok green, Error and Denied red, Staged waiting. @param {string | null | undefined} status */
export function statusBadge(status) {
  if (status === null || status === undefined) return null;
  const kind =
    status === 'Ok'
      ? 'allow'
      : status === 'Error' || status === 'Denied'
        ? 'deny'
        : status === 'Staged'
          ? 'prompt'
          : 'none';
  return h('span', { class: `badge badge-${kind}`, title: status }, status);
}

/** A one-line preview of agent-written JSON (text, capped). @param {unknown} value @param {number} [max] */
export function preview(value, max = 160) {
  if (value === null || value === undefined) return '';
  let text;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
