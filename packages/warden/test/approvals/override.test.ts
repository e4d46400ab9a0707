// Soft denies (G26, G27) and the managed layer's source (G28, G29): a soft
// deny is a deny that a holder of the override permission can lift once, with
// a recorded reason; a hard deny nothing lifts; the managed file wins.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../src/gate/gate.js';
import type { ApproverChannel } from '../../src/approvals/broker.js';
import { tempDir } from '../support/backends.js';
import { auditLog, openTestWarden } from '../support/warden.js';
import type { TestWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'no-publish', command: 'npm publish', decision: 'deny', enforcement: 'soft' },
    { id: 'no-force', command: 'git push --force', decision: 'deny' },
  ],
};
const CTX: CallContext = { workspace: 'acme', agent: 'coder-1', source: 'library' };
const PUBLISH = { tool: 'shell', command: 'npm publish' };

describe('soft denies and overrides (G26)', () => {
  let t: TestWarden;
  let olga: ApproverChannel;
  let alice: ApproverChannel;
  beforeEach(async () => {
    t = await openTestWarden(POLICY);
    olga = await t.warden.approvals.connect({ name: 'olga', roles: ['overrider'] });
    alice = await t.warden.approvals.connect({ name: 'alice', roles: ['approver'] });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('denies at once, says it is overridable, and opens one override request per call', async () => {
    const first = await t.warden.gate.decide(CTX, PUBLISH);
    expect(first).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      enforcement: 'soft',
      overridable: true,
    });
    expect(first.reason).toContain(`approval \`${first.approvalId ?? ''}\``);
    const again = await t.warden.gate.decide(CTX, PUBLISH);
    expect(again.approvalId).toBe(first.approvalId);
    const pending = await olga.pending();
    expect(pending.map((a) => [a.kind, a.id])).toEqual([['override', first.approvalId]]);
  });

  it('lets the same call through once after an override with a reason, and records who and why', async () => {
    const denied = await t.warden.gate.decide(CTX, PUBLISH);
    const answered = await olga.answer(denied.approvalId ?? '', {
      kind: 'override',
      reason: 'hotfix release 2.1.1',
    });
    expect(answered.ok).toBe(true);
    const retried = await t.warden.gate.decide(CTX, PUBLISH);
    expect(retried).toMatchObject({
      decision: 'deny',
      outcome: 'allow',
      override: { by: 'olga', reason: 'hotfix release 2.1.1' },
    });
    const third = await t.warden.gate.decide(CTX, PUBLISH);
    expect(third.outcome).toBe('deny');
    const log = await auditLog(t.warden.store);
    expect(log.find((e) => e.kind === 'approval')).toMatchObject({
      answer: 'override',
      by: 'olga',
      reason: 'hotfix release 2.1.1',
      outcome: 'allow',
    });
    expect(log.find((e) => e.id === retried.decisionId)).toMatchObject({
      outcome: 'allow',
      override: { by: 'olga' },
    });
  });

  it('does not let an override of one call through for another', async () => {
    const denied = await t.warden.gate.decide(CTX, PUBLISH);
    await olga.answer(denied.approvalId ?? '', { kind: 'override', reason: 'ok' });
    const other = await t.warden.gate.decide({ ...CTX, agent: 'coder-2' }, PUBLISH);
    expect(other.outcome).toBe('deny');
    const otherCommand = await t.warden.gate.decide(CTX, {
      tool: 'shell',
      command: 'npm publish --tag next',
    });
    expect(otherCommand.outcome).toBe('deny');
  });

  it('lets nothing else through: the same request with other tool arguments is another call', async () => {
    const ask = (method: string) => ({
      tool: 'shell',
      command: 'npm publish',
      arguments: { method },
    });
    const denied = await t.warden.gate.decide(CTX, ask('GET'));
    await olga.answer(denied.approvalId ?? '', { kind: 'override', reason: 'ok' });
    expect((await t.warden.gate.decide(CTX, ask('DELETE'))).outcome).toBe('deny');
    expect((await t.warden.gate.decide(CTX, ask('GET'))).outcome).toBe('allow');
  });

  it('can no longer be overridden once its window has passed', async () => {
    await t.cleanup();
    let now = Date.now();
    t = await openTestWarden(POLICY, { clock: () => now, approvals: { overrideWindowMs: 60_000 } });
    olga = await t.warden.approvals.connect({ name: 'olga', roles: ['overrider'] });
    const denied = await t.warden.gate.decide(CTX, PUBLISH);
    now += 61_000;
    expect(
      await olga.answer(denied.approvalId ?? '', { kind: 'override', reason: 'late' }),
    ).toMatchObject({
      ok: false,
      code: 'not-pending',
    });
    expect((await t.warden.gate.decide(CTX, PUBLISH)).outcome).toBe('deny');
  });

  it('needs the overrider role and a reason', async () => {
    const denied = await t.warden.gate.decide(CTX, PUBLISH);
    expect(
      await alice.answer(denied.approvalId ?? '', { kind: 'override', reason: 'x' }),
    ).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await olga.answer(denied.approvalId ?? '', { kind: 'override' })).toMatchObject({
      ok: false,
      code: 'invalid',
    });
    expect(await olga.answer(denied.approvalId ?? '', { kind: 'once' })).toMatchObject({
      ok: false,
      code: 'invalid',
    });
  });

  it('never opens an override for a hard deny (G27)', async () => {
    const denied = await t.warden.gate.decide(CTX, {
      tool: 'shell',
      command: 'git push --force origin main',
    });
    expect(denied).toMatchObject({ outcome: 'deny', enforcement: 'hard', overridable: false });
    expect(denied.approvalId).toBeUndefined();
    expect(await olga.pending()).toEqual([]);
  });
});

describe('the managed layer (G28, G29)', () => {
  const MANAGED_DENY = {
    version: 1,
    rules: [{ id: 'pin-no-installs', action: 'packageInstall', decision: 'deny' }],
  };

  it('applies the stored managed layer, and a WARDEN_MANAGED_POLICY file wins over it entirely (G29)', async () => {
    const dir = tempDir('warden-managed-');
    const file = join(dir, 'managed.yaml');
    writeFileSync(
      file,
      'version: 1\nrules:\n  - { id: pin-no-push, action: gitPush, decision: deny }\n',
    );
    const stored = await openTestWarden(POLICY);
    try {
      await stored.warden.putManagedPolicy(MANAGED_DENY, { author: 'it' });
      const install = await stored.warden.gate.decide(CTX, { actions: ['packageInstall'] });
      expect(install).toMatchObject({
        outcome: 'deny',
        rule: 'pin-no-installs',
        scope: 'managed:workspace',
        managedSource: 'store',
      });
    } finally {
      await stored.cleanup();
    }
    const pinned = await openTestWarden(POLICY, { env: { WARDEN_MANAGED_POLICY: file } });
    try {
      await pinned.warden.putManagedPolicy(MANAGED_DENY, { author: 'it' });
      const install = await pinned.warden.gate.decide(CTX, { actions: ['packageInstall'] });
      expect(install).toMatchObject({ outcome: 'allow', managedSource: 'env' });
      const push = await pinned.warden.gate.decide(CTX, {
        actions: ['gitPush'],
        args: { refs: ['x'] },
      });
      expect(push).toMatchObject({ outcome: 'deny', rule: 'pin-no-push' });
      // The file is read again when it changes.
      writeFileSync(file, 'version: 1\nrules: []\n');
      const later = await pinned.warden.gate.decide(CTX, { actions: ['gitCommit'] });
      expect(later.managedSource).toBe('env');
    } finally {
      await pinned.cleanup();
    }
  });

  it('denies everything when the managed file cannot be read: the pin fails closed', async () => {
    const t = await openTestWarden(POLICY, {
      env: { WARDEN_MANAGED_POLICY: '/nonexistent/managed.yaml' },
    });
    try {
      const decision = await t.warden.gate.decide(CTX, { actions: ['gitCommit'] });
      expect(decision.outcome).toBe('deny');
      expect(decision.reason).toContain('cannot read the managed policy');
    } finally {
      await t.cleanup();
    }
  });
});
