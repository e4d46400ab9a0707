// Runs every case of the decision corpus through the engine. A diff to the
// corpus is a visible change of behaviour.

import { describe, expect, it } from 'vitest';
import type { DecisionResult, Issue } from '../src/index.js';
import {
  checkRequestAgainstPolicy,
  compilePolicy,
  decide,
  parseTimestamp,
  validatePolicy,
  validateRequest,
} from '../src/index.js';
import type { CorpusCase, CorpusFile, ExpectedIssue } from './corpus.js';
import { DEFAULT_AT, loadCorpus } from './corpus.js';

function expectIssues(actual: readonly Issue[], expected: readonly ExpectedIssue[]): void {
  for (const want of expected) {
    const match = actual.find(
      (got) =>
        got.path === want.path &&
        (want.messageIncludes === undefined || got.message.includes(want.messageIncludes)),
    );
    expect(
      match,
      `expected an issue at \`${want.path}\`${want.messageIncludes === undefined ? '' : ` mentioning \`${want.messageIncludes}\``}; got ${JSON.stringify(actual)}`,
    ).toBeDefined();
  }
}

/** Runs one case; returns the decision, or the issues of an invalid request. */
export function runCase(
  file: CorpusFile,
  c: CorpusCase,
): { result?: DecisionResult; issues?: readonly Issue[] } {
  const policy = validatePolicy(file.policy, 'workspace');
  if (!policy.ok) throw new Error(`${file.file}: policy invalid: ${JSON.stringify(policy.issues)}`);
  let managed = null;
  if (file.managed !== undefined) {
    const m = validatePolicy(file.managed, 'managed');
    if (!m.ok) throw new Error(`${file.file}: managed policy invalid: ${JSON.stringify(m.issues)}`);
    managed = compilePolicy(m.value);
  }
  const request = validateRequest(c.request);
  if (!request.ok) return { issues: request.issues };
  const mismatch = checkRequestAgainstPolicy(request.value, policy.value);
  if (mismatch.length > 0) return { issues: mismatch };
  const at = parseTimestamp(c.at ?? DEFAULT_AT);
  if (typeof at !== 'number') throw new Error(`${file.file}: bad at: ${at.problem}`);
  const result = decide({
    policy: compilePolicy(policy.value),
    managed,
    managedSource: managed === null ? null : 'flag',
    request: request.value,
    at,
    approverConnected: c.approver === 'connected',
  });
  return { result };
}

export function checkResult(result: DecisionResult, want: CorpusCase['expect']): void {
  const got = result as unknown as Record<string, unknown>;
  for (const key of [
    'decision',
    'outcome',
    'rule',
    'scope',
    'enforcement',
    'overridable',
  ] as const) {
    if (want[key] !== undefined) expect(got[key], key).toEqual(want[key]);
  }
  if (want.prompts !== undefined) expect(result.prompts, 'prompts').toEqual(want.prompts);
  if (want.facetNames !== undefined)
    expect(
      result.facets.map((f) => f.facet),
      'facet names',
    ).toEqual(want.facetNames);
  for (const facet of want.facets ?? []) {
    const found = result.facets.find((f) => f.facet === facet.facet);
    expect(found, `facet ${String(facet.facet)}`).toBeDefined();
    expect(found).toMatchObject(facet);
  }
  if (want.advisories !== undefined)
    expect(result.advisories, 'advisories').toEqual(want.advisories);
  if (want.managed !== undefined) {
    if (want.managed === null) expect(result.managed).toBeNull();
    else {
      const stripped = (result.managed ?? []).map(({ because: _because, ...rest }) => rest);
      expect(stripped, 'managed').toEqual(want.managed);
    }
  }
  for (const part of want.reasonIncludes ?? []) expect(result.reason, 'reason').toContain(part);
}

const corpus = loadCorpus();

describe('the decision corpus', () => {
  it('holds cases', () => {
    expect(corpus.length).toBeGreaterThan(0);
  });
  for (const file of corpus) {
    describe(`${file.file}: ${file.title}`, () => {
      if (file.policyErrors !== undefined) {
        it(`rejects the policy (${file.cites.join(', ')})`, () => {
          const result = validatePolicy(file.policy, file.policyKind ?? 'workspace');
          expect(result.ok).toBe(false);
          if (!result.ok) expectIssues(result.issues, file.policyErrors ?? []);
        });
      }
      for (const c of file.cases) {
        it(`${c.name} (${[...(c.cites ?? []), ...file.cites].join(', ')})`, () => {
          const { result, issues } = runCase(file, c);
          if (c.expect.errors !== undefined) {
            expect(issues, 'a validation error').toBeDefined();
            expectIssues(issues ?? [], c.expect.errors);
            return;
          }
          expect(issues, `request rejected: ${JSON.stringify(issues)}`).toBeUndefined();
          checkResult(result as DecisionResult, c.expect);
        });
      }
    });
  }
});
