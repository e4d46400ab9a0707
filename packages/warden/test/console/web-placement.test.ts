// Where agents act, in the console in Chromium against a real `warden serve`:
// the agents table and an agent's page show each agent's registered space
// and mode ("none" without one); an admin places an agent from its page with
// a space picker and a mode picker (the policy's spaces and modes, and none),
// after which its page, the agents table and the permissions matrix's column
// show the new placement, and its name, role and model are kept; a refused
// placement is said in a sentence; a viewer sees the placement but no control.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT } from '../support/browser.js';
import { useConsole } from '../support/console-fixture.js';
import { api } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
spaces:
  infra: { autonomy: proposeOnly }
  payments: { autonomy: actFreely }
modes:
  review:
    preset:
      - { action: gitPush, decision: deny }
  ship:
    preset:
      - { action: gitPush, decision: allow }
rules:
  - { id: ask-push, scope: workspace, action: gitPush, decision: prompt }
`;

/** The agents the suite registers: one placed, two not yet, each with a name, role and model. */
const AGENTS = [
  {
    id: 'coder-1',
    name: 'Coder One',
    role: 'coder',
    model: 'model-1',
    space: 'infra',
    mode: 'review',
  },
  { id: 'coder-2', name: 'Coder Two', role: 'coder', model: 'model-2', space: null, mode: null },
  { id: 'coder-3', name: 'Coder Three', role: 'coder', model: 'model-3', space: null, mode: null },
] as const;

const PERMISSIONS = '/workspaces/acme/settings/workspace/permissions';

const web = useConsole({
  policy: POLICY,
  tokens: {
    admin: { role: 'admin', name: 'alice' },
    viewer: { role: 'viewer', name: 'vic' },
  },
  seed: async (fixture) => {
    for (const { id, ...body } of AGENTS) {
      const put = await api(
        fixture.url,
        fixture.tokens.admin,
        'PUT',
        `/v1/agents/${id}?workspace=acme`,
        body,
      );
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    }
  },
});
const { tokens } = web;

/** The text of an agent's Space and Mode cells in the agents table. */
async function tableRow(page: Page, agent: string): Promise<{ space: string; mode: string }> {
  const row = page.locator(`tr[data-agent="${agent}"]`);
  await row.waitFor({ timeout: 10_000 });
  return {
    space: await row.locator('td[data-col="space"]').innerText(),
    mode: await row.locator('td[data-col="mode"]').innerText(),
  };
}

/** The Space and Mode an agent's page says. */
async function pageFacts(page: Page): Promise<{ space: string; mode: string }> {
  const facts = page.locator('#agent-facts');
  await facts.waitFor({ timeout: 10_000 });
  return {
    space: await facts.locator('dd[data-fact="space"]').innerText(),
    mode: await facts.locator('dd[data-fact="mode"]').innerText(),
  };
}

/** What the server holds of `agent`. */
async function registered(agent: string): Promise<Record<string, unknown>> {
  const listed = await api(web.url, tokens.viewer, 'GET', '/v1/agents?workspace=acme');
  const found = (listed.body.agents as Record<string, unknown>[]).find((a) => a.id === agent);
  if (found === undefined) throw new Error(`${agent} is not listed`);
  return found;
}

describe.skipIf(BROWSER_SKIP !== null)(
  'placing agents in spaces and modes, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT * 2 },
  () => {
    it('a viewer sees each agent’s space and mode in the table and on its page, "none" without, and no control to place it', async () => {
      const { page, errors } = await web.signedIn(tokens.viewer, '/agents');
      await page.locator('tr[data-agent="coder-1"]').waitFor({ timeout: 10_000 });
      expect(await page.getByRole('columnheader', { name: 'Space', exact: true }).count()).toBe(1);
      expect(await page.getByRole('columnheader', { name: 'Mode', exact: true }).count()).toBe(1);
      expect(await tableRow(page, 'coder-1')).toEqual({ space: 'infra', mode: 'review' });
      expect(await tableRow(page, 'coder-2')).toEqual({ space: 'none', mode: 'none' });

      await page.locator('tr[data-agent="coder-1"]').getByRole('link', { name: 'coder-1' }).click();
      await page.waitForURL('**/agents/coder-1?workspace=acme');
      expect(await pageFacts(page)).toEqual({ space: 'infra', mode: 'review' });
      // The rest of the page is drawn, and no control to place the agent is among it.
      await page.getByRole('heading', { name: 'Audit timeline' }).waitFor();
      expect(await page.getByRole('form', { name: 'Place this agent' }).count()).toBe(0);
      expect(await page.locator('#place-space, #place-mode').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Place', exact: true }).count()).toBe(0);
      expect(errors).toEqual([]);
    });

    it('an admin places an agent from its page: the page, the table and the matrix show the new place, and its name, role and model stay', async () => {
      const { page, errors } = await web.signedIn(tokens.admin, `${PERMISSIONS}#matrix`);
      // The matrix read once before the placement: its column of coder-2 says it is nowhere.
      const column = page.locator('table.matrix thead th[data-scope="agent:coder-2"]');
      await column.waitFor({ timeout: 30_000 });
      expect(await column.getAttribute('title')).toBe('agent coder-2, in no space and no mode');

      await page.goto(`${web.url}/agents/coder-2?workspace=acme`);
      expect(await pageFacts(page)).toEqual({ space: 'none', mode: 'none' });
      const form = page.getByRole('form', { name: 'Place this agent' });
      const space = form.getByLabel('Space', { exact: true });
      const mode = form.getByLabel('Mode', { exact: true });
      // The policy's spaces and modes, and none; none chosen, as the agent is.
      await expect.poll(() => space.isEnabled()).toBe(true);
      expect(await space.locator('option').allInnerTexts()).toEqual(['none', 'infra', 'payments']);
      expect(await mode.locator('option').allInnerTexts()).toEqual(['none', 'review', 'ship']);
      expect(await space.inputValue()).toBe('');
      expect(await mode.inputValue()).toBe('');

      await space.selectOption('payments');
      await mode.selectOption('ship');
      await form.getByRole('button', { name: 'Place' }).click();
      await expect
        .poll(() => form.getByRole('status').innerText())
        .toBe('Placed in space payments and mode ship.');
      expect(await pageFacts(page)).toEqual({ space: 'payments', mode: 'ship' });
      expect(await space.inputValue()).toBe('payments');
      expect(await mode.inputValue()).toBe('ship');
      // Written as shown, and nothing else of the agent lost.
      expect(await registered('coder-2')).toMatchObject({
        space: 'payments',
        mode: 'ship',
        name: 'Coder Two',
        role: 'coder',
        model: 'model-2',
      });

      // The table shows it, reached through the console's own links.
      await page.getByRole('link', { name: '← All agents' }).click();
      await page.waitForURL('**/agents?workspace=acme');
      expect(await tableRow(page, 'coder-2')).toEqual({ space: 'payments', mode: 'ship' });

      // The matrix, read on its next load, decides coder-2's column there and says so.
      await page.locator('#nav a[data-nav="permissions"]').click();
      await page.waitForURL(`**${PERMISSIONS}*`);
      await expect
        .poll(() => column.getAttribute('title'), { timeout: 30_000 })
        .toBe('agent coder-2, in space payments and mode ship');
      expect(await column.locator('.col-place').innerText()).toBe('space payments · mode ship');
      // Its push: the mode's preset allows it, and payments acts freely.
      expect(
        await page
          .locator('button.cell[data-class="gitPush"][data-scope="agent:coder-2"]')
          .getAttribute('data-effective'),
      ).toBe('allow');

      // Back to none, the same way.
      await page.goto(`${web.url}/agents/coder-2?workspace=acme`);
      await expect.poll(() => space.isEnabled()).toBe(true);
      expect(await space.inputValue()).toBe('payments');
      await space.selectOption('');
      await mode.selectOption('');
      await form.getByRole('button', { name: 'Place' }).click();
      await expect
        .poll(() => form.getByRole('status').innerText())
        .toBe('Placed in no space and no mode.');
      expect(await pageFacts(page)).toEqual({ space: 'none', mode: 'none' });
      expect(await registered('coder-2')).toMatchObject({
        space: null,
        mode: null,
        name: 'Coder Two',
        model: 'model-2',
      });
      expect(errors).toEqual([]);
    });

    it('a refused placement is said in a sentence, and what is shown stays as the server holds it', async () => {
      const { page, errors } = await web.signedIn(tokens.admin, '/agents/coder-3?workspace=acme');
      // The server refuses it (as it would a space name over its limit).
      await page.route('**/v1/agents/coder-3?*', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({
              status: 400,
              contentType: 'application/json',
              body: JSON.stringify({
                errors: [
                  {
                    code: 'invalid_value',
                    path: 'space',
                    message: 'The space is too long: at most 256 characters.',
                  },
                ],
              }),
            })
          : route.continue(),
      );
      const form = page.getByRole('form', { name: 'Place this agent' });
      const space = form.getByLabel('Space', { exact: true });
      await expect.poll(() => space.isEnabled()).toBe(true);
      await space.selectOption('infra');
      await form.getByRole('button', { name: 'Place' }).click();
      const alert = form.getByRole('alert');
      await expect
        .poll(() => alert.innerText())
        .toBe('Not placed. The space is too long: at most 256 characters.');
      expect(await pageFacts(page)).toEqual({ space: 'none', mode: 'none' });
      expect(await registered('coder-3')).toMatchObject({ space: null, mode: null });
      // The browser's own line about the 400 is the only console error.
      expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    });
  },
);
