// Compiles a validated policy into indexes by scope and facet, so resolution
// looks up a handful of small buckets whatever the policy's size (never a scan).

import type { ActionClass } from '../model/classes.js';
import { ACTION_CLASSES, CLASS_ORDER } from '../model/classes.js';
import type { Autonomy } from '../model/decision.js';
import type { Policy, Rule } from '../model/policy.js';
import { allRules } from '../model/policy.js';
import { commandPrefixWords } from '../document/command-text.js';
import type { CompiledConstraints } from './constraints.js';
import { compileConstraints } from './constraints.js';
import { Globs } from '../match/globs.js';
import type { PathPatternSet } from '../match/paths.js';
import { compilePathPatterns } from '../match/paths.js';
import { DEFAULT_CONTROL_PATHS } from '../model/control-paths.js';

export interface CompiledRule {
  readonly rule: Rule;
  // Copies of the fields resolution reads, so a decision touches one object per rule.
  readonly id: string;
  readonly decision: Rule['decision'];
  readonly scope: string;
  /** The scope as shown for a rule of the managed layer. */
  readonly managedScope: string;
  readonly words: readonly string[];
  /** Strictness: hard deny 3, soft deny 2, prompt 1, allow 0. */
  readonly rank: number;
  readonly order: number;
  readonly constrained: boolean;
  /** Words of a command rule's prefix (G13); 0 for class rules. */
  readonly prefixLength: number;
  readonly restrictive: boolean;
  readonly advisory: boolean;
  /** Written by answering a prompt (G23): it never beats a deny of the standing policy (E41). */
  readonly remembered: boolean;
  readonly hard: boolean;
  readonly constraints: CompiledConstraints | null;
  readonly expiresAtMs: number | null;
}

const NO_COMMANDS: ReadonlyMap<string, CompiledRule[]> = new Map();

/**
 * The rules of one scope. Class rules sit in an array indexed by the class's
 * position (no hashing, one object less to reach); command rules by their
 * first word (a basename, or a path as written).
 */
export class ScopeBucket {
  private readonly slots: (CompiledRule[] | undefined)[] = new Array<CompiledRule[] | undefined>(
    ACTION_CLASSES.length,
  );
  private commandMap: Map<string, CompiledRule[]> | null = null;

  classRules(cls: ActionClass): CompiledRule[] | undefined {
    return this.slots[CLASS_ORDER[cls]];
  }

  get commands(): ReadonlyMap<string, CompiledRule[]> {
    return this.commandMap ?? NO_COMMANDS;
  }

  *classLists(): IterableIterator<CompiledRule[]> {
    for (const list of this.slots) if (list !== undefined) yield list;
  }

  add(rule: CompiledRule): void {
    const action = rule.rule.action;
    if (action !== undefined) {
      const list = this.slots[CLASS_ORDER[action]];
      if (list === undefined) this.slots[CLASS_ORDER[action]] = [rule];
      else list.push(rule);
      return;
    }
    this.commandMap ??= new Map();
    const key = rule.words[0] as string;
    const list = this.commandMap.get(key);
    if (list === undefined) this.commandMap.set(key, [rule]);
    else list.push(rule);
  }

  sort(): void {
    for (const list of this.classLists()) list.sort(compareRules);
    for (const list of this.commands.values()) list.sort(compareRules);
  }
}

export interface CompiledLayer {
  readonly scopes: ReadonlyMap<string, ScopeBucket>;
  /** Whether any advisory rule exists, so the shadow resolution can be skipped when none does. */
  readonly hasAdvisory: boolean;
  /** Whether any remembered rule exists (E41). */
  readonly hasRemembered: boolean;
}

export interface NetEntry {
  readonly entry: string;
  readonly words: readonly string[];
}

export interface CompiledPolicy {
  readonly policy: Policy;
  readonly layer: CompiledLayer;
  readonly nets: ReadonlyMap<string, readonly NetEntry[]>;
  readonly autonomy: ReadonlyMap<string, Autonomy>;
  /**
   * Paths that change what later commands run (E44): the shipped list with the
   * document's `controlPaths` added (a workspace policy's `!` entries take
   * shipped ones out; a managed policy only adds).
   */
  readonly controlPaths: PathPatternSet;
}

function rankOf(rule: Rule): number {
  switch (rule.decision) {
    case 'deny':
      return rule.enforcement === 'soft' ? 2 : 3;
    case 'prompt':
      return 1;
    case 'allow':
      return 0;
  }
}

/** Specificity first (longer prefix, constrained), then strictness, then document order. */
export function compareRules(a: CompiledRule, b: CompiledRule): number {
  return (
    b.prefixLength - a.prefixLength ||
    Number(b.constrained) - Number(a.constrained) ||
    b.rank - a.rank ||
    a.order - b.order
  );
}

function compileRule(rule: Rule, order: number, globs: Globs): CompiledRule {
  const constraints = rule.when === undefined ? null : compileConstraints(rule.when, globs);
  return {
    rule,
    id: rule.id,
    decision: rule.decision,
    scope: rule.scope,
    managedScope: `managed:${rule.scope}`,
    words: rule.commandWords ?? [],
    rank: rankOf(rule),
    order,
    constrained: constraints !== null,
    prefixLength: rule.commandWords?.length ?? 0,
    restrictive: rule.decision !== 'allow',
    advisory: rule.enforcement === 'advisory',
    remembered: rule.origin === 'remembered',
    // An advisory rule is resolved as hard in the shadow resolution (G25).
    hard: rule.enforcement !== 'soft',
    constraints,
    expiresAtMs: rule.expiresAtMs ?? null,
  };
}

export function compileLayer(rules: readonly Rule[]): CompiledLayer {
  const scopes = new Map<string, ScopeBucket>();
  const globs = new Globs();
  let hasAdvisory = false;
  let hasRemembered = false;
  rules.forEach((rule, order) => {
    const compiled = compileRule(rule, order, globs);
    if (compiled.advisory) hasAdvisory = true;
    if (compiled.remembered) hasRemembered = true;
    let bucket = scopes.get(rule.scope);
    if (bucket === undefined) {
      bucket = new ScopeBucket();
      scopes.set(rule.scope, bucket);
    }
    bucket.add(compiled);
  });
  for (const bucket of scopes.values()) bucket.sort();
  return { scopes, hasAdvisory, hasRemembered };
}

export function compilePolicy(policy: Policy): CompiledPolicy {
  const nets = new Map<string, NetEntry[]>();
  for (const [name, mode] of Object.entries(policy.modes)) {
    const entries: NetEntry[] = [];
    for (const entry of mode.commandNet) {
      const words = commandPrefixWords(entry);
      if (Array.isArray(words)) entries.push({ entry, words });
    }
    nets.set(name, entries);
  }
  const autonomy = new Map<string, Autonomy>();
  for (const [id, space] of Object.entries(policy.spaces)) {
    if (space.autonomy !== undefined) autonomy.set(id, space.autonomy);
  }
  const own = policy.controlPaths ?? [];
  const controlPaths = compilePathPatterns(
    policy.kind === 'managed' ? own : [...DEFAULT_CONTROL_PATHS, ...own],
    new Globs(),
  );
  return { policy, layer: compileLayer(allRules(policy)), nets, autonomy, controlPaths };
}
