// The gate decides, records and asks (G1, G4, G22, G39, I1): every decision
// lands in the chained audit log stamped by Warden, prompts wait for a
// connected approver and end as a deny without one.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/gate/gate.js';
import type { ApproverChannel } from '../../src/approvals/broker.js';
import type { AuditDraft } from '../../src/store/types.js';
import { auditLog, eventually, openTestWarden } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: { autonomy: 'actWithApproval' } },
  rules: [
    { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    { id: 'no-publish', command: 'npm publish', decision: 'deny', enforcement: 'soft' },
  ],
};

const CTX: CallContext = {
  workspace: 'acme',
  agent: 'coder-1',
  source: 'library',
  model: 'claude-sonnet-4',
  runId: 'r-1',
  worktree: '/srv/repos/api',
};

describe('the gate', () => {
  let t: TestWarden;
  beforeEach(async () => {
    t = await openTestWarden(POLICY, { approvals: { timeoutMs: 5000, pollMs: 50 } });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('answers what the engine answers, and records the decision with its facets (G3, G39)', async () => {
    const decision = await t.warden.gate.decide(CTX, {
      tool: 'git_push',
      actions: ['gitPush'],
      args: { refs: ['main'] },
      arguments: { remote: 'origin', ref: 'main' },
    });
    expect(decision).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      rule: 'protect-main',
      scope: 'workspace',
    });
    const log = await auditLog(t.warden.store);
    const recorded = log.find((e) => e.id === decision.decisionId);
    expect(recorded).toMatchObject({
      kind: 'decision',
      agentId: 'coder-1',
      source: 'library',
      model: 'claude-sonnet-4',
      runId: 'r-1',
      outcome: 'deny',
      decision: { rule: 'protect-main', facets: [{ facet: 'gitPush', rule: 'protect-main' }] },
      policy: { revision: 1 },
    });
    const call = log.find((e) => e.kind === 'call' && e.callId === decision.callId);
    expect(call).toMatchObject({
      status: 'Denied',
      decisionId: decision.decisionId,
      tool: 'git_push',
    });
  });

  it('stamps identity from the adapter, never from the tool arguments (I1)', async () => {
    const decision = await t.warden.gate.decide(CTX, {
      tool: 'git_commit',
      actions: ['gitCommit'],
      arguments: { agentId: 'admin', source: 'forged', model: 'x', status: 'Ok' },
    });
    const entry = (await auditLog(t.warden.store)).find((e) => e.id === decision.decisionId);
    expect(entry).toMatchObject({
      agentId: 'coder-1',
      source: 'library',
      model: 'claude-sonnet-4',
    });
  });

  it('resolves every call anew: a policy change applies to the very next call (G4)', async () => {
    const ask = { tool: 'git_commit', actions: ['gitCommit'] };
    expect((await t.warden.gate.decide(CTX, ask)).outcome).toBe('allow');
    await t.warden.putPolicy(
      {
        ...POLICY,
        rules: [...POLICY.rules, { id: 'no-commits', action: 'gitCommit', decision: 'deny' }],
      },
      { author: 'ops' },
    );
    expect((await t.warden.gate.decide(CTX, ask)).rule).toBe('no-commits');
  });

  it('denies a prompt at once when no approver is connected (G22)', async () => {
    const started = Date.now();
    const decision = await t.warden.gate.decide(CTX, {
      tool: 'git_push',
      actions: ['gitPush'],
      args: { refs: ['feature/x'] },
    });
    expect(decision).toMatchObject({ decision: 'prompt', outcome: 'deny' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await t.warden.approvals.list({ state: 'pending' })).toEqual([]);
  });

  it('denies an unknown action class at a runtime choke point (E1)', async () => {
    const decision = await t.warden.gate.decide(CTX, { tool: 'x', actions: ['gitPushh'] });
    expect(decision.outcome).toBe('deny');
    expect(decision.reason).toContain('did you mean `gitPush`');
    expect(decision.rule).toBe('failClosed');
  });

  it('denies every call in a workspace that has no policy, saying so', async () => {
    const decision = await t.warden.gate.decide(
      { ...CTX, workspace: 'other' },
      { actions: ['gitCommit'] },
    );
    expect(decision.outcome).toBe('deny');
    expect(decision.reason).toContain('no policy is stored for workspace `other`');
  });

  describe('with an approver connected', () => {
    let alice: ApproverChannel;
    beforeEach(async () => {
      alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
    });
    afterEach(async () => {
      await alice.close();
    });

    it('holds a prompt as a pending approval listing every prompting facet, and "once" releases it (G21, G22)', async () => {
      const pending = t.warden.gate.decide(CTX, {
        tool: 'shell',
        command: 'git push origin feature/login && rm -rf build',
      });
      const [approval] = await eventually(async () => {
        const list = await alice.pending();
        return list.length > 0 ? list : null;
      });
      expect(approval?.offer?.facets.map((f) => f.facet)).toEqual(['gitPush', 'fileDelete']);
      expect(approval?.decision.prompts).toEqual(['gitPush', 'fileDelete']);
      const answered = await alice.answer(approval?.id ?? '', { kind: 'once' });
      expect(answered.ok).toBe(true);
      const decision = await pending;
      expect(decision).toMatchObject({
        decision: 'prompt',
        outcome: 'allow',
        approvalId: approval?.id,
      });
      expect(decision.reason).toContain('approved once by alice');
      const log = await auditLog(t.warden.store);
      const kinds = log
        .filter((e) => e.callId === decision.callId)
        .map((e) => [e.kind, e.status ?? e.answer ?? e.outcome]);
      expect(kinds).toEqual([
        ['decision', 'ask'],
        ['call', 'Staged'],
        ['approval', 'once'],
        ['decision', 'allow'],
      ]);
      expect(log.find((e) => e.kind === 'approval')).toMatchObject({
        by: 'alice',
        outcome: 'allow',
      });
      // How the held decision ended is recorded before the caller acts (G39).
      expect(log.filter((e) => e.kind === 'decision').at(-1)).toMatchObject({
        decisionId: decision.decisionId,
        outcome: 'allow',
        approval: { state: 'approved', answer: 'once', by: 'alice' },
      });
    });

    it('denies when the approver says no, recording who and why', async () => {
      const pending = t.warden.gate.decide(CTX, {
        tool: 'git_push',
        actions: ['gitPush'],
        args: { refs: ['x'] },
      });
      const [approval] = await eventually(async () =>
        (await alice.pending()).length > 0 ? alice.pending() : null,
      );
      await alice.answer(approval?.id ?? '', { kind: 'deny', reason: 'not today' });
      const decision = await pending;
      expect(decision.outcome).toBe('deny');
      expect(decision.reason).toContain('denied by alice: not today');
      const log = await auditLog(t.warden.store);
      expect(
        log.filter((e) => e.callId === decision.callId).map((e) => e.status ?? e.kind),
      ).toEqual(['decision', 'Staged', 'approval', 'decision', 'Denied']);
    });

    it('denies when nobody answers in time: a timeout is a no (G22)', async () => {
      await t.cleanup();
      t = await openTestWarden(POLICY, { approvals: { timeoutMs: 300, pollMs: 20 } });
      const bob = await t.warden.approvals.connect({ name: 'bob', roles: ['approver'] });
      const decision = await t.warden.gate.decide(CTX, {
        actions: ['gitPush'],
        args: { refs: ['x'] },
      });
      expect(decision.outcome).toBe('deny');
      expect(decision.approval?.state).toBe('expired');
      expect(decision.reason).toContain('no answer within');
      await bob.close();
    });

    it('denies when the last approver goes away while a prompt waits (approver gone)', async () => {
      const pending = t.warden.gate.decide(CTX, { actions: ['gitPush'], args: { refs: ['x'] } });
      await eventually(async () => (await alice.pending()).length > 0);
      await alice.close();
      const decision = await pending;
      expect(decision.outcome).toBe('deny');
      expect(decision.approval?.closedReason).toBe('no approver is connected any more');
    });

    it('denies when the caller stops waiting', async () => {
      const controller = new AbortController();
      const pending = t.warden.gate.decide(
        CTX,
        { actions: ['gitPush'], args: { refs: ['x'] } },
        { signal: controller.signal },
      );
      await eventually(async () => (await alice.pending()).length > 0);
      controller.abort();
      const decision = await pending;
      expect(decision.outcome).toBe('deny');
      expect(decision.approval?.state).toBe('cancelled');
    });

    it('answers `ask` with the approval id when told not to wait, and the wait can follow', async () => {
      const first = await t.warden.gate.decide(
        CTX,
        { actions: ['gitPush'], args: { refs: ['x'] } },
        { wait: false },
      );
      expect(first).toMatchObject({ outcome: 'ask', decision: 'prompt' });
      const waiting = t.warden.gate.awaitApproval(first.approvalId ?? '');
      await alice.answer(first.approvalId ?? '', { kind: 'once' });
      expect((await waiting).outcome).toBe('allow');
    });

    it('refuses a second answer, naming who answered first', async () => {
      const first = await t.warden.gate.decide(
        CTX,
        { actions: ['gitPush'], args: { refs: ['x'] } },
        { wait: false },
      );
      await alice.answer(first.approvalId ?? '', { kind: 'once' });
      const again = await alice.answer(first.approvalId ?? '', { kind: 'deny' });
      expect(again).toMatchObject({ ok: false, code: 'not-pending' });
      expect(again.ok ? '' : again.message).toContain('by alice');
    });

    it('lets only holders of the approver role answer prompts', async () => {
      const olga = await t.warden.approvals.connect({ name: 'olga', roles: ['overrider'] });
      const first = await t.warden.gate.decide(
        CTX,
        { actions: ['gitPush'], args: { refs: ['x'] } },
        { wait: false },
      );
      const refused = await olga.answer(first.approvalId ?? '', { kind: 'once' });
      expect(refused).toMatchObject({ ok: false, code: 'forbidden' });
      await olga.close();
    });
  });
});

describe('the gate under hostile input', () => {
  let t: TestWarden;
  beforeEach(async () => {
    t = await openTestWarden(POLICY, { approvals: { timeoutMs: 5000, pollMs: 20 } });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('denies a call whose names hold control characters, and the calls beside it are unharmed', async () => {
    const [bad, ...good] = await Promise.all([
      t.warden.gate.decide(CTX, { tool: 'x\u0000y', actions: ['gitCommit'] }),
      ...Array.from({ length: 5 }, () =>
        t.warden.gate.decide(CTX, { tool: 'git_commit', actions: ['gitCommit'] }),
      ),
    ]);
    expect(bad?.outcome).toBe('deny');
    expect(bad?.reason).toContain('control character');
    expect(good.map((d) => d.outcome)).toEqual(['allow', 'allow', 'allow', 'allow', 'allow']);
  });

  it('writes each call of a batch on its own when one entry of it cannot be stored', async () => {
    const writer = t.warden.writer;
    const first = await writer.append([draftFor('dup-1')]);
    expect(first).toHaveLength(1);
    // The same id again cannot be stored; the entries beside it in the batch can.
    const results = await Promise.allSettled([
      writer.append([draftFor('dup-1')]),
      writer.append([draftFor('ok-1')]),
      writer.append([draftFor('ok-2')]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  });

  it('redacts what an approver writes in a reason, in the log and in what the agent is told', async () => {
    const alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
    const first = await t.warden.gate.decide(
      CTX,
      { actions: ['gitPush'], args: { refs: ['x'] } },
      { wait: false },
    );
    const token = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    await alice.answer(first.approvalId ?? '', { kind: 'deny', reason: `use ${token} instead` });
    const decision = await t.warden.gate.awaitApproval(first.approvalId ?? '');
    expect(decision.reason).not.toContain(token);
    expect(JSON.stringify(await auditLog(t.warden.store))).not.toContain(token);
    expect(
      JSON.stringify(await t.warden.store.approvals.get(first.approvalId ?? '')),
    ).not.toContain(token);
    await alice.close();
  });

  it('answers an unknown approval, or another agent’s, with a deny rather than an error', async () => {
    const alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
    const first = await t.warden.gate.decide(
      CTX,
      { actions: ['gitPush'], args: { refs: ['x'] } },
      { wait: false },
    );
    expect((await t.warden.gate.awaitApproval('nope')).outcome).toBe('deny');
    const other = await t.warden.gate.awaitApproval(first.approvalId ?? '', undefined, {
      ...CTX,
      agent: 'coder-2',
    });
    expect(other).toMatchObject({ outcome: 'deny', rule: 'failClosed' });
    await alice.close();
  });
});

function draftFor(id: string): AuditDraft {
  const occurredAt = new Date().toISOString();
  const body = {
    agentId: 'coder-1',
    callId: id,
    id,
    kind: 'call',
    occurredAt,
    status: 'Ok',
    tool: 't',
    workspace: 'acme',
  };
  return {
    id,
    kind: 'call',
    workspace: 'acme',
    agentId: 'coder-1',
    runId: null,
    callId: id,
    decisionId: null,
    tool: 't',
    status: 'Ok',
    occurredAt,
    body,
  };
}
