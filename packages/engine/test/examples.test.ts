// A rule's examples (`examples: { allow, prompt, deny }`): calls the whole
// policy must decide as listed, for an agent in the rule's own scope. Every
// example that decides otherwise is an issue at its path, naming what the
// policy decided and by which rule; an example that is not a valid request
// says why. A rule without examples costs nothing.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatPath,
  checkExamples,
  compilePolicy,
  explainDecision,
  validatePolicy,
  validateRequest,
} from '../src/index.js';
import { policyArb, requestArb } from './arbitraries.js';
import { AT, compiled } from './decide-docs.js';

const check = (doc: unknown, kind: 'workspace' | 'managed' = 'workspace', at = AT) =>
  checkExamples(compiled(doc, kind), { at });

describe("a rule's examples", () => {
  it('pass when the policy decides each as listed, disguises included', () => {
    expect(
      check({
        version: 1,
        workspace: 'acme',
        rules: [
          {
            id: 'no-rm',
            command: 'rm -rf',
            decision: 'deny',
            examples: {
              deny: ['rm -rf /', 'sudo rm -rf build', 'bash -c "rm -rf x"', 'env X=1 rm -rf y'],
              allow: ['ls -la'],
              prompt: ['rm notes.txt'],
            },
          },
        ],
      }),
    ).toEqual([]);
  });

  it('name each example the policy decides otherwise, with what it decided and by which rule', () => {
    const issues = check({
      version: 1,
      workspace: 'acme',
      rules: [
        { id: 'tests', command: 'npm test', decision: 'allow' },
        {
          id: 'no-npm',
          command: 'npm',
          decision: 'deny',
          examples: { deny: ['npm publish', 'npm test'] },
        },
      ],
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      code: 'invalid_value',
      path: ['rules', 1, 'examples', 'deny', 1],
    });
    expect(issues[0]?.message).toMatch(
      /^rule `no-npm` lists `npm test` as deny, but the policy decides allow \(rule `[^`]+` in [^)]+\)$/,
    );
  });

  it("decide an example for an agent in the rule's scope: agent, space, mode preset", () => {
    const doc = {
      version: 1,
      workspace: 'acme',
      spaces: { payments: { autonomy: 'proposeOnly' } },
      modes: {
        review: {
          preset: [
            {
              id: 'ask-make',
              command: 'make',
              decision: 'prompt',
              examples: { prompt: ['make all'] },
            },
          ],
        },
      },
      rules: [
        {
          id: 'coder-pushes',
          scope: 'agent:coder-1',
          action: 'gitPush',
          decision: 'allow',
          examples: { allow: [{ actions: ['gitPush'], args: { refs: ['x'] } }] },
        },
        {
          id: 'payments-commit',
          scope: 'space:payments',
          action: 'gitCommit',
          decision: 'allow',
          // proposeOnly: the space's agents act on nothing.
          examples: { deny: [{ actions: ['gitCommit'] }] },
        },
      ],
    };
    expect(check(doc)).toEqual([]);
  });

  it('an example that is not a valid request, or names what the policy lacks, says why', () => {
    const issues = check({
      version: 1,
      workspace: 'acme',
      rules: [
        {
          id: 'x',
          action: 'gitPush',
          decision: 'deny',
          examples: { deny: [{ actions: ['teleport'] }, { command: 'git push', mode: 'nowhere' }] },
        },
      ],
    });
    expect(issues.map((i) => formatPath(i.path))).toEqual([
      'rules[0].examples.deny[0]',
      'rules[0].examples.deny[1]',
    ]);
    expect(issues[0]?.message).toContain('is not a valid request: actions[0]');
    expect(issues[1]?.message).toContain('does not fit the policy');
  });

  it("a managed policy's examples are decided under it in an empty workspace", () => {
    const managed = {
      version: 1,
      rules: [
        {
          id: 'no-prod',
          action: 'networkEgress',
          decision: 'deny',
          when: { hosts: ['*.prod'] },
          examples: {
            deny: [{ actions: ['networkEgress'], args: { hosts: ['db.prod'] } }],
            allow: [{ actions: ['networkEgress'], args: { hosts: ['x.dev'] } }],
          },
        },
      ],
    };
    expect(check(managed, 'managed')).toEqual([]);
  });

  it('an expired rule no longer decides its examples: the check runs at the given time', () => {
    const doc = {
      version: 1,
      workspace: 'acme',
      rules: [
        {
          id: 'temp',
          command: 'rm -rf',
          decision: 'deny',
          expiresAt: '2026-12-01T00:00:00Z',
          examples: { deny: ['rm -rf build'] },
        },
      ],
    };
    expect(check(doc, 'workspace', Date.parse('2026-11-30T00:00:00Z'))).toEqual([]);
    expect(check(doc, 'workspace', Date.parse('2026-12-02T00:00:00Z'))[0]?.message).toContain(
      'lists `rm -rf build` as deny, but the policy decides prompt',
    );
  });

  it('a bad `examples` mapping is a validation problem at its path', () => {
    const result = validatePolicy(
      {
        version: 1,
        workspace: 'acme',
        rules: [{ command: 'x', decision: 'deny', examples: { maybe: ['x'], deny: [] } }],
      },
      'workspace',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => formatPath(i.path)).sort()).toEqual([
      'rules[0].examples.deny',
      'rules[0].examples.maybe',
    ]);
  });

  it('property: an example is what the policy decides it to be — any other decision is reported', () => {
    fc.assert(
      fc.property(policyArb, requestArb, (policyDoc, req) => {
        const base = compiled(policyDoc);
        const request = validateRequest(req);
        if (!request.ok) throw new Error(JSON.stringify(request.issues));
        // The example's request, as the check builds it for a workspace-scoped rule.
        const example: Record<string, unknown> = { ...request.value };
        delete example.workspace;
        delete example.agent;
        const decided = explainDecision({
          policy: base,
          request: { ...request.value, agent: 'example' },
          at: AT,
          approverConnected: false,
        }).result.decision;
        for (const listed of ['allow', 'prompt', 'deny'] as const) {
          const doc = {
            ...(policyDoc as Record<string, unknown>),
            rules: [
              ...((policyDoc as { rules: unknown[] }).rules ?? []),
              {
                // A rule no generated request matches, carrying the example.
                id: 'z-example',
                command: 'zz-never-run',
                decision: 'deny',
                scope: 'workspace',
                examples: { [listed]: [example] },
              },
            ],
          };
          const result = validatePolicy(doc, 'workspace');
          if (!result.ok) throw new Error(JSON.stringify(result.issues));
          const issues = checkExamples(compilePolicy(result.value), { at: AT });
          if (listed === decided) expect(issues).toEqual([]);
          else expect(issues).toHaveLength(1);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("a policy's examples are bounded", () => {
  it('more examples than are decided on every load is one issue saying where longer suites go', () => {
    const rules = Array.from({ length: 11 }, (_, i) => ({
      id: `r${i}`,
      command: `tool${i}`,
      decision: 'deny',
      examples: { deny: Array.from({ length: 100 }, (_, j) => `tool${i} ${j}`) },
    }));
    const issues = check({ version: 1, workspace: 'acme', rules });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: ['rules', 0, 'examples'] });
    expect(issues[0]?.message).toContain('1100 examples; at most 1000');
    // At the limit, every example is decided.
    expect(check({ version: 1, workspace: 'acme', rules: rules.slice(0, 10) })).toEqual([]);
  });
});
