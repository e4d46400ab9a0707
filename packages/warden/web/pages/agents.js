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

import { api, query } from '../lib/api.js';
import { code, h, replace, section, time } from '../lib/dom.js';
import {
  agentHref,
  errorText,
  failure,
  loading,
  resolveWorkspace,
  workspacePicker,
} from './agents/common.js';
import { freezeOf, freezePanel, frozenBadge } from './agents/freeze.js';
import { placedShown } from './agents/place.js';
import { folded } from '../lib/fold.js';

/** How many of the workspace's newest audit entries show who is active. */
const SAMPLE = 500;
/** Per agent not in that sample: how many of its own entries name its tools. */
const PER_AGENT = 50;

/** Newest time and the tools named in `entries` (newest first), per agent. @param {import('../lib/types.js').AuditEntry[]} entries */
function activity(entries) {
  /** @type {Map<string, { last: string | null, tools: Set<string> }>} */
  const seen = new Map();
  for (const entry of entries) {
    if (entry.kind === 'change') continue;
    const agent = entry.agentId;
    const a = seen.get(agent) ?? { last: null, tools: new Set() };
    a.last ??= typeof entry.occurredAt === 'string' ? entry.occurredAt : null;
    if (typeof entry.tool === 'string' && entry.tool !== '' && entry.tool !== '(none)')
      a.tools.add(entry.tool);
    seen.set(agent, a);
  }
  return seen;
}

/** A registered agent's field, a long one folded; a dash when it has none. @param {string | null | undefined} value @param {string} what */
function shown(value, what) {
  return value === null || value === undefined
    ? h('span', { class: 'muted' }, '—')
    : folded(value, { limit: 80, what });
}

/** @param {HTMLElement} main @param {import('../lib/types.js').PageContext} ctx */
export async function render(main, ctx) {
  replace(main, h('h1', null, 'Agents'), loading());
  if (!ctx.can('read')) {
    replace(
      main,
      h('h1', null, 'Agents'),
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

  const body = h('div', null, loading());
  const kill = freezePanel({ ctx, workspace, agent: null }).el;
  kill.classList.add('card');
  replace(main, h('h1', null, 'Agents'), picker, kill, section(`Agents of ${workspace}`, body));

  const problems = [];
  /** @type {import('../lib/types.js').Agent[]} */
  let registered = [];
  /** @type {import('../lib/types.js').AuditEntry[]} */
  let sample = [];
  /** @type {import('../lib/types.js').Freeze[]} */
  let freezes = [];
  const [agents, audit, frozen] = await Promise.allSettled([
    api('GET', `/v1/agents${query({ workspace })}`),
    api('GET', `/v1/audit${query({ workspace, limit: SAMPLE })}`),
    api('GET', `/v1/freezes${query({ workspace })}`),
  ]);
  if (agents.status === 'fulfilled') registered = agents.value.agents;
  else problems.push(failure('Cannot read the registered agents', agents.reason));
  if (audit.status === 'fulfilled') sample = audit.value.entries;
  else problems.push(failure('Cannot read the audit log', audit.reason));
  if (frozen.status === 'fulfilled') freezes = frozen.value.freezes;
  else problems.push(failure('Cannot read which agents are frozen', frozen.reason));

  const seen = activity(sample);
  // A frozen agent is listed even when nothing else names it.
  const frozenIds = freezes.flatMap((f) => (f.agent === null ? [] : [f.agent]));
  const ids = [...new Set([...registered.map((a) => a.id), ...seen.keys(), ...frozenIds])].sort();
  // An agent quiet lately: its own newest entries.
  await Promise.all(
    ids
      .filter((id) => !seen.has(id))
      .map(async (id) => {
        try {
          const { entries } = await api(
            'GET',
            `/v1/audit${query({ workspace, agent: id, limit: PER_AGENT })}`,
          );
          const own = activity(entries).get(id);
          if (own !== undefined) seen.set(id, own);
        } catch (error) {
          problems.push(
            h(
              'p',
              { class: 'error', role: 'alert' },
              `Cannot read the audit log of ${id}: ${errorText(error)}`,
            ),
          );
        }
      }),
  );

  if (ids.length === 0) {
    replace(
      body,
      problems,
      h(
        'p',
        { class: 'muted' },
        'No agent here yet: none is registered (',
        code('PUT /v1/agents/:id'),
        ') and none appears in the audit log.',
      ),
    );
    return;
  }
  const byId = new Map(registered.map((a) => [a.id, a]));
  replace(
    body,
    problems,
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'ag-agents' },
        h('caption', { class: 'visually-hidden' }, `Agents of workspace ${workspace}`),
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
          ids.map((id) => {
            const a = byId.get(id);
            const act = seen.get(id);
            const freeze = freezeOf(freezes, id);
            const assigned = Array.isArray(a?.tools) ? a.tools : null;
            const tools = assigned ?? (act === undefined ? [] : [...act.tools].sort());
            return h(
              'tr',
              { dataset: { agent: id, frozen: freeze !== null } },
              h(
                'th',
                { scope: 'row' },
                h('a', { href: agentHref(id, workspace) }, id),
                freeze === null ? null : [' ', frozenBadge(freeze)],
                a === undefined
                  ? h('span', { class: 'muted ag-small' }, ' not registered')
                  : a.registered === false
                    ? h('span', { class: 'muted ag-small' }, ' data folder')
                    : null,
              ),
              h('td', null, shown(a?.role, 'the role')),
              h('td', null, shown(a?.name, 'the name')),
              h('td', { dataset: { col: 'space' } }, placedShown(a?.space, 'the space')),
              h('td', { dataset: { col: 'mode' } }, placedShown(a?.mode, 'the mode')),
              h('td', null, shown(a?.model, 'the model')),
              h(
                'td',
                null,
                tools.length === 0
                  ? h('span', { class: 'muted' }, assigned === null ? 'none seen' : 'none')
                  : folded(tools.join(' '), {
                      limit: 200,
                      render: (text) =>
                        text.split(' ').map((t, i) => [i > 0 ? ' ' : null, code(t)]),
                      what: 'the tools',
                    }),
              ),
              h('td', null, time(a?.lastActivity ?? act?.last ?? null)),
            );
          }),
        ),
      ),
    ),
    h(
      'p',
      { class: 'muted ag-small' },
      `Tools are those its AgentSettings.json assigns; for an agent without one, those named in the audit log (the workspace's newest ${SAMPLE} entries, or the agent's own newest ${PER_AGENT}). Last activity is the agent's newest audit entry.`,
    ),
  );
}
