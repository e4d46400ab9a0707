// Properties over random policies and requests (fast-check): what must hold
// for every input, not just the examples of the corpus.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import { managedArb, policyArb, requestArb, ruleArb } from './arbitraries.js';
import type { DecisionResult } from '../src/index.js';
import {
  formatPath,
  parsePath,
  validatePolicy,
  validateRequest,
  DEFAULT_TABLE,
  analyzeCommand,
  stricter,
} from '../src/index.js';

const STRICT = { allow: 0, prompt: 1, deny: 2 } as const;

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

  it('a place written out reads back as the same place, whatever its keys', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ unit: 'binary' }),
            fc.nat(),
            fc.constantFrom('a b', '"', '\\', '[0]', '.x'),
          ),
          {
            maxLength: 8,
          },
        ),
        (segments) => {
          expect(parsePath(formatPath(segments))).toEqual(segments);
        },
      ),
      { numRuns: 2000 },
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
              expect(Array.isArray(issue.path)).toBe(true);
              // The place, written out and read back, is the same place.
              expect(parsePath(formatPath(issue.path))).toEqual(issue.path);
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
