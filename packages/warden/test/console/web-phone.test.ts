// Approving from a phone, in real Chromium against a real `warden serve`: at
// 390 × 844 the inbox and its cards fit the screen (no sideways scrolling,
// the header wraps) and the answers are big enough to tap; the tab's title
// counts the waiting prompts as they come and go; the prompt that times out
// soonest is on top; the reason's `code` parts are <code> elements while the
// agent's and the policy's markup stays text; and a notification says how
// many prompts wait — only after the person turned it on, only while the
// tab is hidden.

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from '../support/processes.js';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT, pageErrors, signInAs } from '../support/browser.js';
import type { SignedIn } from '../support/console-fixture.js';
import { useConsole } from '../support/console-fixture.js';
import { askPushPolicy } from '../support/ask-push-policy.js';
import { castTokens } from '../support/console-cast.js';
import {
  HIDDEN_TAB,
  askPending,
  askPush,
  card,
  connected,
  emptyInboxAfterEach,
  setHidden,
} from '../support/inbox.js';

/** Markup a rule's pattern holds (outside the reason's back-quotes) and a request's path (inside them). */
const POLICY_MARKUP = '<img src=x onerror=window.pwned=1>';
const PATH_MARKUP = '<img src=x onerror=window.pwned=2>';

const POLICY = askPushPolicy(`  - id: ask-marked
    scope: workspace
    action: fileDelete
    decision: prompt
    when: { paths: ['${POLICY_MARKUP}*'] }
  - id: soft-install
    scope: workspace
    action: packageInstall
    decision: deny
    enforcement: soft
`);

const PHONE = { width: 390, height: 844 };

const web = useConsole({
  policy: POLICY,
  tokens: castTokens('agent', 'approver', 'admin'),
  setupTimeout: 60_000,
});
const { tokens } = web;

const ask = (body: Record<string, unknown>): Promise<string> => askPending(web, body);
const push = (branch: string): Promise<string> => askPush(web, branch);

/** A soft deny: an overrider may override it (for an hour, the server's default). */
async function softDeny(name: string): Promise<string> {
  const denied = await api(web.url, tokens.agent, 'POST', '/v1/decide', {
    tool: 'run_command',
    command: `npm install ${name}`,
  });
  expect(denied.body).toMatchObject({ decision: 'deny', enforcement: 'soft' });
  return denied.body.approvalId as string;
}

emptyInboxAfterEach(web);

/**
 * Run in the page before its own scripts: the real `Notification`, watched —
 * each notification made and each permission asked is recorded — and whether
 * the tab is hidden, as the test says (`window.setHidden`).
 */
const WATCH_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  window.notices = [];
  window.asked = 0;
  class Watched extends Real {
    constructor(title, options) {
      window.notices.push({ title, body: (options && options.body) || '' });
      super(title, options);
    }
    static get permission() {
      return Real.permission;
    }
    static requestPermission(callback) {
      window.asked += 1;
      return Real.requestPermission(callback);
    }
  }
  window.Notification = Watched;
  ${HIDDEN_TAB}
})();`;

/** A signed-in inbox of `token`, connected as `name`; at phone size when told. */
async function inbox(token: string, name: string, phone = false): Promise<SignedIn> {
  const page = await web.newPage();
  if (phone) await page.setViewportSize(PHONE);
  const errors = pageErrors(page);
  await signInAs(page, web.url, token, '/approvals');
  await page.waitForURL('**/approvals');
  await connected(page, name);
  return { page, errors, dialogs: [] };
}

/** Where `locator` is drawn; it must be. */
async function box(
  locator: Locator,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const at = await locator.boundingBox();
  if (at === null) throw new Error(`not drawn: ${String(locator)}`);
  return at;
}

/** The widths that show sideways scrolling. */
function widths(page: Page) {
  return page.evaluate(`({
    viewport: window.innerWidth,
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
  })`) as Promise<{ viewport: number; document: number; body: number }>;
}

describe.skipIf(BROWSER_SKIP !== null)(
  'approving from a phone, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('at 390 px the header wraps, nothing scrolls sideways, and Approve and Deny are on screen and at least 44 px tall', async () => {
      const { page, errors } = await inbox(tokens.admin, 'alice', true);
      const branch = 'a-rather-long-branch-name-that-a-small-screen-cannot-show-on-one-line';
      const prompt = await ask({
        tool: 'git_push',
        command: `git push origin feature/${branch}`,
        args: { refs: [`feature/${branch}`] },
        arguments: { remote: 'origin', branch: 'x'.repeat(120), note: PATH_MARKUP },
      });
      const soft = await softDeny('some-package-with-a-name-long-enough-to-need-wrapping');
      const promptCard = card(page, prompt);
      await promptCard.waitFor({ timeout: 10_000 });
      const softCard = card(page, soft);
      await softCard.waitFor({ timeout: 10_000 });

      // The header wrapped: who is signed in sits under the brand, inside the screen.
      const brand = await box(page.locator('header.bar .brand'));
      const who = await box(page.locator('#who'));
      const header = await box(page.locator('header.bar'));
      expect(who.y).toBeGreaterThan(brand.y + brand.height - 1);
      expect(header.x + header.width).toBeLessThanOrEqual(PHONE.width);

      const seen = await widths(page);
      expect(seen.viewport).toBe(PHONE.width);
      expect(seen.document).toBeLessThanOrEqual(PHONE.width);
      expect(seen.body).toBeLessThanOrEqual(PHONE.width);

      // Every answer is reachable on screen, and tall enough to tap; "approve for a
      // while" is folded on a phone, one tap away.
      await promptCard.locator('summary', { hasText: 'Approve for a while' }).click();
      const buttons = [
        promptCard.getByRole('button', { name: 'Approve once' }),
        promptCard.getByRole('button', { name: /Approve for/ }),
        promptCard.getByRole('button', { name: 'Deny', exact: true }),
        softCard.getByRole('button', { name: 'Override' }),
        softCard.getByRole('button', { name: 'Keep denied' }),
      ];
      for (const button of buttons) {
        await button.scrollIntoViewIfNeeded();
        const at = await box(button);
        expect(at.height).toBeGreaterThanOrEqual(44);
        expect(at.x).toBeGreaterThanOrEqual(0);
        expect(at.x + at.width).toBeLessThanOrEqual(PHONE.width);
      }
      if (process.env['WARDEN_TEST_SCREENSHOTS'] !== undefined)
        await page.screenshot({
          path: `${process.env['WARDEN_TEST_SCREENSHOTS']}/phone-inbox.png`,
          fullPage: true,
        });

      // Tapped, it answers; still nothing wider than the screen.
      await promptCard.getByRole('button', { name: 'Approve once' }).click();
      await page.locator(`#inbox-settled > li[data-id="${prompt}"]`).waitFor();
      expect((await widths(page)).document).toBeLessThanOrEqual(PHONE.width);
      expect(errors).toEqual([]);
    });

    it('the tab’s title counts the waiting prompts: up when one arrives, down when one is answered', async () => {
      const { page, errors } = await inbox(tokens.approver, 'bob');
      await expect.poll(() => page.title()).toBe('Approvals · Warden');
      const first = await push('one');
      await card(page, first).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(1) Approvals · Warden');
      const second = await push('two');
      await card(page, second).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(2) Approvals · Warden');
      // Answered here …
      await card(page, first).getByRole('button', { name: 'Approve once' }).click();
      await page.locator(`#inbox-settled > li[data-id="${first}"]`).waitFor();
      await expect.poll(() => page.title()).toBe('(1) Approvals · Warden');
      // … or elsewhere.
      const byAlice = await api(web.url, tokens.admin, 'POST', `/v1/approvals/${second}/answer`, {
        kind: 'deny',
      });
      expect(byAlice.status).toBe(200);
      await expect.poll(() => page.title()).toBe('Approvals · Warden');
      expect(errors).toEqual([]);
    });

    it('the prompt that times out soonest is on top, though it was asked last; every card words its timeout the same', async () => {
      const { page, errors } = await inbox(tokens.admin, 'alice');
      // A soft deny may be overridden for an hour; a prompt times out in a minute.
      const softId = await softDeny('left-pad');
      await card(page, softId).waitFor({ timeout: 10_000 });
      const prompt = await push('sorted');
      await card(page, prompt).waitFor({ timeout: 10_000 });
      const order = await page
        .locator('#inbox-pending > li')
        .evaluateAll((items) => items.map((li) => li.getAttribute('data-id')));
      expect(order).toEqual([prompt, softId]);
      // The one wording for the time left, on both cards.
      for (const id of [prompt, softId])
        expect(await card(page, id).locator('.ap-when').innerText()).toMatch(
          /· times out .+ \(\d+ (s|min) left\)$/,
        );
      // And one for an approval that ended at its time, apart from one that ended before it.
      const ended = (await page.evaluate(`import('/ui/pages/approvals/format.js').then((f) => {
        const at = (answeredAt, closedReason, kind = 'prompt') => f.settledText(
          { state: 'expired', kind, answer: null, answeredAt, closedReason, expiresAt: '2026-01-01T00:01:00.000Z' },
          false,
        );
        return [
          at('2026-01-01T00:01:00.000Z', 'no answer within 60 s'),
          at('2026-01-01T01:00:00.000Z', 'no override within 3600 s', 'override'),
          at('2026-01-01T00:00:10.000Z', 'no approver is connected any more'),
        ];
      })`)) as string[];
      expect(ended).toEqual([
        'Timed out: no answer within 60 s, so the prompt is denied (an unanswered question is never a yes).',
        'Timed out: no override within 3600 s, so the call stays denied.',
        'Ended without an answer: no approver is connected any more. The agent was denied.',
      ]);
      expect(errors).toEqual([]);
    });

    it('the reason’s `code` parts are <code> elements, and markup inside or outside them stays text', async () => {
      const { page, errors } = await inbox(tokens.approver, 'bob');
      const path = `${POLICY_MARKUP}${PATH_MARKUP}`;
      const id = await ask({
        tool: 'delete_file',
        actions: ['fileDelete'],
        args: { paths: [path] },
      });
      const shown = card(page, id);
      await shown.waitFor({ timeout: 10_000 });
      const reason = shown.locator('.ap-facts dd').filter({ hasText: 'needs approval' });
      const text = await reason.innerText();
      // No back-quote is shown: each quoted part became code.
      expect(text).not.toContain('`');
      const codes = await reason.locator('code').allTextContents();
      expect(codes).toContain('fileDelete');
      expect(codes).toContain('ask-marked');
      // The request's path (quoted in the reason) and the rule's pattern (not quoted), as text.
      expect(codes).toContain(path);
      expect(text).toContain(`[${POLICY_MARKUP}*]`);
      expect(await reason.locator('code', { hasText: PATH_MARKUP }).count()).toBe(1);
      // No element came of them, and no handler ran.
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
      // The facet's own words are shown the same way.
      const facet = shown.locator('.ap-facets li').first();
      expect(await facet.locator('code', { hasText: PATH_MARKUP }).count()).toBe(1);
      expect(await facet.innerText()).not.toContain('`');
      expect(errors).toEqual([]);
    });

    it('a notification says how many prompts wait, only after the person turned it on and only while the tab is hidden', async () => {
      const page = await web.newPage();
      const errors = pageErrors(page);
      await page.context().grantPermissions(['notifications'], { origin: web.url });
      // Watch the real API: each notification made and each permission asked is recorded.
      await page.addInitScript(WATCH_NOTIFICATIONS);
      await signInAs(page, web.url, tokens.approver, '/approvals');
      await page.waitForURL('**/approvals');
      await connected(page, 'bob');
      const read = () =>
        page.evaluate('({ notices: window.notices, asked: window.asked })') as Promise<{
          notices: { title: string; body: string }[];
          asked: number;
        }>;

      // Nothing is asked when the page loads, and nothing is shown before the person opts in.
      const toggle = page.locator('#inbox-notify');
      expect(await toggle.innerText()).toBe('Notify me of new prompts');
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      await setHidden(page, true);
      const first = await push('lodash');
      await card(page, first).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(1) Approvals · Warden');
      expect(await read()).toEqual({ notices: [], asked: 0 });

      // Opted in: the permission is asked for then, once.
      await setHidden(page, false);
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
      expect((await read()).asked).toBe(1);

      // Visible: the title counts, no notification.
      const second = await push('chalk');
      await card(page, second).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(2) Approvals · Warden');
      expect((await read()).notices).toEqual([]);

      // Hidden: a notification says how many wait.
      await setHidden(page, true);
      const third = await push('express');
      await card(page, third).waitFor({ timeout: 10_000 });
      await expect
        .poll(async () => (await read()).notices)
        .toEqual([{ title: '3 prompts wait — Warden', body: 'New: coder-1 · git_push' }]);

      // Turned off, a hidden tab is not notified any more.
      await setHidden(page, false);
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
      await setHidden(page, true);
      const fourth = await push('react');
      await card(page, fourth).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(4) Approvals · Warden');
      expect((await read()).notices).toHaveLength(1);
      expect((await read()).asked).toBe(1);
      expect(errors).toEqual([]);
    });
  },
);
