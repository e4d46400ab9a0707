// The console's service worker, and all it does: when a person clicks a
// notification of the approvals inbox, bring a console window to the front
// (the inbox's if one is open) or open the inbox. It exists because some
// browsers (Chrome on Android) show notifications only through a service
// worker's registration; approvals/notify.js registers it only once the
// person turned notifications on.
//
// Deliberately no `fetch` handler and no cache: every request of the console
// goes to the server as if this file did not exist, so the console never runs
// stale code nor shows an old answer of the API. Registered with the scope
// `/ui/`, it controls no page of the console anyway.
//
// A classic script (not a module), type-checked with the other files of
// `web/`: the few service-worker types it uses are described below, since
// the browser's page types and its worker types cannot be loaded together.

(() => {
  /**
   * @typedef {object} ConsoleWindow
   * @property {string} url
   * @property {() => Promise<unknown>} focus
   *
   * @typedef {object} NotificationClick
   * @property {Notification} notification
   * @property {(done: Promise<unknown>) => void} waitUntil
   *
   * @typedef {object} WorkerScope
   * @property {{
   *   matchAll(options: { type: 'window', includeUncontrolled: boolean }): Promise<readonly ConsoleWindow[]>,
   *   openWindow(url: string): Promise<unknown>,
   * }} clients
   * @property {(type: 'notificationclick', listener: (event: NotificationClick) => void) => void} addEventListener
   */

  const worker = /** @type {WorkerScope} */ (/** @type {unknown} */ (self));
  const INBOX = '/approvals';

  /** The inbox in front: an open console window (the inbox's first), else a new one. */
  const showInbox = async () => {
    const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open =
      windows.find((client) => new URL(client.url).pathname === INBOX) ?? windows[0] ?? null;
    if (open !== null) {
      try {
        await open.focus();
        return;
      } catch {
        // The browser would not bring it forward: open the inbox instead.
      }
    }
    await worker.clients.openWindow(INBOX);
  };

  worker.addEventListener('notificationclick', (event) => {
    event.notification.close();
    event.waitUntil(showInbox());
  });
})();
