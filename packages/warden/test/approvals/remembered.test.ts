// "Approve for N hours" (G23, G24): a real rule in the picked scope, bound to
// what the human saw and generalised one level, with origin `remembered` and
// an expiry; revocable; never a rewrite of the standing policy.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generalisePath, generaliseRef } from '@warden/engine';
import type { CallContext } from '../../src/gate/gate.js';
import type { ApproverChannel } from '../../src/approvals/broker.js';
import { auditLog, eventually, openTestWarden } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: {} },
  rules: [
    {
      id: 'ask-deletes-in-payments',
      scope: 'space:payments',
      action: 'fileDelete',
      decision: 'prompt',
    },
    { id: 'ask-protected', action: 'gitPush', decision: 'deny', when: { refs: ['release/**'] } },
  ],
};

const CTX: CallContext = {
  workspace: 'acme',
  agent: 'coder-1',
  source: 'library',
  worktree: '/srv/repos/api',
};
const HOUR = 3_600_000;

describe('remembered approvals (G23)', () => {
  let t: TestWarden;
  let alice: ApproverChannel;
  let now: number;

  beforeEach(async () => {
    now = Date.parse('2026-11-30T10:00:00Z');
    t = await openTestWarden(POLICY, {
      clock: () => now,
      approvals: { pollMs: 20, timeoutMs: 60_000 },
    });
    alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
  });
  afterEach(async () => {
    await alice.close();
    await t.cleanup();
  });

  async function prompt(
    ctx: CallContext,
    ask: Parameters<TestWarden['warden']['gate']['decide']>[1],
  ) {
    const first = await t.warden.gate.decide(ctx, ask, { wait: false });
    expect(first.outcome).toBe('ask');
    const approval = await t.warden.store.approvals.get(first.approvalId ?? '');
    if (approval === null) throw new Error('the prompt opened no approval');
    return { first, approval };
  }

  it('generalises one level: a branch grants its folder, a ref without `/` only itself, a path its parent', () => {
    expect(generaliseRef('feature/login')).toBe('feature/**');
    expect(generaliseRef('main')).toBe('main');
    expect(generalisePath({ kind: 'inside', rel: 'src/app/a.ts', abs: null })).toEqual([
      'src/app/**',
    ]);
    expect(generalisePath({ kind: 'outside', abs: '/tmp/build/x.log' })).toEqual(['/tmp/build/**']);
    // At the top, the parent is everything: the entry grants only itself and what is in it.
    expect(generalisePath({ kind: 'inside', rel: 'build', abs: null })).toEqual([
      'build',
      'build/**',
    ]);
    expect(generalisePath({ kind: 'outside', abs: '/x.log' })).toEqual(['/x.log', '/x.log/**']);
    expect(generalisePath({ kind: 'inside', rel: '.', abs: null })).toBeNull();
  });

  it('offers the rules it would write per scope, and writes them for the scope picked', async () => {
    const { approval } = await prompt(CTX, {
      tool: 'git_push',
      actions: ['gitPush'],
      args: { refs: ['feature/login'] },
    });
    expect(approval.offer?.rememberable).toBe(true);
    expect(approval.offer?.scopes.map((s) => [s.scope, s.effective])).toEqual([
      ['agent:coder-1', true],
      ['workspace', true],
    ]);
    expect(approval.offer?.scopes[0]?.rules).toEqual([
      {
        scope: 'agent:coder-1',
        action: 'gitPush',
        decision: 'allow',
        when: { refs: ['feature/**'] },
      },
    ]);
    const answered = await alice.answer(approval.id, {
      kind: 'remember',
      hours: 8,
      scope: 'agent:coder-1',
    });
    expect(answered.ok).toBe(true);
    const [rule] = await t.warden.rules('acme');
    expect(rule).toMatchObject({
      origin: 'remembered',
      scope: 'agent:coder-1',
      createdBy: 'alice',
      expiresAt: new Date(now + 8 * HOUR).toISOString(),
      rule: {
        action: 'gitPush',
        decision: 'allow',
        when: { refs: ['feature/**'] },
        origin: 'remembered',
      },
    });
    // The standing policy is untouched (G24).
    expect((await t.warden.store.policies.history('acme')).length).toBe(1);
    const changes = (await auditLog(t.warden.store)).filter((e) => e.kind === 'change');
    expect(changes.map((e) => e.change)).toEqual(['policy-revision', 'rules-remembered']);
  });

  it('lets the next push to a sibling branch through without asking, never main, and forgets after the TTL', async () => {
    const { approval } = await prompt(CTX, {
      actions: ['gitPush'],
      args: { refs: ['feature/login'] },
    });
    await alice.answer(approval.id, { kind: 'remember', hours: 8, scope: 'agent:coder-1' });
    const sibling = await t.warden.gate.decide(CTX, {
      actions: ['gitPush'],
      args: { refs: ['feature/signup'] },
    });
    expect(sibling).toMatchObject({ outcome: 'allow', decision: 'allow', scope: 'agent:coder-1' });
    const main = await t.warden.gate.decide(
      CTX,
      { actions: ['gitPush'], args: { refs: ['main'] } },
      { wait: false },
    );
    expect(main.outcome).toBe('ask');
    const otherAgent = await t.warden.gate.decide(
      { ...CTX, agent: 'coder-2' },
      { actions: ['gitPush'], args: { refs: ['feature/x'] } },
      { wait: false },
    );
    expect(otherAgent.outcome).toBe('ask');
    now += 8 * HOUR; // E13: alive while at < expiresAt
    const later = await t.warden.gate.decide(
      CTX,
      { actions: ['gitPush'], args: { refs: ['feature/signup'] } },
      { wait: false },
    );
    expect(later.outcome).toBe('ask');
  });

  it('can be revoked early, and the very next call asks again', async () => {
    const { approval } = await prompt(CTX, {
      actions: ['gitPush'],
      args: { refs: ['feature/login'] },
    });
    await alice.answer(approval.id, { kind: 'remember', hours: 8, scope: 'workspace' });
    const [rule] = await t.warden.rules('acme');
    expect(
      (await t.warden.gate.decide(CTX, { actions: ['gitPush'], args: { refs: ['feature/a'] } }))
        .outcome,
    ).toBe('allow');
    const revoked = await t.warden.revokeRule('acme', rule?.id ?? '', 'bob');
    expect(revoked?.revokedBy).toBe('bob');
    const after = await t.warden.gate.decide(
      CTX,
      { actions: ['gitPush'], args: { refs: ['feature/a'] } },
      { wait: false },
    );
    expect(after.outcome).toBe('ask');
    expect(await t.warden.rules('acme')).toEqual([]);
    expect((await t.warden.rules('acme', { includeRevoked: true })).length).toBe(1);
  });

  it('carries caps and parent folders into the rule (`count` 3 → `maxCount: 3`)', async () => {
    const { approval } = await prompt(CTX, {
      actions: ['fileDelete'],
      args: { paths: ['build/a.o', 'build/b.o', 'build/c.o'], count: 3 },
    });
    expect(approval.offer?.facets[0]?.draft).toEqual({
      action: 'fileDelete',
      decision: 'allow',
      when: { paths: ['build/**'], maxCount: 3 },
    });
  });

  it('offers only "approve once" when a prompting facet’s arguments were unknown', async () => {
    const { approval } = await prompt(CTX, { tool: 'shell', command: 'git push' });
    expect(approval.offer?.rememberable).toBe(false);
    expect(approval.offer?.why).toContain('only "approve once"');
    const refused = await alice.answer(approval.id, {
      kind: 'remember',
      hours: 8,
      scope: 'workspace',
    });
    expect(refused).toMatchObject({ ok: false, code: 'invalid' });
    expect((await alice.answer(approval.id, { kind: 'once' })).ok).toBe(true);
  });

  it('offers only "approve once" for a command facet: a command rule would cover longer commands too', async () => {
    await t.warden.putPolicy(
      {
        ...POLICY,
        rules: [
          ...POLICY.rules,
          { id: 'ask-terraform', command: 'terraform apply', decision: 'prompt' },
        ],
      },
      { author: 'ops' },
    );
    const { approval } = await prompt(CTX, {
      tool: 'shell',
      command: 'terraform apply -target=module.staging',
    });
    expect(approval.offer?.rememberable).toBe(false);
    expect(approval.offer?.why).toContain('every longer command');
  });

  it('offers only "approve once" when the arguments held a secret the approver saw redacted', async () => {
    const { approval } = await prompt(CTX, {
      actions: ['fileDelete'],
      args: { paths: ['keys/ghp_0123456789abcdefghijABCDEFGHIJ012345/old.pem'] },
    });
    expect(approval.offer?.rememberable).toBe(false);
    expect(JSON.stringify(approval)).not.toContain('ghp_0123456789');
    const refused = await alice.answer(approval.id, {
      kind: 'remember',
      hours: 8,
      scope: 'workspace',
    });
    expect(refused).toMatchObject({ ok: false, code: 'invalid' });
  });

  it('refuses an answer after the approval has expired, and lists it as expired (G22)', async () => {
    const { approval } = await prompt(CTX, { actions: ['gitPush'], args: { refs: ['feature/x'] } });
    now += 61_000;
    const late = await alice.answer(approval.id, { kind: 'once' });
    expect(late).toMatchObject({ ok: false, code: 'not-pending' });
    expect((await t.warden.store.approvals.get(approval.id))?.state).toBe('expired');
    const waited = await t.warden.gate.awaitApproval(approval.id);
    expect(waited.outcome).toBe('deny');
  });

  it('never writes the rules of an answer that lost the race', async () => {
    const { approval } = await prompt(CTX, { actions: ['gitPush'], args: { refs: ['feature/x'] } });
    const bob = await t.warden.approvals.connect({ name: 'bob', roles: ['approver'] });
    const [first, second] = await Promise.all([
      bob.answer(approval.id, { kind: 'deny', reason: 'no' }),
      alice.answer(approval.id, { kind: 'remember', hours: 8, scope: 'workspace' }),
    ]);
    expect([first.ok, second.ok].filter(Boolean).length).toBe(1);
    const settled = await t.warden.store.approvals.get(approval.id);
    const rules = await t.warden.rules('acme');
    expect(rules.length).toBe(settled?.state === 'approved' ? 1 : 0);
    await bob.close();
  });

  it('offers only "approve once" for an escalation: a rule that cannot be verified (G18)', async () => {
    const { approval } = await prompt(CTX, { actions: ['gitPush'] });
    expect(approval.offer?.rememberable).toBe(false);
  });

  it('refuses a scope where the rule would not lift the prompt, and says which rule decides first', async () => {
    const ctx = { ...CTX, space: 'payments' };
    const { approval } = await prompt(ctx, { actions: ['fileDelete'], args: { paths: ['tmp/x'] } });
    const scopes = approval.offer?.scopes ?? [];
    expect(scopes.map((s) => [s.scope, s.effective])).toEqual([
      ['space:payments', true],
      ['agent:coder-1', false],
      ['workspace', false],
    ]);
    const refused = await alice.answer(approval.id, {
      kind: 'remember',
      hours: 8,
      scope: 'workspace',
    });
    expect(refused.ok ? '' : refused.message).toContain('ask-deletes-in-payments');
    expect(
      (await alice.answer(approval.id, { kind: 'remember', hours: 2, scope: 'space:payments' })).ok,
    ).toBe(true);
  });

  it('refuses hours that are not a positive number within the limit', async () => {
    const { approval } = await prompt(CTX, { actions: ['gitPush'], args: { refs: ['feature/x'] } });
    for (const hours of [0, -1, 10_000, Number.NaN]) {
      const refused = await alice.answer(approval.id, {
        kind: 'remember',
        hours,
        scope: 'workspace',
      });
      expect(refused).toMatchObject({ ok: false, code: 'invalid' });
    }
  });

  it('reaches a caller waiting on the same store', async () => {
    const waiting = t.warden.gate.decide(CTX, {
      actions: ['gitPush'],
      args: { refs: ['feature/y'] },
    });
    const [pending] = await eventually(async () => {
      const list = await alice.pending();
      return list.length > 0 ? list : null;
    });
    await alice.answer(pending?.id ?? '', { kind: 'remember', hours: 1, scope: 'workspace' });
    expect((await waiting).outcome).toBe('allow');
  });
});
