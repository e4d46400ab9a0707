// Resolution details that the corpus does not reach: configured classifier
// entries, net entries given by path, exemptions from restrictive command
// constraints, lint on complementary caps, reserved ids, the dial's entry.

import { describe, expect, it } from 'vitest';
import { AT, decideDocs } from './decide-docs.js';
import type { ClassifierTable, DecisionResult } from '../src/index.js';
import {
  compilePolicy,
  decide,
  formatPath,
  DEFAULT_TABLE,
  describeRule,
  extendClassifier,
  lintPolicy,
  validatePolicy,
  validateRequest,
} from '../src/index.js';

function run(
  policyDoc: unknown,
  requestDoc: unknown,
  classifier: ClassifierTable = DEFAULT_TABLE,
): DecisionResult {
  return decideDocs(policyDoc, requestDoc, { classifier });
}

const base = { version: 1, workspace: 'acme' };
const ask = (command: string, extra: Record<string, unknown> = {}) => ({
  workspace: 'acme',
  agent: 'a',
  command,
  ...extra,
});

describe('resolution details', () => {
  it('resolves every call anew: nothing from an earlier call is remembered (G4, G12)', () => {
    const policy = validatePolicy(
      {
        ...base,
        rules: [
          {
            id: 'until-noon',
            action: 'gitPush',
            decision: 'allow',
            expiresAt: '2026-11-30T12:00:00Z',
          },
        ],
      },
      'workspace',
    );
    const request = validateRequest({ workspace: 'acme', agent: 'a', actions: ['gitPush'] });
    if (!policy.ok || !request.ok) throw new Error('fixtures should be valid');
    const compiled = compilePolicy(policy.value);
    const at = (iso: string) =>
      decide({
        policy: compiled,
        request: request.value,
        at: Date.parse(iso),
        approverConnected: false,
      });
    expect(at('2026-11-30T11:59:59Z')).toMatchObject({ decision: 'allow', rule: 'until-noon' });
    expect(at('2026-11-30T12:00:00Z')).toMatchObject({
      decision: 'prompt',
      rule: 'default:gitPush',
    });
    expect(at('2026-11-30T11:00:00Z')).toMatchObject({ decision: 'allow', rule: 'until-noon' });
  });

  it('a net entry written with a program path still catches the command (G15, E35)', () => {
    const policy = { ...base, modes: { review: { commandNet: ['/bin/rm -rf /'] } } };
    for (const command of ['/bin/rm -rf /', 'rm -rf /', '/tmp/rm -rf /']) {
      expect(run(policy, ask(command, { mode: 'review' })).rule, command).toBe('modeNet:review');
    }
  });

  it("a simple command that reports no paths for a class makes that class's paths unknown (E26)", () => {
    const configured = extendClassifier(DEFAULT_TABLE, {
      commands: [{ command: 'purge-cache', classes: ['fileDelete'] }],
    });
    if (!configured.ok) throw new Error('classifier configuration should be valid');
    const policy = {
      ...base,
      rules: [
        { id: 'txt-ok', action: 'fileDelete', decision: 'allow', when: { paths: ['*.txt'] } },
      ],
    };
    const result = run(policy, ask('purge-cache /etc/passwd; rm a.txt'), configured.value);
    expect(result.facets.find((f) => f.facet === 'fileDelete')).toMatchObject({
      decision: 'prompt',
      rule: 'txt-ok',
    });
    expect(result.decision).not.toBe('allow');
  });

  it('an exemption from a restrictive commands constraint holds only for the bare program (G14c)', () => {
    const policy = {
      ...base,
      rules: [
        {
          id: 'npm-guard',
          action: 'processSpawn',
          decision: 'deny',
          when: { commands: ['npm', '!npm test'] },
        },
      ],
    };
    expect(run(policy, ask('npm test')).decision).toBe('allow');
    expect(run(policy, ask('/tmp/evil/npm test')).decision).toBe('deny');
    expect(run(policy, ask('npm publish')).decision).toBe('deny');
  });

  it("appends the dial's entry only where the dial decided (E22)", () => {
    const policy = {
      ...base,
      spaces: { free: { autonomy: 'actFreely' } },
      rules: [{ id: 'soft-no', action: 'fileDelete', decision: 'deny', enforcement: 'soft' }],
    };
    const allowed = run(policy, {
      workspace: 'acme',
      agent: 'a',
      space: 'free',
      actions: ['gitPush'],
    });
    expect(allowed).toMatchObject({ decision: 'allow', rule: 'autonomy:actFreely' });
    expect(allowed.facets.at(-1)).toMatchObject({ facet: 'autonomy', decision: 'allow' });
    const denied = run(policy, {
      workspace: 'acme',
      agent: 'a',
      space: 'free',
      actions: ['gitPush', 'fileDelete'],
    });
    expect(denied).toMatchObject({ decision: 'deny', rule: 'soft-no', overridable: true });
    expect(denied.facets.some((f) => f.facet === 'autonomy')).toBe(false);
  });
});

describe('policy checks', () => {
  it('lint does not call complementary caps contradictory (G17)', () => {
    const policy = validatePolicy(
      {
        ...base,
        rules: [
          { id: 'small-ok', action: 'fileDelete', decision: 'allow', when: { maxCount: 50 } },
          { id: 'big-ask', action: 'fileDelete', decision: 'prompt', when: { maxCount: 50 } },
        ],
      },
      'workspace',
    );
    expect(policy.ok).toBe(true);
    if (policy.ok) expect(lintPolicy(policy.value, AT)).toEqual([]);
  });

  it('warns once per shadowed rule, naming where it never decides (G8)', () => {
    const agents = Array.from({ length: 12 }, (_, i) => `bot-${i}`);
    const policy = validatePolicy(
      {
        ...base,
        rules: [
          { id: 'ws-delete', action: 'fileDelete', decision: 'deny' },
          { id: 'ws-push', action: 'gitPush', decision: 'deny' },
          { id: 'one-push', scope: 'agent:bot-0', action: 'gitPush', decision: 'allow' },
          ...agents.map((a) => ({
            id: `${a}-delete`,
            scope: `agent:${a}`,
            action: 'fileDelete',
            decision: 'allow',
          })),
        ],
      },
      'workspace',
    );
    expect(policy.ok).toBe(true);
    if (!policy.ok) return;
    const shadowed = lintPolicy(policy.value, AT).filter((w) => w.code === 'shadowed');
    expect(shadowed.map((w) => w.rule)).toEqual(['ws-delete', 'ws-push']);
    expect(shadowed[0]?.message).toBe(
      'rule `ws-delete` (rules[0]) never decides in 12 scopes: broader rules there decide `fileDelete` first — `bot-0-delete` (rules[3]) in agent:bot-0, `bot-1-delete` (rules[4]) in agent:bot-1, `bot-2-delete` (rules[5]) in agent:bot-2 and 9 more',
    );
    expect(shadowed[1]?.message).toBe(
      'rule `ws-push` (rules[1]) never decides in agent:bot-0: the broader rule `one-push` (rules[2]) there decides `gitPush` first',
    );
  });

  it('reports a duplicate id even when one of the rules has another problem (E29)', () => {
    const result = validatePolicy(
      {
        ...base,
        rules: [
          { id: 'a', action: 'gitPush', decision: 'deny' },
          { id: 'a', action: 'gitPush', decision: 'bogus' },
        ],
      },
      'workspace',
    );
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.issues.map((i) => formatPath(i.path)).sort()).toEqual([
        'rules[1].decision',
        'rules[1].id',
      ]);
  });

  it("refuses rule ids that read as Warden's own names (contracts §3)", () => {
    for (const id of [
      'default:gitPush',
      'autonomy:actFreely',
      'modeNet:review',
      'unparseable',
      'two words',
    ]) {
      const result = validatePolicy(
        { ...base, rules: [{ id, action: 'gitPush', decision: 'deny' }] },
        'workspace',
      );
      expect(result.ok, id).toBe(false);
      if (!result.ok) expect(result.issues[0]?.path).toEqual(['rules', 0, 'id']);
    }
  });

  it('describes the rules of a managed policy as managed, whatever their origin (G19, G29)', () => {
    const result = validatePolicy(
      { version: 1, rules: [{ id: 'u', action: 'fileDelete', decision: 'deny', origin: 'user' }] },
      'managed',
    );
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(describeRule(result.value.rules[0] as never, undefined, true)).toContain('(managed)');
  });
});
