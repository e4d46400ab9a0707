// Random policies, managed layers and requests (fast-check) for the property
// tests: what must hold for every input, not just the examples of the corpus.

import fc from 'fast-check';
import { ACTION_CLASSES } from '../src/index.js';

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

export const ruleArb = fc
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

export const policyArb = fc
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

export const managedArb = fc.array(ruleArb, { maxLength: 6 }).map((rules) => ({
  version: 1,
  rules: rules.map((rule, index) => ({ id: `m${index}`, ...rule })),
}));

export const COMMANDS = [
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

export const requestArb = fc
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
