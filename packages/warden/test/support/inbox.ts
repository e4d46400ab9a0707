// The approvals inbox's browser suites: prompts asked so that they stay
// pending for the inbox, and an inbox emptied after each test.

import type { Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';
import { api } from './processes.js';

/** Where the prompts are asked and answered: the running server and the two tokens it takes. */
export interface InboxServer {
  readonly url: string;
  readonly tokens: { readonly agent: string; readonly admin: string };
}

/** Asks with `?wait=0` as the agent: the prompt stays pending for the inbox. Its approval's id. */
export async function askPending(web: InboxServer, body: Record<string, unknown>): Promise<string> {
  const asked = await api(web.url, web.tokens.agent, 'POST', '/v1/decide?wait=0', body);
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  expect(asked.body.approvalId, JSON.stringify(asked.body)).toEqual(expect.any(String));
  return asked.body.approvalId as string;
}

/** A prompt for a push of `feature/<branch>` (the `ask-push` rule asks for every push). */
export function askPush(web: InboxServer, branch: string): Promise<string> {
  return askPending(web, {
    tool: 'git_push',
    command: `git push origin feature/${branch}`,
    args: { refs: [`feature/${branch}`] },
  });
}

/** Registers, in the calling file, that each test starts with an empty inbox: what a test left waiting is denied. */
export function emptyInboxAfterEach(web: InboxServer): void {
  afterEach(async () => {
    const listed = await api(
      web.url,
      web.tokens.admin,
      'GET',
      '/v1/approvals?workspace=acme&state=pending&limit=100',
    );
    for (const approval of (listed.body.approvals ?? []) as { id: string }[])
      await api(web.url, web.tokens.admin, 'POST', `/v1/approvals/${approval.id}/answer`, {
        kind: 'deny',
        reason: 'test cleanup',
      });
  });
}

/**
 * A part of an init script: the tab is hidden or visible as the test says
 * (`window.setHidden(true)`), with the `visibilitychange` event a browser sends.
 */
export const HIDDEN_TAB = `let hidden = false;
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
  window.setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event('visibilitychange'));
  };`;

/** Hides or shows the tab of a page whose init script holds `HIDDEN_TAB`. */
export function setHidden(page: Page, hidden: boolean): Promise<unknown> {
  return page.evaluate(`window.setHidden(${String(hidden)})`);
}

/** Waits until the inbox says it is connected as `name`. */
export async function connected(page: Page, name: string): Promise<void> {
  await expect
    .poll(() => page.locator('#inbox-state').innerText(), { timeout: 10_000 })
    .toContain(`Connected as ${name}`);
}

/** The card of approval `id` among the waiting prompts. */
export function card(page: Page, id: string) {
  return page.locator(`#inbox-pending > li[data-id="${id}"]`);
}

/**
 * Holds a live approver channel (`GET /v1/approvals/stream`) as `token` from
 * outside the browser, open once its `ready` event came: while a page reloads
 * its own channel closes, and with nobody else connected the server ends the
 * waiting prompts (G22). Resolves to the function that closes it.
 */
export async function holdChannel(url: string, token: string): Promise<() => Promise<void>> {
  const controller = new AbortController();
  const stream = await fetch(`${url}/v1/approvals/stream`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(stream.status).toBe(200);
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes('event: ready')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the approver channel closed before it was ready');
    seen += decoder.decode(value, { stream: true });
  }
  const reading = (async () => {
    try {
      for (;;) if ((await reader.read()).done) return;
    } catch {
      // closed by the test
    }
  })();
  return async () => {
    controller.abort();
    await reading;
  };
}
