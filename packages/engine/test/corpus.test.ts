// Runs every case of the decision corpus through the engine. A diff to the
// corpus is a visible change of behaviour.

import { describe, expect, it } from 'vitest';
import type { DecisionResult } from '../src/index.js';
import { validatePolicy } from '../src/index.js';
import { checkResult, expectIssues, loadCorpus, runCase, shown } from './corpus.js';

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
          if (!result.ok) expectIssues(shown(result.issues), file.policyErrors ?? []);
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
