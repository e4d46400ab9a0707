// A freeze (the kill switch): every call of a frozen agent — or of any agent
// of a frozen workspace — is a hard deny that names the freeze, whatever the
// rules, a remembered approval, the mode, the dial (G32), the managed layer
// or a call without the sandbox would have made of it. An agent that is not
// frozen is decided exactly as before.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecideInput, Freeze } from '../src/index.js';
import {
  DEFAULT_TABLE,
  explainDecision,
  formatPath,
  validatePolicy,
  validateRequest,
} from '../src/index.js';
import { managedArb, policyArb, requestArb } from './arbitraries.js';
import { AT, compiled } from './decide-docs.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { free: { autonomy: 'actFreely' } },
  rules: [
    { id: 'allow-make', command: 'make', decision: 'allow' },
    { id: 'remembered', command: 'npm test', decision: 'allow', expiresAt: '2999-01-01T00:00:00Z' },
    { id: 'no-publish', command: 'npm publish', decision: 'deny', enforcement: 'soft' },
  ],
};

const AGENT_FREEZE: Freeze = {
  scope: 'agent',
  by: 'alice',
  reason: 'runaway loop',
  since: AT - 60_000,
};
const WORKSPACE_FREEZE: Freeze = { scope: 'workspace', by: 'ops', reason: null, since: AT - 1000 };

function inputOf(
  policyDoc: unknown,
  requestDoc: unknown,
  frozen: Freeze | null,
  extra: Partial<DecideInput> = {},
): DecideInput {
  const request = validateRequest(requestDoc);
  if (!request.ok) throw new Error(`request is invalid: ${JSON.stringify(request.issues)}`);
  return {
    policy: compiled(policyDoc),
    request: request.value,
    at: AT,
    approverConnected: true,
    classifier: DEFAULT_TABLE,
    frozen,
    ...extra,
  };
}

const call = (command: string, space?: string) => ({
  workspace: 'acme',
  agent: 'coder-1',
  command,
  ...(space === undefined ? {} : { space }),
});

describe('a frozen agent', () => {
  it('is denied a call its rules allow, naming the freeze, who and why', () => {
    const result = explainDecision(inputOf(POLICY, call('make'), AGENT_FREEZE)).result;
    expect(result).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      rule: 'freeze:agent',
      scope: 'agent:coder-1',
      enforcement: 'hard',
      overridable: false,
    });
    expect(result.facets.at(-1)).toEqual({
      facet: 'freeze',
      decision: 'deny',
      rule: 'freeze:agent',
      scope: 'agent:coder-1',
      because: `frozen by alice at ${new Date(AT - 60_000).toISOString()}: runaway loop`,
    });
    expect(result.reason).toContain('agent `coder-1` is frozen by alice');
    expect(result.reason).toContain('runaway loop');
    expect(result.reason).toContain('not overridable');
  });

  it('is not lifted by a remembered approval, actFreely, a soft deny or a missing sandbox', () => {
    for (const [command, space, extra] of [
      ['npm test', undefined, {}],
      ['npm install', 'free', {}],
      ['npm publish', undefined, {}],
      ['make', undefined, { unsandboxed: true }],
    ] as const) {
      const result = explainDecision(
        inputOf(POLICY, call(command, space), AGENT_FREEZE, extra),
      ).result;
      expect(result.decision, command).toBe('deny');
      expect(result.rule).toBe('freeze:agent');
      expect(result.overridable).toBe(false);
    }
  });

  it('a workspace freeze stops every agent of the workspace, scoped `workspace`', () => {
    const result = explainDecision(inputOf(POLICY, call('make'), WORKSPACE_FREEZE)).result;
    expect(result).toMatchObject({
      rule: 'freeze:workspace',
      scope: 'workspace',
      decision: 'deny',
    });
    expect(result.reason).toContain('every agent of the workspace is frozen by ops');
  });

  it('property: frozen, every call is a hard deny; not frozen, the decision is what it was', () => {
    fc.assert(
      fc.property(
        policyArb,
        requestArb,
        fc.option(managedArb, { nil: undefined }),
        fc.boolean(),
        fc.constantFrom(AGENT_FREEZE, WORKSPACE_FREEZE),
        (policy, req, managed, unsandboxed, freeze) => {
          const extra: Partial<DecideInput> = {
            unsandboxed,
            ...(managed === undefined ? {} : { managed: compiled(managed, 'managed') }),
          };
          const frozen = explainDecision(inputOf(policy, req, freeze, extra)).result;
          expect(frozen).toMatchObject({
            decision: 'deny',
            outcome: 'deny',
            enforcement: 'hard',
            overridable: false,
            rule: `freeze:${freeze.scope}`,
          });
          expect(frozen.facets.at(-1)?.facet).toBe('freeze');
          const thawed = explainDecision(inputOf(policy, req, null, extra)).result;
          // No freeze given at all decides as `frozen: null` does.
          const unfrozen: { -readonly [K in keyof DecideInput]?: DecideInput[K] } = {
            ...inputOf(policy, req, null, extra),
          };
          delete unfrozen.frozen;
          const before = explainDecision(unfrozen as DecideInput);
          expect(thawed).toEqual(before.result);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a freeze the managed policy writes', () => {
  const MANAGED = {
    version: 1,
    freeze: [
      { workspace: 'acme', agent: 'coder-1', reason: 'incident 42', since: '2026-12-01T08:00:00Z' },
      { workspace: 'other' },
    ],
  };

  it('denies the named agent whatever the workspace allows, and says only the operator lifts it (G28)', () => {
    const result = explainDecision({
      ...inputOf(POLICY, call('make'), null),
      managed: compiled(MANAGED, 'managed'),
    }).result;
    expect(result).toMatchObject({
      decision: 'deny',
      outcome: 'deny',
      enforcement: 'hard',
      overridable: false,
      rule: 'freeze:agent',
      scope: 'agent:coder-1',
    });
    expect(result.reason).toContain('frozen by the managed policy (`freeze[0]`)');
    expect(result.reason).toContain('at 2026-12-01T08:00:00.000Z: incident 42');
    expect(result.reason).toContain('until the installation operator removes it');
    expect(result.facets.at(-1)).toMatchObject({ facet: 'freeze', rule: 'freeze:agent' });
  });

  it('wins over an admin’s freeze, which an admin may lift', () => {
    const result = explainDecision({
      ...inputOf(POLICY, call('make'), AGENT_FREEZE),
      managed: compiled(MANAGED, 'managed'),
    }).result;
    expect(result.reason).toContain('the managed policy');
    expect(result.reason).not.toContain('alice');
  });

  it('freezes a whole workspace, and leaves other workspaces and agents as they were', () => {
    const managed = compiled(MANAGED, 'managed');
    const other = explainDecision({
      ...inputOf({ ...POLICY, workspace: 'other' }, { ...call('make'), workspace: 'other' }, null),
      managed,
    }).result;
    expect(other).toMatchObject({ decision: 'deny', rule: 'freeze:workspace', scope: 'workspace' });
    expect(other.reason).toContain('every agent of the workspace is frozen by the managed policy');
    const colleague = explainDecision({
      ...inputOf(POLICY, { ...call('make'), agent: 'coder-2' }, null),
      managed,
    }).result;
    expect(colleague).toMatchObject({ decision: 'allow' });
    expect(colleague.facets.some((f) => f.facet === 'freeze')).toBe(false);
  });

  it('is checked when the managed policy loads: ids, keys, timestamps, and only there', () => {
    const bad = validatePolicy(
      {
        version: 1,
        freeze: [
          { workspace: 'a b' },
          { workspace: 'acme', agent: 'x:y' },
          { workspace: 'acme', since: '2026-12-01' },
          { workspace: 'acme', until: 'never' },
          {},
        ],
      },
      'managed',
    );
    expect(bad.ok).toBe(false);
    const paths = bad.ok ? [] : bad.issues.map((i) => formatPath(i.path));
    expect(paths).toEqual(
      expect.arrayContaining([
        'freeze[0].workspace',
        'freeze[1].agent',
        'freeze[2].since',
        'freeze[3].until',
        'freeze[4].workspace',
      ]),
    );
    const inWorkspace = validatePolicy({ ...POLICY, freeze: [{ workspace: 'acme' }] }, 'workspace');
    expect(inWorkspace.ok).toBe(false);
    expect(inWorkspace.ok ? '' : inWorkspace.issues[0]?.message).toContain(
      '`freeze` belongs in the managed policy',
    );
    // Giant or nested input is named, never half-read.
    const giant = validatePolicy(
      {
        version: 1,
        freeze: [
          { workspace: 'acme', reason: 'x'.repeat(501) },
          { workspace: { nested: { deeper: ['acme'] } } },
        ],
      },
      'managed',
    );
    expect(giant.ok ? [] : giant.issues.map((i) => formatPath(i.path))).toEqual(
      expect.arrayContaining(['freeze[0].reason', 'freeze[1].workspace']),
    );
    const many = validatePolicy(
      { version: 1, freeze: Array.from({ length: 1001 }, () => ({ workspace: 'acme' })) },
      'managed',
    );
    expect(many.ok ? '' : many.issues[0]?.message).toContain('at most 1000');
  });

  it('property: a managed freeze of the request’s workspace makes every call a hard deny', () => {
    fc.assert(
      fc.property(
        policyArb,
        requestArb,
        managedArb,
        fc.boolean(),
        (policy, req, managed, whole) => {
          const frozen = explainDecision({
            ...inputOf(policy, req, null),
            managed: compiled(
              {
                ...managed,
                freeze: [{ workspace: req.workspace, ...(whole ? {} : { agent: req.agent }) }],
              },
              'managed',
            ),
          }).result;
          expect(frozen).toMatchObject({
            decision: 'deny',
            outcome: 'deny',
            enforcement: 'hard',
            rule: whole ? 'freeze:workspace' : 'freeze:agent',
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
