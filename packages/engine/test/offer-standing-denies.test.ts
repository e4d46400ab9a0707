// The approval's offer names the standing denies that stay in force under the
// rule it would write (E41). Which denies a drafted allow "meets" must never
// miss one: a deny that could hold for a request the allow covers is listed.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Globs } from '../src/match/globs.js';
import { globExample, globsMeet } from '../src/remember/overlap.js';
import type { DecideInput } from '../src/index.js';
import { explainDecision, rememberOffer, validateRequest } from '../src/index.js';
import { AT, compiled } from './decide-docs.js';

const globs = new Globs();

describe('whether two globs can match one path (E41 offer)', () => {
  it('reads the usual shapes', () => {
    expect(globsMeet('certs/**', '**/*.key')).toBe(true);
    expect(globsMeet('src/**', 'certs/**')).toBe(false);
    expect(globsMeet('feature/**', 'feature/prod')).toBe(true);
    expect(globsMeet('feature/**', 'main')).toBe(false);
    expect(globsMeet('build/*.o', 'build/x/*.o')).toBe(false);
    expect(globsMeet('a*c', 'ab*')).toBe(true);
    expect(globsMeet('a?c', 'ab')).toBe(false);
  });

  const segment = fc.constantFrom('a', 'b', 'ab', '*', '?', 'a*', '*.key', 'x.key', '**');
  const pattern = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
  const path = fc
    .array(fc.constantFrom('a', 'b', 'ab', 'x.key', 'abb', '.k', 'ba'), {
      minLength: 1,
      maxLength: 5,
    })
    .map((s) => s.join('/'));

  it('finds an example both globs match', () => {
    expect(globExample('**/*.key', 'certs/**')).toBe('certs/x.key');
    expect(globExample('feature/prod', 'feature/**')).toBe('feature/prod');
    expect(globExample('/tmp/**/*.log', '/tmp/build/**')).toBe('/tmp/build/x.log');
    expect(globExample('src/**', 'certs/**')).toBeNull();
  });

  it('an example, when it gives one, matches both globs', () => {
    fc.assert(
      fc.property(pattern, pattern, (a, b) => {
        const example = globExample(a, b);
        if (example !== null) {
          expect(globs.matcher(a)(example), `${a} ${example}`).toBe(true);
          expect(globs.matcher(b)(example), `${b} ${example}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('never says two globs cannot meet when one path matches both (soundness)', () => {
    fc.assert(
      fc.property(pattern, pattern, path, (a, b, p) => {
        if (globs.matcher(a)(p) && globs.matcher(b)(p)) expect(globsMeet(a, b)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('the offer lists the standing denies that stay in force (E41)', () => {
  const DOC = {
    version: 1,
    workspace: 'acme',
    spaces: { payments: {} },
    modes: {
      review: {
        preset: [{ action: 'networkEgress', decision: 'deny', when: { hosts: ['*.corp'] } }],
      },
    },
    rules: [
      { id: 'ask-egress', action: 'networkEgress', decision: 'prompt' },
      {
        id: 'space-ask-egress',
        scope: 'space:payments',
        action: 'networkEgress',
        decision: 'prompt',
      },
      {
        id: 'no-prod',
        scope: 'space:payments',
        action: 'gitPush',
        decision: 'deny',
        when: { refs: ['refs/heads/feature/prod'] },
      },
      { id: 'no-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
      {
        id: 'no-evil',
        action: 'networkEgress',
        decision: 'deny',
        enforcement: 'soft',
        when: { hosts: ['*.evil.example'] },
      },
      {
        id: 'no-tmp',
        action: 'fileDelete',
        decision: 'deny',
        when: { paths: ['**/*.key', '!keep/**'] },
      },
      { id: 'old', action: 'fileDelete', decision: 'deny', expiresAt: '2026-01-01T00:00:00Z' },
      {
        id: 'abs',
        action: 'fileDelete',
        decision: 'deny',
        when: { paths: ['/srv/w/certs/*.pem'] },
      },
    ],
  };
  const MANAGED = {
    version: 1,
    rules: [
      {
        id: 'm-no-release',
        action: 'gitPush',
        decision: 'deny',
        when: { refs: ['feature/release-*'] },
      },
      { id: 'm-no-db', action: 'networkEgress', decision: 'deny', when: { hosts: ['db.corp'] } },
    ],
  };

  function offer(request: Record<string, unknown>) {
    const valid = validateRequest({ workspace: 'acme', agent: 'coder-1', ...request });
    if (!valid.ok) throw new Error(JSON.stringify(valid.issues));
    const input: DecideInput = {
      policy: compiled(DOC),
      managed: compiled(MANAGED, 'managed'),
      request: valid.value,
      at: AT,
      approverConnected: true,
    };
    return rememberOffer(explainDecision(input), input);
  }

  function listed(request: Record<string, unknown>) {
    const made = offer(request);
    expect(made.rememberable, JSON.stringify(made)).toBe(true);
    const lists = made.scopes.map((s) => (s.staysDenied ?? []).map((d) => `${d.rule}@${d.scope}`));
    // The same denies stay in force whatever scope the rule is written in.
    for (const list of lists) expect(list).toEqual(lists[0]);
    return lists[0] ?? [];
  }

  it('refs: the space deny on feature/prod, written as refs/heads/, and the managed one on feature/release-*, not main', () => {
    expect(
      listed({ space: 'payments', actions: ['gitPush'], args: { refs: ['feature/login'] } }),
    ).toEqual(['no-prod@space:payments', 'm-no-release@managed:workspace']);
  });

  it('hosts: a deny on the domain of the exact host (here in the mode preset, shadowed for this request, in force for others); not an unrelated domain', () => {
    expect(
      listed({ mode: 'review', actions: ['networkEgress'], args: { hosts: ['api.corp'] } }),
    ).toEqual(['mode:review#0@mode:review']);
    expect(listed({ actions: ['networkEgress'], args: { hosts: ['api.github.com'] } })).toEqual([]);
  });

  it('paths: an expired deny is gone; a negation that covers the whole folder leaves the deny out; an absolute deny meets through the worktree', () => {
    expect(listed({ actions: ['fileDelete'], args: { paths: ['keep/a.txt'] } })).toEqual([]);
    expect(
      listed({ worktree: '/srv/w', actions: ['fileDelete'], args: { paths: ['certs/a.txt'] } }),
    ).toEqual(['no-tmp@workspace', 'abs@workspace']);
    expect(listed({ actions: ['fileDelete'], args: { paths: ['certs/a.txt'] } })).toEqual([
      'no-tmp@workspace',
    ]);
  });

  it('says what stays denied in a sentence, with the rule, its scope and whether it is hard or soft', () => {
    // In the space a prompt decides first; written for the workspace, the rule would meet the deny.
    const made = offer({
      space: 'payments',
      actions: ['networkEgress'],
      args: { hosts: ['x.evil.example'] },
    });
    const deny = made.scopes[0]?.staysDenied?.[0];
    expect(deny).toMatchObject({
      rule: 'no-evil',
      scope: 'workspace',
      enforcement: 'soft',
      facet: 'networkEgress',
    });
    expect(deny?.text).toBe(
      '`networkEgress` of `x.evil.example` stays denied: rule `no-evil` (soft) in workspace applies when any host matches `*.evil.example`, though an overrider may let one call through with a reason',
    );
    expect(deny?.sentence).toMatch(
      /^Across workspace `acme`, .*is denied when any host matches `\*\.evil\.example`/,
    );
  });

  it('the rules it offers are tried as remembered ones: a scope is effective only if they lift the prompt under E41', () => {
    const made = offer({ actions: ['networkEgress'], args: { hosts: ['db.corp'] } });
    // The managed deny on db.corp decides the facet (deny): nothing prompts, nothing to remember.
    expect(made.rememberable).toBe(false);
  });
});
