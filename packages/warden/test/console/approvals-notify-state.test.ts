// Whether the approvals inbox tells of a new prompt in a notification,
// tested in Node without a browser: the console keeps the control's state in
// a pure module (`web/pages/approvals/notify-state.js`), events in and a new
// state out, so when notifications are on, what the button and its note say
// and when a prompt is notified are checked here; the browser tests
// (`web-approvals.test.ts`, `web-notify-worker.test.ts`) keep what only a
// browser does (the permission asked, the service worker, the notification).

import { describe, expect, it } from 'vitest';
import {
  buttonText,
  noteText,
  notice,
  noticeState,
  notifies,
  reduceNotice,
  waitingText,
  // The console is plain JavaScript checked by its own tsconfig (`web/`); the
  // tests' tsconfig does not read JavaScript, so this import is untyped here.
  // @ts-expect-error -- a JavaScript module of the console
} from '../../web/pages/approvals/notify-state.js';

type State = ReturnType<typeof noticeState>;
const feed = (state: State, ...events: unknown[]): State =>
  events.reduce((s: State, e: unknown) => reduceNotice(s, e), state);

const fresh = (over: Record<string, unknown> = {}) =>
  noticeState({ supported: true, permission: 'default', wanted: false, ...over });

describe('the notification control', () => {
  it('starts on only where granted and turned on before, in a browser that has notifications', () => {
    expect(fresh().on).toBe(false);
    expect(fresh({ permission: 'granted' }).on).toBe(false);
    expect(fresh({ permission: 'granted', wanted: true }).on).toBe(true);
    expect(fresh({ permission: 'denied', wanted: true }).on).toBe(false);
    expect(fresh({ supported: false, permission: null, wanted: true }).on).toBe(false);
  });

  it('turns on when the browser grants it, and off when pressed again', () => {
    const on = reduceNotice(fresh(), { type: 'answered', permission: 'granted' });
    expect(on.on).toBe(true);
    expect(buttonText(on)).toBe('Notifications on');
    expect(noteText(on, 'granted')).toBe(
      'A notification says how many prompts wait when one arrives while this tab is in the background.',
    );
    const off = reduceNotice(on, { type: 'off' });
    expect(off.on).toBe(false);
    expect(buttonText(off)).toBe('Notify me of new prompts');
    expect(noteText(off, 'granted')).toBe('Off: the tab’s title still counts the waiting prompts.');
    expect(reduceNotice(fresh(), { type: 'answered', permission: 'denied' }).on).toBe(false);
  });

  it('stays off when the browser refuses the service worker, and says so until it is set up', () => {
    const refused = feed(
      fresh(),
      { type: 'answered', permission: 'granted' },
      { type: 'worker', ok: false },
    );
    expect(refused).toMatchObject({ on: false, refused: true });
    expect(noteText(refused, 'granted')).toBe(
      'This browser refused to set up notifications for this site, so they stay off: the tab’s title still counts the waiting prompts.',
    );
    const again = feed(
      refused,
      { type: 'answered', permission: 'granted' },
      { type: 'worker', ok: true },
    );
    expect(again).toMatchObject({ on: true, refused: false });
  });

  it('says when the site is blocked, and when the browser has no notifications', () => {
    expect(noteText(fresh(), 'denied')).toBe(
      'Notifications are blocked for this site: allow them in the browser’s site settings.',
    );
    const none = fresh({ supported: false, permission: null });
    expect(noteText(none, null)).toBe(
      'This browser cannot show notifications: the tab’s title counts the prompts.',
    );
    // Nothing turns it on there.
    expect(reduceNotice(none, { type: 'answered', permission: 'granted' })).toBe(none);
  });

  it('notifies only while on, granted, and the tab hidden', () => {
    const on = fresh({ permission: 'granted', wanted: true });
    expect(notifies(on, 'granted', 'hidden')).toBe(true);
    expect(notifies(on, 'granted', 'visible')).toBe(false);
    expect(notifies(on, 'denied', 'hidden')).toBe(false);
    expect(notifies(reduceNotice(on, { type: 'off' }), 'granted', 'hidden')).toBe(false);
  });

  it('says how many prompts wait, and what arrived', () => {
    expect(waitingText(1)).toBe('1 prompt waits');
    expect(waitingText(3)).toBe('3 prompts wait');
    expect(notice(2, 'coder-1 · gitPush')).toEqual({
      title: '2 prompts wait — Warden',
      options: { body: 'New: coder-1 · gitPush', tag: 'warden-approvals' },
    });
  });
});
