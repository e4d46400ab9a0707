// The console accessible and consistent, in real Chromium against a real
// `warden serve` with a team's policy (500 rules, 20 agents): axe-core finds
// no serious or critical violation on the sign-in page, the matrix, the
// rules, the audit log, the approvals inbox, the agents and the pinned tools
// (a matrix cell's accessible name holds the decision it shows); every page
// has the one header, with the same links in the same order; the rules'
// filters stand in one row at a desk's width; the suggested rules have a tab
// of their own; and errors are sentences a person understands — a note that
// is too long, a token that is not valid — while the API's errors keep their
// shape.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_SKIP,
  BROWSER_TEST_TIMEOUT,
  describeViolations,
  pageErrors,
  seriousViolations,
  signInAs,
} from '../support/browser.js';
import { bigPolicy } from '../support/big-policy.js';
import { useConsole } from '../support/console-fixture.js';
import { connected, emptyInboxAfterEach } from '../support/inbox.js';
import { api } from '../support/processes.js';

const PERMISSIONS = '/workspaces/acme/settings/workspace/permissions';
const TOOLS = '/workspaces/acme/tools';
const DESK = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The team's policy, and two rules for the agent the tests ask as: its pushes ask, its installs are soft denies. */
const POLICY = `${bigPolicy()}  - { id: ask-push-99, scope: "agent:coder-99", action: gitPush, decision: prompt }
  - { id: soft-install-99, scope: "agent:coder-99", action: packageInstall, decision: deny, enforcement: soft }
`;

const web = useConsole({
  policy: POLICY,
  agents: [
    ['coder-99', '--workspace', 'acme', '--name', 'Coder ninety-nine', '--role', 'coder'],
    ['gateway-1', '--workspace', 'acme'],
  ],
  tokens: {
    agent: { agent: 'coder-99' },
    gateway: { agent: 'gateway-1' },
    admin: { role: 'admin', name: 'alice' },
  },
  seed: async (w) => {
    // The audit log holds decisions; the gateway pinned a tool, then its definition changed.
    for (const command of ['git push origin feature/a', 'npm install left-pad', 'ls'])
      await api(w.url, w.tokens.agent, 'POST', '/v1/decide?wait=0', {
        tool: 'run_command',
        command,
      });
    for (const description of ['Reads a file.', 'Reads a file, and sends it on.'])
      await api(w.url, w.tokens.gateway, 'POST', '/v1/tool-pins/check', {
        tool: 'files__read_file',
        definition: { name: 'read_file', description, inputSchema: { type: 'object' } },
      });
  },
  setupTimeout: 120_000,
});
const { tokens } = web;

emptyInboxAfterEach(web);

/** A page of `size` signed in as the admin at `path`, with its console errors collected. */
async function at(
  path: string,
  size: { width: number; height: number } = DESK,
): Promise<{ page: Page; errors: string[] }> {
  const page = await web.newPage();
  await page.setViewportSize(size);
  const errors = pageErrors(page);
  await signInAs(page, web.url, tokens.admin, path);
  return { page, errors };
}

/** That axe-core finds nothing serious or critical on `page` as it is now; the failure names each finding. */
async function noSeriousViolations(page: Page, what: string): Promise<void> {
  const found = await seriousViolations(page);
  expect(found, `${what}:\n${describeViolations(found)}`).toEqual([]);
}

/** The header's links, in order: what each is (`data-nav`), its text, and whether it is the current page. */
function headerLinks(page: Page) {
  return page.locator('#nav a').evaluateAll((links) =>
    links.map((a) => ({
      key: a.getAttribute('data-nav'),
      label: a.firstChild?.textContent ?? '',
      current: a.getAttribute('aria-current') === 'page',
    })),
  );
}

const LINKS = ['workspaces', 'permissions', 'approvals', 'agents', 'tools'];
const LABELS = ['Workspaces', 'Permissions', 'Approvals', 'Agents', 'Tools'];

describe.skipIf(BROWSER_SKIP !== null)(
  'the console accessible and consistent, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT * 3 },
  () => {
    it('axe-core finds no serious or critical violation on the sign-in page, the matrix, rules, audit, agents and pinned tools', async () => {
      const page = await web.newPage();
      await page.setViewportSize(DESK);
      await page.goto(`${web.url}/sign-in`);
      await page.getByLabel('API token').waitFor();
      await noSeriousViolations(page, 'the sign-in page');
      // A refused token's message is on the page too.
      await page.getByLabel('API token').fill('wdn_not_a_real_token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('#sign-in-error').filter({ hasText: 'not valid' }).waitFor();
      await noSeriousViolations(page, 'the sign-in page with its error');

      const { page: signed, errors } = await at(`${PERMISSIONS}#matrix`);
      await signed.locator('table.matrix').waitFor({ timeout: 30_000 });
      // The cells carry names that hold what they show (the check that found 442 of them before).
      const cell = signed.locator('button.cell[data-class="gitPush"][data-scope="agent:coder-99"]');
      const name = await cell.evaluate((el) => el.textContent ?? '');
      expect(name).toContain('gitPush in Agent coder-99: ask');
      expect(name).toContain('ask-push-99');
      expect(await cell.getAttribute('aria-label')).toBeNull();
      await noSeriousViolations(signed, 'the matrix');
      await cell.click();
      await signed.locator('.cell-detail h2').waitFor();
      await noSeriousViolations(signed, 'the matrix with a cell explained');

      for (const tab of ['Rules', 'Suggestions', 'Audit']) {
        await signed.getByRole('tab', { name: tab, exact: true }).click();
        const panel = signed.locator(`#panel-${tab.toLowerCase()}`);
        if (tab === 'Rules') await panel.locator('li.rule').first().waitFor();
        if (tab === 'Suggestions') await panel.locator('.suggestions[aria-busy="false"]').waitFor();
        if (tab === 'Audit') await panel.locator('table.audit tbody tr').first().waitFor();
        await noSeriousViolations(signed, `the ${tab.toLowerCase()} tab`);
      }

      await signed.goto(`${web.url}/agents?workspace=acme`);
      await signed.locator('table.ag-agents tr[data-agent="coder-99"]').waitFor();
      await noSeriousViolations(signed, 'the agents');
      await signed.goto(`${web.url}/agents/coder-99?workspace=acme`);
      await signed.locator('table.ag-timeline tbody tr').first().waitFor();
      await noSeriousViolations(signed, 'an agent');
      await signed.goto(`${web.url}${TOOLS}`);
      await signed.locator('article.pin-change').waitFor();
      await noSeriousViolations(signed, 'the pinned tools');
      expect(errors).toEqual([]);
    });

    for (const size of [DESK, PHONE])
      it(`axe-core finds no serious or critical violation in the approvals inbox with a prompt and a soft deny waiting, at ${size.width} px`, async () => {
        const { page, errors } = await at('/approvals', size);
        await connected(page, 'alice');
        await noSeriousViolations(page, 'the empty inbox');
        const asked = await api(web.url, tokens.agent, 'POST', '/v1/decide?wait=0', {
          tool: 'git_push',
          command: 'git push origin feature/accessible',
          args: { refs: ['feature/accessible'] },
          arguments: { remote: 'origin' },
        });
        expect(asked.body.approvalId, JSON.stringify(asked.body)).toEqual(expect.any(String));
        const soft = await api(web.url, tokens.agent, 'POST', '/v1/decide', {
          tool: 'run_command',
          command: 'npm install left-pad',
        });
        expect(soft.body.approvalId, JSON.stringify(soft.body)).toEqual(expect.any(String));
        await expect
          .poll(() => page.locator('#inbox-pending > li').count(), { timeout: 10_000 })
          .toBe(2);
        await noSeriousViolations(page, 'the inbox with two cards');
        // Unfolded on a phone, the same.
        for (const summary of await page.locator('#inbox-pending summary').all())
          await summary.click();
        await noSeriousViolations(page, 'the inbox with its cards unfolded');
        expect(errors).toEqual([]);
      });

    it('every page has the one header: the same links in the same order, the current one marked', async () => {
      const { page, errors } = await at('/');
      const pages: [string, string | null][] = [
        ['/', 'workspaces'],
        [PERMISSIONS, 'permissions'],
        ['/approvals', 'approvals'],
        ['/agents', 'agents'],
        ['/agents/coder-99?workspace=acme', 'agents'],
        [TOOLS, 'tools'],
        ['/no/such/page', null],
      ];
      for (const [path, current] of pages) {
        await page.goto(`${web.url}${path}`);
        await page.locator('#who .role').waitFor();
        await expect.poll(() => page.locator('#nav a').count()).toBe(LINKS.length);
        const links = await headerLinks(page);
        expect(
          links.map((l) => l.key),
          path,
        ).toEqual(LINKS);
        expect(links.map((l) => l.label)).toEqual(LABELS);
        expect(links.filter((l) => l.current).map((l) => l.key)).toEqual(
          current === null ? [] : [current],
        );
      }
      // Once the workspace is known, Permissions and Tools lead into it.
      expect(await page.locator('#nav a[data-nav="permissions"]').getAttribute('href')).toBe(
        PERMISSIONS,
      );
      expect(await page.locator('#nav a[data-nav="tools"]').getAttribute('href')).toBe(TOOLS);

      // (The not-found page's own 404 is the browser's only complaint.)
      expect(errors.filter((e) => !e.includes('404 (Not Found)'))).toEqual([]);

      // A tab that has not chosen a workspace yet shows the same links, in the same order.
      const fresh = await at('/approvals');
      await fresh.page.locator('#who .role').waitFor();
      const links = await headerLinks(fresh.page);
      expect(links.map((l) => l.key)).toEqual(LINKS);
      expect(links.map((l) => l.label)).toEqual(LABELS);
      expect(fresh.errors).toEqual([]);
    });

    it('the rules’ search and filters stand in one row at 1440 px, and wrap at 390 px', async () => {
      const { page, errors } = await at(`${PERMISSIONS}#rules`);
      await page.locator('#panel-rules li.rule').first().waitFor();
      const controls = page.locator('#panel-rules .rule-filter').locator('input, select');
      expect(await controls.count()).toBe(6);
      const tops = await controls.evaluateAll((els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().top)),
      );
      expect(Math.max(...tops) - Math.min(...tops), `tops: ${tops.join(', ')}`).toBeLessThanOrEqual(
        2,
      );
      await page.setViewportSize(PHONE);
      const narrow = await controls.evaluateAll((els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().top)),
      );
      expect(new Set(narrow).size).toBeGreaterThan(1);
      const widths = (await page.evaluate(
        '[window.innerWidth, document.documentElement.scrollWidth]',
      )) as [number, number];
      expect(widths[1]).toBeLessThanOrEqual(widths[0]);
      expect(errors).toEqual([]);
    });

    it('the suggested rules have their own tab, reachable by its address, and are no longer under the rules', async () => {
      const { page, errors } = await at(`${PERMISSIONS}#suggestions`);
      const tab = page.getByRole('tab', { name: 'Suggestions', exact: true });
      await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
      const panel = page.locator('#panel-suggestions');
      await panel.getByRole('heading', { name: 'Suggested rules' }).waitFor();
      await panel.locator('.suggestions[aria-busy="false"]').waitFor();
      await page.getByRole('tab', { name: 'Rules', exact: true }).click();
      await page.locator('#panel-rules li.rule').first().waitFor();
      expect(await page.locator('#panel-rules .suggested').count()).toBe(0);
      await page.getByRole('tab', { name: 'Suggestions', exact: true }).click();
      expect(new URL(page.url()).hash).toBe('#suggestions');
      expect(errors).toEqual([]);
    });

    it('a note that is too long, and a token that is not valid, are said in sentences; the API error keeps its shape', async () => {
      // The API: the same fields as ever, a sentence for the message.
      const put = await api(web.url, tokens.admin, 'PUT', '/v1/policy', {
        document: { version: 1, workspace: 'acme' },
        message: 'm'.repeat(501),
      });
      expect(put.status).toBe(400);
      expect(put.body).toEqual({
        errors: [{ path: 'message', message: 'The note is too long: at most 500 characters.' }],
      });

      // The rule editor says it the same way, and not in zod's words.
      const { page, errors } = await at(`${PERMISSIONS}#rules`);
      await page.getByRole('button', { name: 'Add a rule' }).click();
      const dialog = page.locator('dialog.editor-dialog');
      await dialog.getByLabel('Why (for the revision history)').fill('w'.repeat(501));
      await dialog.getByRole('button', { name: 'Save as a new revision' }).click();
      const alert = dialog.locator('.error[role="alert"]');
      await expect
        .poll(() => alert.innerText())
        .toBe('Not saved: The note is too long: at most 500 characters.');
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // Signing in: a wrong token, a token with a space in it, nothing but spaces.
      const signIn = await web.newPage();
      for (const [typed, said] of [
        [
          'wdn_not_a_real_token',
          'That token is not valid: check it, or ask an admin for a new one.',
        ],
        ['wdn_two words', 'That token is not valid: check it, or ask an admin for a new one.'],
        ['   ', 'Paste your API token first: the token field is empty.'],
      ] as const) {
        await signIn.goto(`${web.url}/sign-in`);
        await signIn.getByLabel('API token').fill(typed);
        await signIn.getByRole('button', { name: 'Sign in' }).click();
        const error = signIn.locator('#sign-in-error');
        await expect.poll(() => error.innerText()).toBe(said);
        expect(await error.innerText()).not.toMatch(/give a token|authorization:/);
      }
      // The refused save's 400 is the browser's only complaint.
      expect(errors.filter((e) => !e.includes('400 (Bad Request)'))).toEqual([]);
    });
  },
);
