// Telling a person whose inbox is in a background tab that a prompt arrived:
// the tab's title counts the waiting prompts (always), and a browser
// notification says how many wait — only once the person turned it on here
// (the browser asks for permission then, never when the page loads), only
// while the tab is hidden, and only where the browser has notifications.

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
    else
      replace(
        note,
        on
          ? 'A notification says how many prompts wait when one arrives while this tab is in the background.'
          : 'Off: the tab’s title still counts the waiting prompts.',
      );
  };

  const toggle = async () => {
    if (Notice === null) return;
    if (on) {
      on = false;
      remember(false);
      show();
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
    remember(on);
    show();
  };

  show();
  return {
    el,
    arrived(waiting, what) {
      if (!on || Notice === null || Notice.permission !== 'granted') return;
      if (document.visibilityState !== 'hidden') return;
      try {
        const shown = new Notice(`${waitingText(waiting)} — Warden`, {
          body: `New: ${what}`,
          tag: 'warden-approvals',
        });
        shown.onclick = () => {
          window.focus();
          shown.close();
        };
      } catch {
        // A browser that shows notifications only from a service worker: the title still counts.
      }
    },
  };
}
