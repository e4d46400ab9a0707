// The classes an agent is denied outright (G20): whatever the arguments, a
// request of such a class is a hard deny. An adapter hides the tools that act
// in them, so what it hides must never be something a call could get: the
// property test decides random calls of every class it names.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Freeze } from '../src/index.js';
import { explainDecision, outrightDenials, validateRequest } from '../src/index.js';
import { managedArb, policyArb } from './arbitraries.js';
import { AT, compiled } from './decide-docs.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { locked: { autonomy: 'proposeOnly' } },
  rules: [
    { id: 'no-push', action: 'gitPush', decision: 'deny' },
    { id: 'no-merge-soft', action: 'prPublish', decision: 'deny', enforcement: 'soft' },
    { id: 'no-delete', action: 'fileDelete', decision: 'deny' },
    { id: 'tmp-delete', action: 'fileDelete', decision: 'allow', when: { paths: ['/tmp/**'] } },
    { id: 'coder-no-net', scope: 'agent:coder-1', action: 'networkEgress', decision: 'deny' },
  ],
};

const classes = (input: Parameters<typeof outrightDenials>[0]) =>
  outrightDenials(input).map((d) => d.class);

describe('classes denied outright', () => {
  it('names a hard deny no constrained rule lifts, in the agent’s own scope too', () => {
    const denied = outrightDenials({ policy: compiled(POLICY), agent: 'coder-1', at: AT });
    expect(denied.map((d) => d.class)).toEqual(['gitPush', 'networkEgress']);
    expect(denied[0]).toMatchObject({ rule: 'no-push', scope: 'workspace' });
    expect(denied[0]?.reason).toContain('whatever the call');
    // Not another agent's deny; not a soft one (a human may override it); not one an allow with a condition can lift.
    expect(classes({ policy: compiled(POLICY), agent: 'coder-2', at: AT })).toEqual(['gitPush']);
  });

  it('a space at `proposeOnly` denies every class that is not already allowed… and only those', () => {
    const denied = outrightDenials({
      policy: compiled(POLICY),
      agent: 'coder-2',
      space: 'locked',
      at: AT,
    });
    expect(denied.length).toBeGreaterThan(2);
    expect(denied.find((d) => d.class === 'fileDelete')).toBeUndefined();
    const merge = denied.find((d) => d.class === 'prPublish');
    // A soft deny under proposeOnly is not lifted by a human override of the dial: it stays out.
    expect(merge === undefined || merge.rule.startsWith('autonomy:')).toBe(true);
  });

  it('a managed hard deny counts; a command rule that may allow keeps `processSpawn` shown', () => {
    const managed = compiled(
      { version: 1, rules: [{ id: 'm-no-secrets', action: 'secretAccess', decision: 'deny' }] },
      'managed',
    );
    const denied = outrightDenials({ policy: compiled(POLICY), managed, agent: 'x', at: AT });
    expect(denied.find((d) => d.class === 'secretAccess')).toMatchObject({
      rule: 'm-no-secrets',
      scope: 'managed:workspace',
    });
    const spawnDenied = compiled({
      ...POLICY,
      rules: [
        { id: 'no-spawn', action: 'processSpawn', decision: 'deny' },
        { id: 'tests', command: 'npm test', decision: 'allow' },
      ],
    });
    expect(classes({ policy: spawnDenied, agent: 'x', at: AT })).not.toContain('processSpawn');
  });

  it('a frozen agent, or a workspace the managed policy freezes, is denied every class', () => {
    const freeze: Freeze = { scope: 'agent', by: 'ada', reason: null, since: AT };
    const all = outrightDenials({ policy: compiled(POLICY), agent: 'x', at: AT, frozen: freeze });
    expect(all.length).toBe(13);
    expect(all[0]).toMatchObject({ rule: 'freeze:agent', scope: 'agent:x' });
    const managed = compiled({ version: 1, freeze: [{ workspace: 'acme' }] }, 'managed');
    expect(outrightDenials({ policy: compiled(POLICY), managed, agent: 'x', at: AT })).toHaveLength(
      13,
    );
  });

  it('property: every class named is a hard deny for any call of it, whatever its arguments', () => {
    const args = fc.record(
      {
        refs: fc.constantFrom(['main'], ['feature/x'], [], ['release/1']),
        paths: fc.constantFrom(['src/a.ts'], ['a/.env'], ['/tmp/x'], ['../up'], ['docs/a']),
        hosts: fc.constantFrom(['svc.internal'], ['api.github.com'], ['example.com']),
        count: fc.integer({ min: 0, max: 9 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        policyArb,
        fc.option(managedArb, { nil: undefined }),
        fc.constantFrom('a1', 'a2', 'a3'),
        fc.constantFrom(undefined, 's1', 's2'),
        fc.constantFrom(undefined, 'm'),
        args,
        fc.boolean(),
        (doc, managedDoc, agent, space, mode, callArgs, approver) => {
          const policy = compiled(doc);
          const managed = managedDoc === undefined ? null : compiled(managedDoc, 'managed');
          const placement = {
            ...(space === undefined ? {} : { space }),
            ...(mode === undefined ? {} : { mode }),
          };
          const denied = outrightDenials({ policy, managed, agent, at: AT, ...placement });
          for (const { class: cls } of denied) {
            const request = validateRequest({
              workspace: 'acme',
              agent,
              ...placement,
              tool: 'some_tool',
              actions: [cls],
              args: callArgs,
            });
            if (!request.ok) throw new Error(JSON.stringify(request.issues));
            const result = explainDecision({
              policy,
              managed,
              request: request.value,
              at: AT,
              approverConnected: approver,
            }).result;
            expect(result, `${cls} for ${agent}`).toMatchObject({
              decision: 'deny',
              outcome: 'deny',
            });
            expect(result.overridable).toBe(false);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
