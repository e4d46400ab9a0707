// Whose inbox lists what, in Chromium against a real `warden serve`: a person
// sees and counts only the approvals they can act on — an approver the
// prompts, an overrider the soft denies, an admin both — while a viewer, who
// acts on none, sees both read-only. And a card's deadline is the prompt's
// own: a caller that waits 30 s (`X-Warden-Wait: 30`) gets a prompt that ends
// a second before, and the card counts down from about 29 s, not from the
// server's 60 s approval timeout.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT } from '../support/browser.js';
import type { SignedIn } from '../support/console-fixture.js';
import { useConsole } from '../support/console-fixture.js';
import { askPushPolicy } from '../support/ask-push-policy.js';
import { castTokens } from '../support/console-cast.js';
import { askPush, card, connected, emptyInboxAfterEach } from '../support/inbox.js';
import { api } from '../support/processes.js';

const POLICY = askPushPolicy(`  - id: soft-install
    scope: workspace
    action: packageInstall
    decision: deny
    enforcement: soft
`);

const web = useConsole({
  policy: POLICY,
  tokens: castTokens('agent', 'approver', 'overrider', 'viewer', 'admin'),
  setupTimeout: 60_000,
});
const { tokens } = web;
emptyInboxAfterEach(web);

/** A soft deny (`soft-install`): the decide answer carries the override approval's id. */
async function softDeny(name: string): Promise<string> {
  const denied = await api(web.url, tokens.agent, 'POST', '/v1/decide', {
    tool: 'run_command',
    command: `npm install ${name}`,
  });
  expect(denied.body, JSON.stringify(denied.body)).toMatchObject({
    decision: 'deny',
    enforcement: 'soft',
  });
  expect(denied.body.approvalId, JSON.stringify(denied.body)).toEqual(expect.any(String));
  return denied.body.approvalId as string;
}

/** The inbox of `token`, signed in, its heading drawn. */
async function inbox(token: string): Promise<SignedIn> {
  const signed = await web.signedIn(token, '/approvals');
  await signed.page.waitForURL('**/approvals');
  await signed.page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  return signed;
}

/** The ids of the waiting cards, in their order. */
function listed(page: Page): Promise<(string | null)[]> {
  return page
    .locator('#inbox-pending > li')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-id')));
}

describe.skipIf(BROWSER_SKIP !== null)(
  'the inbox by role, and a card’s deadline, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT * 2 },
  () => {
    it('an approver lists and counts the prompt but not the soft deny, an overrider the other way round, an admin and a viewer both', async () => {
      // The admin's inbox is the connected approver the prompt waits for.
      const alice = await inbox(tokens.admin);
      await connected(alice.page, 'alice');
      const prompt = await askPush(web, 'roles');
      const soft = await softDeny('left-pad');
      await card(alice.page, prompt).waitFor({ timeout: 10_000 });
      await card(alice.page, soft).waitFor({ timeout: 10_000 });
      await expect.poll(() => alice.page.title()).toBe('(2) Approvals · Warden');
      expect(await alice.page.locator('#inbox-scope').count()).toBe(0);

      // The approver: its channel sends the pending approvals newest first, so by the time
      // the prompt's card (the older) is drawn, the soft deny has been received and left out.
      const bob = await inbox(tokens.approver);
      await connected(bob.page, 'bob');
      await card(bob.page, prompt).waitFor({ timeout: 10_000 });
      expect(await listed(bob.page)).toEqual([prompt]);
      await expect.poll(() => bob.page.title()).toBe('(1) Approvals · Warden');
      expect(await bob.page.locator('#inbox-scope').innerText()).toContain(
        'Soft denies, which only an overrider may override, are not listed or counted here.',
      );
      expect(
        await card(bob.page, prompt).getByRole('button', { name: 'Approve once' }).count(),
      ).toBe(1);

      // The overrider: the soft deny is sent first; a second one, raised after it is drawn,
      // arrives after the prompt was received, so when it is drawn the prompt was left out.
      const olga = await inbox(tokens.overrider);
      await connected(olga.page, 'olga');
      await card(olga.page, soft).waitFor({ timeout: 10_000 });
      const later = await softDeny('right-pad');
      await card(olga.page, later).waitFor({ timeout: 10_000 });
      expect(new Set(await listed(olga.page))).toEqual(new Set([soft, later]));
      await expect.poll(() => olga.page.title()).toBe('(2) Approvals · Warden');
      expect(await olga.page.locator('#inbox-scope').innerText()).toContain(
        'Prompts, which an approver answers, are not listed or counted here.',
      );
      // The approver is not shown the later soft deny either.
      expect(await listed(bob.page)).toEqual([prompt]);
      // The admin sees all three.
      await card(alice.page, later).waitFor({ timeout: 10_000 });
      await expect.poll(() => alice.page.title()).toBe('(3) Approvals · Warden');

      // A viewer acts on none, so sees every kind, without any answer.
      const vic = await inbox(tokens.viewer);
      expect(await vic.page.locator('#inbox-state').innerText()).toContain('Viewing only');
      for (const id of [prompt, soft, later]) await card(vic.page, id).waitFor({ timeout: 10_000 });
      await expect.poll(() => vic.page.title()).toBe('(3) Approvals · Warden');
      expect(await vic.page.locator('#inbox-pending').getByRole('button').count()).toBe(0);

      // Answered by the approver, the prompt leaves its count; the soft denies never were in it.
      await card(bob.page, prompt).getByRole('button', { name: 'Approve once' }).click();
      await bob.page.locator(`#inbox-settled > li[data-id="${prompt}"]`).waitFor();
      await expect.poll(() => bob.page.title()).toBe('Approvals · Warden');
      expect(await listed(bob.page)).toEqual([]);

      for (const who of [alice, bob, olga, vic]) expect(who.errors).toEqual([]);
    });

    it('a prompt whose caller waits 30 s shows about 29 s left on its card, not the 60 s approval timeout', async () => {
      const { page, errors } = await inbox(tokens.approver);
      await connected(page, 'bob');
      const asked = await api(
        web.url,
        tokens.agent,
        'POST',
        '/v1/decide?wait=0',
        {
          tool: 'git_push',
          command: 'git push origin feature/deadline',
          args: { refs: ['feature/deadline'] },
        },
        { 'X-Warden-Wait': '30' },
      );
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      const id = asked.body.approvalId as string;
      expect(id, JSON.stringify(asked.body)).toEqual(expect.any(String));
      // The server ends it a second before its caller stops waiting.
      const approval = await api(web.url, tokens.approver, 'GET', `/v1/approvals/${id}`);
      const { createdAt, expiresAt } = approval.body as { createdAt: string; expiresAt: string };
      expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(29_000);

      const shown = card(page, id);
      await shown.waitFor({ timeout: 10_000 });
      // The card's deadline is that one …
      expect(await shown.locator('.ap-when time').nth(1).getAttribute('datetime')).toBe(expiresAt);
      // … and its countdown counts from it: at most 29 s, nowhere near 60.
      const left = await shown.locator('.ap-countdown').innerText();
      expect(left).toMatch(/^\(\d+ s left\)$/);
      expect(Number(/\d+/.exec(left)?.[0]), left).toBeLessThanOrEqual(29);
      expect(errors).toEqual([]);
    });
  },
);
