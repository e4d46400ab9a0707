// The hash-chained audit log: one valid chain from the zero hash (also with
// two store instances appending at once), queries, counts and scans.

import { expect, it } from 'vitest';
import { verifyChain } from '../../../src/audit/chain.js';
import type { StoredAuditEntry } from '../../../src/store/types.js';
import type { Open } from './fixtures.js';
import { T0, draft } from './fixtures.js';

export function auditCases(open: Open): void {
  it('chains appended entries from the zero hash, and the chain verifies', async () => {
    const store = await open();
    const written = await store.audit.append([draft(1), draft(2), draft(3)]);
    expect(written[0]?.prevHash).toBe('0'.repeat(64));
    expect(written[1]?.prevHash).toBe(written[0]?.hash);
    const head = await store.audit.head();
    expect(head).toEqual({ seq: 3, hash: written[2]?.hash });
    const items = [];
    for await (const { seq, entry } of store.audit.scan()) items.push({ entry, position: seq });
    expect(await verifyChain(items, head)).toMatchObject({ ok: true, entries: 3 });
    expect(await store.audit.get('e-000002')).toEqual(written[1]);
  });

  it('starts empty, and appending nothing writes nothing', async () => {
    const store = await open();
    expect(await store.audit.append([])).toEqual([]);
    expect(await store.audit.head()).toEqual({ seq: 0, hash: '0'.repeat(64) });
    expect(await store.audit.get('e-000001')).toBeNull();
    expect(await store.audit.query({})).toEqual([]);
    expect(await store.audit.group({}, ['tool'])).toEqual([]);
    expect(await store.audit.group({}, [])).toEqual([{ count: 0 }]);
    const scanned: StoredAuditEntry[] = [];
    for await (const item of store.audit.scan()) scanned.push(item);
    expect(scanned).toEqual([]);
  });

  it('continues the chain across batches and store instances', async () => {
    const store = await open();
    const first = await store.audit.append([draft(1)]);
    const other = await open();
    const second = await other.audit.append([draft(2), draft(3)]);
    expect(second[0]?.prevHash).toBe(first[0]?.hash);
    expect(await store.audit.head()).toEqual({ seq: 3, hash: second[1]?.hash });
    expect(await store.audit.get('e-000003')).toEqual(second[1]);
  });

  it('answers queries by agent, status, tool and window, newest first, with a limit', async () => {
    const store = await open();
    await store.audit.append(Array.from({ length: 30 }, (_, i) => draft(i + 1)));
    const errors = await store.audit.query({ agent: 'coder-2', statuses: ['Error'] });
    expect(errors.map((e) => e.id)).toEqual(['e-000025', 'e-000015', 'e-000005']);
    const window = await store.audit.query({
      sinceMs: T0 + 10_000,
      untilMs: T0 + 13_000,
      order: 'oldest',
    });
    expect(window.map((e) => e.id)).toEqual(['e-000010', 'e-000011', 'e-000012']);
    expect((await store.audit.query({ tool: 'web_fetch', limit: 2 })).map((e) => e.id)).toEqual([
      'e-000030',
      'e-000027',
    ]);
  });

  it('answers queries by workspace, kind, call and decision', async () => {
    const store = await open();
    await store.audit.append([
      draft(1),
      draft(2, { workspace: 'beta' }),
      draft(3, { kind: 'decision', status: null, tool: null }),
      draft(4, { kind: 'change', workspace: null, agentId: null }),
    ]);
    const ids = async (filter: Parameters<typeof store.audit.query>[0]) =>
      (await store.audit.query(filter)).map((e) => e.id);
    expect(await ids({ workspace: 'beta' })).toEqual(['e-000002']);
    expect(await ids({ kinds: ['decision', 'change'], order: 'oldest' })).toEqual([
      'e-000003',
      'e-000004',
    ]);
    expect(await ids({ kinds: [] })).toHaveLength(4);
    expect(await ids({ callId: 'c-2' })).toEqual(['e-000002']);
    expect(await ids({ decisionId: 'd-3' })).toEqual(['e-000003']);
    expect(await ids({ workspace: 'acme', statuses: ['Ok'] })).toEqual(['e-000001']);
  });

  it('counts by tool and status over the whole window, whatever the limit (I-§4, A4)', async () => {
    const store = await open();
    await store.audit.append(Array.from({ length: 30 }, (_, i) => draft(i + 1)));
    const groups = await store.audit.group({ agent: 'coder-1' }, ['tool', 'status']);
    const total = groups.reduce((sum, g) => sum + g.count, 0);
    expect(total).toBe(15);
    expect(groups).toContainEqual({ tool: 'web_fetch', status: 'Error', count: 1 });
    expect(await store.audit.group({ statuses: ['Error'] }, [])).toEqual([{ count: 6 }]);
    expect(await store.audit.group({ limit: 1 }, ['status'])).toEqual([
      { status: 'Ok', count: 24 },
      { status: 'Error', count: 6 },
    ]);
  });

  it('scans every entry in chain order from a given position, in pages', async () => {
    const store = await open();
    const written = await store.audit.append(Array.from({ length: 12 }, (_, i) => draft(i + 1)));
    const scanned: StoredAuditEntry[] = [];
    for await (const item of store.audit.scan(5, 3)) scanned.push(item);
    expect(scanned.map((s) => s.seq)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(scanned.map((s) => s.entry)).toEqual(written.slice(4));
    expect(scanned[0]?.columns).toMatchObject({
      id: 'e-000005',
      workspace: 'acme',
      tool: 'write_file',
      status: 'Error',
      occurred_at_ms: T0 + 5000,
    });
    expect(scanned.every((s) => s.problem === undefined)).toBe(true);
  });

  it('keeps one valid chain when two store instances append at the same time', async () => {
    const store = await open();
    const other = await open();
    const batches = Array.from({ length: 20 }, (_, b) =>
      Array.from({ length: 5 }, (_, i) => draft(b * 5 + i + 1)),
    );
    await Promise.all(batches.map((batch, b) => (b % 2 === 0 ? store : other).audit.append(batch)));
    const items = [];
    for await (const { seq, entry } of store.audit.scan(1, 7)) items.push({ entry, position: seq });
    expect(items.length).toBe(100);
    expect(await verifyChain(items, await store.audit.head())).toMatchObject({ ok: true });
  });
}
