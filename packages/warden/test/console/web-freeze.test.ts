// The kill switch in the console, in real Chromium against a real `warden
// serve`: an admin freezes an agent from its page with a reason typed in the
// page, the agents list marks it frozen, and the agent's next decision is a
// hard deny naming the freeze; thawing it from the page lets the policy decide
// again. A refused freeze is shown in the server's words. A whole workspace is
// frozen and thawed from the agents list, said above everything else. A
// viewer sees every freeze, with who froze it, when and why, and no button.

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT } from '../support/browser.js';
import { useConsole } from '../support/console-fixture.js';
import { api } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
rules:
  - { id: commits-ok, scope: workspace, action: gitCommit, decision: allow }
`;

const COMMIT = { tool: 'git_commit', actions: ['gitCommit'] };
const REASON = 'runaway loop <b>on main</b>';

const web = useConsole({
  policy: POLICY,
  agents: ['coder-1', 'coder-2'].map((id) => [id, '--role', 'coder', '--workspace', 'acme']),
  tokens: {
    agent: { agent: 'coder-1', name: 'coder' },
    other: { agent: 'coder-2', name: 'coder-two' },
    admin: { role: 'admin', name: 'alice' },
    viewer: { role: 'viewer', name: 'vic' },
  },
});
const { tokens, signedIn } = web;

/** The rule and outcome of a decision for `token`'s agent, as the server answers it now. */
async function decided(token: string): Promise<string> {
  const answer = await api(web.url, token, 'POST', '/v1/decide', COMMIT);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return `${answer.body.outcome as string} ${String(answer.body.rule)}`;
}

/** The freezes the server holds, as `agent by: reason` lines. */
async function freezes(): Promise<string[]> {
  const answer = await api(web.url, tokens.viewer, 'GET', '/v1/freezes?workspace=acme');
  expect(answer.status).toBe(200);
  return (answer.body.freezes as { agent: string | null; by: string; reason: string | null }[]).map(
    (f) => `${f.agent ?? '*'} by ${f.by}: ${f.reason ?? '-'}`,
  );
}

/** The agent page's kill switch, once it has read the freezes. */
async function killSwitch(page: Page): Promise<Locator> {
  const panel = page.locator('section', {
    has: page.getByRole('heading', { name: 'Kill switch' }),
  });
  await panel.locator('.freeze-state').waitFor({ timeout: 10_000 });
  return panel;
}

/** The state the panel shows: `frozen` or `thawed`. */
function shownState(panel: Locator): Promise<string | null> {
  return panel.locator('.freeze-state').getAttribute('data-state');
}

describe.skipIf(BROWSER_SKIP !== null)(
  'the kill switch in the console, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('an admin freezes an agent with a reason: its page and the list say so, and its calls are denied', async () => {
      expect(await decided(tokens.agent)).toBe('allow commits-ok');
      const { page, errors } = await signedIn(tokens.admin, '/agents/coder-1?workspace=acme');
      const panel = await killSwitch(page);
      expect(await shownState(panel)).toBe('thawed');
      expect(await panel.innerText()).toContain('not frozen');
      expect(await panel.locator('.freeze-workspace').innerText()).toContain('is not frozen');
      await panel.getByLabel('Reason').fill(REASON);
      await panel.getByRole('button', { name: 'Freeze', exact: true }).click();
      await expect.poll(() => shownState(panel), { timeout: 10_000 }).toBe('frozen');
      const state = await panel.locator('.freeze-state').innerText();
      expect(state).toContain('Every call of this agent is denied');
      expect(state).toContain('Frozen by alice');
      expect(await panel.locator('.freeze-reason').innerText()).toBe(REASON);
      expect(await panel.locator('.freeze-state time').getAttribute('datetime')).toMatch(
        /^\d{4}-\d\d-\d\dT/,
      );
      expect(await panel.getByRole('status').innerText()).toContain(
        'Frozen: every call of agent coder-1 is denied from now on',
      );
      // The reason is text, never markup; the Freeze form gave way to Thaw.
      expect(await page.locator('.freeze-reason b').count()).toBe(0);
      expect(await panel.getByRole('button', { name: 'Freeze', exact: true }).count()).toBe(0);
      expect(await panel.getByRole('button', { name: 'Thaw', exact: true }).isEnabled()).toBe(true);
      expect(await freezes()).toEqual([`coder-1 by alice: ${REASON}`]);

      // The agent's next call is a hard deny naming the freeze; another agent is not affected.
      await expect.poll(() => decided(tokens.agent), { timeout: 5000 }).toBe('deny freeze:agent');
      expect(await decided(tokens.other)).toBe('allow commits-ok');

      // The list marks it, and only it.
      await page.getByRole('link', { name: '← All agents' }).click();
      const row = page.locator('tr[data-agent="coder-1"]');
      await row.waitFor({ timeout: 10_000 });
      expect(await row.getAttribute('data-frozen')).toBe('true');
      const badge = row.locator('.freeze-badge');
      expect(await badge.innerText()).toBe('frozen');
      expect(await badge.getAttribute('title')).toContain(`Frozen by alice at `);
      expect(await badge.getAttribute('title')).toContain(REASON);
      expect(await page.locator('tr[data-agent="coder-2"] .freeze-badge').count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('a viewer sees who froze the agent, when and why, and cannot freeze or thaw', async () => {
      const { page, errors } = await signedIn(tokens.viewer, '/agents/coder-1?workspace=acme');
      const panel = await killSwitch(page);
      expect(await shownState(panel)).toBe('frozen');
      expect(await panel.locator('.freeze-state').innerText()).toContain('Frozen by alice');
      expect(await panel.locator('.freeze-reason').innerText()).toBe(REASON);
      expect(await panel.getByRole('button').count()).toBe(0);
      expect(await panel.getByLabel('Reason').count()).toBe(0);
      expect(await panel.locator('.freeze-readonly').innerText()).toBe(
        'Freezing and thawing take an admin token; a `viewer` token may only see the state.',
      );
      await page.goto(`${web.url}/agents?workspace=acme`);
      const row = page.locator('tr[data-agent="coder-1"]');
      await row.waitFor({ timeout: 10_000 });
      expect(await row.locator('.freeze-badge').innerText()).toBe('frozen');
      const kill = page.locator('.freeze[data-freeze="workspace"] .freeze-state');
      await kill.waitFor();
      expect(await kill.getAttribute('data-state')).toBe('thawed');
      expect(await page.getByRole('button', { name: /Freeze|Thaw/ }).count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('an admin thaws the agent and its calls are allowed again; a refused freeze is shown in words', async () => {
      const { page, errors } = await signedIn(tokens.admin, '/agents/coder-1?workspace=acme');
      const panel = await killSwitch(page);
      expect(await shownState(panel)).toBe('frozen');
      await panel.getByRole('button', { name: 'Thaw', exact: true }).click();
      await expect.poll(() => shownState(panel), { timeout: 10_000 }).toBe('thawed');
      expect(await panel.getByRole('status').innerText()).toBe(
        'Thawed: the policy decides the calls of agent coder-1 again.',
      );
      // The focus stays on the kill switch: on the Freeze button that replaced Thaw.
      expect(
        await panel
          .getByRole('button', { name: 'Freeze', exact: true })
          .evaluate((b) => b === b.ownerDocument.activeElement),
      ).toBe(true);
      expect(await freezes()).toEqual([]);
      await expect.poll(() => decided(tokens.agent), { timeout: 5000 }).toBe('allow commits-ok');

      // Too long a reason: the server refuses it, and the page says why, still thawed.
      await panel.getByLabel('Reason').fill('x'.repeat(501));
      await panel.getByRole('button', { name: 'Freeze', exact: true }).click();
      const alert = panel.getByRole('alert');
      await alert.waitFor({ timeout: 10_000 });
      expect(await alert.innerText()).toBe(
        'Cannot freeze: The reason is too long: at most 500 characters.',
      );
      expect(await shownState(panel)).toBe('thawed');
      expect(await panel.getByLabel('Reason').inputValue()).toBe('x'.repeat(501));
      expect(await freezes()).toEqual([]);
      expect(await decided(tokens.agent)).toBe('allow commits-ok');
      // The browser's own line about the 400 is the only console error.
      expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    });

    it('a freeze the managed policy writes is shown with who set it, and offers no Thaw (G28)', async () => {
      const managed = (document: unknown) =>
        api(web.url, tokens.admin, 'PUT', '/v1/managed', { document });
      const set = await managed({
        version: 1,
        freeze: [{ workspace: 'acme', agent: 'coder-2', reason: 'incident 7' }],
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      try {
        await expect.poll(() => decided(tokens.other), { timeout: 5000 }).toBe('deny freeze:agent');
        const { page, errors } = await signedIn(tokens.admin, '/agents/coder-2?workspace=acme');
        const panel = await killSwitch(page);
        expect(await shownState(panel)).toBe('frozen');
        const said = await panel.locator('.freeze-state').innerText();
        expect(said).toContain('Frozen by the managed policy (`freeze[0]`)');
        expect(said).toContain('only they lift it');
        expect(await panel.locator('.freeze-reason').innerText()).toBe('incident 7');
        expect(await panel.getByRole('button', { name: 'Thaw' }).count()).toBe(0);
        expect(await panel.locator('.freeze-readonly').innerText()).toContain(
          'No admin can thaw this freeze',
        );
        const thaw = await api(
          web.url,
          tokens.admin,
          'DELETE',
          '/v1/agents/coder-2/freeze?workspace=acme',
        );
        expect(thaw.status).toBe(409);
        expect(errors).toEqual([]);
      } finally {
        expect((await managed({ version: 1 })).status).toBe(200);
      }
      await expect.poll(() => decided(tokens.other), { timeout: 5000 }).toBe('allow commits-ok');
    });

    it('an admin freezes the whole workspace from the list, said above everything; thawing it lets every agent act', async () => {
      const { page, errors } = await signedIn(tokens.admin, '/agents?workspace=acme');
      const kill = page.locator('.freeze[data-freeze="workspace"]');
      await kill.locator('.freeze-state').waitFor({ timeout: 10_000 });
      expect(await kill.locator('.freeze-state').getAttribute('data-state')).toBe('thawed');
      await kill.getByText('Freeze the whole workspace…').click();
      await kill.getByLabel('Reason').fill('incident 42');
      await kill.getByRole('button', { name: 'Freeze workspace' }).click();
      await expect
        .poll(() => kill.locator('.freeze-state').getAttribute('data-state'), { timeout: 10_000 })
        .toBe('frozen');
      expect(await kill.getAttribute('class')).toContain('freeze-on');
      const said = await kill.locator('.freeze-state').innerText();
      expect(said).toContain('Workspace acme is frozen: every call of every agent in it is denied');
      expect(said).toContain('Frozen by alice');
      expect(await kill.locator('.freeze-reason').innerText()).toBe('incident 42');
      // Above the list of agents.
      const above = await kill.evaluate((el) => {
        const list = el.ownerDocument.querySelector('table.ag-agents');
        return list !== null && (el.compareDocumentPosition(list) & 4) !== 0;
      });
      expect(above).toBe(true);
      await expect
        .poll(() => decided(tokens.other), { timeout: 5000 })
        .toBe('deny freeze:workspace');
      expect(await decided(tokens.agent)).toBe('deny freeze:workspace');

      // The agent's page says its workspace is frozen, to a viewer too.
      const viewer = await signedIn(tokens.viewer, '/agents/coder-2?workspace=acme');
      const panel = await killSwitch(viewer.page);
      expect(await shownState(panel)).toBe('thawed');
      expect(await panel.locator('.freeze-state').innerText()).toContain(
        'Not frozen on its own — but its whole workspace is:',
      );
      const ws = panel.locator('.freeze-workspace');
      expect(await ws.getAttribute('data-state')).toBe('frozen');
      expect(await ws.innerText()).toContain(
        'Its whole workspace acme is frozen: this agent’s calls are denied too.',
      );
      expect(await ws.locator('.freeze-reason').innerText()).toBe('incident 42');

      await kill.getByRole('button', { name: 'Thaw workspace' }).click();
      await expect
        .poll(() => kill.locator('.freeze-state').getAttribute('data-state'), { timeout: 10_000 })
        .toBe('thawed');
      expect(await kill.getAttribute('class')).not.toContain('freeze-on');
      expect(await freezes()).toEqual([]);
      await expect.poll(() => decided(tokens.other), { timeout: 5000 }).toBe('allow commits-ok');
      expect(await decided(tokens.agent)).toBe('allow commits-ok');
      expect(errors).toEqual([]);
      expect(viewer.errors).toEqual([]);
    });
  },
);
