// The web console's shell in real Chromium: `warden serve` hosts it, a token
// signs in, a bad token is refused in a sentence, the pages come
// from one fixed table of files with a strict content security policy, and
// nothing outside it is served.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_SKIP,
  BROWSER_TEST_TIMEOUT,
  launchBrowser,
  pageErrors,
  signInAs,
} from '../support/browser.js';
import type { Served } from '../support/processes.js';
import { cliToken, dataWithPolicy, serve } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
rules:
  - { id: protect-main, action: gitPush, decision: deny, when: { refs: [main] } }
`;

let server: Served;
let admin: string;
let browser: Browser | undefined;

beforeAll(async () => {
  const { data } = dataWithPolicy(POLICY);
  admin = cliToken(['--data', data, '--role', 'admin', '--name', 'alice']).token;
  server = await serve(['--data', data]);
  if (BROWSER_SKIP === null) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server.stop();
});

describe('the console is served as fixed files (no path reaches the disk)', () => {
  it('serves every page as index.html with a strict content security policy', async () => {
    for (const path of [
      '/',
      '/sign-in',
      '/approvals',
      '/agents/coder-1',
      '/workspaces/acme/settings/workspace/permissions',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toContain('<script type="module" src="/ui/app.js">');
    }
    const script = await fetch(`${server.url}/ui/app.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
  });

  it('answers 404 for anything not in the table, traversal included', async () => {
    for (const path of [
      '/ui/../package.json',
      '/ui/%2e%2e/package.json',
      '/ui/nope.js',
      '/ui/lib/../../src/server/web.ts',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
    }
  });
});

describe.skipIf(BROWSER_SKIP !== null)(
  'signing in, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('signs in with a token and shows who is signed in, with no script errors', async () => {
      const page = await (browser as Browser).newPage();
      const errors = pageErrors(page);
      await signInAs(page, server.url, admin);
      expect(await page.locator('#who').innerText()).toContain('alice');
      expect(await page.locator('#who .role').innerText()).toBe('admin');
      await page.getByRole('link', { name: 'acme' }).click();
      // The permissions page names its open tab in the address (`#matrix`) as soon as it draws.
      await page.waitForURL(/\/workspaces\/acme\/settings\/workspace\/permissions(#[\w-]+)?$/);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('refuses an unknown token in a sentence and stays signed out', async () => {
      const page = await (browser as Browser).newPage();
      await page.goto(`${server.url}/sign-in`);
      await page.getByLabel('API token').fill('wdn_not_a_real_token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').innerText()).toBe(
        'That token is not valid: check it, or ask an admin for a new one.',
      );
      await page.goto(`${server.url}/approvals`);
      await page.waitForURL('**/sign-in?next=%2Fapprovals');
      await page.close();
    });
  },
);
