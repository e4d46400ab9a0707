// Path normalisation and matching (E10, E36): request paths are relative to the
// worktree root or absolute; a path that escapes the root lies within no
// relative allow, and restrictive rules see it in every form it has.

import { globProblem } from './globs.js';
import type { Globs, Matcher } from './globs.js';

export type PathValue =
  /** Inside the root: `rel` is `.` for the root itself; `abs` is known when a worktree is. */
  | { readonly kind: 'inside'; readonly rel: string; readonly abs: string | null }
  | { readonly kind: 'outside'; readonly abs: string }
  /** Climbs out of the root with no worktree to place it. */
  | { readonly kind: 'escaped'; readonly raw: string };

/** Resolves `.`, `..` and repeated slashes. Returns the segments and how far it climbs above its start. */
function resolveSegments(path: string): { segments: string[]; climbs: number } {
  const segments: string[] = [];
  let climbs = 0;
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length > 0) segments.pop();
      else climbs++;
    } else segments.push(segment);
  }
  return { segments, climbs };
}

export function normalizeAbsolute(path: string): string {
  return `/${resolveSegments(path).segments.join('/')}`;
}

export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/');
}

export function normalizePath(path: string, worktree: string | null): PathValue {
  if (isAbsolutePath(path)) return placeAbsolute(normalizeAbsolute(path), worktree);
  const { segments, climbs } = resolveSegments(path);
  if (climbs > 0) {
    if (worktree === null) return { kind: 'escaped', raw: path };
    return placeAbsolute(normalizeAbsolute(`${worktree}/${path}`), worktree);
  }
  const rel = segments.length === 0 ? '.' : segments.join('/');
  return { kind: 'inside', rel, abs: worktree === null ? null : joinAbsolute(worktree, rel) };
}

function joinAbsolute(worktree: string, rel: string): string {
  if (rel === '.') return worktree;
  return worktree === '/' ? `/${rel}` : `${worktree}/${rel}`;
}

function placeAbsolute(abs: string, worktree: string | null): PathValue {
  if (worktree !== null) {
    if (abs === worktree) return { kind: 'inside', rel: '.', abs };
    const prefix = worktree === '/' ? '/' : `${worktree}/`;
    if (abs.startsWith(prefix)) return { kind: 'inside', rel: abs.slice(prefix.length), abs };
  }
  return { kind: 'outside', abs };
}

export function describePath(value: PathValue): string {
  switch (value.kind) {
    case 'inside':
      return value.rel;
    case 'outside':
      return value.abs;
    case 'escaped':
      return value.raw;
  }
}

interface PathPattern {
  readonly source: string;
  readonly absolute: boolean;
  readonly match: Matcher;
}

export interface PathPatternSet {
  readonly positives: readonly PathPattern[];
  readonly negatives: readonly PathPattern[];
}

export function compilePathPatterns(patterns: readonly string[], globs: Globs): PathPatternSet {
  const positives: PathPattern[] = [];
  const negatives: PathPattern[] = [];
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const source = normalizePattern(negated ? raw.slice(1) : raw);
    const entry = { source, absolute: source.startsWith('/'), match: globs.matcher(source) };
    (negated ? negatives : positives).push(entry);
  }
  return { positives, negatives };
}

/** `./src/**` → `src/**`; repeated slashes collapse. */
export function normalizePattern(pattern: string): string {
  let out = pattern.replace(/\/{2,}/g, '/');
  while (out.startsWith('./')) out = out.slice(2);
  return out;
}

export function pathPatternProblem(raw: string): string | null {
  const body = raw.startsWith('!') ? raw.slice(1) : raw;
  if (body === '') return raw === '!' ? 'a lone `!` negates nothing' : 'empty pattern';
  const problem = globProblem(body);
  if (problem !== null) return problem;
  const segments = normalizePattern(body).split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) {
    return 'patterns cannot hold `.` or `..` segments: request paths are normalised before matching';
  }
  return null;
}

function patternMatches(pattern: PathPattern, value: PathValue, restrictive: boolean): boolean {
  switch (value.kind) {
    case 'inside':
      if (pattern.absolute) return value.abs !== null && pattern.match(value.abs);
      if (value.rel === '.') return pattern.source === '**';
      return pattern.match(value.rel);
    case 'outside':
      if (pattern.absolute) return pattern.match(value.abs);
      if (!restrictive) return false;
      // `/` itself stripped of its slash is the root of everything: only `**` holds it.
      return value.abs === '/' ? pattern.source === '**' : pattern.match(value.abs.slice(1));
    case 'escaped':
      return false;
  }
}

/**
 * Whether a path lies in the set: it meets a positive pattern and no negated
 * one. An escaped path touches every restrictive set and lies within no allow.
 */
export function pathInSet(value: PathValue, set: PathPatternSet, restrictive: boolean): boolean {
  if (value.kind === 'escaped') return restrictive;
  if (!set.positives.some((pattern) => patternMatches(pattern, value, restrictive))) return false;
  return !set.negatives.some((pattern) => patternMatches(pattern, value, restrictive));
}
