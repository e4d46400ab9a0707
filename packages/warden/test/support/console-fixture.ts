// The setup every console browser test repeats: a real `warden serve` on a
// fresh data folder with the suite's policy (applied through the real `warden
// policy apply`), the suite's agents and tokens made with the real binary, and
// headless Chromium with pages signed in as one of them. Pages close and
// spawned processes stop after each test; the browser, the server and the
// data folder go after the suite. Whether the browser tests run is decided
// in ./browser.js, as for every browser test: required under CI, skipped with
// its reason otherwise (the suite's `describe.skipIf(BROWSER_SKIP !== null)`).

import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { warden } from '../helpers.js';
import { BROWSER_SKIP, launchBrowser, pageErrors, signInAs } from './browser.js';
import type { Served, Spawned } from './processes.js';
import { agentToken, dataToken, dataWithPolicy, killAll, serve } from './processes.js';

/**
 * A token the suite needs, made with `warden token create --data`: a human's
 * token of `role` named `name`, or an `agent` token for `agent` in
 * `workspace` (default `acme`), named after the agent unless told; a human's
 * token may be given an expiry (`--expires`).
 */
export type ConsoleToken =
  | { readonly role: string; readonly name: string; readonly expires?: string }
  | { readonly agent: string; readonly name?: string; readonly workspace?: string };

export interface ConsoleOptions<K extends string> {
  /** The policy (YAML) the data folder starts with. */
  readonly policy: string;
  /** Agents made before the tokens: each the arguments of `warden agent create` (`--data` added). */
  readonly agents?: readonly (readonly string[])[];
  /** The suite's tokens, made in this order, by the name the suite reads them as. */
  readonly tokens: Readonly<Record<K, ConsoleToken>>;
  /** What the suite stores through the running server before the browser starts. */
  readonly seed?: (web: ConsoleFixture<K>) => Promise<void>;
  /** How long the whole setup may take (default 90 s). */
  readonly setupTimeout?: number;
}

/** A page of the browser signed in as one token, and what it said that a test checks. */
export interface SignedIn {
  readonly page: Page;
  /** Its console errors and failed scripts. */
  readonly errors: string[];
  /** The messages of the dialogs it opened, each dismissed (as Playwright does by default). */
  readonly dialogs: string[];
}

export interface ConsoleFixture<K extends string> {
  /** The served Warden. */
  readonly server: Served;
  /** Where it listens. */
  readonly url: string;
  /** Its data folder. */
  readonly data: string;
  /** The suite's tokens' secrets, by the names the suite gave. */
  readonly tokens: Readonly<Record<K, string>>;
  /** Processes a test started (approvers watching, …): stopped after each test. */
  readonly spawned: Spawned[];
  /** A new page of the browser, not signed in, closed after the test. */
  newPage(): Promise<Page>;
  /** A new page signed in with `token` at `next`, closed after the test. */
  signedIn(token: string, next?: string): Promise<SignedIn>;
}

/**
 * Registers, in the calling file, the hooks that set the console up before
 * its tests (the browser only when the browser tests run) and take it down
 * after them; the returned fixture is read once they have run.
 */
export function useConsole<K extends string>(options: ConsoleOptions<K>): ConsoleFixture<K> {
  let server: Served | undefined;
  let browser: Browser | undefined;
  let data: string | undefined;
  const tokens = {} as Record<K, string>;
  const pages: Page[] = [];
  const spawned: Spawned[] = [];
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`no ${what} yet: the console's setup has not run`);
    return value;
  };

  const web: ConsoleFixture<K> = {
    get server() {
      return ready(server, 'server');
    },
    get url() {
      return ready(server, 'server').url;
    },
    get data() {
      return ready(data, 'data folder');
    },
    tokens,
    spawned,
    async newPage() {
      const page = await ready(browser, 'browser').newPage();
      // A step that waits longer than this fails naming its locator, before the test's own timeout.
      page.setDefaultTimeout(20_000);
      pages.push(page);
      return page;
    },
    async signedIn(token, next = '/') {
      const page = await web.newPage();
      const errors = pageErrors(page);
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await signInAs(page, web.url, token, next);
      return { page, errors, dialogs };
    },
  };

  beforeAll(async () => {
    const folder = dataWithPolicy(options.policy).data;
    data = folder;
    for (const args of options.agents ?? []) {
      const made = warden(['agent', 'create', ...args, '--data', folder]);
      expect(made.code, made.stderr).toBe(0);
    }
    for (const [key, spec] of Object.entries(options.tokens) as [K, ConsoleToken][])
      tokens[key] =
        'agent' in spec
          ? agentToken(folder, spec.agent, spec.workspace, spec.name)
          : dataToken(
              folder,
              '--role',
              spec.role,
              '--name',
              spec.name,
              ...(spec.expires === undefined ? [] : ['--expires', spec.expires]),
            );
    server = await serve(['--data', folder]);
    await options.seed?.(web);
    if (BROWSER_SKIP === null) browser = await launchBrowser();
  }, options.setupTimeout ?? 90_000);

  afterEach(async () => {
    await Promise.all(pages.splice(0).map((p) => p.close()));
    await killAll(spawned);
  });

  afterAll(async () => {
    await killAll(spawned);
    await browser?.close();
    await server?.stop();
    if (data !== undefined) rmSync(data, { recursive: true, force: true });
  });

  return web;
}
