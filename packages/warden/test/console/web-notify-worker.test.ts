// Notifications where the page may not make them, in real Chromium against a
// real `warden serve`: Chrome on Android throws on `new Notification(…)` and
// shows notifications only through a service worker's registration. Turning
// notifications on registers the console's worker (`/ui/sw.js`), and a
// prompt arriving while the tab is hidden is shown through it; before the
// person opts in nothing is registered, and turning them off unregisters it.
// The worker is served like the console's other files, with their security
// headers, and has no `fetch` handler: it never answers for the server.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { WEB_ROOT } from '../../src/server/web.js';
import { BROWSER_SKIP, BROWSER_TEST_TIMEOUT, pageErrors, signInAs } from '../support/browser.js';
import { askPushPolicy } from '../support/ask-push-policy.js';
import { castTokens } from '../support/console-cast.js';
import { useConsole } from '../support/console-fixture.js';
import {
  HIDDEN_TAB,
  askPush,
  card,
  connected,
  emptyInboxAfterEach,
  holdChannel,
  setHidden,
} from '../support/inbox.js';

const web = useConsole({
  policy: askPushPolicy(),
  tokens: castTokens('agent', 'approver', 'admin'),
  setupTimeout: 60_000,
});
const { tokens } = web;

const push = (branch: string): Promise<string> => askPush(web, branch);

emptyInboxAfterEach(web);

/**
 * Run in the page before its own scripts: a `Notification` whose constructor
 * throws as Chrome on Android's does (its permission is the real one, each
 * request of it counted), the registration's `showNotification` watched (each
 * call recorded, then made), and whether the tab is hidden, as the test says.
 */
const ANDROID_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  window.constructed = 0;
  window.asked = 0;
  window.shown = [];
  class AndroidNotification {
    constructor() {
      window.constructed += 1;
      throw new TypeError("Failed to construct 'Notification': Illegal constructor. Use ServiceWorkerRegistration.showNotification() instead.");
    }
    static get permission() {
      return Real.permission;
    }
    static requestPermission(callback) {
      window.asked += 1;
      return Real.requestPermission(callback);
    }
  }
  window.Notification = AndroidNotification;
  const showNotification = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
    window.shown.push({
      title,
      body: (options && options.body) || '',
      tag: (options && options.tag) || '',
      scope: this.scope,
      script: this.active ? this.active.scriptURL : null,
    });
    return showNotification.call(this, title, options);
  };
  ${HIDDEN_TAB}
})();`;

interface Watched {
  constructed: number;
  asked: number;
  shown: { title: string; body: string; tag: string; scope: string; script: string | null }[];
}

function watched(page: Page): Promise<Watched> {
  return page.evaluate(
    '({ constructed: window.constructed, asked: window.asked, shown: window.shown })',
  ) as Promise<Watched>;
}

/** The service workers registered for the console in the page's browser: scope and script of each. */
function registrations(page: Page): Promise<{ scope: string; script: string | null }[]> {
  return page.evaluate(`navigator.serviceWorker.getRegistrations().then((all) =>
    all.map((r) => {
      const worker = r.active || r.waiting || r.installing;
      return { scope: r.scope, script: worker ? worker.scriptURL : null };
    }))`) as Promise<{ scope: string; script: string | null }[]>;
}

/** A fresh browser (no worker, no permission) watched as Android, its inbox signed in as bob. */
async function androidInbox(grant: boolean): Promise<{ page: Page; errors: string[] }> {
  const page = await web.newPage();
  const errors = pageErrors(page);
  if (grant) await page.context().grantPermissions(['notifications'], { origin: web.url });
  await page.addInitScript(ANDROID_NOTIFICATIONS);
  await signInAs(page, web.url, tokens.approver, '/approvals');
  await page.waitForURL('**/approvals');
  await connected(page, 'bob');
  return { page, errors };
}

describe('the console’s service worker, as served', () => {
  it('GET /ui/sw.js answers 200, as JavaScript, with the console’s security headers, not cached', async () => {
    const response = await fetch(`${web.url}/ui/sw.js`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript\b/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // Nothing loosened for the worker: no other origin, nothing inline, nothing evaluated.
    expect(csp).not.toMatch(/unsafe-|\*|https?:|blob:/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    // What the server sends is the file in `web/`.
    expect(text).toBe(readFileSync(join(WEB_ROOT, 'sw.js'), 'utf8'));
  });

  it('the worker only answers a click on a notification: no fetch handler, no cache', () => {
    const text = readFileSync(join(WEB_ROOT, 'sw.js'), 'utf8');
    expect(text).toContain("addEventListener('notificationclick'");
    expect(text).not.toContain("addEventListener('fetch'");
    const code = text.replace(/^\s*\/\/.*$/gm, '');
    expect(code).not.toMatch(/addEventListener\(\s*["'`]fetch/);
    expect(code).not.toMatch(/\bonfetch\b/);
    expect(code).not.toMatch(/\bcaches\b/);
    // A classic script: a worker registered without `type: 'module'` cannot import.
    expect(code).not.toMatch(/^\s*(import|export)\b/m);
  });
});

describe.skipIf(BROWSER_SKIP !== null)(
  'notifications through the service worker, in Chromium',
  { timeout: BROWSER_TEST_TIMEOUT },
  () => {
    it('before the person opts in, no service worker is registered, even when a prompt arrives in a hidden tab', async () => {
      const { page, errors } = await androidInbox(true);
      expect(await registrations(page)).toEqual([]);
      await setHidden(page, true);
      const id = await push('before');
      await card(page, id).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(1) Approvals · Warden');
      // Still nothing registered after a reload (the page's other modules, the router).
      // Another channel of bob's keeps the prompt waiting while the page's own reconnects.
      const release = await holdChannel(web.url, tokens.approver);
      try {
        await page.reload();
        await page.waitForURL('**/approvals');
        await connected(page, 'bob');
        await card(page, id).waitFor({ timeout: 10_000 });
      } finally {
        await release();
      }
      expect(await registrations(page)).toEqual([]);
      expect(await watched(page)).toEqual({ constructed: 0, asked: 0, shown: [] });
      expect(await page.locator('#inbox-notify').getAttribute('aria-pressed')).toBe('false');
      expect(errors).toEqual([]);
    });

    it('where `new Notification` throws, turning notifications on registers /ui/sw.js and a prompt in a hidden tab is shown through it', async () => {
      const { page, errors } = await androidInbox(true);
      const toggle = page.locator('#inbox-notify');
      expect(await toggle.innerText()).toBe('Notify me of new prompts');
      expect(await registrations(page)).toEqual([]);

      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
      expect(await toggle.innerText()).toBe('Notifications on');
      expect((await watched(page)).asked).toBe(1);
      await expect
        .poll(() => registrations(page))
        .toEqual([{ scope: `${web.url}/ui/`, script: `${web.url}/ui/sw.js` }]);

      // Visible: no notification either way.
      const first = await push('visible');
      await card(page, first).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(1) Approvals · Warden');
      expect(await watched(page)).toMatchObject({ constructed: 0, shown: [] });

      // Hidden: the page's constructor throws, and the worker's registration shows it.
      await setHidden(page, true);
      const second = await push('hidden');
      await card(page, second).waitFor({ timeout: 10_000 });
      await expect
        .poll(async () => (await watched(page)).shown, { timeout: 10_000 })
        .toEqual([
          {
            title: '2 prompts wait — Warden',
            body: 'New: coder-1 · git_push',
            tag: 'warden-approvals',
            scope: `${web.url}/ui/`,
            script: `${web.url}/ui/sw.js`,
          },
        ]);
      expect((await watched(page)).constructed).toBe(1);
      // The browser holds it as the worker's notification.
      await expect
        .poll(
          () =>
            page.evaluate(`navigator.serviceWorker.getRegistration('/ui/')
              .then((r) => r.getNotifications({ tag: 'warden-approvals' }))
              .then((all) => all.map((n) => ({ title: n.title, body: n.body })))`),
          { timeout: 10_000 },
        )
        .toEqual([{ title: '2 prompts wait — Warden', body: 'New: coder-1 · git_push' }]);

      // Turned off: nothing is shown any more, and the worker is gone.
      await setHidden(page, false);
      await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
      await expect.poll(() => registrations(page)).toEqual([]);
      await setHidden(page, true);
      const third = await push('off');
      await card(page, third).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(3) Approvals · Warden');
      expect((await watched(page)).shown).toHaveLength(1);
      expect(errors).toEqual([]);
    });

    it('turned on in an earlier visit, the worker is registered again when the inbox loads, and a hidden tab is notified through it', async () => {
      const { page, errors } = await androidInbox(true);
      await page.locator('#inbox-notify').click();
      await expect
        .poll(() => registrations(page))
        .toEqual([{ scope: `${web.url}/ui/`, script: `${web.url}/ui/sw.js` }]);
      // The browser forgets the worker (cleared site data), not the person's choice.
      await page.evaluate(
        `navigator.serviceWorker.getRegistrations().then((all) => Promise.all(all.map((r) => r.unregister())))`,
      );
      expect(await registrations(page)).toEqual([]);
      await page.reload();
      await page.waitForURL('**/approvals');
      const toggle = page.locator('#inbox-notify');
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
      await expect
        .poll(() => registrations(page))
        .toEqual([{ scope: `${web.url}/ui/`, script: `${web.url}/ui/sw.js` }]);
      await expect
        .poll(() => page.locator('#inbox-state').innerText(), { timeout: 10_000 })
        .toContain('Connected as bob');
      await setHidden(page, true);
      const id = await push('again');
      await card(page, id).waitFor({ timeout: 10_000 });
      await expect
        .poll(async () => (await watched(page)).shown.map((s) => s.title), { timeout: 10_000 })
        .toEqual(['1 prompt waits — Warden']);
      expect(errors).toEqual([]);
    });

    it('a browser that refuses the worker keeps the inbox working: notifications stay off, with a sentence', async () => {
      const page = await web.newPage();
      const errors = pageErrors(page);
      await page.context().grantPermissions(['notifications'], { origin: web.url });
      await page.addInitScript(ANDROID_NOTIFICATIONS);
      await page.addInitScript(`ServiceWorkerContainer.prototype.register = function () {
        return Promise.reject(new DOMException('Service workers are disabled.', 'SecurityError'));
      };`);
      await signInAs(page, web.url, tokens.approver, '/approvals');
      await page.waitForURL('**/approvals');
      const toggle = page.locator('#inbox-notify');
      await toggle.click();
      await expect
        .poll(() => page.locator('#inbox-notify-note').innerText())
        .toBe(
          'This browser refused to set up notifications for this site, so they stay off: the tab’s title still counts the waiting prompts.',
        );
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      expect(await page.evaluate(`localStorage.getItem('warden.approvals.notify')`)).toBeNull();
      // The inbox still works: a prompt arrives and is counted, nothing is shown.
      await setHidden(page, true);
      const id = await push('refused');
      await card(page, id).waitFor({ timeout: 10_000 });
      await expect.poll(() => page.title()).toBe('(1) Approvals · Warden');
      expect(await watched(page)).toMatchObject({ constructed: 0, shown: [] });
      expect(errors).toEqual([]);
    });
  },
);
