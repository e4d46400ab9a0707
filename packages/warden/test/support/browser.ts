// A real browser for the web console's tests: Debian's `chromium` driven by
// playwright-core (never a downloaded browser). Where it is not installed the
// tests say so and skip; under CI it is required (`.ci/run` installs it).
// Also what the tests measure in a page: axe-core's accessibility findings,
// and whether the page is wider than the screen.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/** axe-core's script, as its package ships it to be put into a page. */
const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** One accessibility violation axe-core found: its rule, how bad, and where. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  /** The CSS selectors of the elements it found it on. */
  readonly targets: readonly string[];
}

/**
 * Runs axe-core in `page` as it is now (its script put in by the test, not
 * the page: the console's content security policy stays as it is) and
 * answers the violations of impact `serious` or `critical`. Its experimental
 * check that a control's accessible name holds the text it shows
 * (`label-content-name-mismatch`) runs too.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  const found = (await page.evaluate(`window.axe
    .run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    })
    .then((r) =>
      r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      })),
    )`)) as AxeViolation[];
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Violations as a failure prints them: each rule's id, impact and help, and the elements it found (the first ten). */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.id} (${v.impact ?? '?'}, ${v.targets.length}): ${v.help}\n    ${v.targets.slice(0, 10).join('\n    ')}`,
    )
    .join('\n');
}

/** The page's width as its scrolling shows it: the viewport's, and the document's (wider means sideways scrolling). */
export function pageWidths(page: Page): Promise<{ viewport: number; document: number }> {
  return page.evaluate(
    '({ viewport: window.innerWidth, document: document.documentElement.scrollWidth })',
  ) as Promise<{ viewport: number; document: number }>;
}
