// The permissions screen (guard-rules §11): the policy matrix where rules
// are written, the rules with origin and expiry, the rules suggested by
// repeated approvals (a tab of their own), the autonomy dial per space, templates, the what-if check, the permissions audit log and where
// rules are enforced. Each part is a tab; each shows only the controls the
// signed-in role may use (the API refuses the rest anyway).

import { h, replace } from '../../lib/dom.js';
import { mountAudit } from './audit.js';
import { mountAutonomy } from './autonomy.js';
import { mountHonesty } from './honesty.js';
import { mountMatrix } from './matrix.js';
import { mountRules } from './rules.js';
import { createState } from './state.js';
import { mountSuggestions } from './suggestions.js';
import { mountTemplates } from './templates.js';
import { mountWhatIf } from './whatif.js';
import { alertBox, fail, tabKeys } from './ui.js';

const TABS = [
  { id: 'matrix', label: 'Matrix', mount: mountMatrix },
  { id: 'rules', label: 'Rules', mount: mountRules },
  { id: 'suggestions', label: 'Suggestions', mount: mountSuggestions },
  { id: 'autonomy', label: 'Autonomy', mount: mountAutonomy },
  { id: 'templates', label: 'Templates', mount: mountTemplates },
  { id: 'what-if', label: 'What-if', mount: mountWhatIf },
  { id: 'audit', label: 'Audit', mount: mountAudit },
  { id: 'enforced', label: 'Where rules are enforced', mount: mountHonesty },
];

/**
 * The tab list, a button and a hidden panel a tab; `onChoose` hears a click.
 * @param {(id: string) => void} onChoose
 */
function tabParts(onChoose) {
  const tabList = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Permissions' });
  const panels = new Map();
  const buttons = new Map();
  for (const tab of TABS) {
    const button = h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `tab-${tab.id}`,
        'aria-controls': `panel-${tab.id}`,
        'aria-selected': 'false',
        tabindex: '-1',
        dataset: { tab: tab.id },
        onclick: () => onChoose(tab.id),
      },
      tab.label,
    );
    buttons.set(tab.id, button);
    tabList.appendChild(button);
    panels.set(
      tab.id,
      h('div', {
        role: 'tabpanel',
        id: `panel-${tab.id}`,
        'aria-labelledby': `tab-${tab.id}`,
        class: 'tabpanel',
        tabindex: '0',
        hidden: true,
      }),
    );
  }
  return { tabList, buttons, panels };
}

/** @param {HTMLElement} main @param {import('../../lib/types.js').PageContext} ctx */
export async function render(main, ctx) {
  const workspace = ctx.params.workspace;
  const state = createState(workspace);
  const root = h('div', { class: 'permissions' });
  const env = {
    state,
    workspace,
    root,
    ctx,
    canWrite: ctx.can('policy'),
    role: ctx.identity?.role ?? 'unknown',
  };
  const status = alertBox();
  const revision = h('p', { class: 'muted revision' });
  /** @type {(() => void)[]} */
  const cleanups = [];
  const mounted = new Set();

  const { tabList, buttons, panels } = tabParts((id) => choose(id));

  /** @param {string} id */
  const choose = (id) => {
    const tab = TABS.find((t) => t.id === id) ?? TABS[0];
    for (const t of TABS) {
      const selected = t.id === tab.id;
      buttons.get(t.id).setAttribute('aria-selected', selected ? 'true' : 'false');
      buttons.get(t.id).tabIndex = selected ? 0 : -1;
      panels.get(t.id).hidden = !selected;
    }
    if (!mounted.has(tab.id)) {
      mounted.add(tab.id);
      const done = tab.mount(panels.get(tab.id), env);
      if (typeof done === 'function') cleanups.push(done);
    }
    const hash = `#${tab.id}`;
    if (window.location.hash !== hash)
      window.history.replaceState(
        window.history.state,
        '',
        `${window.location.pathname}${window.location.search}${hash}`,
      );
  };
  tabKeys(tabList, choose);

  cleanups.push(
    state.subscribe((data, error) => {
      if (error !== null) fail(status, 'Cannot read the policy of this workspace', error);
      else replace(status);
      if (data !== null)
        replace(
          revision,
          `Policy revision ${data.revision.revision}, by ${data.revision.author}`,
          data.revision.message === null ? '' : ` — “${data.revision.message}”`,
          data.managed.loaded ? ' · managed layer loaded' : '',
          env.canWrite ? '' : ` · your role (${env.role}) may read, not change`,
        );
    }),
  );

  replace(main, root);
  replace(
    root,
    h('h1', null, 'Permissions · ', h('span', { class: 'ws' }, workspace)),
    revision,
    status,
    tabList,
    TABS.map((t) => panels.get(t.id)),
  );
  choose(window.location.hash.slice(1));
  await state.load();
  return () => {
    for (const done of cleanups) done();
    for (const dialog of root.querySelectorAll('dialog')) dialog.remove();
  };
}
