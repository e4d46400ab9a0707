// Glob matching with picomatch's semantics (E10): POSIX separators, dotfiles
// matched, case-sensitive. Matchers are compiled lazily and shared by pattern,
// so compiling a large policy costs no regex construction.

import picomatch from 'picomatch/posix.js';

export type Matcher = (value: string) => boolean;

const GLOB_CHARS = /[*?[\]{}()!+@\\]/;

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
  let re: RegExp | undefined;
  return (value) => {
    re ??= picomatch.makeRe(pattern, { dot: true });
    return value === pattern || re.test(value);
  };
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
  return null;
}
