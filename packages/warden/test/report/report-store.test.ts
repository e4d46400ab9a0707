// The store of reports and messages for the human (I10, I11), contract-tested
// on every backend like the other stores (STYLE 6): newest first, filtered,
// and a scheduled report stored once per supervisor and instant, even when
// two stores race for it. `messageHuman`, a supervisor's only way to speak,
// writes into it and declares no action class (I7).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { declaredClasses } from '../../src/instance/index.js';
import { messageHumanTool } from '../../src/report/message-human.js';
import type { ReportRecord, Store } from '../../src/store/types.js';
import { BACKENDS } from '../support/backends.js';
import { auditLog, openTestWarden } from '../support/warden.js';

const T0 = Date.parse('2026-11-30T07:00:00.000Z');
const HOUR = 3_600_000;

function record(n: number, over: Partial<ReportRecord> = {}): ReportRecord {
  return {
    id: `rep-${String(n).padStart(3, '0')}`,
    workspace: 'acme',
    supervisor: 'sup',
    kind: 'report',
    title: `report ${n}`,
    body: `# Report ${n}\n`,
    data: { version: 1, findings: [{ kind: 'errorStreak', counts: { streak: n } }] },
    windowSince: new Date(T0 - 24 * HOUR + n * HOUR).toISOString(),
    windowUntil: new Date(T0 + n * HOUR).toISOString(),
    scheduledFor: new Date(T0 + n * HOUR).toISOString(),
    createdAt: new Date(T0 + n * HOUR + 1500).toISOString(),
    ...over,
  };
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== null)(`report store contract on ${backend.name}`, () => {
    let store: Store;
    let reopen: () => Promise<Store>;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, reopen, cleanup } = await backend.open());
    });
    afterEach(async () => {
      await cleanup();
    });

    it('keeps a report with its Markdown, data and window, and gives it back as written', async () => {
      const written = record(1);
      expect(await store.reports.add(written)).toEqual(written);
      expect(await store.reports.get('rep-001')).toEqual(written);
      expect(await store.reports.get('rep-nope')).toBeNull();
    });

    it('lists newest first, filtered by supervisor, kind and workspace, with a limit', async () => {
      await store.reports.add(record(1));
      await store.reports.add(record(3));
      await store.reports.add(record(2, { supervisor: 'team-lead', workspace: 'beta' }));
      await store.reports.add(
        record(4, {
          kind: 'message',
          data: null,
          windowSince: null,
          windowUntil: null,
          scheduledFor: null,
        }),
      );
      const ids = (list: ReportRecord[]) => list.map((r) => r.id);
      expect(ids(await store.reports.list())).toEqual(['rep-004', 'rep-003', 'rep-002', 'rep-001']);
      expect(ids(await store.reports.list({ supervisor: 'sup' }))).toEqual([
        'rep-004',
        'rep-003',
        'rep-001',
      ]);
      expect(ids(await store.reports.list({ kind: 'message' }))).toEqual(['rep-004']);
      expect(ids(await store.reports.list({ workspace: 'beta' }))).toEqual(['rep-002']);
      expect(ids(await store.reports.list({ kind: 'report', limit: 2 }))).toEqual([
        'rep-003',
        'rep-002',
      ]);
      expect(
        ids(await store.reports.list({ scheduledFor: new Date(T0 + 3 * HOUR).toISOString() })),
      ).toEqual(['rep-003']);
    });

    it('stores a scheduled report once per supervisor and instant; another supervisor’s is its own', async () => {
      expect(await store.reports.add(record(1))).not.toBeNull();
      // The same instant written another way is the same instant.
      const again = record(1, {
        id: 'rep-again',
        scheduledFor: '2026-11-30T09:00:00+01:00',
      });
      expect(await store.reports.add(again)).toBeNull();
      expect(await store.reports.get('rep-again')).toBeNull();
      expect(
        await store.reports.add(record(1, { id: 'rep-other', supervisor: 'team-lead' })),
      ).not.toBeNull();
    });

    it('never lets two messages, or reports made by hand, collide: they have no instant', async () => {
      for (const n of [1, 2, 3])
        expect(
          await store.reports.add(record(n, { kind: 'message', scheduledFor: null })),
        ).not.toBeNull();
      expect(await store.reports.list()).toHaveLength(3);
    });

    it('stores a report once when two stores race for the same instant (servers sharing a database)', async () => {
      const other = await reopen();
      try {
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 === 0 ? store : other).reports.add(record(5, { id: `rep-race-${i}` })),
          ),
        );
        expect(results.filter((r) => r !== null)).toHaveLength(1);
        expect(await store.reports.list()).toHaveLength(1);
      } finally {
        await other.close();
      }
    });

    it('refuses a time that is not one', async () => {
      await expect(store.reports.add(record(1, { scheduledFor: 'tomorrow' }))).rejects.toThrow(
        'scheduledFor `tomorrow` is not a time',
      );
      await expect(store.reports.add(record(1, { createdAt: 'soon' }))).rejects.toThrow(
        'createdAt `soon` is not a time',
      );
    });
  });
}

describe('messageHuman: a supervisor’s only way to speak (I7, I10)', () => {
  const context = { workspace: 'acme', agent: 'sup', source: 'library' };
  const opened: { cleanup(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const t of opened.splice(0)) await t.cleanup();
  });

  async function setup() {
    const t = await openTestWarden({ version: 1, workspace: 'acme', rules: [] });
    opened.push(t);
    let n = 0;
    const registry = t.warden.tools(context).register(
      messageHumanTool(t.warden.store.reports, {
        supervisor: 'sup',
        workspace: 'acme',
        clock: () => T0,
        newId: () => `M${++n}`,
      }),
    );
    return { t, registry };
  }

  it('declares no action class, so the registry admits it and Warden does not warn about it', async () => {
    const { registry } = await setup();
    expect(registry.list()).toEqual([
      expect.objectContaining({ name: 'messageHuman', actions: [], readOnly: true }),
    ]);
    expect(declaredClasses('messageHuman')).toEqual([]);
  });

  it('writes a message for the human, stamped with the supervisor from its context, and the call is audited', async () => {
    const { t, registry } = await setup();
    const result = await registry.call('messageHuman', {
      title: 'coder-1 is failing web_fetch',
      body: 'agent `coder-1` made 143 `web_fetch` calls with status `Error` in 24 h',
    });
    expect(result).toMatchObject({
      ok: true,
      value: { id: 'msg-m1', createdAt: '2026-11-30T07:00:00.000Z' },
    });
    expect(await t.warden.store.reports.list({ kind: 'message' })).toEqual([
      {
        id: 'msg-m1',
        workspace: 'acme',
        supervisor: 'sup',
        kind: 'message',
        title: 'coder-1 is failing web_fetch',
        body: 'agent `coder-1` made 143 `web_fetch` calls with status `Error` in 24 h',
        data: null,
        windowSince: null,
        windowUntil: null,
        scheduledFor: null,
        createdAt: '2026-11-30T07:00:00.000Z',
      },
    ]);
    const calls = (await auditLog(t.warden.store)).filter((e) => e.kind === 'call');
    expect(calls).toMatchObject([{ tool: 'messageHuman', status: 'Ok', agentId: 'sup' }]);
  });

  it('refuses a missing, multi-line or oversized title and an oversized body, storing nothing', async () => {
    const { t, registry } = await setup();
    for (const args of [
      { body: 'x' },
      { title: 'two\nlines', body: 'x' },
      { title: 't'.repeat(201), body: 'x' },
      { title: 'ok', body: 'b'.repeat(32_001) },
      { title: 'ok', body: 'x', supervisor: 'someone-else' },
    ]) {
      const result = await registry.call('messageHuman', args);
      expect(result, JSON.stringify(args).slice(0, 60)).toMatchObject({
        ok: false,
        status: 'Error',
      });
    }
    expect(await t.warden.store.reports.list()).toEqual([]);
  });

  it('redacts secrets before the message is stored', async () => {
    const { t, registry } = await setup();
    await registry.call('messageHuman', {
      title: 'found a token',
      body: 'coder-1 printed ghp_0123456789abcdefghijABCDEFGHIJ012345 into its log',
    });
    const [message] = await t.warden.store.reports.list();
    expect(message?.body).not.toContain('ghp_0123456789');
    expect(message?.body).toContain('[REDACTED');
  });
});
