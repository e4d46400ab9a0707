// Reads a request's attributes out of a tool call's arguments, as the
// gateway's configuration maps them: `path`, `edits[].path`, `a.b`. Absolute
// paths under the worktree become relative (E10); a URL or host is reduced to
// its host exactly as a WHATWG URL parser reads it (E12), and a value it
// cannot read leaves the hosts unknown (G18). A mapped argument of the
// wrong type is a problem, and the gateway denies the call rather than decide
// it without the attribute.

import { isAbsolute, relative, resolve, sep } from 'node:path';
import { normalizeHost } from '@warden/engine';
import type { RequestArgs } from '@warden/engine';
import type { ArgKey } from './config.js';

/** The values at a dot path; `key[]` walks each element of an array. */
export function valuesAt(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  for (const segment of path.split('.')) {
    const isArray = segment.endsWith('[]');
    const key = isArray ? segment.slice(0, -2) : segment;
    const next: unknown[] = [];
    for (const value of current) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const found = (value as Record<string, unknown>)[key];
      if (isArray) {
        if (Array.isArray(found)) next.push(...(found as unknown[]));
        else next.push(found);
      } else next.push(found);
    }
    current = next;
  }
  return current.filter((v) => v !== undefined);
}

/** An absolute path under the worktree, relative to it (`.` for the root itself); others unchanged. */
export function underWorktree(path: string, worktree: string | undefined): string {
  if (worktree === undefined || !isAbsolute(path)) return path;
  const rel = relative(resolve(worktree), resolve(path));
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel.split(sep).join('/');
}

export type Extracted =
  | { readonly ok: true; readonly args: RequestArgs }
  | { readonly ok: false; readonly problem: string };

export function extractArgs(
  mapping: Partial<Record<ArgKey, readonly string[]>>,
  args: unknown,
  worktree: string | undefined,
): Extracted {
  const out: {
    paths?: string[];
    refs?: string[];
    hosts?: string[];
    count?: number;
    cents?: number;
  } = {};
  for (const key of ['paths', 'refs', 'hosts'] as const) {
    const paths = mapping[key];
    if (paths === undefined) continue;
    const values: string[] = [];
    for (const path of paths)
      for (const value of valuesAt(args, path)) {
        if (typeof value !== 'string' || value === '')
          return {
            ok: false,
            problem: `the argument \`${path}\` is read as ${key} and must be a non-empty string`,
          };
        values.push(key === 'paths' ? underWorktree(value, worktree) : value);
      }
    if (key === 'hosts') {
      const hosts = values.map((value) => normalizeHost(value)?.host ?? null);
      // A host that cannot be read makes the key unknown: the rule escalates rather than guess.
      if (hosts.length > 0 && !hosts.includes(null)) out.hosts = hosts as string[];
      continue;
    }
    if (values.length > 0) out[key] = values;
  }
  for (const key of ['count', 'cents'] as const) {
    const paths = mapping[key];
    if (paths === undefined) continue;
    let total: number | undefined;
    for (const path of paths)
      for (const value of valuesAt(args, path)) {
        const n = key === 'count' && Array.isArray(value) ? value.length : value;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
          return {
            ok: false,
            problem: `the argument \`${path}\` is read as ${key} and must be a whole number of at least 0`,
          };
        total = (total ?? 0) + n;
      }
    if (total !== undefined) out[key] = total;
  }
  return { ok: true, args: out };
}
