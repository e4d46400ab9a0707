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
//
// Whether they are on, and what the control says, is the control's state
// (`notify-state.js`): pure, tested in Node. `notifier` draws it and does
// what the browser must: ask for permission, register the worker, notify.

import { h, replace } from '../../lib/dom.js';
import {
  buttonText,
  noteText,
  notice,
  noticeState,
  notifies,
  reduceNotice,
} from './notify-state.js';

/** `1 prompt waits`, `3 prompts wait` (`notify-state.js`). */
export { waitingText } from './notify-state.js';

const KEY = 'warden.approvals.notify';

/** The page's title with the number of prompts waiting: `(3) Approvals · Warden`. @param {number} waiting */
export function inboxTitle(waiting) {
  return waiting > 0 ? `(${waiting}) Approvals · Warden` : 'Approvals · Warden';
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
 * Shows a notification through the service worker, where the page may not make one.
 * @param {Promise<ServiceWorkerRegistration | null>} worker @param {{ title: string, options: NotificationOptions }} shown
 */
async function throughWorker(worker, { title, options }) {
  const registration = await worker;
  if (registration === null || !(await activated(registration))) return;
  await registration.showNotification(title, options);
}

/**
 * Shows a notification from the page, or through the service worker in a
 * browser that shows them only from one (Chrome on Android).
 * @param {typeof Notification} Notice @param {Promise<ServiceWorkerRegistration | null>} worker
 * @param {{ title: string, options: NotificationOptions }} shown
 */
function showNotice(Notice, worker, shown) {
  try {
    const made = new Notice(shown.title, shown.options);
    made.onclick = () => {
      window.focus();
      made.close();
    };
  } catch {
    throughWorker(worker, shown).catch(() => {
      // Not shown either way: the tab's title still counts.
    });
  }
}

/**
 * Asks the browser for permission: the one place it is asked, this button
 * pressed by the person (a browser that was answered before answers again
 * without asking).
 * @param {typeof Notification} Notice @returns {Promise<NotificationPermission>}
 */
async function askPermission(Notice) {
  try {
    return await Notice.requestPermission();
  } catch {
    return Notice.permission;
  }
}

/**
 * The opt-in control, and `arrived` to call when a new prompt reaches the inbox.
 * @returns {{ el: HTMLElement, arrived: (waiting: number, what: string) => void }}
 */
export function notifier() {
  const Notice = api();
  const permission = () => (Notice === null ? null : Notice.permission);
  let state = noticeState({
    supported: Notice !== null,
    permission: permission(),
    wanted: wanted(),
  });
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

  /** @param {import('./notify-state.js').NoticeEvent} event */
  const dispatch = (event) => {
    state = reduceNotice(state, event);
  };

  const show = () => {
    if (state.supported) {
      button.setAttribute('aria-pressed', String(state.on));
      replace(button, buttonText(state));
    }
    replace(note, noteText(state, permission()));
  };

  /**
   * Registers the service worker for notifications that are on; if the
   * browser refuses it, they are off again (the person may try again).
   */
  const start = async () => {
    worker = register();
    try {
      await worker;
      dispatch({ type: 'worker', ok: true });
    } catch {
      worker = Promise.resolve(null);
      dispatch({ type: 'worker', ok: false });
    }
  };

  const toggle = async () => {
    if (Notice === null) return;
    if (state.on) {
      dispatch({ type: 'off' });
      remember(false);
      show();
      worker = Promise.resolve(null);
      // Off means nothing of the console stays registered in this browser.
      await unregister().catch(() => undefined);
      return;
    }
    dispatch({ type: 'answered', permission: await askPermission(Notice) });
    if (state.on) await start();
    remember(state.on);
    show();
  };

  // Turned on in an earlier visit: the worker is registered again (the browser
  // keeps it; this also picks up a newer one).
  if (state.on)
    void start().then(() => {
      if (!state.on) show();
    });
  show();
  return {
    el,
    arrived(waiting, what) {
      if (Notice === null || !notifies(state, permission(), document.visibilityState)) return;
      showNotice(Notice, worker, notice(waiting, what));
    },
  };
}
