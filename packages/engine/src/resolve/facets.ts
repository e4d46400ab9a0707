// Builds a request's facets (G21, E2, E21, E33): declared classes, classes the
// command reveals, then one facet per simple command. What `args` say and what
// the command shows are united, so `args` can never hide what the command does.

import type { CommandAnalysis, Unit } from '../classify/analyze.js';
import { analyzeCommand } from '../classify/analyze.js';
import type { Effect, KeyValues } from '../classify/effects.js';
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

function extracted(effects: readonly Effect[]): KeyValues {
  const values: KeyValues = {};
  for (const item of effects) mergeInto(values, item.args);
  return values;
}

/** E21: the union of what `args` give and what extraction gives; unknown only when both are silent. */
function unite(
  request: ActionRequest,
  fromCommand: KeyValues,
  commands: readonly CommandWords[] | undefined,
): FacetArgs {
  const worktree = request.worktree ?? null;
  const args = request.args ?? {};
  const result: {
    paths?: PathValue[];
    refs?: string[];
    hosts?: HostValue[];
    commands?: readonly CommandWords[];
    count?: number;
    cents?: number;
  } = {};
  const paths = union(args.paths, fromCommand.paths);
  if (paths !== undefined) result.paths = paths.map((p) => normalizePath(p, worktree));
  const refs = union(args.refs, fromCommand.refs);
  if (refs !== undefined) result.refs = refs.map((r) => normalizeRef(r) ?? r);
  const hosts = union(args.hosts?.map(hostOf), normalizeHosts(fromCommand.hosts));
  if (hosts !== undefined) result.hosts = hosts;
  if (commands !== undefined) result.commands = commands;
  const found = fromCommand.count ?? undefined;
  if (args.count !== undefined || found !== undefined) {
    result.count = Math.max(args.count ?? 0, found ?? 0);
  }
  if (args.cents !== undefined) result.cents = args.cents;
  return result;
}

function union<T>(
  given: readonly T[] | undefined,
  found: readonly T[] | null | undefined,
): T[] | undefined {
  if (given === undefined && (found === undefined || found === null)) return undefined;
  return [...(given ?? []), ...(found ?? [])];
}

/** Request hosts were validated; an extracted host that is not valid makes the key unknown. */
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

function hostOf(raw: string): HostValue {
  return normalizeHost(raw) ?? { host: raw.toLowerCase(), ip: false };
}

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
  if (request.command === undefined) {
    // Declared classes only: every facet reads the request's `args`.
    const args = request.args === undefined ? NO_ARGS : unite(request, {}, undefined);
    const facets = (request.actions ?? []).map((cls): Facet => ({
      kind: 'class',
      name: cls,
      cls,
      args,
    }));
    return { request, facets, analysis: null };
  }
  const analysis =
    request.command === undefined
      ? null
      : analyzeCommand(request.command, table, request.worktree ?? null);
  const units = analysis?.units ?? [];
  const order: ActionClass[] = [];
  const perClass = new Map<ActionClass, KeyValues>();
  const note = (cls: ActionClass): KeyValues => {
    let values = perClass.get(cls);
    if (values === undefined) {
      values = {};
      perClass.set(cls, values);
      order.push(cls);
    }
    return values;
  };
  if (request.actions !== undefined && request.actions.length > 0) {
    for (const cls of request.actions) note(cls);
  } else if (analysis !== null) {
    note('processSpawn');
  }
  // Extraction only fills keys for classes the command reveals.
  const fromCommand = new Map<ActionClass, KeyValues>();
  for (const unit of units) {
    for (const item of unit.effects) {
      note(item.cls);
      let values = fromCommand.get(item.cls);
      if (values === undefined) {
        values = {};
        fromCommand.set(item.cls, values);
      }
      mergeInto(values, item.args);
    }
  }
  const allCommands = analysis === null ? undefined : commandsOf(units);
  const facets: Facet[] = order.map((cls) => ({
    kind: 'class',
    name: cls,
    cls,
    args: unite(request, fromCommand.get(cls) ?? {}, allCommands),
  }));

  const byName = new Map<string, { unit: Exclude<Unit, { kind: 'effects' }>; values: KeyValues }>();
  for (const unit of units) {
    if (unit.kind === 'effects' || unit.inner) continue;
    const seen = byName.get(unit.name);
    if (seen === undefined) byName.set(unit.name, { unit, values: extracted(unit.effects) });
    else mergeInto(seen.values, extracted(unit.effects));
  }
  for (const [name, { unit, values }] of byName) {
    if (unit.kind === 'command') {
      facets.push({
        kind: 'command',
        name: `command:${name}`,
        words: unit.words,
        args: unite(request, values, [unit.words]),
      });
    } else {
      facets.push({
        kind: 'raw',
        name: `command:${name}`,
        leading: unit.leading,
        args: unite(request, values, undefined),
      });
    }
  }
  return { request, facets, analysis };
}
