// Whether a person's inbox tells them of a new prompt, apart from the
// browser's notifications themselves, so that it can be tested in Node
// without a browser: whether this browser has notifications, whether the
// person turned them on here, whether the browser refused the service worker
// they need, and the words the control and its note say. Pure: no DOM, no
// `Notification`, no storage; `notify.js` feeds it the browser's answers and
// the person's presses, and draws and does what it returns.

/**
 * @typedef {{
 *   readonly supported: boolean,
 *   readonly on: boolean,
 *   readonly refused: boolean,
 * }} NoticeState
 */

/**
 * What reaches the control: the person turned notifications off, the
 * browser answered the request for permission, the service worker was set
 * up (or refused).
 * @typedef {(
 *   | { type: 'off' }
 *   | { type: 'answered', permission: NotificationPermission }
 *   | { type: 'worker', ok: boolean }
 * )} NoticeEvent
 */

/**
 * The control as the page opens: on only where the browser has
 * notifications, they are granted, and the person turned them on before.
 * @param {{ supported: boolean, permission: NotificationPermission | null, wanted: boolean }} browser
 * @returns {NoticeState}
 */
export function noticeState(browser) {
  return {
    supported: browser.supported,
    on: browser.supported && browser.permission === 'granted' && browser.wanted,
    refused: false,
  };
}

/**
 * The control after `event`.
 * @param {NoticeState} state @param {NoticeEvent} event @returns {NoticeState}
 */
export function reduceNotice(state, event) {
  if (!state.supported) return state;
  switch (event.type) {
    case 'off':
      return { ...state, on: false };
    case 'answered':
      return { ...state, on: event.permission === 'granted' };
    case 'worker':
      // Without its worker some browsers show nothing: notifications stay off.
      return event.ok ? { ...state, refused: false } : { ...state, refused: true, on: false };
    default:
      return state;
  }
}

/** What the button says. @param {NoticeState} state */
export function buttonText(state) {
  return state.on ? 'Notifications on' : 'Notify me of new prompts';
}

/**
 * What the note beside the button says, the browser's permission as it is now.
 * @param {NoticeState} state @param {NotificationPermission | null} permission
 */
export function noteText(state, permission) {
  if (!state.supported)
    return 'This browser cannot show notifications: the tab’s title counts the prompts.';
  if (permission === 'denied')
    return 'Notifications are blocked for this site: allow them in the browser’s site settings.';
  if (!state.on && state.refused)
    return 'This browser refused to set up notifications for this site, so they stay off: the tab’s title still counts the waiting prompts.';
  return state.on
    ? 'A notification says how many prompts wait when one arrives while this tab is in the background.'
    : 'Off: the tab’s title still counts the waiting prompts.';
}

/**
 * Whether a prompt arriving now is told in a notification: on, granted, and
 * the tab hidden.
 * @param {NoticeState} state @param {NotificationPermission | null} permission @param {string} visibility
 */
export function notifies(state, permission, visibility) {
  return state.supported && state.on && permission === 'granted' && visibility === 'hidden';
}

/** `1 prompt waits`, `3 prompts wait`. @param {number} waiting */
export function waitingText(waiting) {
  return waiting === 1 ? '1 prompt waits' : `${waiting} prompts wait`;
}

/**
 * The notification of a new prompt: how many wait, and what arrived.
 * @param {number} waiting @param {string} what
 * @returns {{ title: string, options: NotificationOptions }}
 */
export function notice(waiting, what) {
  return {
    title: `${waitingText(waiting)} — Warden`,
    options: { body: `New: ${what}`, tag: 'warden-approvals' },
  };
}
