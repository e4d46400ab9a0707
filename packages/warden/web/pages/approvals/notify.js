// Telling a person whose inbox is in a background tab that a prompt arrived:
// the tab's title counts the waiting prompts (always), and a browser
// notification says how many wait — only once the person turned it on here
// (the browser asks for permission then, never when the page loads), only
// while the tab is hidden, and only where the browser has notifications.
//
// Some browsers (Chrome on Android) refuse `new Notification(…)` and show
// notifications only through a service worker: turning notifications on also
// registers the console's worker (`/ui/sw.js`, which only answers a click on
// a notification), and a notification the page may not make is shown through
// it. Nothing is registered before the person turns notifications on.

import { h, replace } from '../../lib/dom.js';

const KEY = 'warden.approvals.notify';

/** The page's title with the number of prompts waiting: `(3) Approvals · Warden`. @param {number} waiting */
export function inboxTitle(waiting) {
  return waiting > 0 ? `(${waiting}) Approvals · Warden` : 'Approvals · Warden';
}

/** `1 prompt waits`, `3 prompts wait`. @param {number} waiting */
export function waitingText(waiting) {
  return waiting === 1 ? '1 prompt waits' : `${waiting} prompts wait`;
}

/** The browser's notifications, or null where it has none. */
function api() {
  return typeof window.Notification === 'function' ? window.Notification : null;
}

/** Where the browser keeps service workers, or null (a browser or a page without them). */
function workers() {
  return 'serviceWorker' in navigator ? navigator.serviceWorker : null;
}

const WORKER = '/ui/sw.js';

/**
 * Registers the console's service worker: its registration, or null where the
 * browser has no service workers (the page's own notifications are all there
 * is, as before). Rejects when the browser refuses it.
 * @returns {Promise<ServiceWorkerRegistration | null>}
 */
async function register() {
  const container = workers();
  if (container === null) return null;
  return container.register(WORKER, { scope: '/ui/' });
}

/** Forgets the console's service worker, if it was registered. */
async function unregister() {
  const container = workers();
  if (container === null) return;
  const scope = new URL('/ui/', window.location.href).href;
  const registration = await container.getRegistration(scope);
  if (registration?.scope === scope) await registration.unregister();
}

/**
 * Resolves once `registration` has an active worker (one that may show a
 * notification): at once, or when the one installing gets there.
 * @param {ServiceWorkerRegistration} registration
 * @returns {Promise<boolean>} whether it has one
 */
function activated(registration) {
  if (registration.active !== null) return Promise.resolve(true);
  const pending = registration.installing ?? registration.waiting;
  if (pending === null) return Promise.resolve(false);
  return new Promise((resolve) => {
    const check = () => {
      if (registration.active === null && pending.state !== 'redundant') return;
      pending.removeEventListener('statechange', check);
      resolve(registration.active !== null);
    };
    pending.addEventListener('statechange', check);
  });
}

/** Whether this person turned notifications on in this browser. */
function wanted() {
  try {
    return window.localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

/** @param {boolean} on */
function remember(on) {
  try {
    if (on) window.localStorage.setItem(KEY, 'on');
    else window.localStorage.removeItem(KEY);
  } catch {
    // Storage refused (a private window): the choice lasts as long as the page.
  }
}

/**
 * The opt-in control, and `arrived` to call when a new prompt reaches the inbox.
 * @returns {{ el: HTMLElement, arrived: (waiting: number, what: string) => void }}
 */
export function notifier() {
  const Notice = api();
  let on = Notice !== null && Notice.permission === 'granted' && wanted();
  /** Whether the browser refused the service worker when notifications were last turned on. */
  let refused = false;
  /** The service worker's registration, once notifications are on (null where there is none). */
  let worker = /** @type {Promise<ServiceWorkerRegistration | null>} */ (Promise.resolve(null));
  const note = h('span', { class: 'muted ap-notify-note', id: 'inbox-notify-note' });
  const button = h('button', {
    type: 'button',
    id: 'inbox-notify',
    'aria-describedby': note.id,
    onclick: () => void toggle(),
  });
  const el = h('div', { class: 'ap-notify' }, Notice === null ? null : button, note);

  const show = () => {
    if (Notice === null) {
      replace(note, 'This browser cannot show notifications: the tab’s title counts the prompts.');
      return;
    }
    button.setAttribute('aria-pressed', String(on));
    replace(button, on ? 'Notifications on' : 'Notify me of new prompts');
    if (Notice.permission === 'denied')
      replace(
        note,
        'Notifications are blocked for this site: allow them in the browser’s site settings.',
      );
    else if (!on && refused)
      replace(
        note,
        'This browser refused to set up notifications for this site, so they stay off: the tab’s title still counts the waiting prompts.',
      );
    else
      replace(
        note,
        on
          ? 'A notification says how many prompts wait when one arrives while this tab is in the background.'
          : 'Off: the tab’s title still counts the waiting prompts.',
      );
  };

  /**
   * Registers the service worker for notifications that are on; if the
   * browser refuses it, they are off again (the person may try again).
   * @returns {Promise<void>}
   */
  const start = async () => {
    worker = register();
    try {
      await worker;
      refused = false;
    } catch {
      worker = Promise.resolve(null);
      refused = true;
      on = false;
    }
  };

  const toggle = async () => {
    if (Notice === null) return;
    if (on) {
      on = false;
      remember(false);
      show();
      worker = Promise.resolve(null);
      // Off means nothing of the console stays registered in this browser.
      await unregister().catch(() => undefined);
      return;
    }
    // The one place permission is asked for: this button, pressed by the person
    // (a browser that was answered before answers again without asking).
    let permission = Notice.permission;
    try {
      permission = await Notice.requestPermission();
    } catch {
      permission = Notice.permission;
    }
    on = permission === 'granted';
    if (on) await start();
    remember(on);
    show();
  };

  /**
   * Shows a notification through the service worker, where the page may not make one.
   * @param {string} title @param {NotificationOptions} options
   */
  const throughWorker = async (title, options) => {
    const registration = await worker;
    if (registration === null || !(await activated(registration))) return;
    await registration.showNotification(title, options);
  };

  // Turned on in an earlier visit: the worker is registered again (the browser
  // keeps it; this also picks up a newer one).
  if (on)
    void start().then(() => {
      if (!on) show();
    });
  show();
  return {
    el,
    arrived(waiting, what) {
      if (!on || Notice === null || Notice.permission !== 'granted') return;
      if (document.visibilityState !== 'hidden') return;
      const title = `${waitingText(waiting)} — Warden`;
      const options = { body: `New: ${what}`, tag: 'warden-approvals' };
      try {
        const shown = new Notice(title, options);
        shown.onclick = () => {
          window.focus();
          shown.close();
        };
      } catch {
        // A browser that shows notifications only from a service worker (Chrome on Android).
        throughWorker(title, options).catch(() => {
          // Not shown either way: the tab's title still counts.
        });
      }
    },
  };
}
