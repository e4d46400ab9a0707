// A Warden on a fresh data folder with a stored policy, for gate tests.

import { rmSync } from 'node:fs';
import type { WardenOptions } from '../../src/warden.js';
import { Warden } from '../../src/warden.js';
import type { AuditEntry, Store } from '../../src/store/types.js';
import type { ApproverChannel } from '../../src/approvals/broker.js';
import { tempDir } from './backends.js';

export interface TestWarden {
  readonly warden: Warden;
  readonly data: string;
  cleanup(): Promise<void>;
}

export async function openTestWarden(
  policy: object | null,
  options: WardenOptions = {},
): Promise<TestWarden> {
  const data = options.data ?? tempDir('warden-gate-');
  const warden = await Warden.open({ env: { WARDEN_LOG_LEVEL: 'silent' }, ...options, data });
  if (policy !== null) {
    const written = await warden.putPolicy(policy, { author: 'test' });
    if (!written.ok) throw new Error(`test policy is not valid: ${JSON.stringify(written)}`);
  }
  return {
    warden,
    data,
    cleanup: async () => {
      await warden.close();
      if (options.data === undefined) rmSync(data, { recursive: true, force: true });
    },
  };
}

/** A test Warden with two humans' channels open: approver `alice` and overrider `olga`. */
export interface StaffedWarden extends TestWarden {
  readonly alice: ApproverChannel;
  readonly olga: ApproverChannel;
}

/** `openTestWarden` with `alice` (approver) and `olga` (overrider) connected; `cleanup` closes their channels first. */
export async function openStaffedWarden(
  policy: object | null,
  options: WardenOptions = {},
): Promise<StaffedWarden> {
  const t = await openTestWarden(policy, options);
  const alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
  const olga = await t.warden.approvals.connect({ name: 'olga', roles: ['overrider'] });
  return {
    ...t,
    alice,
    olga,
    cleanup: async () => {
      await alice.close();
      await olga.close();
      await t.cleanup();
    },
  };
}

/** Every audit entry, oldest first. */
export async function auditLog(store: Store): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for await (const { entry } of store.audit.scan()) entries.push(entry);
  return entries;
}

/** Polls until `check` holds, or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  ms = 5000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error('condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An answer of the in-process app: its status, its text and that text as JSON (`{}` when not JSON). */
export interface AppAnswer {
  readonly status: number;
  readonly text: string;
  readonly body: Record<string, unknown>;
}

/** Anything that answers a request in process, as a Hono app does. */
interface InProcessApp {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/** `call(method, path, token?, body?)` against an in-process app, with a bearer token and a JSON body. */
export function caller(app: InProcessApp) {
  return async (
    method: string,
    path: string,
    token?: string,
    body?: unknown,
  ): Promise<AppAnswer> => {
    const res = await app.request(path, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // An event stream never ends by itself: its status is the answer.
    if (res.headers.get('content-type')?.startsWith('text/event-stream') === true) {
      await res.body?.cancel();
      return { status: res.status, text: '', body: {} };
    }
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON (an event stream, an empty answer)
    }
    return { status: res.status, text, body: parsed };
  };
}
