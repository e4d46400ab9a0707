// Builds a request's facets (G21, E2, E21, E33): declared classes, classes the
// command reveals, then one facet per simple command. What `args` say and what
// the command shows are united, so `args` can never hide what the command does.

import type { CommandAnalysis, Unit } from '../classify/analyze.js';
import { analyzeCommand } from '../classify/analyze.js';
import type { KeyValues } from '../classify/effects.js';
import type { ClassifierTable } from '../classify/table.js';
import type { FacetArgs, KnownParts } from '../compile/constraints.js';
import type { ActionClass } from '../model/classes.js';
import type { ActionRequest } from '../model/request.js';
import type { CommandWords } from '../match/commands.js';
import type { HostValue } from '../match/hosts.js';
import { normalizeHost } from '../match/hosts.js';
import { normalizePath } from '../match/paths.js';
import type { PathValue } from '../match/paths.js';
import { normalizeRef } from '../match/refs.js';

export type Facet =
  | {
      readonly kind: 'class';
      readonly name: string;
      readonly cls: ActionClass;
      readonly args: FacetArgs;
    }
  | {
      readonly kind: 'command';
      readonly name: string;
      readonly words: CommandWords;
      readonly args: FacetArgs;
      /**
       * The wrappers it runs under (`sudo`, `timeout 5`, `bash -c`), outermost first:
       * a restrictive rule that names one applies to what it wraps.
       */
      readonly wrappers: readonly CommandWords[];
      /** Only restrictive rules are read: the facet stands for one of another's wrappers. */
      readonly restrictiveOnly?: boolean;
    }
  | {
      readonly kind: 'raw';
      readonly name: string;
      readonly leading: CommandWords | null;
      readonly args: FacetArgs;
      readonly wrappers: readonly CommandWords[];
    };

export interface PreparedRequest {
  readonly request: ActionRequest;
  readonly facets: readonly Facet[];
  readonly analysis: CommandAnalysis | null;
}

const LISTS = ['paths', 'refs', 'hosts'] as const;
type ListKey = (typeof LISTS)[number];

/**
 * What extraction gives for one class, with the known part of unknown keys
 * (E42): values a command certainly touches though its full list is not known.
 */
type Part = KeyValues & {
  known?: { paths?: string[]; refs?: string[]; hosts?: string[]; count?: number };
};

/** What a part certainly touches for a key: its list, or the known part of an unknown one (E42). */
function certain(part: Part, key: ListKey): readonly string[] {
  const value = part[key];
  if (Array.isArray(value)) return value;
  return part.known?.[key] ?? [];
}

function setKnown(target: Part, key: ListKey, values: readonly string[]): void {
  if (values.length === 0) return;
  target.known = { ...target.known, [key]: [...values] };
}

/** Appends to a list the merge owns (never one shared with an analysis): linear in what is added. */
function append(list: string[], values: readonly string[]): void {
  for (const value of values) list.push(value);
}

/** Adds to the known part of an unknown key, in place. */
function addKnown(target: Part, key: ListKey, values: readonly string[]): void {
  if (values.length === 0) return;
  const known = (target.known ??= {});
  const list = known[key];
  if (list === undefined) known[key] = [...values];
  else append(list, values);
}

/**
 * Adds a command's values to a simple command's facet: its classes together say
 * what it touches. `target` is owned by the caller and grows in place, so a
 * name repeated many times costs linear time, not quadratic.
 */
function mergeInto(target: Part, source: Part): void {
  for (const key of LISTS) {
    const value = source[key];
    if (value === undefined) continue;
    const current = target[key];
    if (current === null || value === null) {
      if (Array.isArray(current)) addKnown(target, key, current);
      addKnown(target, key, certain(source, key));
      target[key] = null;
    } else if (current === undefined) target[key] = [...value];
    else append(current as string[], value);
  }
  if (source.count !== undefined && target.count !== null) {
    target.count = source.count === null ? null : (target.count ?? 0) + source.count;
  }
}

/** A class's values from its parts, with the lower bound of an unknown count. */
type Combined = Part & { knownCount?: number };

/**
 * One class's values from all its parts (E26): the union of lists and the sum
 * of counts; any part that is unknown, or says nothing of a key others
 * report, makes the key unknown — but what the other parts name stays
 * certainly touched (E6, E42).
 */
function combine(parts: readonly Part[]): Combined {
  const values: Combined = {};
  for (const key of LISTS) {
    const reported = parts.filter((part) => part[key] !== undefined);
    if (reported.length === 0) continue;
    if (reported.length < parts.length || reported.some((part) => part[key] === null)) {
      values[key] = null;
      setKnown(
        values,
        key,
        reported.flatMap((part) => certain(part, key)),
      );
      continue;
    }
    values[key] = reported.flatMap((part) => part[key] as string[]);
  }
  const counted = parts.filter((part) => part.count !== undefined);
  if (counted.length > 0) {
    const sum = counted.reduce((total, part) => total + (part.count ?? part.known?.count ?? 0), 0);
    if (counted.length < parts.length || counted.some((part) => part.count === null)) {
      values.count = null;
      if (sum > 0) values.knownCount = sum;
    } else values.count = sum;
  }
  return values;
}

/** What the request's own `args` say, normalised once (E10–E12). */
interface Given {
  readonly paths?: readonly PathValue[];
  readonly refs?: readonly string[];
  readonly hosts?: readonly HostValue[];
  readonly count?: number;
  readonly cents?: number;
}

function given(request: ActionRequest): Given {
  const args = request.args;
  if (args === undefined) return {};
  const worktree = request.worktree ?? null;
  const out: { -readonly [K in keyof Given]: Given[K] } = {};
  if (args.paths !== undefined) out.paths = args.paths.map((p) => normalizePath(p, worktree));
  if (args.refs !== undefined) out.refs = args.refs.map((r) => normalizeRef(r) ?? r);
  if (args.hosts !== undefined)
    out.hosts = args.hosts.map((h) => normalizeHost(h) ?? { host: h.toLowerCase(), ip: false });
  if (args.count !== undefined) out.count = args.count;
  if (args.cents !== undefined) out.cents = args.cents;
  return out;
}

/** E21: the union of what `args` give and what extraction gives; unknown only when both are silent. */
function unite(
  request: ActionRequest,
  args: Given,
  found: Combined,
  commands: CommandsSeen | undefined,
): FacetArgs {
  const worktree = request.worktree ?? null;
  const result: {
    paths?: readonly PathValue[];
    refs?: readonly string[];
    hosts?: readonly HostValue[];
    commands?: readonly CommandWords[];
    wrappers?: readonly CommandWords[];
    count?: number;
    cents?: number;
    known?: KnownParts;
  } = {};
  const known: { -readonly [K in keyof KnownParts]: KnownParts[K] } = {};
  const toPaths = (list: readonly string[]): PathValue[] =>
    list.map((p) => normalizePath(p, worktree));
  const toRefs = (list: readonly string[]): string[] => list.map((r) => normalizeRef(r) ?? r);

  const paths = pick(args.paths, convert(found.paths, toPaths), toPaths(found.known?.paths ?? []));
  if (paths.values !== undefined) result.paths = paths.values;
  if (paths.known !== undefined) known.paths = paths.known;
  const refs = pick(args.refs, convert(found.refs, toRefs), toRefs(found.known?.refs ?? []));
  if (refs.values !== undefined) result.refs = refs.values;
  if (refs.known !== undefined) known.refs = refs.known;
  // An extracted host that is not valid makes the key unknown; the valid ones stay known.
  const hosts = pick(
    args.hosts,
    normalizeHosts(found.hosts),
    validHosts(found.known?.hosts ?? found.hosts ?? []),
  );
  if (hosts.values !== undefined) result.hosts = hosts.values;
  if (hosts.known !== undefined) known.hosts = hosts.known;
  if (commands !== undefined && commands.wrappers.length > 0) result.wrappers = commands.wrappers;
  if (commands?.commands !== undefined) result.commands = commands.commands;
  else if (commands !== undefined) {
    if (commands.known.length > 0) known.commands = commands.known;
    if (commands.leading.length > 0) known.leading = commands.leading;
  }
  const count = found.count ?? undefined;
  // The larger counts (E38); a known lower bound of the command's count counts too.
  if (args.count !== undefined || count !== undefined)
    result.count = Math.max(args.count ?? 0, count ?? 0, found.knownCount ?? 0);
  else if (found.knownCount !== undefined) known.count = found.knownCount;
  if (args.cents !== undefined) result.cents = args.cents;
  if (Object.keys(known).length > 0) result.known = known;
  return result;
}

function convert<T>(
  found: readonly string[] | null | undefined,
  to: (list: readonly string[]) => T[],
): T[] | null | undefined {
  return found === null || found === undefined ? found : to(found);
}

/**
 * One list key: the union of what `args` give and what extraction gives.
 * When extraction cannot say, `args` stand with what extraction still
 * certainly names added (E21: `args` never hide what the command shows); when
 * neither says, the key is unknown and only its known part remains.
 */
function pick<T>(
  given: readonly T[] | undefined,
  found: readonly T[] | null | undefined,
  certainly: readonly T[],
): { values?: readonly T[]; known?: readonly T[] } {
  if (found !== undefined && found !== null)
    return { values: given === undefined ? found : [...given, ...found] };
  if (given !== undefined)
    return { values: certainly.length === 0 ? given : [...given, ...certainly] };
  return certainly.length === 0 ? {} : { known: certainly };
}

/** The valid hosts of a list (an invalid one is simply not known). */
function validHosts(list: readonly string[]): HostValue[] {
  const hosts: HostValue[] = [];
  for (const raw of list) {
    const host = normalizeHost(raw);
    if (host !== null) hosts.push(host);
  }
  return hosts;
}

/** An extracted host list, or null when one of its hosts is not valid. */
function normalizeHosts(found: string[] | null | undefined): HostValue[] | null | undefined {
  if (found === null || found === undefined) return found;
  const hosts: HostValue[] = [];
  for (const raw of found) {
    const host = normalizeHost(raw);
    if (host === null) return null;
    hosts.push(host);
  }
  return hosts;
}

/** The simple commands a facet's `commands` constraint reads (E21). */
interface CommandsSeen {
  /** Every simple command, when all could be read; else undefined (unknown, G18). */
  readonly commands?: readonly CommandWords[];
  /** When not: the ones read in full, and the leading words of the others (E6, E42). */
  readonly known: readonly CommandWords[];
  readonly leading: readonly CommandWords[];
  /** The wrappers they run under, read with confidence (E43). */
  readonly wrappers: readonly CommandWords[];
}

function commandsOf(units: readonly Unit[]): CommandsSeen {
  const known: CommandWords[] = [];
  const leading: CommandWords[] = [];
  const wrappers: CommandWords[] = [];
  let complete = true;
  for (const unit of units) {
    if (unit.kind === 'effects' || unit.inner) continue;
    wrappers.push(...unit.wrappers);
    if (unit.kind === 'raw') {
      complete = false;
      if (unit.leading !== null) leading.push(unit.leading);
    } else known.push(unit.words);
  }
  return complete
    ? { commands: known, known: [], leading: [], wrappers }
    : { known, leading, wrappers };
}

const NO_ARGS: FacetArgs = {};

export function prepareRequest(request: ActionRequest, table: ClassifierTable): PreparedRequest {
  const args = given(request);
  if (request.command === undefined) {
    // Declared classes only: every facet reads the request's `args`.
    const shared = request.args === undefined ? NO_ARGS : unite(request, args, {}, undefined);
    const facets = (request.actions ?? []).map((cls): Facet => ({
      kind: 'class',
      name: cls,
      cls,
      args: shared,
    }));
    return { request, facets, analysis: null };
  }
  const analysis = analyzeCommand(request.command, table, request.worktree ?? null);
  const order: ActionClass[] = [];
  const parts = new Map<ActionClass, KeyValues[]>();
  const note = (cls: ActionClass): KeyValues[] => {
    let list = parts.get(cls);
    if (list === undefined) {
      list = [];
      parts.set(cls, list);
      order.push(cls);
    }
    return list;
  };
  if (request.actions !== undefined && request.actions.length > 0) {
    for (const cls of request.actions) note(cls);
  } else {
    note('processSpawn');
  }
  // Extraction fills keys only for the classes the command reveals.
  for (const unit of analysis.units) {
    for (const item of unit.effects) note(item.cls).push(item.args);
  }
  const allCommands = commandsOf(analysis.units);
  const facets: Facet[] = order.map((cls) => ({
    kind: 'class',
    name: cls,
    cls,
    args: unite(request, args, combine(parts.get(cls) ?? []), allCommands),
  }));

  const byName = new Map<
    string,
    {
      unit: Exclude<Unit, { kind: 'effects' }>;
      values: KeyValues;
      wrappers: readonly CommandWords[];
    }
  >();
  for (const unit of analysis.units) {
    if (unit.kind === 'effects' || unit.inner) continue;
    const seen = byName.get(unit.name);
    const values = seen?.values ?? {};
    for (const item of unit.effects) mergeInto(values, item.args);
    if (seen === undefined) byName.set(unit.name, { unit, values, wrappers: unit.wrappers });
    // `sudo ls; ls` is one facet: the wrappers of every one of its commands count.
    else if (unit.wrappers.length > 0) seen.wrappers = [...seen.wrappers, ...unit.wrappers];
  }
  for (const [name, { unit, values, wrappers }] of byName) {
    if (unit.kind === 'command') {
      facets.push({
        kind: 'command',
        name: `command:${name}`,
        words: unit.words,
        args: unite(request, args, values, {
          commands: [unit.words],
          known: [],
          leading: [],
          wrappers,
        }),
        wrappers,
      });
    } else {
      facets.push({
        kind: 'raw',
        name: `command:${name}`,
        leading: unit.leading,
        args: unite(request, args, values, {
          known: [],
          leading: unit.leading === null ? [] : [unit.leading],
          wrappers,
        }),
        wrappers,
      });
    }
  }
  return { request, facets, analysis };
}
