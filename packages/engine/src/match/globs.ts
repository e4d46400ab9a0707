// Glob matching with picomatch's semantics (E10): POSIX separators, dotfiles
// matched, case-sensitive. Matchers are compiled lazily and shared by pattern,
// so compiling a large policy compiles no automaton. Every match takes time
// linear in the value (glob-automaton.ts): patterns are matched against text
// the agent wrote, and no regular expression that could backtrack runs on it.

import type { CompiledGlob } from './glob-automaton.js';
import { compileGlob, globMatches, globSyntaxProblem } from './glob-automaton.js';

export type Matcher = (value: string) => boolean;

const GLOB_CHARS = /[*?[\]{}()!+@\\]/;

/** Whether a pattern holds a character that makes it a glob rather than a literal. */
export function isGlob(pattern: string): boolean {
  return GLOB_CHARS.test(pattern);
}

/**
 * Matchers for the patterns of one compiled policy, shared by pattern and
 * built on first use, so compiling a large policy constructs no regex.
 */
export class Globs {
  private readonly cache = new Map<string, Matcher>();

  matcher(pattern: string): Matcher {
    let matcher = this.cache.get(pattern);
    if (matcher === undefined) {
      matcher = GLOB_CHARS.test(pattern) ? lazyGlob(pattern) : (value) => value === pattern;
      this.cache.set(pattern, matcher);
    }
    return matcher;
  }
}

function lazyGlob(pattern: string): Matcher {
  let glob: CompiledGlob | undefined;
  const automaton: Matcher = (value) => {
    glob ??= compileGlob(pattern);
    return value === pattern || globMatches(glob, value);
  };
  const fast = fastGlob(pattern);
  if (fast === null) return automaton;
  // `.` and `..` segments, empty segments and a trailing slash follow the automaton's rules.
  return (value) => (UNUSUAL.test(value) ? automaton(value) : fast(value));
}

const UNUSUAL = /(^|\/)\.\.?(\/|$)|\/\/|\/$/;

const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

function literal(text: string): boolean {
  return text !== '' && !GLOB_CHARS.test(text) && !DOT_SEGMENT.test(text);
}

/**
 * The common glob shapes, matched without a regular expression (the same
 * answers as picomatch with dotfiles matched; a test compares them): `L/**`,
 * `L/*`, `L*`, `**` + `/S`, `**` + `/*S`, `*S`, and `**` alone.
 */
export function fastGlob(pattern: string): Matcher | null {
  if (pattern === '**') return (value) => value !== '';
  if (pattern.endsWith('/**')) {
    const base = pattern.slice(0, -3);
    if (literal(base)) return (value) => value === base || value.startsWith(`${base}/`);
  }
  if (pattern.endsWith('/*')) {
    const base = pattern.slice(0, -2);
    if (literal(base)) {
      const prefix = `${base}/`;
      return (value) =>
        value.length > prefix.length &&
        value.startsWith(prefix) &&
        !value.includes('/', prefix.length);
    }
  }
  if (pattern.endsWith('*') && !pattern.endsWith('/*')) {
    const base = pattern.slice(0, -1);
    if (literal(base))
      return (value) => value.startsWith(base) && !value.includes('/', base.length);
  }
  if (pattern.startsWith('**/*')) {
    const suffix = pattern.slice(4);
    if (literal(suffix) && !suffix.includes('/'))
      return (value) => value.slice(value.lastIndexOf('/') + 1).endsWith(suffix);
  }
  if (pattern.startsWith('**/')) {
    const name = pattern.slice(3);
    if (literal(name) && !name.includes('/'))
      return (value) => value === name || value.endsWith(`/${name}`);
  }
  if (pattern.startsWith('*')) {
    const suffix = pattern.slice(1);
    if (literal(suffix) && !suffix.includes('/'))
      return (value) => !value.includes('/') && value.endsWith(suffix);
  }
  return null;
}

/** Problems with a glob pattern, or null when it is usable. */
export function globProblem(pattern: string): string | null {
  if (pattern === '') return 'empty pattern';
  // eslint-disable-next-line no-control-regex -- patterns must not hold control characters
  if (/[\u0000-\u001f\u007f]/.test(pattern)) return 'control characters in pattern';
  if (pattern.endsWith('\\') && !pattern.endsWith('\\\\'))
    return 'pattern ends in a lone backslash';
  const depth = { '[': 0, '{': 0, '(': 0 };
  const closers: Record<string, keyof typeof depth> = { ']': '[', '}': '{', ')': '(' };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[' || ch === '{' || ch === '(') depth[ch]++;
    const opener = closers[ch];
    if (opener !== undefined) {
      if (depth[opener] === 0) return `unbalanced \`${ch}\``;
      depth[opener]--;
    }
  }
  for (const [opener, count] of Object.entries(depth)) {
    if (count > 0) return `unbalanced \`${opener}\``;
  }
  return globSyntaxProblem(pattern);
}
