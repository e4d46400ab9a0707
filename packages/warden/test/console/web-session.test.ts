// Sessions that end cleanly, in Chromium against a real `warden serve`: a
// token revoked while a page is open keeps what was typed in the page and
// says why to sign in again, in place; an agent's token is refused at sign-in
// with a sentence; `next` leads back to the page asked for with its query,
// and anything but a path of this console is said and ignored; an unknown
// page is the console's own not-found page.

import { describe, expect, it } from 'vitest';
import { warden } from '../helpers.js';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT } from '../support/browser.js';
import { useConsole } from '../support/console-fixture.js';

const POLICY = `version: 1
workspace: acme
rules:
  - { id: commits-ok, action: gitCommit, decision: allow }
`;

const web = useConsole({
  policy: POLICY,
  agents: [['coder-1', '--role', 'coder', '--workspace', 'acme']],
  tokens: {
    leaving: { role: 'admin', name: 'lea' },
    admin: { role: 'admin', name: 'ada' },
    daily: { role: 'viewer', name: 'dee', expires: '24h' },
    agent: { agent: 'coder-1' },
  },
});

describe.skipIf(BROWSER_SKIP !== null)(
  'sessions in the console, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('a token revoked mid-edit keeps the edit, says why, and signs in again in place', async () => {
      const { page, errors } = await web.signedIn(
        web.tokens.leaving,
        '/agents/coder-1?workspace=acme',
      );
      const reason = page.getByLabel('Reason');
      await reason.fill('stop the loop, incident 9');
      const revoked = warden(['token', 'revoke', 'lea', '--data', web.data]);
      expect(revoked.code, revoked.stderr).toBe(0);
      // Servers hold a token's answer for up to a second: the click comes once this one refuses it.
      await expect
        .poll(
          async () =>
            (
              await fetch(`${web.url}/v1/me`, {
                headers: { authorization: `Bearer ${web.tokens.leaving}` },
              })
            ).status,
          { timeout: 5_000, interval: 200 },
        )
        .toBe(401);
      await page.getByRole('button', { name: 'Freeze', exact: true }).click();

      const banner = page.locator('#session-ended');
      await banner.waitFor({ timeout: 10_000 });
      expect(await banner.innerText()).toContain('Sign in again to go on');
      expect(await banner.innerText()).toContain('it was revoked or it expired');
      // The page is still there.
      expect(page.url()).toContain('/agents/coder-1');

      // An agent's token is no way back in.
      await banner.getByLabel('API token').fill(web.tokens.agent);
      await banner.getByRole('button', { name: 'Sign in' }).click();
      await expect
        .poll(() => banner.locator('.error').innerText())
        .toContain('An agent’s token cannot sign in');

      await banner.getByLabel('API token').fill(web.tokens.admin);
      await banner.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => banner.count(), { timeout: 10_000 }).toBe(0);
      expect(await page.locator('#who').innerText()).toContain('ada');
      // The same role: the page stays and reads again, with what was typed.
      await expect
        .poll(() => reason.inputValue(), { timeout: 10_000 })
        .toBe('stop the loop, incident 9');
      await page.getByRole('button', { name: 'Freeze', exact: true }).click();
      await page.locator('.freeze-state[data-state="frozen"]').first().waitFor({ timeout: 10_000 });
      // Thaw again for the other tests.
      await page.getByRole('button', { name: 'Thaw', exact: true }).click();
      await page.locator('.freeze-state[data-state="thawed"]').first().waitFor({ timeout: 10_000 });
      expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    });

    it('an agent’s token is refused at sign-in with a sentence', async () => {
      const page = await web.newPage();
      await page.goto(`${web.url}/sign-in`);
      await page.getByLabel('API token').fill(web.tokens.agent);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const error = page.locator('#sign-in-error');
      await expect.poll(() => error.innerText()).toContain('This is the token of agent coder-1');
      expect(await error.innerText()).toContain('the console is for people');
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      expect(await page.locator('#who .role').count()).toBe(0);
    });

    it('`next` leads back to the page asked for, query and all; another address is said and ignored', async () => {
      const page = await web.newPage();
      await page.goto(`${web.url}/agents?workspace=acme`);
      await page.waitForURL('**/sign-in?next=%2Fagents%3Fworkspace%3Dacme');
      await page.getByLabel('API token').fill(web.tokens.admin);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('#who .role').waitFor();
      const back = new URL(page.url());
      expect(`${back.pathname}${back.search}`).toBe('/agents?workspace=acme');

      for (const next of [
        'https://evil.example/x',
        '//evil.example/x',
        '/\\evil.example',
        'javascript:alert(1)',
      ]) {
        const other = await web.newPage();
        await other.goto(`${web.url}/sign-in?next=${encodeURIComponent(next)}`);
        expect(await other.locator('#next-refused').innerText()).toContain('outside this console');
        await other.getByLabel('API token').fill(web.tokens.admin);
        await other.getByRole('button', { name: 'Sign in' }).click();
        await other.locator('#who .role').waitFor();
        const landed = new URL(other.url());
        expect(landed.origin).toBe(new URL(web.url).origin);
        expect(landed.pathname).toBe('/');
      }
    });

    it('while the token is typed, the page signing in leads to loads its modules', async () => {
      const page = await web.newPage();
      const next = '/workspaces/acme/tools';
      await page.goto(`${web.url}/sign-in?next=${encodeURIComponent(next)}`);
      await page.getByLabel('API token').waitFor();
      const preloaded = page.locator('link[rel="modulepreload"][href="/ui/pages/tools.js"]');
      expect(await preloaded.count()).toBe(1);
      // Only a page of the console is preloaded; anything else asks for nothing.
      const other = await web.newPage();
      await other.goto(`${web.url}/sign-in?next=${encodeURIComponent('/no/such/page')}`);
      await other.getByLabel('API token').waitFor();
      const links = await other
        .locator('link[rel="modulepreload"]')
        .evaluateAll((ls) => ls.map((l) => l.getAttribute('href')));
      expect(links.some((href) => href === '/ui/pages/tools.js')).toBe(false);
    });

    it('a token that expires says when, beside who is signed in; one that does not says nothing', async () => {
      const { page } = await web.signedIn(web.tokens.daily, '/agents');
      const expiry = page.locator('#who .token-expiry');
      expect(await expiry.innerText()).toContain('token until');
      const until = Date.parse(
        ((await expiry.getAttribute('title')) ?? '').replace('This token stops working at ', ''),
      );
      expect(Math.abs(until - (Date.now() + 86_400_000))).toBeLessThan(10 * 60_000);
      const admin = await web.signedIn(web.tokens.admin, '/agents');
      expect(await admin.page.locator('#who .token-expiry').count()).toBe(0);
    });

    it('the workspace the header names follows the page', async () => {
      const { page } = await web.signedIn(web.tokens.admin, '/agents?workspace=acme');
      await expect.poll(() => page.locator('#who').innerText()).toContain('· acme');
      await page.goto(`${web.url}/agents?workspace=beta`);
      await expect.poll(() => page.locator('#who').innerText()).toContain('· beta');
      await page.goto(`${web.url}/workspaces/acme/tools`);
      await expect.poll(() => page.locator('#who').innerText()).toContain('· acme');
    });

    it('an unknown page is the console’s not-found page', async () => {
      const { page } = await web.signedIn(web.tokens.admin);
      for (const path of ['/nope', '/agents/coder-1/extra/parts', '/workspaces/acme/nothing']) {
        const answer = await page.goto(`${web.url}${path}`);
        expect(answer?.status(), path).toBe(404);
        await page.getByRole('heading', { name: 'Not found' }).waitFor();
        expect(await page.locator('main').innerText()).toContain('No page here');
        expect(await page.locator('#who .role').count()).toBe(1);
      }
    });
  },
);
