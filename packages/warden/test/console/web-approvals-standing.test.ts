// The console's approval card says which standing denies stay in force under
// the rule "approve for N hours" would write (E41), and after the answer they
// do: in real Chromium against a real `warden serve`.

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_SKIP,
  BROWSER_TEST_TIMEOUT,
  launchBrowser,
  pageErrors,
  signInAs,
} from '../support/browser.js';
import type { Served } from '../support/processes.js';
import { agentToken, api, cliToken, dataWithPolicy, serve } from '../support/processes.js';

const POLICY = `version: 1
workspace: acme
rules:
  - id: no-keys
    action: fileDelete
    decision: deny
    when: { paths: ['**/*.key'] }
  - id: no-pem
    action: fileDelete
    decision: deny
    enforcement: soft
    when: { paths: ['**/*.pem'] }
  - id: no-src
    action: fileDelete
    decision: deny
    when: { paths: ['src/**'] }
`;

let server: Served;
let browser: Browser | undefined;
const tokens = { agent: '', approver: '' };

beforeAll(async () => {
  const { data } = dataWithPolicy(POLICY);
  tokens.agent = agentToken(data, 'coder-1', 'acme', 'coder');
  tokens.approver = cliToken(['--data', data, '--role', 'approver', '--name', 'bob']).token;
  server = await serve(['--data', data]);
  if (BROWSER_SKIP === null) browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function decide(body: Record<string, unknown>) {
  return api(server.url, tokens.agent, 'POST', '/v1/decide', body);
}

describe.skipIf(BROWSER_SKIP !== null)(
  'the approval card and standing denies (E41)',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('lists the denies that stay in force for each scope, and after "approve for 8 h" `rm certs/server.key` is still denied', async () => {
      const page: Page = await (browser as Browser).newPage();
      const errors = pageErrors(page);
      await signInAs(page, server.url, tokens.approver, '/approvals');
      await page.waitForURL('**/approvals');
      await expect
        .poll(() => page.locator('#inbox-state').innerText(), { timeout: 10_000 })
        .toContain('Connected as bob');

      const waiting = decide({ tool: 'shell', command: 'rm certs/readme.txt' });
      const card = page.locator('#inbox-pending > li.ap-card', { hasText: 'rm certs/readme.txt' });
      await card.waitFor({ timeout: 10_000 });
      const stays = card.locator('.ap-stays');
      expect(await stays.count()).toBe(2); // one per scope offered
      const text = await stays.first().innerText();
      expect(text).toContain('Stays denied all the same');
      expect(text).toContain('no-keys');
      expect(text).toContain('**/*.key');
      expect(text).toContain('no-pem');
      expect(text).toContain('soft: only an overrider may let one call through, with a reason');
      expect(text).not.toContain('no-src');
      expect(text).toContain('For example certs/x.key stays denied.');
      // Back-quoted parts of the sentence are code, never markup.
      expect(await stays.first().locator('code', { hasText: '**/*.key' }).count()).toBe(1);
      expect(await card.locator('.ap-preview').innerText()).toContain(
        'What the standing policy denies stays denied: rules no-keys, no-pem.',
      );

      await card.getByRole('button', { name: 'Approve for 8 h' }).click();
      const answered = await waiting;
      expect(answered.body).toMatchObject({ outcome: 'allow' });

      const key = await decide({ tool: 'shell', command: 'rm certs/server.key' });
      expect(key.body).toMatchObject({
        decision: 'deny',
        outcome: 'deny',
        rule: 'no-keys',
        enforcement: 'hard',
      });
      const notes = await decide({ tool: 'shell', command: 'rm certs/notes.txt' });
      expect(notes.body).toMatchObject({ outcome: 'allow' });
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
