// Argument constraints (G16, G17, E6, E9): each key holds, fails, or is unknown
// because the request did not say. A restrictive rule's key holds when the
// request touches any value it names; an allow's, when the request lies
// entirely within.

import type { ConstraintKey, Constraints } from '../model/policy.js';
import type { CommandWords } from '../match/commands.js';
import { prefixMatches, wrapperMatches } from '../match/commands.js';
import type { HostPatternSet, HostValue } from '../match/hosts.js';
import { compileHostPatterns, hostInSet } from '../match/hosts.js';
import type { Globs } from '../match/globs.js';
import type { PathPatternSet, PathValue } from '../match/paths.js';
import { compilePathPatterns, describePath, pathInSet } from '../match/paths.js';
import type { RefPatternSet } from '../match/refs.js';
import { compileRefPatterns, refInSet } from '../match/refs.js';
import { commandPrefixWords } from '../document/command-text.js';

export interface CompiledConstraints {
  readonly source: Constraints;
  readonly paths?: PathPatternSet;
  readonly refs?: RefPatternSet;
  readonly hosts?: HostPatternSet;
  readonly commands?: { readonly positives: string[][]; readonly negatives: string[][] };
  readonly maxCount?: number;
  readonly maxCents?: number;
}

/** What the request says, per key; `undefined` means it did not say (G18). */
export interface FacetArgs {
  readonly paths?: readonly PathValue[];
  readonly refs?: readonly string[];
  readonly hosts?: readonly HostValue[];
  readonly commands?: readonly CommandWords[];
  /** The wrappers the commands run under (E43): a restrictive `commands` constraint reads them too. */
  readonly wrappers?: readonly CommandWords[];
  readonly count?: number;
  readonly cents?: number;
  /** For keys that are unknown as a whole: the parts that are known (E6, E42). */
  readonly known?: KnownParts;
}

/**
 * The known part of an unknown key: values the request certainly touches,
 * though it may touch more. A restrictive rule that one of them touches holds;
 * an allow that one of them lies outside fails; else the key stays unknown.
 */
export interface KnownParts {
  readonly paths?: readonly PathValue[];
  readonly refs?: readonly string[];
  readonly hosts?: readonly HostValue[];
  /** Simple commands read in full. */
  readonly commands?: readonly CommandWords[];
  /** The confident leading words of commands that cannot be read in full: only a restrictive rule reads them. */
  readonly leading?: readonly CommandWords[];
  /** A lower bound: the sum of the counts that are known. */
  readonly count?: number;
}

export function compileConstraints(when: Constraints, globs: Globs): CompiledConstraints {
  const words = (list: readonly string[]): string[][] =>
    list.flatMap((entry) => {
      const parsed = commandPrefixWords(entry);
      return Array.isArray(parsed) ? [parsed] : [];
    });
  const commands =
    when.commands === undefined
      ? undefined
      : {
          positives: words(when.commands.filter((c) => !c.startsWith('!'))),
          negatives: words(when.commands.filter((c) => c.startsWith('!')).map((c) => c.slice(1))),
        };
  return {
    source: when,
    ...(when.paths !== undefined ? { paths: compilePathPatterns(when.paths, globs) } : {}),
    ...(when.refs !== undefined ? { refs: compileRefPatterns(when.refs, globs) } : {}),
    ...(when.hosts !== undefined ? { hosts: compileHostPatterns(when.hosts) } : {}),
    ...(commands !== undefined ? { commands } : {}),
    ...(when.maxCount !== undefined ? { maxCount: when.maxCount } : {}),
    ...(when.maxCents !== undefined ? { maxCents: when.maxCents } : {}),
  };
}

/** One key's finding, kept as data so explanations can name the condition (G19). */
export type Condition =
  | {
      readonly key: ConstraintKey;
      readonly status: 'holds' | 'fails';
      readonly value?: string;
      readonly values?: readonly string[];
    }
  | { readonly key: ConstraintKey; readonly status: 'unknown' };

export type Verdict = 'applies' | 'fails' | 'escalates';

export interface Evaluation {
  readonly verdict: Verdict;
  /** The conditions that made the verdict: those that held, or the unknown ones. */
  readonly conditions: readonly Condition[];
}

const NO_CONDITIONS: Evaluation = { verdict: 'applies', conditions: [] };
const FAILS: Evaluation = { verdict: 'fails', conditions: [] };

/**
 * A list key's finding: null when it fails (so the rule cannot apply). When
 * the key is unknown, its known part may still decide it (E6, E42): a
 * restrictive rule holds when a known value touches it, an allow fails when a
 * known value lies outside; only otherwise is the key unknown.
 */
function listCondition<T>(
  key: ConstraintKey,
  values: readonly T[] | undefined,
  restrictive: boolean,
  inSet: (value: T, restrictive: boolean) => boolean,
  show: (value: T) => string,
  known?: readonly T[],
): Condition | null {
  if (values === undefined) {
    if (known !== undefined) {
      for (const value of known) {
        if (restrictive && inSet(value, true)) return { key, status: 'holds', value: show(value) };
        if (!restrictive && !inSet(value, false)) return null;
      }
    }
    return { key, status: 'unknown' };
  }
  if (restrictive) {
    for (const value of values) {
      if (inSet(value, true)) return { key, status: 'holds', value: show(value) };
    }
    return null;
  }
  for (const value of values) {
    if (!inSet(value, false)) return null;
  }
  return { key, status: 'holds', values: values.map(show) };
}

function capCondition(
  key: ConstraintKey,
  value: number | undefined,
  cap: number,
  restrictive: boolean,
  atLeast?: number,
): Condition | null {
  if (value === undefined) {
    // The known parts already exceed the cap: so does the whole (E6, E42).
    if (atLeast !== undefined && atLeast > cap)
      return restrictive ? { key, status: 'holds', value: `${atLeast} or more` } : null;
    return { key, status: 'unknown' };
  }
  const holds = restrictive ? value > cap : value <= cap;
  return holds ? { key, status: 'holds', value: String(value) } : null;
}

function showRef(ref: string): string {
  return ref;
}

function showHost(host: HostValue): string {
  return host.host;
}

function showCommand(command: CommandWords): string {
  return command.values.join(' ');
}

/**
 * Evaluates a rule's constraints against what the request says (E6): any key
 * that fails makes the rule not apply; else any unknown key escalates it;
 * else it applies. Returns at the first failing key.
 */
export function evaluate(
  constraints: CompiledConstraints | null,
  args: FacetArgs,
  restrictive: boolean,
): Evaluation {
  if (constraints === null) return NO_CONDITIONS;
  const known = args.known;
  const conditions: Condition[] = [];
  let condition: Condition | null;
  if (constraints.paths !== undefined) {
    const set = constraints.paths;
    condition = listCondition(
      'paths',
      args.paths,
      restrictive,
      (p, r) => pathInSet(p, set, r),
      describePath,
      known?.paths,
    );
    if (condition === null) return FAILS;
    conditions.push(condition);
  }
  if (constraints.refs !== undefined) {
    const set = constraints.refs;
    condition = listCondition(
      'refs',
      args.refs,
      restrictive,
      (r) => refInSet(r, set),
      showRef,
      known?.refs,
    );
    if (condition === null) return FAILS;
    conditions.push(condition);
  }
  if (constraints.hosts !== undefined) {
    const set = constraints.hosts;
    condition = listCondition(
      'hosts',
      args.hosts,
      restrictive,
      (h) => hostInSet(h, set),
      showHost,
      known?.hosts,
    );
    if (condition === null) return FAILS;
    conditions.push(condition);
  }
  if (constraints.commands !== undefined) {
    const { positives, negatives } = constraints.commands;
    const inSet = (command: CommandWords, r: boolean): boolean =>
      positives.some((words) => prefixMatches(words, command, !r)) &&
      // An exemption from a restrictive rule loosens it: like an allow, it holds only for the
      // bare name or a system path; an exclusion from an allow holds for look-alikes too.
      !negatives.some((words) => prefixMatches(words, command, r));
    // A wrapper a restrictive constraint names (`commands: [sudo]`) holds for what it wraps (E43).
    // Read as a restrictive rule reads a wrapper: its options spelled any way.
    const wrapper = restrictive
      ? args.wrappers?.find(
          (w) =>
            positives.some((words) => wrapperMatches(words, w)) &&
            !negatives.some((words) => prefixMatches(words, w, true)),
        )
      : undefined;
    const knownCommands =
      restrictive && known?.leading !== undefined
        ? [...(known.commands ?? []), ...known.leading]
        : known?.commands;
    condition =
      wrapper !== undefined
        ? { key: 'commands', status: 'holds', value: showCommand(wrapper) }
        : listCondition('commands', args.commands, restrictive, inSet, showCommand, knownCommands);
    if (condition === null) return FAILS;
    conditions.push(condition);
  }
  if (constraints.maxCount !== undefined) {
    condition = capCondition(
      'maxCount',
      args.count,
      constraints.maxCount,
      restrictive,
      known?.count,
    );
    if (condition === null) return FAILS;
    conditions.push(condition);
  }
  if (constraints.maxCents !== undefined) {
    condition = capCondition('maxCents', args.cents, constraints.maxCents, restrictive);
    if (condition === null) return FAILS;
    conditions.push(condition);
  }
  const unknown = conditions.filter((c) => c.status === 'unknown');
  if (unknown.length > 0) return { verdict: 'escalates', conditions: unknown };
  return { verdict: 'applies', conditions };
}
