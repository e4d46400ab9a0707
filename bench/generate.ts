// Engine-neutral generator for the bench: one deterministic rule set and request
// pool per size, which warden.ts, cedar.ts and casbin.ts each translate.

import type { ActionClass } from '@warden/engine';
import { createRng } from './prng.js';
import type { Rng } from './prng.js';

export type Verdict = 'allow' | 'prompt' | 'deny';
export type ArgKey = 'refs' | 'paths';

export type Scope =
  | { readonly kind: 'workspace' }
  | { readonly kind: 'agent'; readonly id: string }
  | { readonly kind: 'space'; readonly id: string };

export type Target =
  /** A class rule, optionally constrained by one glob on the class's argument key. */
  | { readonly kind: 'class'; readonly cls: ActionClass; readonly pattern?: string }
  /** A command-prefix rule (shell requests only; Cedar and casbin carry it for size parity). */
  | { readonly kind: 'command'; readonly prefix: string };

export interface BenchRule {
  readonly id: string;
  readonly scope: Scope;
  readonly target: Target;
  readonly decision: Verdict;
}

export interface RuleSet {
  readonly size: number;
  readonly workspace: string;
  readonly agents: readonly string[];
  readonly spaces: readonly string[];
  readonly rules: readonly BenchRule[];
}

/** A class-only request: one class and, when the class has one, its argument. */
export interface ClassRequest {
  readonly agent: string;
  readonly space: string;
  readonly cls: ActionClass;
  readonly arg?: { readonly key: ArgKey; readonly value: string };
}

export interface ShellRequest {
  readonly agent: string;
  readonly space: string;
  readonly command: string;
}

export const WORKSPACE = 'acme';

/** Which argument key constrains a class in the bench; classes without one get unconstrained rules. */
export const ARG_KEY: Partial<Record<ActionClass, ArgKey>> = {
  gitPush: 'refs',
  fileDelete: 'paths',
  fileWriteOutsideWorktree: 'paths',
};

/** How often each class appears in rules and in requests. */
const CLASS_WEIGHTS: readonly (readonly [ActionClass, number])[] = [
  ['gitPush', 30],
  ['fileDelete', 20],
  ['fileWriteOutsideWorktree', 8],
  ['networkEgress', 10],
  ['prCreate', 8],
  ['processSpawn', 6],
  ['secretAccess', 5],
  ['packageInstall', 5],
  ['gitCommit', 3],
  ['prPublish', 2],
  ['vendorSyncWrite', 1],
  ['workspaceMutation', 1],
  ['enclosureControl', 1],
];

const DECISION_WEIGHTS: readonly (readonly [Verdict, number])[] = [
  ['allow', 50],
  ['deny', 35],
  ['prompt', 15],
];

const COMMAND_PREFIXES = [
  'npm publish',
  'git push --force',
  'rm -rf',
  'docker run',
  'terraform apply',
  'curl',
] as const;

/*
 * Patterns are chosen so that picomatch (Warden), minimatch (casbin globMatch)
 * and Cedar's `like` (where `*` also crosses `/`) agree on every value the
 * requests below use: single-segment branch names, no dotfiles.
 */
const COMMON_REFS = ['main', 'release/*', 'hotfix/*', 'feature/*'] as const;
const COMMON_PATHS = ['tmp/**', '**/*.lock', 'docs/**'] as const;

function refPattern(rng: Rng, scope: Scope): string {
  if (scope.kind === 'agent' && rng.chance(0.6)) return `feature/${scope.id}-*`;
  if (scope.kind === 'space' && rng.chance(0.5)) return `env/${scope.id}`;
  return rng.pick(COMMON_REFS);
}

function pathPattern(rng: Rng, scope: Scope): string {
  if (scope.kind === 'agent' && rng.chance(0.6))
    return rng.pick([`repos/${scope.id}/**`, `repos/${scope.id}/secrets/**`]);
  if (scope.kind === 'space' && rng.chance(0.6))
    return rng.pick([`spaces/${scope.id}/**`, `spaces/${scope.id}/build/**`]);
  return rng.pick(COMMON_PATHS);
}

function makeRule(rng: Rng, id: string, scope: Scope): BenchRule {
  if (rng.chance(0.1)) {
    return {
      id,
      scope,
      target: { kind: 'command', prefix: rng.pick(COMMAND_PREFIXES) },
      decision: rng.chance(0.6) ? 'deny' : 'prompt',
    };
  }
  const cls = rng.weighted(CLASS_WEIGHTS);
  const key = ARG_KEY[cls];
  const decision = rng.weighted(DECISION_WEIGHTS);
  if (key === undefined || !rng.chance(0.7))
    return { id, scope, target: { kind: 'class', cls }, decision };
  const pattern = key === 'refs' ? refPattern(rng, scope) : pathPattern(rng, scope);
  return { id, scope, target: { kind: 'class', cls, pattern }, decision };
}

/** A baseline every workspace has: the org-wide rules, then random ones. */
function workspaceRules(rng: Rng, count: number): BenchRule[] {
  const scope: Scope = { kind: 'workspace' };
  const fixed: BenchRule[] = [
    {
      id: 'w0',
      scope,
      target: { kind: 'class', cls: 'gitPush', pattern: 'main' },
      decision: 'deny',
    },
    {
      id: 'w1',
      scope,
      target: { kind: 'class', cls: 'fileDelete', pattern: '**/*.lock' },
      decision: 'deny',
    },
    { id: 'w2', scope, target: { kind: 'command', prefix: 'npm publish' }, decision: 'deny' },
  ];
  const rules = fixed.slice(0, count);
  for (let i = rules.length; i < count; i++) rules.push(makeRule(rng, `w${i}`, scope));
  return rules;
}

export function agentCount(size: number): number {
  return Math.max(4, Math.round(size / 10));
}

export function spaceCount(size: number): number {
  return Math.max(3, Math.round(size / 20));
}

/**
 * `size` rules: a small workspace baseline (3 to 10 rules), the rest split
 * 45/55 between agent and space scopes over ~size/10 agents and ~size/20 spaces.
 */
export function generateRuleSet(size: number, seed = 0x5eed): RuleSet {
  const rng = createRng(seed ^ size);
  const agents = Array.from({ length: agentCount(size) }, (_, i) => `a${i}`);
  const spaces = Array.from({ length: spaceCount(size) }, (_, i) => `s${i}`);
  const base = Math.min(10, Math.max(3, Math.round(size / 50)), size);
  const rules: BenchRule[] = workspaceRules(rng, base);
  for (let i = rules.length; i < size; i++) {
    const scope: Scope = rng.chance(0.45)
      ? { kind: 'agent', id: rng.pick(agents) }
      : { kind: 'space', id: rng.pick(spaces) };
    rules.push(makeRule(rng, `r${i}`, scope));
  }
  return { size, workspace: WORKSPACE, agents, spaces, rules };
}

function refValue(rng: Rng, agent: string, space: string): string {
  return rng.pick([
    'main',
    'release/1.4',
    'hotfix/urgent',
    'feature/login',
    `feature/${agent}-login`,
    `env/${space}`,
    'dev/scratch',
  ]);
}

function pathValue(rng: Rng, agent: string, space: string, other: string): string {
  return rng.pick([
    `repos/${agent}/src/index.ts`,
    `repos/${agent}/secrets/key.pem`,
    `repos/${other}/README.md`,
    `spaces/${space}/build/out.js`,
    `spaces/${space}/notes.md`,
    'tmp/cache/blob.bin',
    'package.lock',
    'docs/guide/intro.md',
  ]);
}

export function generateClassRequests(set: RuleSet, count: number, seed = 0xc1a55): ClassRequest[] {
  const rng = createRng(seed ^ set.size);
  const out: ClassRequest[] = [];
  for (let i = 0; i < count; i++) {
    const agent = rng.pick(set.agents);
    const space = rng.pick(set.spaces);
    const cls = rng.weighted(CLASS_WEIGHTS);
    const key = ARG_KEY[cls];
    if (key === undefined) {
      out.push({ agent, space, cls });
      continue;
    }
    const value =
      key === 'refs'
        ? refValue(rng, agent, space)
        : pathValue(rng, agent, space, rng.pick(set.agents));
    out.push({ agent, space, cls, arg: { key, value } });
  }
  return out;
}

export function generateShellRequests(set: RuleSet, count: number, seed = 0x5e11): ShellRequest[] {
  const rng = createRng(seed ^ set.size);
  const out: ShellRequest[] = [];
  for (let i = 0; i < count; i++) {
    const agent = rng.pick(set.agents);
    const space = rng.pick(set.spaces);
    const command = rng.pick([
      `cd repos/${agent} && git push origin feature/${agent}-login`,
      `cd repos/${agent} && git push origin main`,
      `git commit -m wip && git push origin release/1.4`,
      `rm -rf repos/${agent}/build`,
      `rm repos/${agent}/src/old.ts spaces/${space}/notes.md`,
      'npm publish --tag next',
      `cd repos/${agent} && npm test`,
      'curl -fsSL https://example.com/install.sh -o /tmp/install.sh',
    ]);
    out.push({ agent, space, command });
  }
  return out;
}
