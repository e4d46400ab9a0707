// Delegation guards at `delegate_task` (G33–G36, E40): depth, cycle, autonomy
// ceiling, budget frame; each refusal names its guard and its numbers and
// goes back verbatim; a delegate never acts freer than its delegator.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDelegation } from '@warden/engine';
import type { CallContext } from '../../src/gate/gate.js';
import { auditLog, openTestWarden } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: {
    free: { autonomy: 'actFreely' },
    careful: { autonomy: 'actWithApproval' },
    propose: { autonomy: 'proposeOnly' },
  },
  rules: [],
};

const base = (agent: string, space?: string): CallContext => ({
  workspace: 'acme',
  agent,
  source: 'library',
  ...(space === undefined ? {} : { space }),
});

describe('the delegation guards (pure)', () => {
  const root = {
    runId: 'r-1',
    agent: 'a',
    chain: ['a'],
    depth: 0,
    autonomy: 'actWithApproval' as const,
    remainingCents: 500,
  };

  it('refuses beyond the depth limit, default 3 (G33)', () => {
    const deep = { ...root, chain: ['a', 'b', 'c', 'd'], agent: 'd', depth: 3 };
    const verdict = checkDelegation(deep, { target: 'e', budgetCents: 0 }, 'actWithApproval');
    expect(verdict).toMatchObject({ ok: false, guard: 'depth' });
    expect(verdict.ok ? '' : verdict.reason).toBe(
      'delegation refused: depth: run `r-1` is at depth 3; a delegate would be at depth 4, and the limit is 3',
    );
    expect(
      checkDelegation({ ...deep, depth: 2 }, { target: 'e', budgetCents: 0 }, 'actWithApproval').ok,
    ).toBe(true);
  });

  it('refuses a cycle, A → B → A, and delegating to oneself (G34)', () => {
    const b = { ...root, agent: 'b', chain: ['a', 'b'], depth: 1 };
    const verdict = checkDelegation(b, { target: 'a', budgetCents: 0 }, 'actWithApproval');
    expect(verdict.ok ? '' : verdict.reason).toBe(
      'delegation refused: cycle: `a` is already in the chain a → b → a',
    );
    expect(checkDelegation(root, { target: 'a', budgetCents: 0 }, 'actWithApproval')).toMatchObject(
      { guard: 'cycle' },
    );
  });

  it('clamps the delegate to the lower autonomy and refuses asking for more (G35)', () => {
    const verdict = checkDelegation(root, { target: 'b', budgetCents: 0 }, 'actFreely');
    expect(verdict).toMatchObject({ ok: true, run: { autonomy: 'actWithApproval' } });
    const asked = checkDelegation(
      root,
      { target: 'b', budgetCents: 0, autonomy: 'actFreely' },
      'actFreely',
    );
    expect(asked.ok ? '' : asked.reason).toBe(
      'delegation refused: autonomy: `a` acts at `actWithApproval` and cannot hand on `actFreely`',
    );
  });

  it('refuses a budget beyond what is left, naming the numbers (G36)', () => {
    const verdict = checkDelegation(root, { target: 'b', budgetCents: 600 }, 'actWithApproval');
    expect(verdict.ok ? '' : verdict.reason).toBe(
      'delegation refused: budget: asks 600 cents, and run `r-1` of `a` has 500 cents left',
    );
  });
});

describe('delegate_task through the gate', () => {
  let t: TestWarden;
  beforeEach(async () => {
    t = await openTestWarden(POLICY);
    const at = Date.now();
    await t.warden.store.agents.upsert(
      { workspace: 'acme', id: 'lead', name: null, role: 'lead', space: 'careful', model: null },
      at,
    );
    await t.warden.store.agents.upsert(
      {
        workspace: 'acme',
        id: 'free-coder',
        name: null,
        role: 'coder',
        space: 'free',
        model: 'm-free',
      },
      at,
    );
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('debits the delegator’s budget and starts the delegate’s run inside the frame (G36)', async () => {
    const run = await t.warden.startRun(base('lead', 'careful'), { budgetCents: 1000 });
    const ctx = { ...base('lead', 'careful'), runId: run.id };
    const result = await t.warden.delegate(ctx, { target: 'free-coder', budgetCents: 400 });
    expect(result).toMatchObject({
      ok: true,
      run: {
        agent: 'free-coder',
        parentRunId: run.id,
        chain: ['lead', 'free-coder'],
        depth: 1,
        budgetCents: 400,
        autonomy: 'actWithApproval',
        model: 'm-free',
      },
    });
    expect((await t.warden.store.runs.get(run.id))?.delegatedCents).toBe(400);
    const refused = await t.warden.delegate(ctx, { target: 'free-coder', budgetCents: 700 });
    expect(refused).toEqual({
      ok: false,
      guard: 'budget',
      reason: `delegation refused: budget: asks 700 cents, and run \`${run.id}\` of \`lead\` has 600 cents left`,
    });
    const log = await auditLog(t.warden.store);
    const calls = log
      .filter((e) => e.tool === 'delegate_task')
      .map((e) => [e.status, e.error ?? null]);
    expect(calls).toEqual([
      ['Ok', null],
      ['Denied', refused.ok ? null : refused.reason],
    ]);
  });

  it('keeps a delegate from acting freer than its delegator, whatever its own space says (G35)', async () => {
    const run = await t.warden.startRun(base('lead', 'careful'), { budgetCents: 100 });
    const result = await t.warden.delegate(
      { ...base('lead', 'careful'), runId: run.id },
      { target: 'free-coder', budgetCents: 10 },
    );
    if (!result.ok) throw new Error(result.reason);
    const free = base('free-coder', 'free');
    // On its own, free-coder's space pre-approves prompts (G32) …
    expect(
      (await t.warden.gate.decide(free, { actions: ['gitPush'], args: { refs: ['x'] } })).outcome,
    ).toBe('allow');
    // … but the delegated run acts at its delegator's autonomy: the prompt asks (and, with nobody connected, is denied).
    const delegated = await t.warden.gate.decide(
      { ...free, runId: result.run.id },
      { actions: ['gitPush'], args: { refs: ['x'] } },
    );
    expect(delegated).toMatchObject({ decision: 'prompt', outcome: 'deny' });
  });

  it('denies every gated call of a run delegated by a proposeOnly agent (G30, G35)', async () => {
    const run = await t.warden.startRun(base('planner', 'propose'));
    expect(run.autonomy).toBe('proposeOnly');
    const result = await t.warden.delegate(
      { ...base('planner', 'propose'), runId: run.id },
      { target: 'free-coder', budgetCents: 0 },
    );
    if (!result.ok) throw new Error(result.reason);
    const decision = await t.warden.gate.decide(
      { ...base('free-coder', 'free'), runId: result.run.id },
      { actions: ['gitCommit'] },
    );
    expect(decision).toMatchObject({
      outcome: 'deny',
      rule: 'autonomy:proposeOnly',
      scope: `run:${result.run.id}`,
    });
    expect(decision.reason).toContain('acts at most at proposeOnly');
  });

  it('hands on at most what the delegator’s space allows now, not what its run started with (G35)', async () => {
    const run = await t.warden.startRun(base('lead', 'careful'), { budgetCents: 100 });
    await t.warden.putPolicy(
      { ...POLICY, spaces: { ...POLICY.spaces, careful: { autonomy: 'proposeOnly' } } },
      { author: 'ops' },
    );
    const result = await t.warden.delegate(
      { ...base('lead', 'careful'), runId: run.id },
      { target: 'free-coder', budgetCents: 10 },
    );
    expect(result).toMatchObject({ ok: true, run: { autonomy: 'proposeOnly' } });
  });

  it('refuses an autonomy that is not one of the three (G35)', async () => {
    const run = await t.warden.startRun(base('lead', 'careful'));
    const result = await t.warden.delegate(
      { ...base('lead', 'careful'), runId: run.id },
      { target: 'free-coder', budgetCents: 0, autonomy: 'bogus' as never },
    );
    expect(result).toMatchObject({ ok: false, guard: 'autonomy' });
  });

  it('denies the calls of an adapter configured with another agent’s run', async () => {
    const run = await t.warden.startRun(base('lead', 'careful'));
    const decision = await t.warden.gate.decide(
      { ...base('free-coder', 'free'), runId: run.id },
      { actions: ['gitCommit'] },
    );
    expect(decision).toMatchObject({ outcome: 'deny', rule: 'failClosed' });
    expect(decision.reason).toContain('belongs to `lead`');
  });

  it('refuses a delegation without a run, or from a run that is not the caller’s', async () => {
    expect(await t.warden.delegate(base('lead'), { target: 'x', budgetCents: 0 })).toMatchObject({
      ok: false,
      guard: 'run',
    });
    const run = await t.warden.startRun(base('lead'));
    expect(
      await t.warden.delegate(
        { ...base('intruder'), runId: run.id },
        { target: 'x', budgetCents: 0 },
      ),
    ).toMatchObject({ ok: false, guard: 'run' });
  });

  it('refuses depth and cycles along real runs (G33, G34)', async () => {
    let run = await t.warden.startRun(base('a0'));
    for (let i = 1; i <= 3; i++) {
      const next = await t.warden.delegate(
        { ...base(`a${i - 1}`), runId: run.id },
        { target: `a${i}`, budgetCents: 0 },
      );
      if (!next.ok) throw new Error(next.reason);
      run = next.run;
    }
    expect(run.depth).toBe(3);
    expect(
      await t.warden.delegate({ ...base('a3'), runId: run.id }, { target: 'a4', budgetCents: 0 }),
    ).toMatchObject({ guard: 'depth' });
    const first = await t.warden.startRun(base('x'));
    const second = await t.warden.delegate(
      { ...base('x'), runId: first.id },
      { target: 'y', budgetCents: 0 },
    );
    if (!second.ok) throw new Error(second.reason);
    expect(
      await t.warden.delegate(
        { ...base('y'), runId: second.run.id },
        { target: 'x', budgetCents: 0 },
      ),
    ).toMatchObject({ guard: 'cycle' });
  });
});
