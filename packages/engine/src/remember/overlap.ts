// Which standing denies a remembered rule meets (E41): a deny of the standing
// policy stays in force under any remembered allow, so the offer names every
// deny whose constraints could hold for a request the allow would cover.
// Conservative: when it cannot tell, it says they may meet.

import type { CompiledRule } from '../compile/compile.js';
import type { Constraints } from '../model/policy.js';
import { normalizeHost, hostInSet } from '../match/hosts.js';
import { normalizePattern } from '../match/paths.js';
import { Globs } from '../match/globs.js';

/** Glob syntax this check does not read closely: patterns holding it may meet anything. */
const COMPLEX = /[[\]{}()!+@\\]/;

/** Whether two segment globs (`*`, `?`, literals) can match one common segment. */
function segmentsMeet(a: string, b: string): boolean {
  const memo = new Map<number, boolean>();
  const width = b.length + 1;
  const meet = (i: number, j: number): boolean => {
    const key = i * width + j;
    const seen = memo.get(key);
    if (seen !== undefined) return seen;
    let result: boolean;
    if (i === a.length && j === b.length) result = true;
    else if (a[i] === '*') result = meet(i + 1, j) || (j < b.length && meet(i, j + 1));
    else if (b[j] === '*') result = meet(i, j + 1) || (i < a.length && meet(i + 1, j));
    else if (i === a.length || j === b.length) result = false;
    else result = (a[i] === '?' || b[j] === '?' || a[i] === b[j]) && meet(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return meet(0, 0);
}

/** Whether two globs (`/`-separated, `**` for any number of segments) can match one common string. */
export function globsMeet(a: string, b: string): boolean {
  if (COMPLEX.test(a) || COMPLEX.test(b)) return true;
  return segmentListsMeet(a.split('/'), b.split('/'));
}

/** A segment both segment globs match, or null (an example for the offer, checked by the caller). */
function segmentExample(a: string, b: string): string | null {
  if (!segmentsMeet(a, b)) return null;
  let out = '';
  let i = 0;
  let j = 0;
  // Walk one match, always keeping the rest of both able to meet.
  while (i < a.length || j < b.length) {
    const ca = a[i];
    const cb = b[j];
    if (ca === '*' && cb === '*') {
      out += 'x'; // both stars take it
      if (segmentsMeet(a.slice(i + 1), b.slice(j))) i += 1;
      else j += 1;
    } else if (ca === '*') {
      if (segmentsMeet(a.slice(i + 1), b.slice(j))) i += 1;
      else {
        out += cb === '?' ? 'x' : (cb as string);
        j += 1;
      }
    } else if (cb === '*') {
      if (segmentsMeet(a.slice(i), b.slice(j + 1))) j += 1;
      else {
        out += ca === '?' ? 'x' : (ca as string);
        i += 1;
      }
    } else {
      if (ca === undefined || cb === undefined) return null;
      out += ca === '?' ? (cb === '?' ? 'x' : cb) : ca;
      i += 1;
      j += 1;
    }
  }
  return out;
}

/** Whether two lists of segment globs (`**` for any number of segments) can match one path. */
function segmentListsMeet(x: readonly string[], y: readonly string[]): boolean {
  const memo = new Map<number, boolean>();
  const width = y.length + 1;
  const meet = (i: number, j: number): boolean => {
    const key = i * width + j;
    const seen = memo.get(key);
    if (seen !== undefined) return seen;
    let result: boolean;
    if (i === x.length && j === y.length) result = true;
    else if (x[i] === '**') result = meet(i + 1, j) || (j < y.length && meet(i, j + 1));
    else if (y[j] === '**') result = meet(i, j + 1) || (i < x.length && meet(i + 1, j));
    else if (i === x.length || j === y.length) result = false;
    else result = segmentsMeet(x[i] as string, y[j] as string) && meet(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return meet(0, 0);
}

/**
 * A string both globs match — `certs/**` and `**\/*.key` give `certs/x.key` —
 * or null when none is found; checked with the real matchers.
 */
export function globExample(a: string, b: string, globs: Globs = new Globs()): string | null {
  const found = spelled(a, b);
  if (found === null) return null;
  // `**` may stand for no segment in the walk where the matcher wants one.
  for (const example of [found, `${found}/x`]) {
    if (globs.matcher(a)(example) && globs.matcher(b)(example)) return example;
  }
  return null;
}

function spelled(a: string, b: string): string | null {
  if (COMPLEX.test(a) || COMPLEX.test(b)) return null;
  const x = a.split('/');
  const y = b.split('/');
  if (!segmentListsMeet(x, y)) return null;
  const rest = (i: number, j: number): boolean => segmentListsMeet(x.slice(i), y.slice(j));
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    const sa = x[i];
    const sb = y[j];
    if (sa === '**' && rest(i + 1, j)) i += 1;
    else if (sb === '**' && rest(i, j + 1)) j += 1;
    else if (sa === '**' && sb !== undefined && sb !== '**') {
      out.push(sb.replace(/[*?]/g, 'x')); // `**` takes the other side's segment
      j += 1;
    } else if (sb === '**' && sa !== undefined && sa !== '**') {
      out.push(sa.replace(/[*?]/g, 'x'));
      i += 1;
    } else {
      if (sa === undefined || sb === undefined || sa === '**' || sb === '**') return null;
      const segment = segmentExample(sa, sb);
      if (segment === null) return null;
      out.push(segment);
      i += 1;
      j += 1;
    }
  }
  return out.length === 0 ? null : out.join('/');
}

/** Whether `outer` (a negation) certainly covers every match of `inner`. */
function covers(outer: string, inner: string): boolean {
  if (outer === inner || outer === '**') return true;
  if (outer.endsWith('/**')) {
    const base = outer.slice(0, -2);
    return (
      !COMPLEX.test(base) && !base.includes('*') && !base.includes('?') && inner.startsWith(base)
    );
  }
  return false;
}

/**
 * A deny's path pattern against an allow's, in the allow's terms: relative
 * patterns match inside the worktree; for a deny, an absolute path also meets
 * a relative pattern without its leading `/` (E10), and an inside path meets
 * an absolute pattern through the worktree (E36).
 */
function pathPatternsMeet(deny: string, allow: string, worktree: string | null): boolean {
  const denyAbsolute = deny.startsWith('/');
  const allowAbsolute = allow.startsWith('/');
  if (denyAbsolute === allowAbsolute) return globsMeet(deny, allow);
  if (allowAbsolute) return globsMeet(deny, allow.slice(1));
  return worktree !== null && globsMeet(deny, `${worktree.replace(/\/+$/, '')}/${allow}`);
}

function split(values: readonly string[], normalise: (v: string) => string) {
  return {
    positives: values.filter((v) => !v.startsWith('!')).map(normalise),
    negatives: values.filter((v) => v.startsWith('!')).map((v) => normalise(v.slice(1))),
  };
}

function listsMeet(
  deny: readonly string[] | undefined,
  allow: readonly string[] | undefined,
  normalise: (v: string) => string,
  meet: (deny: string, allow: string) => boolean,
): boolean {
  if (deny === undefined || allow === undefined) return true;
  const d = split(deny, normalise);
  const granted = allow.filter((v) => !v.startsWith('!')).map(normalise);
  return granted.some(
    (a) => !d.negatives.some((n) => covers(n, a)) && d.positives.some((p) => meet(p, a)),
  );
}

function stripHeads(ref: string): string {
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
}

/**
 * Whether a deny rule could apply to some request that an allow with `when`
 * covers: every constraint key the two share must be able to hold at once.
 */
export function denyMeets(
  deny: CompiledRule,
  when: Constraints | undefined,
  worktree: string | null,
): boolean {
  const d = deny.rule.when;
  if (d === undefined || when === undefined) return true;
  if (!listsMeet(d.paths, when.paths, normalizePattern, (x, y) => pathPatternsMeet(x, y, worktree)))
    return false;
  if (!listsMeet(d.refs, when.refs, stripHeads, globsMeet)) return false;
  if (d.hosts !== undefined && when.hosts !== undefined) {
    const set = deny.constraints?.hosts;
    if (set !== undefined) {
      const any = when.hosts.some((raw) => {
        const host = normalizeHost(raw);
        return host === null || hostInSet(host, set);
      });
      if (!any) return false;
    }
  }
  // A deny's cap holds above it; an allow's, at or under it.
  if (d.maxCount !== undefined && when.maxCount !== undefined && when.maxCount <= d.maxCount)
    return false;
  if (d.maxCents !== undefined && when.maxCents !== undefined && when.maxCents <= d.maxCents)
    return false;
  return true;
}
