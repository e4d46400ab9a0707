// A real browser for the web console's tests: Debian's `chromium` driven by
// playwright-core (never a downloaded browser). Where it is not installed the
// tests say so and skip; under CI it is required (`.ci/run` installs it).

import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { UNDER_CI } from './backends.js';

/** The browser: `WARDEN_TEST_CHROMIUM`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM = process.env['WARDEN_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

/** Why the browser tests are skipped here, or `null` when they run. */
export const BROWSER_SKIP: string | null = existsSync(CHROMIUM)
  ? null
  : `no Chromium at ${CHROMIUM} (Debian: \`apt install chromium\`; or set WARDEN_TEST_CHROMIUM): the browser tests are skipped`;

if (BROWSER_SKIP !== null && UNDER_CI)
  throw new Error(`under CI the browser tests are required: ${BROWSER_SKIP}`);
if (BROWSER_SKIP !== null) console.warn(`[skip] ${BROWSER_SKIP}`);

/**
 * Starts headless Chromium with the flags this closed network needs (no
 * background connections, no sandbox as root, a fresh profile).
 */
/**
 * How long one browser test may take before it counts as hung: a page is
 * quick alone (under a second here) but slow on a loaded two-core machine
 * running the whole suite, so this is a hang detector, not a speed check.
 */
export const BROWSER_TEST_TIMEOUT = 60_000;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Signs `page` in at `url` with `token`, and waits until the console shows who is signed in. */
export async function signInAs(page: Page, url: string, token: string, next = '/'): Promise<void> {
  await page.goto(`${url}/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#who .role').waitFor();
}

/** Collects the page's console errors and failed scripts, so a test can say there were none. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}
