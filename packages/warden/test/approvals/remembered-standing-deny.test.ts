// E41 end to end: an approver answering a prompt with "remember" never undoes
// what the standing policy denies — through the gate, the broker and the
// stored rule — and the offer says which denies stay in force.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compilePolicy, decide, validateRequest } from '@warden/engine';
import type { CallContext } from '../../src/gate/gate.js';
import { openStaffedWarden } from '../support/warden.js';
import type { StaffedWarden, TestWarden } from '../support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: {}, free: { autonomy: 'actFreely' } },
  rules: [
    { id: 'no-keys', action: 'fileDelete', decision: 'deny', when: { paths: ['**/*.key'] } },
    {
      id: 'no-pem',
      action: 'fileDelete',
      decision: 'deny',
      enforcement: 'soft',
      when: { paths: ['**/*.pem'] },
    },
    {
      id: 'no-prod',
      action: 'gitPush',
      decision: 'deny',
      when: { refs: ['feature/prod'] },
    },
    { id: 'no-src', action: 'fileDelete', decision: 'deny', when: { paths: ['src/**'] } },
  ],
};

const CTX: CallContext = {
  workspace: 'acme',
  agent: 'coder-1',
  source: 'library',
  worktree: '/srv/repos/api',
};
const SHELL = (command: string) => ({ tool: 'shell', command });

describe('a remembered approval never lifts a standing deny (E41)', () => {
  let t: StaffedWarden;
  beforeEach(async () => {
    t = await openStaffedWarden(POLICY, { approvals: { pollMs: 20, timeoutMs: 60_000 } });
  });
  afterEach(() => t.cleanup());

  async function rememberFor(
    ctx: CallContext,
    ask: Parameters<TestWarden['warden']['gate']['decide']>[1],
    scope: string,
  ) {
    const first = await t.warden.gate.decide(ctx, ask, { wait: false });
    expect(first.outcome).toBe('ask');
    // What the approver's channel shows is the stored approval, offer and all.
    const shown = (await t.alice.pending()).find((a) => a.id === first.approvalId);
    const approval = await t.warden.store.approvals.get(first.approvalId ?? '');
    if (approval === null) throw new Error('the prompt opened no approval');
    expect(shown?.offer).toEqual(approval.offer);
    const answered = await t.alice.answer(approval.id, { kind: 'remember', hours: 8, scope });
    expect(answered.ok).toBe(true);
    return approval;
  }

  it('the issue example: remember for agent on `rm certs/readme.txt`, then `rm certs/server.key` is still a hard deny naming the standing rule', async () => {
    const approval = await rememberFor(CTX, SHELL('rm certs/readme.txt'), 'agent:coder-1');
    const [rule] = await t.warden.rules('acme');
    expect(rule).toMatchObject({
      origin: 'remembered',
      rule: { action: 'fileDelete', when: { paths: ['certs/**'] } },
    });
    // The offer said so before the answer: the key deny stays in force, the src deny is elsewhere.
    const agentScope = approval.offer?.scopes.find((s) => s.scope === 'agent:coder-1');
    expect(agentScope?.staysDenied?.map((d) => [d.rule, d.scope, d.enforcement])).toEqual([
      ['no-keys', 'workspace', 'hard'],
      ['no-pem', 'workspace', 'soft'],
    ]);
    expect(agentScope?.staysDenied?.[0]?.text).toContain(
      'stays denied: rule `no-keys` (hard) in workspace',
    );

    const key = await t.warden.gate.decide(CTX, SHELL('rm certs/server.key'));
    expect(key).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      rule: 'no-keys',
      scope: 'workspace',
      enforcement: 'hard',
      overridable: false,
    });
    expect(key.reason).toContain('no-keys');
    expect(await t.olga.pending()).toEqual([]);
    // What the standing policy does not deny, the remembered rule lets through.
    const other = await t.warden.gate.decide(CTX, SHELL('rm certs/notes.txt'));
    expect(other).toMatchObject({ outcome: 'allow' });
    expect(other.facets.find((f) => f.facet === 'fileDelete')).toMatchObject({
      decision: 'allow',
      scope: 'agent:coder-1',
    });
  });

  it('a soft deny stays soft: only an override of that exact call lets it through (G26)', async () => {
    await rememberFor(CTX, SHELL('rm certs/readme.txt'), 'agent:coder-1');
    const pem = await t.warden.gate.decide(CTX, SHELL('rm certs/server.pem'));
    expect(pem).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      rule: 'no-pem',
      enforcement: 'soft',
      overridable: true,
    });
    // An approver cannot lift it; an overrider can, once, with a reason.
    const refused = await t.alice.answer(pem.approvalId ?? '', { kind: 'once' });
    expect(refused.ok).toBe(false);
    const overridden = await t.olga.answer(pem.approvalId ?? '', {
      kind: 'override',
      reason: 'rotating the staging certificate',
    });
    expect(overridden.ok).toBe(true);
    const retried = await t.warden.gate.decide(CTX, SHELL('rm certs/server.pem'));
    expect(retried).toMatchObject({ outcome: 'allow', override: { by: 'olga' } });
    const again = await t.warden.gate.decide(CTX, SHELL('rm certs/server.pem'));
    expect(again.outcome).toBe('deny');
    // Another call is not that call.
    const sibling = await t.warden.gate.decide(CTX, SHELL('rm certs/client.pem'));
    expect(sibling).toMatchObject({ decision: 'deny', rule: 'no-pem', outcome: 'deny' });
  });

  it('refs: a remembered `feature/**` in a space never lifts the workspace deny of `feature/prod`', async () => {
    const inSpace = { ...CTX, space: 'payments' };
    const approval = await rememberFor(
      inSpace,
      { actions: ['gitPush'], args: { refs: ['feature/login'] } },
      'space:payments',
    );
    expect(
      approval.offer?.scopes
        .find((s) => s.scope === 'space:payments')
        ?.staysDenied?.map((d) => d.rule),
    ).toEqual(['no-prod']);
    const prod = await t.warden.gate.decide(inSpace, {
      actions: ['gitPush'],
      args: { refs: ['feature/prod'] },
    });
    expect(prod).toMatchObject({ decision: 'deny', rule: 'no-prod', scope: 'workspace' });
    const sibling = await t.warden.gate.decide(inSpace, {
      actions: ['gitPush'],
      args: { refs: ['feature/signup'] },
    });
    expect(sibling.outcome).toBe('allow');
  });

  it('a rule stored as remembered is read as remembered, whatever its document says', async () => {
    const at = Date.now();
    await t.warden.store.rules.add([
      {
        id: 'rem-legacy',
        workspace: 'acme',
        rule: {
          id: 'rem-legacy',
          scope: 'agent:coder-1',
          action: 'fileDelete',
          decision: 'allow',
          when: { paths: ['certs/**'] },
          expiresAt: new Date(at + 3_600_000).toISOString(),
        },
        scope: 'agent:coder-1',
        origin: 'remembered',
        createdAt: new Date(at).toISOString(),
        createdBy: 'alice',
        expiresAt: new Date(at + 3_600_000).toISOString(),
        approvalId: null,
      },
    ]);
    const key = await t.warden.gate.decide(CTX, SHELL('rm certs/server.key'));
    expect(key).toMatchObject({ decision: 'deny', rule: 'no-keys', enforcement: 'hard' });
    const other = await t.warden.gate.decide(CTX, SHELL('rm certs/notes.txt'));
    expect(other.outcome).toBe('allow');
  });

  it('the what-if answers as the gate does (G3, G38)', async () => {
    await rememberFor(CTX, SHELL('rm certs/readme.txt'), 'agent:coder-1');
    const policy = compilePolicy(await t.warden.effectivePolicy('acme'));
    const request = validateRequest({
      workspace: 'acme',
      agent: 'coder-1',
      command: 'rm certs/server.key',
      worktree: '/srv/repos/api',
    });
    if (!request.ok) throw new Error('invalid request');
    const whatIf = decide({
      policy,
      request: request.value,
      at: Date.now(),
      approverConnected: true,
    });
    const gate = await t.warden.gate.decide(CTX, SHELL('rm certs/server.key'));
    expect(whatIf).toMatchObject({ decision: gate.decision, rule: gate.rule, scope: gate.scope });
    expect(whatIf.rule).toBe('no-keys');
  });
});
