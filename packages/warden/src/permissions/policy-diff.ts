// What changed between two policy revisions: rules by id (added, removed,
// changed, with both versions), spaces and modes by name. Pure: documents in,
// a difference out.

import { canonicalJson } from '@warden/engine';
import type { JsonValue } from '../store/types.js';

type Doc = { readonly [key: string]: JsonValue };

export interface Changes<T> {
  readonly added: readonly T[];
  readonly removed: readonly T[];
  readonly changed: readonly { readonly before: T; readonly after: T }[];
}

function byKey<T>(before: ReadonlyMap<string, T>, after: ReadonlyMap<string, T>): Changes<T> {
  const added: T[] = [];
  const removed: T[] = [];
  const changed: { before: T; after: T }[] = [];
  for (const [key, value] of after) {
    const old = before.get(key);
    if (old === undefined) added.push(value);
    else if (canonicalJson(old) !== canonicalJson(value))
      changed.push({ before: old, after: value });
  }
  for (const [key, value] of before) if (!after.has(key)) removed.push(value);
  return { added, removed, changed };
}

function rules(document: Doc): Map<string, Doc> {
  const list = Array.isArray(document.rules) ? (document.rules as Doc[]) : [];
  // A rule without an id is keyed by its content: changing it reads as one removed, one added.
  return new Map(
    list.map((rule) => [typeof rule.id === 'string' ? rule.id : `#${canonicalJson(rule)}`, rule]),
  );
}

function named(document: Doc, key: 'spaces' | 'modes'): Map<string, Doc> {
  const value = document[key];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return new Map();
  return new Map(
    Object.entries(value as Doc).map(([name, settings]) => [name, { name, ...(settings as Doc) }]),
  );
}

export function policyDiff(
  from: JsonValue,
  to: JsonValue,
): {
  rules: Changes<Doc>;
  spaces: Changes<Doc>;
  modes: Changes<Doc>;
} {
  const a = (from ?? {}) as Doc;
  const b = (to ?? {}) as Doc;
  return {
    rules: byKey(rules(a), rules(b)),
    spaces: byKey(named(a, 'spaces'), named(b, 'spaces')),
    modes: byKey(named(a, 'modes'), named(b, 'modes')),
  };
}

/**
 * The scopes whose rules a new revision changed (a rule added, removed or
 * changed there; a space or mode of that name changed): a remembered
 * approval in such a scope was granted under rules that no longer stand.
 */
export function driftedScopes(from: JsonValue, to: JsonValue): ReadonlySet<string> {
  const diff = policyDiff(from, to);
  const scopes = new Set<string>();
  const scopeOf = (rule: Doc) => (typeof rule.scope === 'string' ? rule.scope : 'workspace');
  for (const rule of [...diff.rules.added, ...diff.rules.removed]) scopes.add(scopeOf(rule));
  for (const { before, after } of diff.rules.changed) {
    scopes.add(scopeOf(before));
    scopes.add(scopeOf(after));
  }
  for (const kind of ['spaces', 'modes'] as const) {
    const prefix = kind === 'spaces' ? 'space' : 'mode';
    const { added, removed, changed } = diff[kind];
    for (const item of [...added, ...removed, ...changed.map((c) => c.after)])
      scopes.add(`${prefix}:${String(item.name)}`);
  }
  return scopes;
}
