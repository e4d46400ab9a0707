// Run receipts: steps with their totals, the delegation frame debited never
// beyond what is left (also when two store instances race), and listing.

import { expect, it } from 'vitest';
import type { RunStep } from '../../../src/store/types.js';
import type { Open } from './fixtures.js';
import { T0, iso, run } from './fixtures.js';

function step(runId: string, over: Partial<Omit<RunStep, 'seq'>> = {}): Omit<RunStep, 'seq'> {
  return {
    runId,
    kind: 'model',
    tool: null,
    tokensIn: 0,
    tokensOut: 0,
    costCents: 0,
    at: iso(T0),
    note: null,
    ...over,
  };
}

export function runCases(open: Open): void {
  it('adds steps to a run and keeps its totals of tokens and cost (I2)', async () => {
    const store = await open();
    await store.runs.start(run('r-1', 1000));
    await store.runs.addStep(step('r-1', { tokensIn: 100, tokensOut: 20, costCents: 3 }));
    const second = await store.runs.addStep(
      step('r-1', {
        kind: 'tool',
        tool: 'web_fetch',
        costCents: 1,
        at: iso(T0 + 1),
        note: 'fetched',
      }),
    );
    expect(second.seq).toBe(2);
    const got = await store.runs.get('r-1');
    expect(got).toMatchObject({
      steps: 2,
      tokensIn: 100,
      tokensOut: 20,
      costCents: 4,
      taskId: 't-1',
      status: 'running',
    });
    expect((await store.runs.steps('r-1')).map((s) => s.tool)).toEqual([null, 'web_fetch']);
    expect((await store.runs.finish('r-1', 'done', T0 + 99))?.status).toBe('done');
    expect((await store.runs.list({ agent: 'coder-1' })).map((r) => r.id)).toEqual(['r-1']);
  });

  it('starts a run with zero totals and its delegation chain, and answers it as started (I2)', async () => {
    const store = await open();
    const child = run('r-2', 50, {
      agent: 'reviewer',
      taskId: null,
      model: null,
      parentRunId: 'r-1',
      chain: ['coder-1', 'reviewer'],
      depth: 1,
      autonomy: 'proposeOnly',
    });
    const expected = {
      ...child,
      delegatedCents: 0,
      costCents: 0,
      tokensIn: 0,
      tokensOut: 0,
      steps: 0,
      status: 'running',
      endedAt: null,
    };
    expect(await store.runs.start(child)).toEqual(expected);
    expect(await store.runs.get('r-2')).toEqual(expected);
    expect(await store.runs.steps('r-2')).toEqual([]);
  });

  it('answers each step as added, numbered from one in order (I2)', async () => {
    const store = await open();
    await store.runs.start(run('r-1', null));
    const added = [];
    for (let i = 0; i < 3; i += 1)
      added.push(await store.runs.addStep(step('r-1', { costCents: i, at: iso(T0 + i) })));
    expect(added.map((s) => s.seq)).toEqual([1, 2, 3]);
    expect(await store.runs.steps('r-1')).toEqual(added);
  });

  it('ends a run with its status and time; an unknown run is null', async () => {
    const store = await open();
    await store.runs.start(run('r-1', null));
    const ended = await store.runs.finish('r-1', 'failed', T0 + 5);
    expect(ended).toMatchObject({ status: 'failed', endedAt: iso(T0 + 5) });
    expect(await store.runs.get('r-9')).toBeNull();
    expect(await store.runs.finish('r-9', 'done', T0)).toBeNull();
    expect(await store.runs.steps('r-9')).toEqual([]);
  });

  it('lists runs by workspace, agent and start window, newest first, within a limit', async () => {
    const store = await open();
    await store.runs.start(run('r-1', null, { startedAt: iso(T0) }));
    await store.runs.start(run('r-2', null, { startedAt: iso(T0 + 1000), agent: 'coder-2' }));
    await store.runs.start(run('r-3', null, { startedAt: iso(T0 + 2000) }));
    await store.runs.start(run('r-4', null, { startedAt: iso(T0 + 3000), workspace: 'beta' }));
    const ids = async (filter: Parameters<typeof store.runs.list>[0]) =>
      (await store.runs.list(filter)).map((r) => r.id);
    expect(await ids({})).toEqual(['r-4', 'r-3', 'r-2', 'r-1']);
    expect(await ids({ workspace: 'acme' })).toEqual(['r-3', 'r-2', 'r-1']);
    expect(await ids({ agent: 'coder-1', workspace: 'acme' })).toEqual(['r-3', 'r-1']);
    expect(await ids({ sinceMs: T0 + 1000, untilMs: T0 + 3000 })).toEqual(['r-3', 'r-2']);
    expect(await ids({ limit: 1 })).toEqual(['r-4']);
  });

  it('debits delegations from the frame and never beyond it, even when they race (G36)', async () => {
    const store = await open();
    await store.runs.start(run('r-1', 100));
    await store.runs.addStep(step('r-1', { costCents: 40 }));
    const results = await Promise.all(Array.from({ length: 5 }, () => store.runs.debit('r-1', 20)));
    expect(results.filter(Boolean).length).toBe(3);
    expect((await store.runs.get('r-1'))?.delegatedCents).toBe(60);
    await store.runs.start(run('r-free', null));
    expect(await store.runs.debit('r-free', 5000)).toBe(true);
  });

  it('debits never beyond the frame when two store instances race, and no unknown run (G36)', async () => {
    const store = await open();
    const other = await open();
    await store.runs.start(run('r-1', 100));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? store : other).runs.debit('r-1', 30)),
    );
    expect(results.filter(Boolean)).toHaveLength(3);
    expect((await other.runs.get('r-1'))?.delegatedCents).toBe(90);
    expect(await store.runs.debit('r-1', 11)).toBe(false);
    expect(await store.runs.debit('r-1', 10)).toBe(true);
    expect(await store.runs.debit('r-9', 1)).toBe(false);
  });
}
