// Properties over random policies and requests (fast-check): what must hold
// for every input, not just the examples of the corpus.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import type { DecisionResult } from '../src/index.js';
import {
  validatePolicy,
  validateRequest,
  ACTION_CLASSES,
  DEFAULT_TABLE,
  analyzeCommand,
  stricter,
} from '../src/index.js';

const STRICT = { allow: 0, prompt: 1, deny: 2 } as const;

const scope = fc.constantFrom('workspace', 'agent:a1', 'agent:a2', 'space:s1', 'space:s2');
const when = fc.option(
  fc
    .record(
      {
        refs: fc.constantFrom(['main'], ['feature/**'], ['**', '!main'], ['release/*']),
        paths: fc.constantFrom(['src/**'], ['**/.env'], ['/tmp/**'], ['**', '!docs/**']),
        hosts: fc.constantFrom(['*.internal'], ['api.github.com'], ['example.com']),
        maxCount: fc.integer({ min: 0, max: 5 }),
      },
      { requiredKeys: [] },
    )
    .filter((w) => Object.keys(w).length > 0),
  { nil: undefined },
);
const decision = fc.constantFrom('allow', 'prompt', 'deny');

const ruleArb = fc
  .record({
    scope,
    target: fc.oneof(
      fc.constantFrom(...ACTION_CLASSES).map((action) => ({ action })),
      fc
        .constantFrom('git push', 'git', 'rm -rf', 'rm', 'npm install', 'curl')
        .map((command) => ({ command })),
    ),
    decision,
    enforcement: fc.constantFrom('hard', 'soft', 'advisory'),
    when,
    expired: fc.boolean(),
  })
  .map(({ scope: s, target, decision: d, enforcement, when: w, expired }) => {
    const e =
      d === 'allow' ? 'hard' : d === 'prompt' && enforcement === 'soft' ? 'hard' : enforcement;
    return {
      scope: s,
      ...target,
      decision: d,
      enforcement: e,
      ...(w !== undefined ? { when: w } : {}),
      ...(expired ? { expiresAt: '2026-11-01T00:00:00Z' } : {}),
    };
  });

const policyArb = fc
  .record({
    rules: fc.array(ruleArb, { maxLength: 12 }),
    autonomy: fc.constantFrom(undefined, 'proposeOnly', 'actWithApproval', 'actFreely'),
    preset: fc.array(
      ruleArb.map(({ scope: _s, ...rest }) => rest),
      { maxLength: 3 },
    ),
    net: fc.subarray(['git push --force', 'rm -rf /', 'curl']),
  })
  .map(({ rules, autonomy, preset, net }) => ({
    version: 1,
    workspace: 'acme',
    spaces: { s1: autonomy === undefined ? {} : { autonomy } },
    modes: { m: { preset, commandNet: net } },
    rules: rules.map((rule, index) => ({ id: `r${index}`, ...rule })),
  }));

const managedArb = fc.array(ruleArb, { maxLength: 6 }).map((rules) => ({
  version: 1,
  rules: rules.map((rule, index) => ({ id: `m${index}`, ...rule })),
}));

const COMMANDS = [
  'git push origin main',
  'cd sub && git push origin feature/x',
  'rm -rf build',
  'rm -fr /',
  'rm a/.env b',
  'echo $(git push origin main)',
  "bash -lc 'npm install left-pad'",
  'curl https://api.github.com/x > /tmp/out',
  'git push --force origin main',
  "git push 'oops",
  'ls | xargs rm',
];

const requestArb = fc
  .record({
    agent: fc.constantFrom('a1', 'a2', 'a3'),
    space: fc.constantFrom(undefined, 's1', 's2'),
    mode: fc.constantFrom(undefined, 'm'),
    actions: fc.option(fc.subarray([...ACTION_CLASSES], { minLength: 1, maxLength: 3 }), {
      nil: undefined,
    }),
    command: fc.option(fc.constantFrom(...COMMANDS), { nil: undefined }),
    args: fc.option(
      fc.record(
        {
          refs: fc.constantFrom(['main'], ['feature/x'], [], ['main', 'feature/x']),
          paths: fc.constantFrom(['src/a.ts'], ['a/.env'], ['/tmp/x'], ['../up'], []),
          hosts: fc.constantFrom(['svc.internal'], ['api.github.com'], []),
          count: fc.integer({ min: 0, max: 9 }),
        },
        { requiredKeys: [] },
      ),
      { nil: undefined },
    ),
  })
  .filter((r) => r.actions !== undefined || r.command !== undefined)
  .map((r) =>
    Object.fromEntries(
      Object.entries({ workspace: 'acme', ...r, worktree: '/srv/w' }).filter(
        ([, v]) => v !== undefined,
      ),
    ),
  );

function run(
  policyDoc: unknown,
  requestDoc: unknown,
  managedDoc?: unknown,
  approverConnected = false,
): DecisionResult {
  return decideDocs(policyDoc, requestDoc, { managed: managedDoc, approverConnected });
}

describe('properties', () => {
  it('resolution is deterministic: the same request, policy and clock give the same decision (G3)', () => {
    fc.assert(
      fc.property(policyArb, requestArb, managedArb, (policy, request, managed) => {
        expect(run(policy, request, managed)).toEqual(
          run(structuredClone(policy), structuredClone(request), structuredClone(managed)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a managed layer never loosens a decision (G28)', () => {
    fc.assert(
      fc.property(policyArb, requestArb, managedArb, (policy, request, managed) => {
        const without = run(policy, request);
        const withManaged = run(policy, request, managed);
        expect(STRICT[withManaged.decision]).toBeGreaterThanOrEqual(STRICT[without.decision]);
        for (const facet of without.facets) {
          const other = withManaged.facets.find((f) => f.facet === facet.facet);
          if (facet.decision !== null && other?.decision != null) {
            expect(STRICT[other.decision]).toBeGreaterThanOrEqual(STRICT[facet.decision]);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('adding a rule in an unrelated scope never changes a decision (G8)', () => {
    fc.assert(
      fc.property(
        policyArb,
        requestArb,
        ruleArb,
        fc.constantFrom('agent:zz', 'space:zz'),
        (policy, request, rule, unrelated) => {
          const widened = {
            ...policy,
            rules: [...policy.rules, { ...rule, id: 'unrelated', scope: unrelated }],
          };
          expect(run(widened, request)).toEqual(run(policy, request));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('allow never beats deny at equal specificity (G9, G10)', () => {
    // An empty list lies within every allow and touches no deny (E9), so both rules apply
    // only to requests whose lists name something.
    const naming = requestArb.filter(
      (r) =>
        !Object.values((r.args ?? {}) as Record<string, unknown>).some(
          (v) => Array.isArray(v) && v.length === 0,
        ),
    );
    fc.assert(
      fc.property(policyArb, naming, (policy, request) => {
        // Give every allow rule a deny twin: same scope, same facet, same constraints. (A cap
        // reads the other way round for a deny, G17, so capped rules have no twin.)
        const twins = policy.rules
          .filter((r) => r.decision === 'allow' && r.when?.maxCount === undefined)
          .map((r) => ({ ...r, id: `${r.id}-twin`, decision: 'deny', enforcement: 'hard' }));
        const result = run({ ...policy, rules: [...policy.rules, ...twins] }, request);
        const twinned = new Set(twins.map((t) => t.id.replace(/-twin$/, '')));
        for (const facet of result.facets) {
          if (facet.decision === 'allow') expect(twinned.has(facet.rule ?? '')).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a prompt becomes ask only with a connected approver, and deny without one (G22)', () => {
    fc.assert(
      fc.property(policyArb, requestArb, (policy, request) => {
        const alone = run(policy, request, undefined, false);
        const watched = run(policy, request, undefined, true);
        expect(alone.decision).toBe(watched.decision);
        if (alone.decision === 'prompt') {
          expect(alone.outcome).toBe('deny');
          expect(watched.outcome).toBe('ask');
        } else {
          expect(alone.outcome).toBe(alone.decision);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the decision is the strictest of its facets unless the net, the dial or actFreely speaks (G21)', () => {
    fc.assert(
      fc.property(policyArb, requestArb, (policy, request) => {
        const result = run(policy, request);
        const appended = result.facets.some((f) => f.facet === 'modeNet' || f.facet === 'autonomy');
        // Facet entries show the rules' resolution; under actFreely an unverifiable deny
        // stays a deny (E17b) while its entry shows the escalation's prompt.
        const actFreely =
          request.space === 's1' &&
          policy.spaces.s1 !== undefined &&
          'autonomy' in policy.spaces.s1 &&
          policy.spaces.s1.autonomy === 'actFreely';
        if (appended || actFreely) return;
        const strictest = result.facets.reduce<'allow' | 'prompt' | 'deny'>(
          (acc, f) => (f.decision === null ? acc : stricter(acc, f.decision)),
          'allow',
        );
        expect(result.decision).toBe(strictest);
        expect(result.prompts).toEqual(
          result.facets.filter((f) => f.decision === 'prompt').map((f) => f.facet),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('random documents never crash the validator: valid, or a list of problems with paths', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          policyArb.map((p) => mutate(p)),
          fc.jsonValue(),
        ),
        (value) => {
          const result = validatePolicy(value, 'workspace');
          if (!result.ok) {
            expect(result.issues.length).toBeGreaterThan(0);
            for (const issue of result.issues) {
              expect(typeof issue.path).toBe('string');
              expect(issue.message.length).toBeGreaterThan(0);
            }
          }
          validatePolicy(value, 'managed');
          validateRequest(value);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('random command lines never crash the shell reader or the classifier', () => {
    const shellish = fc
      .array(
        fc.constantFrom(
          'git',
          'push',
          'rm',
          '-rf',
          '/',
          "'",
          '"',
          '$(',
          ')',
          '`',
          '&&',
          '||',
          ';',
          '|',
          '&',
          '(',
          '{',
          '}',
          'if',
          'then',
          'fi',
          'for',
          'do',
          'done',
          'case',
          'esac',
          '<<',
          '>',
          '2>&1',
          '$X',
          '${',
          '\\',
          '\n',
          '#',
          'bash -c',
          'sudo',
          'xargs',
          'find . -exec',
          '\\;',
          ' ',
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(' '));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), shellish), (command) => {
        const analysis = analyzeCommand(command, DEFAULT_TABLE, '/srv/w');
        for (const unit of analysis.units) {
          expect(
            unit.effects.some((e) => e.cls === 'processSpawn') || unit.kind === 'effects',
          ).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

/** Perturbs one field of a valid document, to reach the validator's error paths. */
function mutate(doc: Record<string, unknown>): unknown {
  const copy = structuredClone(doc) as Record<string, unknown> & {
    rules: Record<string, unknown>[];
  };
  const rule = copy.rules[0];
  if (rule === undefined) return { ...copy, extra: true };
  rule.decision = 'sometimes';
  rule.scope = 'team:x';
  return copy;
}
