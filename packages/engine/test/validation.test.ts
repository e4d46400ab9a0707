// Policy documents and requests are validated whole (contracts §1–§2, E1,
// E3–E5, E29–E31, E36): every problem with its path, nothing half-loads.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presetSchema, ruleSchema } from '../src/document/policy.js';
import { wellFormedRule } from '../src/document/rule-shape.js';
import type { Issue } from '../src/index.js';
import {
  formatPath,
  canonicalJson,
  checkRequestAgainstPolicy,
  sha256Hex,
  validatePolicy,
  validateRequest,
} from '../src/index.js';

function issuesOf(value: unknown, kind: 'workspace' | 'managed' = 'workspace'): Issue[] {
  const result = validatePolicy(value, kind);
  return result.ok ? [] : [...result.issues];
}

function doc(rules: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: 1, workspace: 'acme', rules, ...extra };
}

function paths(issues: readonly Issue[]): string[] {
  return issues.map((i) => formatPath(i.path));
}

describe('policy documents', () => {
  it('accept the contract example', () => {
    const result = validatePolicy(
      doc(
        [
          {
            id: 'protect-main',
            scope: 'space:payments',
            action: 'gitPush',
            decision: 'deny',
            enforcement: 'hard',
            when: { refs: ['main'] },
            expiresAt: '2026-12-01T08:00:00Z',
            origin: 'user',
            note: 'free text',
          },
        ],
        {
          spaces: { payments: { autonomy: 'actWithApproval' } },
          modes: {
            review: {
              preset: [{ action: 'gitCommit', decision: 'prompt' }],
              commandNet: ['git push --force', 'rm -rf /'],
            },
          },
        },
      ),
      'workspace',
    );
    expect(result.ok).toBe(true);
  });

  it('name an unknown class with a suggestion (G6)', () => {
    const [first] = issuesOf(
      doc(
        [{}, {}, {}, { action: 'gitPushh', decision: 'deny' }].map((r, i) =>
          i < 3 ? { action: 'gitPush', decision: 'allow', id: `r${i}` } : r,
        ),
      ),
    );
    expect(first).toMatchObject({ code: 'unknown_class', path: ['rules', 3, 'action'] });
    expect(first?.message).toContain('did you mean `gitPush`');
  });

  it('list every problem at once', () => {
    const issues = issuesOf(
      doc([
        { action: 'gitPush', command: 'git push', decision: 'deny' },
        { decision: 'deny' },
        { scope: 'team:x', action: 'gitPush', decision: 'deny' },
        { scope: 'agent:', action: 'gitPush', decision: 'deny' },
        { action: 'gitPush', decision: 'allow', enforcement: 'soft' },
        { action: 'gitPush', decision: 'allow', enforcement: 'advisory' },
        { action: 'gitPush', decision: 'deny', expiresAt: '2026-12-01T08:00:00' },
        { action: 'gitPush', decision: 'deny', when: { refs: [] } },
        { action: 'gitPush', decision: 'deny', origin: 'managed' },
        { action: 'gitPush', decision: 'deny', colour: 'red' },
        { action: 'gitPush', decision: 'maybe' },
      ]),
    );
    expect(paths(issues)).toEqual([
      'rules[0]',
      'rules[1]',
      'rules[2].scope',
      'rules[3].scope',
      'rules[4].enforcement',
      'rules[5].enforcement',
      'rules[6].expiresAt',
      'rules[7].when.refs',
      'rules[8].origin',
      'rules[9].colour',
      'rules[10].decision',
    ]);
    expect(issues[6]?.message).toContain('no zone');
  });

  it('refuse a version other than 1, unknown top-level keys and a missing workspace (E4)', () => {
    expect(paths(issuesOf({ version: 2, workspace: 'a', rule: [] }))).toEqual(['rule', 'version']);
    expect(paths(issuesOf({ version: 1, rules: [] }))).toEqual(['workspace']);
  });

  it('refuse workspace, spaces and modes in a managed file (E4)', () => {
    expect(
      paths(issuesOf({ version: 1, workspace: 'a', spaces: {}, modes: {}, rules: [] }, 'managed')),
    ).toEqual(['workspace', 'spaces', 'modes']);
  });

  it('refuse duplicate ids across rules and presets, but not across managed and workspace files (E29)', () => {
    const issues = issuesOf(
      doc(
        [
          { id: 'x', action: 'gitPush', decision: 'deny' },
          { id: 'mode:review#0', action: 'gitPush', decision: 'deny' },
        ],
        {
          modes: {
            review: {
              preset: [
                { action: 'gitCommit', decision: 'prompt' },
                { id: 'x', action: 'gitCommit', decision: 'deny' },
              ],
            },
          },
        },
      ),
    );
    // Presets are read first; the rules that reuse their ids are the duplicates.
    expect(paths(issues)).toEqual(['rules[0].id', 'rules[1].id']);
  });

  it("generate ids from the SHA-256 of the rule's canonical JSON, and `mode:<name>#<index>` for presets (E4)", () => {
    const rule = { action: 'gitPush', decision: 'deny', when: { refs: ['main'] } };
    const result = validatePolicy(
      doc([rule], { modes: { review: { preset: [{ action: 'gitCommit', decision: 'prompt' }] } } }),
      'workspace',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.rules[0]?.id).toBe(`r-${sha256Hex(canonicalJson(rule)).slice(0, 8)}`);
    expect(result.value.modes.review?.preset[0]?.id).toBe('mode:review#0');
  });

  it('refuse bad globs, a lone `*` host, wildcards inside hosts and empty command net entries (E4, E30)', () => {
    const issues = issuesOf(
      doc(
        [
          { action: 'fileDelete', decision: 'deny', when: { paths: ['src/[a', '../x'] } },
          {
            action: 'networkEgress',
            decision: 'deny',
            when: { hosts: ['*', 'a.*.com', '*.10.0.0.1'] },
          },
        ],
        { modes: { m: { commandNet: [''] } } },
      ),
    );
    expect(paths(issues)).toEqual([
      'modes.m.commandNet[0]',
      'rules[0].when.paths[0]',
      'rules[0].when.paths[1]',
      'rules[1].when.hosts[0]',
      'rules[1].when.hosts[1]',
      'rules[1].when.hosts[2]',
    ]);
  });

  it('refuse a command prefix that is not one simple command of literal words', () => {
    const issues = issuesOf(
      doc([
        { command: 'git push && rm x', decision: 'deny' },
        { command: 'echo $HOME', decision: 'deny' },
        { command: '   ', decision: 'deny' },
      ]),
    );
    expect(paths(issues)).toEqual(['rules[0].command', 'rules[1].command', 'rules[2].command']);
  });

  it('reject an autonomy other than the three names (G30–G32)', () => {
    const [first] = issuesOf(doc([], { spaces: { s: { autonomy: 'act-freely' } } }));
    expect(first).toMatchObject({ path: ['spaces', 's', 'autonomy'] });
    expect(first?.message).toContain('`actFreely`');
  });

  it('read timestamps with a zone and refuse impossible dates', () => {
    expect(
      issuesOf(
        doc([{ action: 'gitPush', decision: 'deny', expiresAt: '2026-12-01T08:00:00+02:00' }]),
      ),
    ).toEqual([]);
    expect(
      paths(
        issuesOf(doc([{ action: 'gitPush', decision: 'deny', expiresAt: '2026-02-30T08:00:00Z' }])),
      ),
    ).toEqual(['rules[0].expiresAt']);
    expect(
      paths(issuesOf(doc([{ action: 'gitPush', decision: 'deny', expiresAt: '2026-12-01' }]))),
    ).toEqual(['rules[0].expiresAt']);
  });

  it('say what is wrong with a document that is not a mapping', () => {
    expect(issuesOf(['x'])[0]?.message).toContain('expected a policy document');
  });
});

describe('requests', () => {
  const base = { workspace: 'acme', agent: 'coder-1' };

  it('accept the contract example', () => {
    expect(
      validateRequest({
        ...base,
        space: 'payments',
        mode: 'review',
        tool: 'git_push',
        actions: ['gitPush'],
        command: 'git push origin main',
        worktree: '/srv/repos/api',
        args: {
          paths: ['repos/api/src/a.ts'],
          refs: ['main'],
          hosts: ['api.github.com'],
          count: 3,
          cents: 120,
        },
      }).ok,
    ).toBe(true);
  });

  it('name an unknown class with a suggestion (E1)', () => {
    const result = validateRequest({ ...base, actions: ['gitPushh'] });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.issues[0]).toMatchObject({
        path: ['actions', 0],
        message: expect.stringContaining('`gitPush`'),
      });
  });

  it('need actions or a command (E5) and collapse duplicate classes', () => {
    expect(validateRequest({ ...base }).ok).toBe(false);
    expect(validateRequest({ ...base, actions: [] }).ok).toBe(false);
    const result = validateRequest({ ...base, actions: ['gitPush', 'gitPush', 'fileDelete'] });
    expect(result.ok && result.value.actions).toEqual(['gitPush', 'fileDelete']);
  });

  it('are closed: unknown keys, unknown args keys, a string for a list, non-strings, empty paths (E31)', () => {
    for (const [request, path] of [
      [{ ...base, actions: ['gitPush'], colour: 1 }, 'colour'],
      [{ ...base, actions: ['gitPush'], args: { branch: 'x' } }, 'args.branch'],
      [{ ...base, actions: ['gitPush'], args: { refs: 'main' } }, 'args.refs'],
      [{ ...base, actions: ['gitPush'], args: { refs: [1] } }, 'args.refs[0]'],
      [{ ...base, actions: ['fileDelete'], args: { paths: [''] } }, 'args.paths[0]'],
      [{ ...base, actions: ['fileDelete'], args: { count: -1 } }, 'args.count'],
      [{ ...base, actions: ['networkEgress'], args: { hosts: ['exa mple.com'] } }, 'args.hosts[0]'],
      [{ ...base, actions: ['fileDelete'], worktree: 'relative/dir' }, 'worktree'],
    ] as const) {
      const result = validateRequest(request);
      expect(result.ok, JSON.stringify(request)).toBe(false);
      if (!result.ok) expect(paths(result.issues), JSON.stringify(request)).toContain(path);
    }
  });

  it("must match the policy's workspace and name only its modes (E3)", () => {
    const policy = validatePolicy(doc([], { modes: { review: {} } }), 'workspace');
    expect(policy.ok).toBe(true);
    if (!policy.ok) return;
    const other = validateRequest({ ...base, workspace: 'other', actions: ['gitPush'] });
    const typo = validateRequest({ ...base, mode: 'reveiw', actions: ['gitPush'] });
    if (!other.ok || !typo.ok) throw new Error('requests should be well-formed');
    expect(paths(checkRequestAgainstPolicy(other.value, policy.value))).toEqual(['workspace']);
    const [modeIssue] = checkRequestAgainstPolicy(typo.value, policy.value);
    expect(modeIssue).toMatchObject({
      path: ['mode'],
      message: expect.stringContaining('`review`'),
    });
  });

  it('normalise the worktree (E36)', () => {
    const result = validateRequest({
      ...base,
      actions: ['fileDelete'],
      worktree: '/srv//repos/./api/',
    });
    expect(result.ok && result.value.worktree).toBe('/srv/repos/api');
  });
});

describe("the quick look at a rule's shape", () => {
  const ruleLike = fc.record(
    {
      id: fc.oneof(fc.string(), fc.constant(''), fc.integer()),
      scope: fc.oneof(fc.string(), fc.constant(undefined)),
      action: fc.oneof(fc.constantFrom('gitPush', 'nope'), fc.integer()),
      command: fc.string(),
      decision: fc.oneof(fc.constantFrom('allow', 'deny', 'x'), fc.integer(), fc.constant(null)),
      enforcement: fc.string(),
      when: fc.oneof(
        fc.record(
          {
            refs: fc.oneof(fc.array(fc.string()), fc.string()),
            maxCount: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.double()),
            paths: fc.array(fc.oneof(fc.string(), fc.integer())),
          },
          { requiredKeys: [] },
        ),
        fc.anything(),
      ),
      expiresAt: fc.oneof(fc.string(), fc.date()),
      origin: fc.string(),
      note: fc.string(),
      colour: fc.string(),
    },
    { requiredKeys: [] },
  );

  it("accepts only what zod's rule schema accepts, so zod stays the authority (contracts §1)", () => {
    fc.assert(
      fc.property(fc.oneof(ruleLike, fc.anything()), fc.boolean(), (raw, scoped) => {
        if (wellFormedRule(raw, scoped))
          expect((scoped ? ruleSchema : presetSchema).safeParse(raw).success).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('accepts ordinary well-formed rules', () => {
    expect(
      wellFormedRule(
        {
          id: 'x',
          scope: 'space:p',
          action: 'gitPush',
          decision: 'deny',
          when: { refs: ['main'], maxCount: 3 },
        },
        true,
      ),
    ).toBe(true);
    expect(wellFormedRule({ action: 'gitCommit', decision: 'prompt' }, false)).toBe(true);
    expect(
      wellFormedRule({ scope: 'workspace', action: 'gitCommit', decision: 'prompt' }, false),
    ).toBe(false);
  });
});
