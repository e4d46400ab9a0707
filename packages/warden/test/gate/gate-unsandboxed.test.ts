// A call that asks to run without the OS sandbox (G2) at the gate: held for a
// human even where the rules allow it, offered "approve once" only (G23, G24),
// never pre-approved (G32), and its soft deny's override is its own (G26).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/gate/gate.js';
import { auditLog, openStaffedWarden } from '../support/warden.js';
import type { StaffedWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { free: { autonomy: 'actFreely' } },
  rules: [
    { id: 'no-publish', command: 'npm publish', decision: 'deny', enforcement: 'soft' },
    { id: 'no-force', command: 'git push --force', decision: 'deny' },
  ],
};

const CTX: CallContext = {
  workspace: 'acme',
  agent: 'coder-1',
  source: 'claude-code',
  worktree: '/srv/repos/api',
};
const LS = { tool: 'Bash', command: 'ls -la', arguments: { command: 'ls -la' } };
const UNSANDBOXED = { ...LS, unsandboxed: true };

describe('a call without the OS sandbox at the gate', () => {
  let t: StaffedWarden;
  beforeEach(async () => {
    t = await openStaffedWarden(POLICY, { approvals: { timeoutMs: 60_000, pollMs: 20 } });
  });
  afterEach(() => t.cleanup());

  async function held(ctx: CallContext = CTX) {
    const first = await t.warden.gate.decide(ctx, UNSANDBOXED, { wait: false });
    expect(first).toMatchObject({ decision: 'prompt', outcome: 'ask', rule: 'sandbox:off' });
    const approval = await t.warden.store.approvals.get(first.approvalId ?? '');
    if (approval === null) throw new Error('the prompt opened no approval');
    return { first, approval };
  }

  it('holds a command the rules allow for a human, and offers only "approve once" (G2, G23)', async () => {
    expect((await t.warden.gate.decide(CTX, LS)).outcome).toBe('allow');
    const { first, approval } = await held();
    expect(first.reason).toContain('asks to run without the OS sandbox');
    expect(first.facets.at(-1)).toMatchObject({
      facet: 'sandbox',
      decision: 'prompt',
      rule: 'sandbox:off',
      scope: 'default',
    });
    expect(approval.kind).toBe('prompt');
    expect(approval.offer).toMatchObject({ rememberable: false, scopes: [] });
    expect(approval.offer?.why).toContain('only "approve once"');
    expect(approval.offer?.why).toContain('without the OS sandbox');
    expect(approval.decision.rule).toBe('sandbox:off');
  });

  it('lets the call through once when a human approves it once, and asks again next time (G22)', async () => {
    const { approval } = await held();
    expect((await t.alice.answer(approval.id, { kind: 'once' })).ok).toBe(true);
    const final = await t.warden.gate.awaitApproval(approval.id);
    expect(final).toMatchObject({ outcome: 'allow', approval: { state: 'approved' } });
    expect(final.reason).toContain('approved once by alice');
    // Nothing was written that would let the next one through.
    expect(await t.warden.rules('acme')).toEqual([]);
    const next = await t.warden.gate.decide(CTX, UNSANDBOXED, { wait: false });
    expect(next).toMatchObject({ outcome: 'ask', rule: 'sandbox:off' });
    expect(next.approvalId).not.toBe(approval.id);
  });

  it('refuses "approve for N hours" and writes no rule (G24)', async () => {
    const { approval } = await held();
    for (const scope of ['agent:coder-1', 'workspace']) {
      const refused = await t.alice.answer(approval.id, { kind: 'remember', hours: 8, scope });
      expect(refused).toMatchObject({ ok: false, code: 'invalid' });
      if (!refused.ok) expect(refused.message).toContain('only "approve once"');
    }
    expect((await t.warden.store.approvals.get(approval.id))?.state).toBe('pending');
    expect(await t.warden.rules('acme')).toEqual([]);
    expect(
      (await auditLog(t.warden.store)).filter((e) => e.kind === 'change').map((e) => e.change),
    ).toEqual(['policy-revision']);
  });

  it('is held under actFreely too, and denied when no approver is connected (G22, G32)', async () => {
    const free = { ...CTX, space: 'free' };
    expect((await t.warden.gate.decide(free, LS)).outcome).toBe('allow');
    const { approval } = await held(free);
    expect(approval.offer?.rememberable).toBe(false);
    await t.alice.close();
    const alone = await t.warden.gate.decide(free, UNSANDBOXED);
    expect(alone).toMatchObject({ decision: 'prompt', outcome: 'deny', rule: 'sandbox:off' });
  });

  it('keeps a deny a deny: hard stays hard, soft stays soft (G26, G27)', async () => {
    const force = await t.warden.gate.decide(CTX, {
      tool: 'Bash',
      command: 'git push --force origin x',
      unsandboxed: true,
    });
    expect(force).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      rule: 'no-force',
      enforcement: 'hard',
      overridable: false,
    });
    const publish = await t.warden.gate.decide(CTX, {
      tool: 'Bash',
      command: 'npm publish',
      unsandboxed: true,
    });
    expect(publish).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      rule: 'no-publish',
      enforcement: 'soft',
      overridable: true,
    });
    expect(publish.reason).toContain('without the OS sandbox');
  });

  it('lets an override of a soft deny through only for the call it was granted for (G26)', async () => {
    const sandboxed = { tool: 'Bash', command: 'npm publish' };
    const unsandboxed = { ...sandboxed, unsandboxed: true };
    const denied = await t.warden.gate.decide(CTX, sandboxed);
    expect(
      (await t.olga.answer(denied.approvalId ?? '', { kind: 'override', reason: 'release' })).ok,
    ).toBe(true);
    // Granted with the sandbox: the same command without it is not let through.
    const without = await t.warden.gate.decide(CTX, unsandboxed);
    expect(without).toMatchObject({ outcome: 'deny', overridable: true });
    expect(without.override).toBeUndefined();
    expect(without.approvalId).not.toBe(denied.approvalId);
    // Its own override, granted by a human, lets exactly it through once.
    expect(
      (await t.olga.answer(without.approvalId ?? '', { kind: 'override', reason: 'signed off' }))
        .ok,
    ).toBe(true);
    const retried = await t.warden.gate.decide(CTX, unsandboxed);
    expect(retried).toMatchObject({ outcome: 'allow', override: { by: 'olga' } });
    expect((await t.warden.gate.decide(CTX, unsandboxed)).outcome).toBe('deny');
  });

  it('records the decision with the sandbox entry in the audit log (G39)', async () => {
    const { first } = await held();
    const entry = (await auditLog(t.warden.store)).find((e) => e.id === first.decisionId);
    expect(entry).toMatchObject({
      kind: 'decision',
      outcome: 'ask',
      decision: { rule: 'sandbox:off' },
    });
    expect(JSON.stringify(entry)).toContain('"facet":"sandbox"');
  });
});
