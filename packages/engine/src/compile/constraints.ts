// Argument constraints (G16, G17, E6, E9): each key holds, fails, or is unknown
// because the request did not say. A restrictive rule's key holds when the
// request touches any value it names; an allow's, when the request lies
// entirely within.

import type { ConstraintKey, Constraints } from '../model/policy.js';
import type { CommandWords } from '../match/commands.js';
import { prefixMatches } from '../match/commands.js';
import type { HostPatternSet, HostValue } from '../match/hosts.js';
import { compileHostPatterns, hostInSet } from '../match/hosts.js';
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
  readonly count?: number;
  readonly cents?: number;
}

export function compileConstraints(when: Constraints): CompiledConstraints {
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
    ...(when.paths !== undefined ? { paths: compilePathPatterns(when.paths) } : {}),
    ...(when.refs !== undefined ? { refs: compileRefPatterns(when.refs) } : {}),
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

function listKey<T>(
  key: ConstraintKey,
  values: readonly T[] | undefined,
  restrictive: boolean,
  inSet: (value: T) => boolean,
  show: (value: T) => string,
): Condition {
  if (values === undefined) return { key, status: 'unknown' };
  if (restrictive) {
    const touching = values.find(inSet);
    return touching === undefined
      ? { key, status: 'fails' }
      : { key, status: 'holds', value: show(touching) };
  }
  const outside = values.find((value) => !inSet(value));
  return outside === undefined
    ? { key, status: 'holds', values: values.map(show) }
    : { key, status: 'fails', value: show(outside) };
}

function capKey(
  key: ConstraintKey,
  value: number | undefined,
  cap: number,
  restrictive: boolean,
): Condition {
  if (value === undefined) return { key, status: 'unknown' };
  const holds = restrictive ? value > cap : value <= cap;
  return { key, status: holds ? 'holds' : 'fails', value: String(value) };
}

export function evaluate(
  constraints: CompiledConstraints | null,
  args: FacetArgs,
  restrictive: boolean,
): Evaluation {
  if (constraints === null) return NO_CONDITIONS;
  const conditions: Condition[] = [];
  if (constraints.paths !== undefined) {
    const set = constraints.paths;
    conditions.push(
      listKey(
        'paths',
        args.paths,
        restrictive,
        (p) => pathInSet(p, set, restrictive),
        describePath,
      ),
    );
  }
  if (constraints.refs !== undefined) {
    const set = constraints.refs;
    conditions.push(
      listKey(
        'refs',
        args.refs,
        restrictive,
        (r) => refInSet(r, set),
        (r) => r,
      ),
    );
  }
  if (constraints.hosts !== undefined) {
    const set = constraints.hosts;
    conditions.push(
      listKey(
        'hosts',
        args.hosts,
        restrictive,
        (h) => hostInSet(h, set),
        (h) => h.host,
      ),
    );
  }
  if (constraints.commands !== undefined) {
    const { positives, negatives } = constraints.commands;
    const inSet = (command: CommandWords): boolean =>
      positives.some((words) => prefixMatches(words, command, !restrictive)) &&
      !negatives.some((words) => prefixMatches(words, command, false));
    conditions.push(
      listKey('commands', args.commands, restrictive, inSet, (c) => c.values.join(' ')),
    );
  }
  if (constraints.maxCount !== undefined)
    conditions.push(capKey('maxCount', args.count, constraints.maxCount, restrictive));
  if (constraints.maxCents !== undefined)
    conditions.push(capKey('maxCents', args.cents, constraints.maxCents, restrictive));
  if (conditions.some((c) => c.status === 'fails')) return { verdict: 'fails', conditions: [] };
  const unknown = conditions.filter((c) => c.status === 'unknown');
  if (unknown.length > 0) return { verdict: 'escalates', conditions: unknown };
  return { verdict: 'applies', conditions };
}
