// Reports and messages for the human: stored as written, a scheduled report
// once per supervisor and instant however many servers make it, listed
// newest first.

import { expect, it } from 'vitest';
import type { Open } from './fixtures.js';
import { HOUR, T0, iso, message, report } from './fixtures.js';

export function reportCases(open: Open): void {
  it('stores a report and a message, and reads them back as written', async () => {
    const store = await open();
    const daily = report('rep-1');
    const note = message('msg-1', { workspace: null, createdAt: iso(T0 + 1) });
    expect(await store.reports.add(daily)).toEqual(daily);
    expect(await store.reports.add(note)).toEqual(note);
    expect(await store.reports.get('rep-1')).toEqual(daily);
    expect(await store.reports.get('msg-1')).toEqual(note);
    expect(await store.reports.get('rep-9')).toBeNull();
  });

  it('stores a scheduled report once per supervisor and instant; a second is null and writes nothing', async () => {
    const store = await open();
    expect(await store.reports.add(report('rep-1'))).not.toBeNull();
    expect(await store.reports.add(report('rep-2', { title: 'again' }))).toBeNull();
    expect(await store.reports.get('rep-2')).toBeNull();
    // The same instant written another way is the same instant.
    expect(
      await store.reports.add(report('rep-3', { scheduledFor: '2026-11-30T11:00:00+01:00' })),
    ).toBeNull();
    expect(await store.reports.add(report('rep-4', { supervisor: 'other' }))).not.toBeNull();
    expect(
      await store.reports.add(report('rep-5', { scheduledFor: iso(T0 + HOUR) })),
    ).not.toBeNull();
    expect(
      (await store.reports.list({ supervisor: 'lead', scheduledFor: iso(T0) })).map((r) => r.id),
    ).toEqual(['rep-1']);
  });

  it('never takes messages or reports made by hand for repeats', async () => {
    const store = await open();
    expect(await store.reports.add(message('msg-1'))).not.toBeNull();
    expect(await store.reports.add(message('msg-2'))).not.toBeNull();
    expect(await store.reports.add(report('rep-1', { scheduledFor: null }))).not.toBeNull();
    expect(await store.reports.add(report('rep-2', { scheduledFor: null }))).not.toBeNull();
    expect(await store.reports.list({ supervisor: 'lead' })).toHaveLength(4);
  });

  it('stores a scheduled report once when two store instances make it at the same time', async () => {
    const store = await open();
    const other = await open();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? store : other).reports.add(report(`rep-${i}`)),
      ),
    );
    const stored = results.filter((r) => r !== null);
    expect(stored).toHaveLength(1);
    expect(await other.reports.list({ supervisor: 'lead' })).toEqual(stored);
  });

  it('lists newest first, by workspace, supervisor, kind and instant, within a limit', async () => {
    const store = await open();
    await store.reports.add(report('rep-1', { createdAt: iso(T0) }));
    await store.reports.add(
      report('rep-2', { createdAt: iso(T0 + 1), scheduledFor: iso(T0 + HOUR) }),
    );
    await store.reports.add(message('msg-1', { createdAt: iso(T0 + 2) }));
    await store.reports.add(
      report('rep-3', { createdAt: iso(T0 + 3), supervisor: 'ops', workspace: 'beta' }),
    );
    const ids = async (filter?: Parameters<typeof store.reports.list>[0]) =>
      (await store.reports.list(filter)).map((r) => r.id);
    expect(await ids()).toEqual(['rep-3', 'msg-1', 'rep-2', 'rep-1']);
    expect(await ids({ workspace: 'acme' })).toEqual(['msg-1', 'rep-2', 'rep-1']);
    expect(await ids({ supervisor: 'ops' })).toEqual(['rep-3']);
    expect(await ids({ kind: 'message' })).toEqual(['msg-1']);
    expect(await ids({ kind: 'report', supervisor: 'lead' })).toEqual(['rep-2', 'rep-1']);
    expect(await ids({ scheduledFor: '2026-11-30T12:00:00+01:00' })).toEqual(['rep-2']);
    expect(await ids({ limit: 2 })).toEqual(['rep-3', 'msg-1']);
    expect(await ids({ workspace: 'gamma' })).toEqual([]);
  });
}
