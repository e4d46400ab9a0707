// A call that asks to run without the OS sandbox (G2) needs a human each time:
// an allow becomes a prompt (`sandbox:off`), no autonomy lifts it (G32), no
// remembered rule answers it (G23, G24), and a deny stays the deny it was
// (G26, G27, E20).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecideInput, DecisionResult } from '../src/index.js';
import { DEFAULT_TABLE, explainDecision, rememberOffer, validateRequest } from '../src/index.js';
import { managedArb, policyArb, requestArb } from './arbitraries.js';
import { AT, compiled } from './decide-docs.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { team: {}, free: { autonomy: 'actFreely' }, drafts: { autonomy: 'proposeOnly' } },
  modes: { review: { commandNet: ['git push --force'] } },
  rules: [
    { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    { id: 'no-publish', command: 'npm publish', decision: 'deny', enforcement: 'soft' },
    { id: 'allow-make', command: 'make', decision: 'allow' },
  ],
};

interface Options {
  readonly unsandboxed?: boolean;
  readonly approverConnected?: boolean;
  readonly managed?: unknown;
}

function inputOf(policyDoc: unknown, requestDoc: unknown, options: Options = {}): DecideInput {
  const request = validateRequest(requestDoc);
  if (!request.ok) throw new Error(`request is invalid: ${JSON.stringify(request.issues)}`);
  return {
    policy: compiled(policyDoc),
    managed: options.managed === undefined ? null : compiled(options.managed, 'managed'),
    request: request.value,
    at: AT,
    approverConnected: options.approverConnected ?? true,
    classifier: DEFAULT_TABLE,
    ...(options.unsandboxed === undefined ? {} : { unsandboxed: options.unsandboxed }),
  };
}

function decideWith(policyDoc: unknown, requestDoc: unknown, options: Options = {}) {
  return explainDecision(inputOf(policyDoc, requestDoc, options)).result;
}

/** The same call decided with the sandbox and without it. */
function both(policyDoc: unknown, requestDoc: unknown, options: Options = {}) {
  return {
    sandboxed: decideWith(policyDoc, requestDoc, options),
    unsandboxed: decideWith(policyDoc, requestDoc, { ...options, unsandboxed: true }),
  };
}

const SANDBOX_ENTRY = {
  facet: 'sandbox',
  decision: 'prompt',
  rule: 'sandbox:off',
  scope: 'default',
};

const request = (fields: Record<string, unknown>) => ({
  workspace: 'acme',
  agent: 'coder-1',
  worktree: '/srv/w',
  ...fields,
});

/** What a deny decides, the reason and the appended entry aside. */
function denial(result: DecisionResult) {
  const { decision, outcome, rule, scope, enforcement, overridable } = result;
  return { decision, outcome, rule, scope, enforcement, overridable };
}

describe('a call without the OS sandbox', () => {
  it('prompts where the rules allow it, naming `sandbox:off` in default (G2, G22)', () => {
    const { sandboxed, unsandboxed } = both(POLICY, request({ command: 'make build' }));
    expect(sandboxed).toMatchObject({ decision: 'allow', outcome: 'allow' });
    expect(sandboxed.facets.map((f) => f.rule)).toContain('allow-make');
    expect(unsandboxed).toMatchObject({
      decision: 'prompt',
      outcome: 'ask',
      rule: 'sandbox:off',
      scope: 'default',
      enforcement: null,
      overridable: false,
      prompts: ['sandbox'],
    });
    expect(unsandboxed.facets.at(-1)).toMatchObject(SANDBOX_ENTRY);
    // The rules' own entries are as they were; the sandbox's is appended.
    expect(unsandboxed.facets.slice(0, -1)).toEqual(sandboxed.facets);
    expect(unsandboxed.reason).toContain('asks to run without the OS sandbox');
    expect(unsandboxed.reason).toContain('needs a human each time');
    expect(unsandboxed.reason).toContain('waiting for an approver');
  });

  it('is denied when no approver is connected: the prompt fails closed (G22)', () => {
    const result = decideWith(POLICY, request({ command: 'ls -la' }), {
      unsandboxed: true,
      approverConnected: false,
    });
    expect(result).toMatchObject({ decision: 'prompt', outcome: 'deny', rule: 'sandbox:off' });
    expect(result.reason).toContain('no approver is connected, so it is denied (fail-closed)');
  });

  it('is not pre-approved by actFreely (G32)', () => {
    const push = request({ space: 'free', actions: ['gitPush'], args: { refs: ['feature/x'] } });
    const { sandboxed, unsandboxed } = both(POLICY, push);
    expect(sandboxed).toMatchObject({ decision: 'allow', rule: 'autonomy:actFreely' });
    expect(unsandboxed).toMatchObject({
      decision: 'prompt',
      outcome: 'ask',
      rule: 'sandbox:off',
      scope: 'default',
      prompts: ['gitPush', 'sandbox'],
    });
    expect(unsandboxed.facets.at(-1)).toMatchObject(SANDBOX_ENTRY);
    expect(unsandboxed.reason).toContain('actFreely, which does not pre-approve it');

    const plain = both(POLICY, request({ space: 'free', command: 'ls' }));
    expect(plain.sandboxed.decision).toBe('allow');
    expect(plain.unsandboxed).toMatchObject({ decision: 'prompt', rule: 'sandbox:off' });
  });

  it('keeps a prompt of the rules a prompt named by its rule, and says the sandbox is off too (G21)', () => {
    const push = request({ actions: ['gitPush'], args: { refs: ['feature/x'] } });
    const { sandboxed, unsandboxed } = both(POLICY, push);
    expect(sandboxed).toMatchObject({ decision: 'prompt', rule: 'default:gitPush' });
    expect(unsandboxed).toMatchObject({
      decision: 'prompt',
      outcome: 'ask',
      rule: 'default:gitPush',
      scope: 'default',
      prompts: ['gitPush', 'sandbox'],
    });
    expect(unsandboxed.reason).toContain('`gitPush`');
    expect(unsandboxed.reason).toContain('asks to run without the OS sandbox');
  });

  it('leaves a hard deny a hard deny (G27, E20)', () => {
    const push = request({ actions: ['gitPush'], args: { refs: ['main'] } });
    const { sandboxed, unsandboxed } = both(POLICY, push);
    expect(denial(sandboxed)).toEqual({
      decision: 'deny',
      outcome: 'deny',
      rule: 'protect-main',
      scope: 'workspace',
      enforcement: 'hard',
      overridable: false,
    });
    expect(denial(unsandboxed)).toEqual(denial(sandboxed));
    expect(unsandboxed.facets.at(-1)).toMatchObject(SANDBOX_ENTRY);
    expect(unsandboxed.reason.startsWith(sandboxed.reason)).toBe(true);
    expect(unsandboxed.reason).toContain('without the OS sandbox');
  });

  it('leaves a soft deny a soft deny, overridable as before (G26)', () => {
    const { sandboxed, unsandboxed } = both(POLICY, request({ command: 'npm publish' }));
    expect(denial(sandboxed)).toMatchObject({
      decision: 'deny',
      rule: 'no-publish',
      enforcement: 'soft',
      overridable: true,
    });
    expect(denial(unsandboxed)).toEqual(denial(sandboxed));
  });

  it('leaves the denials of the command net and of proposeOnly as they were (G15, G30)', () => {
    const net = both(POLICY, request({ mode: 'review', command: 'git push --force origin x' }));
    expect(net.sandboxed.rule).toBe('modeNet:review');
    expect(denial(net.unsandboxed)).toEqual(denial(net.sandboxed));
    const propose = both(POLICY, request({ space: 'drafts', command: 'ls' }));
    expect(propose.sandboxed.rule).toBe('autonomy:proposeOnly');
    expect(denial(propose.unsandboxed)).toEqual(denial(propose.sandboxed));
  });

  it('offers only "approve once": the prompt cannot be remembered (G23, G24)', () => {
    const input = inputOf(POLICY, request({ command: 'make build' }), { unsandboxed: true });
    const offer = rememberOffer(explainDecision(input), input);
    expect(offer.rememberable).toBe(false);
    expect(offer.why).toBe(
      'only "approve once": the call asks to run without the OS sandbox, which a human approves each time',
    );
    expect(offer.scopes).toEqual([]);
    expect(offer.facets.at(-1)).toMatchObject({
      facet: 'sandbox',
      rule: 'sandbox:off',
      scope: 'default',
      rememberable: false,
    });

    // A prompt that could be remembered with the sandbox cannot be without it.
    const push = request({ actions: ['gitPush'], args: { refs: ['feature/x'] } });
    const withSandbox = inputOf(POLICY, push);
    expect(rememberOffer(explainDecision(withSandbox), withSandbox).rememberable).toBe(true);
    const without = inputOf(POLICY, push, { unsandboxed: true });
    const refused = rememberOffer(explainDecision(without), without);
    expect(refused.rememberable).toBe(false);
    expect(refused.scopes).toEqual([]);
  });

  it('is not lifted by a remembered allow rule (G24)', () => {
    const remembering = {
      ...POLICY,
      rules: [
        ...POLICY.rules,
        {
          id: 'rem-1',
          action: 'gitPush',
          decision: 'allow',
          when: { refs: ['feature/**'] },
          origin: 'remembered',
          expiresAt: '2026-12-01T08:00:00Z',
        },
      ],
    };
    const push = request({ actions: ['gitPush'], args: { refs: ['feature/x'] } });
    const { sandboxed, unsandboxed } = both(remembering, push);
    expect(sandboxed).toMatchObject({ decision: 'allow', rule: 'rem-1' });
    expect(unsandboxed).toMatchObject({ decision: 'prompt', outcome: 'ask', rule: 'sandbox:off' });
  });

  it('is never allowed, and is denied exactly when it would be with the sandbox (G2, G22, G32)', () => {
    fc.assert(
      fc.property(
        policyArb,
        requestArb,
        fc.option(managedArb, { nil: undefined }),
        fc.boolean(),
        (policy, req, managed, approverConnected) => {
          const options = { approverConnected, ...(managed === undefined ? {} : { managed }) };
          const { sandboxed, unsandboxed } = both(policy, req, options);
          expect(unsandboxed.decision).not.toBe('allow');
          expect(unsandboxed.outcome).not.toBe('allow');
          expect(unsandboxed.decision === 'deny').toBe(sandboxed.decision === 'deny');
          if (sandboxed.decision === 'deny') expect(denial(unsandboxed)).toEqual(denial(sandboxed));
          if (sandboxed.decision === 'prompt') expect(unsandboxed.rule).toBe(sandboxed.rule);
          expect(unsandboxed.prompts).toContain('sandbox');
          expect(unsandboxed.facets.at(-1)).toMatchObject(SANDBOX_ENTRY);
          if (unsandboxed.decision === 'prompt') {
            const input = inputOf(policy, req, { ...options, unsandboxed: true });
            expect(rememberOffer(explainDecision(input), input).rememberable).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
