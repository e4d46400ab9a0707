// Text from agents and admins never breaks a view, in real Chromium against a
// real `warden serve`, at a desk's width (1440 px) and a phone's (390 × 844):
// a 3,000-character command in the audit log and a 20,000-character rule
// note leave the page as wide as the screen, the outcome, rule and reason of
// the audit row stay in view, and the whole text is one "Show all" away. The
// same command in an approval card leaves the card no taller than a phone's
// screen; long names and descriptions of agents and pinned tools wrap too.
// Markup in any of them stays text.

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_SKIP,
  BROWSER_TEST_TIMEOUT,
  pageErrors,
  pageWidths,
  signInAs,
} from '../support/browser.js';
import { askPushPolicy } from '../support/ask-push-policy.js';
import { useConsole } from '../support/console-fixture.js';
import { connected, emptyInboxAfterEach } from '../support/inbox.js';
import { api } from '../support/processes.js';

const MARKUP = '<img src=x onerror=window.pwned=1>';
/** A command of 3,000 characters, most of it one unbroken branch name. */
const BRANCH = `feature/${MARKUP}${'b'.repeat(2976 - MARKUP.length)}`;
const COMMAND = `git push origin ${BRANCH}`;
if (COMMAND.length !== 3000) throw new Error(`the command is ${COMMAND.length} characters`);
/** A rule note of 20,000 characters without a space to wrap at. */
const NOTE = `${MARKUP}${'n'.repeat(20_000 - MARKUP.length)}`;
/** An agent's display name and a tool's description, long and unbroken too. */
const LONG_NAME = `Coder ${'x'.repeat(400)}`;
const DESCRIPTION = `Reads a file. ${'d'.repeat(6000)}`;

const POLICY = askPushPolicy(`  - id: long-note
    scope: workspace
    action: prCreate
    decision: prompt
    note: "${NOTE}"
  - id: soft-install
    scope: workspace
    action: packageInstall
    decision: deny
    enforcement: soft
`);

const PERMISSIONS = '/workspaces/acme/settings/workspace/permissions';
const DESK = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const web = useConsole({
  policy: POLICY,
  agents: [
    ['coder-1', '--workspace', 'acme', '--name', LONG_NAME, '--model', 'm'.repeat(300)],
    ['gateway-1', '--workspace', 'acme'],
  ],
  tokens: {
    agent: { agent: 'coder-1', name: 'coder' },
    gateway: { agent: 'gateway-1' },
    admin: { role: 'admin', name: 'alice' },
  },
  seed: async (w) => {
    // Nobody is watching yet: the push is denied at once, and the audit log holds it.
    const pushed = await api(w.url, w.tokens.agent, 'POST', '/v1/decide?wait=0', {
      tool: 'git_push',
      command: COMMAND,
      args: { refs: [BRANCH] },
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    for (const definition of [
      { name: 'read_file', description: 'Reads a file.' },
      { name: 'read_file', description: DESCRIPTION },
    ]) {
      const pinned = await api(w.url, w.tokens.gateway, 'POST', '/v1/tool-pins/check', {
        tool: `files__read_file_${'t'.repeat(120)}`,
        definition: { ...definition, inputSchema: { type: 'object' } },
      });
      expect(pinned.status, JSON.stringify(pinned.body)).toBe(200);
    }
  },
});
const { tokens } = web;

emptyInboxAfterEach(web);

/** A page of `size` signed in as the admin at `path`, with its console errors collected. */
async function at(
  size: { width: number; height: number },
  path: string,
): Promise<{ page: Page; errors: string[] }> {
  const page = await web.newPage();
  await page.setViewportSize(size);
  const errors = pageErrors(page);
  await signInAs(page, web.url, tokens.admin, path);
  return { page, errors };
}

/** Where `locator` is drawn; it must be. */
async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (b === null) throw new Error(`not drawn: ${String(locator)}`);
  return b;
}

/** That the page scrolls no sideways: the document is no wider than the screen. */
async function fitsTheWidth(page: Page): Promise<void> {
  const { viewport, document } = await pageWidths(page);
  expect(
    document,
    `the page is ${document} px wide on a ${viewport} px screen`,
  ).toBeLessThanOrEqual(viewport);
}

/** That `cell` is drawn inside the screen's width, neither cut off at the right nor scrolled away. */
async function inView(page: Page, cell: Locator): Promise<void> {
  const b = await box(cell);
  const width = page.viewportSize()?.width ?? 0;
  expect(b.x).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width).toBeLessThanOrEqual(width);
  expect(b.width).toBeGreaterThan(20);
}

/** A full-page screenshot named `name`, where `WARDEN_TEST_SCREENSHOTS` names a folder for them. */
async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env['WARDEN_TEST_SCREENSHOTS'];
  if (folder !== undefined)
    await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

/** That no markup in the text turned into an element, and no handler of it ran. */
async function markupStaysText(page: Page): Promise<void> {
  expect(await page.locator('main img').count()).toBe(0);
  expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
}

describe.skipIf(BROWSER_SKIP !== null)(
  'long text from agents and admins, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT * 2 },
  () => {
    for (const size of [DESK, PHONE])
      it(`at ${size.width} px a 3,000-character command in the audit log keeps the page the screen's width, the outcome, rule and reason in view, and is shown whole on request`, async () => {
        const { page, errors } = await at(size, `${PERMISSIONS}#audit`);
        const row = page.locator('table.audit tbody tr', { hasText: 'git push origin' });
        await row.waitFor({ timeout: 10_000 });
        await fitsTheWidth(page);
        // The table itself is no wider than its box: nothing hides off to the right.
        const scroller = page.locator('#panel-audit .scroll').first();
        const [scrollWidth, clientWidth] = (await scroller.evaluate((el) => [
          el.scrollWidth,
          el.clientWidth,
        ])) as [number, number];
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
        for (const column of ['c-outcome', 'c-rule', 'c-why']) {
          const cell = row.locator(`td.${column}`);
          await cell.scrollIntoViewIfNeeded();
          await inView(page, cell);
        }
        expect(await row.locator('td.c-outcome').innerText()).toContain('deny');
        expect(await row.locator('td.c-rule').innerText()).toContain('ask-push');

        // Folded: the command's beginning, and a control that shows it whole.
        const request = row.locator('td.c-request');
        expect((await request.innerText()).length).toBeLessThan(1000);
        const more = request.getByRole('button', {
          name: 'Show all 3,000 characters of the command',
        });
        expect(await more.getAttribute('aria-expanded')).toBe('false');
        await more.click();
        await expect.poll(() => request.locator('code', { hasText: COMMAND }).count()).toBe(1);
        // The same control folds it again.
        const less = request.getByRole('button', { name: 'Show less of the command' });
        expect(await less.getAttribute('aria-expanded')).toBe('true');
        // Whole, it wraps: the page is still the screen's width, the outcome still in view.
        await shot(page, `long-text-audit-${size.width}`);
        await fitsTheWidth(page);
        await row.locator('td.c-outcome').scrollIntoViewIfNeeded();
        await inView(page, row.locator('td.c-outcome'));
        await markupStaysText(page);
        expect(errors).toEqual([]);
      });

    for (const size of [DESK, PHONE])
      it(`at ${size.width} px a 20,000-character rule note keeps the rules tab the screen's width, and is shown whole on request`, async () => {
        const { page, errors } = await at(size, `${PERMISSIONS}#rules`);
        const rule = page.locator('#panel-rules li.rule[data-rule="long-note"]');
        await rule.waitFor({ timeout: 10_000 });
        await fitsTheWidth(page);
        const sentence = rule.locator('.sentence');
        expect((await sentence.innerText()).length).toBeLessThan(1000);
        // The rule's id and its Edit button are on the screen, not pushed off it.
        await inView(page, rule.getByRole('button', { name: 'Edit rule long-note' }));
        await rule.getByRole('button', { name: /^Show all 20,\d{3} characters/ }).click();
        await expect.poll(async () => (await sentence.innerText()).includes(NOTE)).toBe(true);
        await fitsTheWidth(page);
        // Drawn again (a search here; the proof's answer or a new read alike), it stays whole.
        await page.locator('#panel-rules input[type="search"]').fill('long-note');
        await expect
          .poll(() => page.locator('#panel-rules .rule-count').innerText())
          .toMatch(/ of /);
        expect((await sentence.innerText()).includes(NOTE)).toBe(true);
        await page.locator('#panel-rules input[type="search"]').fill('');
        await rule.locator('.fold-toggle').click();
        await shot(page, `long-text-rules-${size.width}`);
        await inView(page, rule.locator('.meta code').first());
        // The same rule explained from its matrix cell.
        await page.getByRole('tab', { name: 'Matrix' }).click();
        await page.locator('button.cell[data-class="prCreate"][data-scope="workspace"]').click();
        await page.locator('.cell-detail h2').waitFor();
        await fitsTheWidth(page);
        await markupStaysText(page);
        expect(errors).toEqual([]);
      });

    it('at 390 × 844 an approval card with a 3,000-character command fits the screen, its answers on it, and shows the command whole on request', async () => {
      const { page, errors } = await at(PHONE, '/approvals');
      await connected(page, 'alice');
      const asked = await api(web.url, tokens.agent, 'POST', '/v1/decide?wait=0', {
        tool: 'git_push',
        command: COMMAND,
        args: { refs: [BRANCH] },
        arguments: { remote: 'origin', branch: BRANCH, note: 'y'.repeat(2000) },
      });
      expect(asked.body.approvalId, JSON.stringify(asked.body)).toEqual(expect.any(String));
      const soft = await api(web.url, tokens.agent, 'POST', '/v1/decide', {
        tool: 'run_command',
        command: `npm install ${'p'.repeat(2980)}`,
      });
      expect(soft.body.approvalId, JSON.stringify(soft.body)).toEqual(expect.any(String));
      const cards = page.locator('#inbox-pending > li.ap-card');
      await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(2);
      await shot(page, 'long-text-phone-cards');
      await fitsTheWidth(page);
      for (const card of await cards.all()) {
        const b = await box(card);
        expect(b.height, `a card is ${b.height} px tall`).toBeLessThanOrEqual(PHONE.height);
        expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
      }
      const prompt = page.locator(`#inbox-pending > li[data-id="${asked.body.approvalId}"]`);
      for (const name of ['Approve once', 'Deny']) {
        const button = prompt.getByRole('button', { name, exact: true });
        await button.scrollIntoViewIfNeeded();
        expect((await box(button)).height).toBeGreaterThanOrEqual(44);
      }
      // "Approve for a while" and the request's details are one tap away.
      await prompt.locator('summary', { hasText: 'Approve for a while' }).click();
      await prompt.getByRole('button', { name: /^Approve for 8 h/ }).waitFor();
      await prompt.locator('summary', { hasText: 'More about this request' }).click();
      await prompt.locator('pre.ap-args').waitFor();
      // The command whole, on request; still nothing wider than the screen.
      const action = prompt.locator('.ap-facts dd').first();
      await action.getByRole('button', { name: /^Show all 3,000 characters/ }).click();
      await expect.poll(() => action.locator('code', { hasText: COMMAND }).count()).toBe(1);
      await fitsTheWidth(page);
      await markupStaysText(page);
      expect(errors).toEqual([]);
    });

    for (const size of [DESK, PHONE])
      it(`at ${size.width} px the agents, an agent's timeline, the pinned tools and the matrix stay the screen's width with long names and text`, async () => {
        const { page, errors } = await at(size, '/agents?workspace=acme');
        const row = page.locator('table.ag-agents tr[data-agent="coder-1"]');
        await row.waitFor({ timeout: 10_000 });
        await fitsTheWidth(page);
        // The display name folded, whole on request.
        await row.getByRole('button', { name: /^Show all 406 characters/ }).click();
        await expect.poll(() => row.innerText()).toContain(LONG_NAME);
        await fitsTheWidth(page);

        await page.goto(`${web.url}/agents/coder-1?workspace=acme`);
        const entry = page
          .locator('table.ag-timeline tbody tr', { hasText: 'git push origin' })
          .first();
        await entry.waitFor({ timeout: 10_000 });
        await fitsTheWidth(page);
        await inView(page, entry.locator('td').nth(3));

        await page.goto(`${web.url}/workspaces/acme/tools`);
        const change = page.locator('article.pin-change');
        await change.waitFor({ timeout: 10_000 });
        await fitsTheWidth(page);
        const described = change.locator('[data-field="description"][data-side="new"]');
        expect((await described.innerText()).length).toBeLessThan(3000);
        await change
          .getByRole('button', { name: /^Show all 6,014 characters of the description/ })
          .click();
        await expect.poll(() => described.innerText()).toBe(DESCRIPTION);
        await fitsTheWidth(page);

        await page.goto(`${web.url}${PERMISSIONS}#matrix`);
        await page.locator('table.matrix').waitFor({ timeout: 10_000 });
        await fitsTheWidth(page);
        await markupStaysText(page);
        expect(errors).toEqual([]);
      });
  },
);
