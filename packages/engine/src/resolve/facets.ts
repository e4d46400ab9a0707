// Builds a request's facets (G21, E2, E21, E33): declared classes, classes the
// command reveals, then one facet per simple command. What `args` say and what
// the command shows are united, so `args` can never hide what the command does.

import type { CommandAnalysis, Unit } from '../classify/analyze.js';
import { analyzeCommand } from '../classify/analyze.js';
import type { KeyValues } from '../classify/effects.js';
import type { ClassifierTable } from '../classify/table.js';
import type { FacetArgs } from '../compile/constraints.js';
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
    }
  | {
      readonly kind: 'raw';
      readonly name: string;
      readonly leading: CommandWords | null;
      readonly args: FacetArgs;
    };

export interface PreparedRequest {
  readonly request: ActionRequest;
  readonly facets: readonly Facet[];
  readonly analysis: CommandAnalysis | null;
}

/** Adds a command's values to a simple command's facet: its classes together say what it touches. */
function mergeInto(target: KeyValues, source: KeyValues): void {
  for (const key of ['paths', 'refs', 'hosts'] as const) {
    const value = source[key];
    if (value === undefined || target[key] === null) continue;
    target[key] = value === null ? null : [...(target[key] ?? []), ...value];
  }
  if (source.count !== undefined && target.count !== null) {
    target.count = source.count === null ? null : (target.count ?? 0) + source.count;
  }
}

/**
 * One class's values from all its parts (E26): the union of lists and the sum
 * of counts; any part that is unknown, or says nothing of a key others
 * report, makes the key unknown.
 */
function combine(parts: readonly KeyValues[]): KeyValues {
  const values: KeyValues = {};
  for (const key of ['paths', 'refs', 'hosts', 'count'] as const) {
    const reported = parts.filter((part) => part[key] !== undefined);
    if (reported.length === 0) continue;
    if (reported.length < parts.length || reported.some((part) => part[key] === null)) {
      values[key] = null;
      continue;
    }
    if (key === 'count')
      values.count = reported.reduce((sum, part) => sum + (part.count as number), 0);
    else values[key] = reported.flatMap((part) => part[key] as string[]);
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
  found: KeyValues,
  commands: readonly CommandWords[] | undefined,
): FacetArgs {
  const worktree = request.worktree ?? null;
  const result: {
    paths?: readonly PathValue[];
    refs?: readonly string[];
    hosts?: readonly HostValue[];
    commands?: readonly CommandWords[];
    count?: number;
    cents?: number;
  } = {};
  const paths = union(
    args.paths,
    found.paths === null || found.paths === undefined
      ? found.paths
      : found.paths.map((p) => normalizePath(p, worktree)),
  );
  if (paths !== undefined) result.paths = paths;
  const refs = union(
    args.refs,
    found.refs === null || found.refs === undefined
      ? found.refs
      : found.refs.map((r) => normalizeRef(r) ?? r),
  );
  if (refs !== undefined) result.refs = refs;
  const hosts = union(args.hosts, normalizeHosts(found.hosts));
  if (hosts !== undefined) result.hosts = hosts;
  if (commands !== undefined) result.commands = commands;
  const count = found.count ?? undefined;
  if (args.count !== undefined || count !== undefined)
    result.count = Math.max(args.count ?? 0, count ?? 0);
  if (args.cents !== undefined) result.cents = args.cents;
  return result;
}

function union<T>(
  known: readonly T[] | undefined,
  found: readonly T[] | null | undefined,
): readonly T[] | undefined {
  if (found === undefined || found === null) return known;
  if (known === undefined) return found;
  return [...known, ...found];
}

/** An extracted host that is not valid makes the key unknown. */
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

/** The simple commands a class facet's `commands` constraint reads; unknown if one cannot be read. */
function commandsOf(units: readonly Unit[]): readonly CommandWords[] | undefined {
  const commands: CommandWords[] = [];
  for (const unit of units) {
    if (unit.kind === 'effects' || unit.inner) continue;
    if (unit.kind === 'raw') return undefined;
    commands.push(unit.words);
  }
  return commands;
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

  const byName = new Map<string, { unit: Exclude<Unit, { kind: 'effects' }>; values: KeyValues }>();
  for (const unit of analysis.units) {
    if (unit.kind === 'effects' || unit.inner) continue;
    const seen = byName.get(unit.name);
    const values = seen?.values ?? {};
    for (const item of unit.effects) mergeInto(values, item.args);
    if (seen === undefined) byName.set(unit.name, { unit, values });
  }
  for (const [name, { unit, values }] of byName) {
    if (unit.kind === 'command') {
      facets.push({
        kind: 'command',
        name: `command:${name}`,
        words: unit.words,
        args: unite(request, args, values, [unit.words]),
      });
    } else {
      facets.push({
        kind: 'raw',
        name: `command:${name}`,
        leading: unit.leading,
        args: unite(request, args, values, undefined),
      });
    }
  }
  return { request, facets, analysis };
}
