// The glob shapes matched without a regular expression answer exactly as
// picomatch does (E10: glob semantics are picomatch's, dotfiles matched).

import fc from 'fast-check';
import picomatch from 'picomatch/posix.js';
import { describe, expect, it } from 'vitest';
import { fastGlob } from '../src/match/globs.js';

const segment = fc.constantFrom(
  'a',
  'b',
  'feature',
  'x-1',
  '.env',
  'main',
  '.',
  '..',
  '',
  'a.lock',
  '.lock',
  'lock',
  'x-',
  'repos',
);
const value = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => parts.join('/'));
const literal = fc
  .array(fc.constantFrom('a', 'feature', 'x-', 'repos', '.', 'b.c', '.git'), {
    minLength: 1,
    maxLength: 3,
  })
  .map((parts) => parts.join('/'));
const suffix = fc.constantFrom('.lock', 'lock', '.env', 'env', 'a', '-1');
const shape = fc.oneof(
  literal.map((l) => `${l}/**`),
  literal.map((l) => `${l}/*`),
  literal.map((l) => `${l}*`),
  suffix.map((s) => `**/*${s}`),
  suffix.map((s) => `**/${s}`),
  suffix.map((s) => `*${s}`),
  fc.constant('**'),
);

describe('glob shapes without a regular expression', () => {
  it('answer as picomatch does for every value (E10)', () => {
    fc.assert(
      fc.property(shape, value, (pattern, input) => {
        const fast = fastGlob(pattern);
        // Patterns and values with `.`, `..` or empty segments, or a trailing slash, are left
        // to the regex by design.
        if (fast === null || /(^|\/)\.\.?(\/|$)|\/\/|\/$/.test(input)) return;
        expect(fast?.(input), `${pattern} vs ${JSON.stringify(input)}`).toBe(
          picomatch(pattern, { dot: true })(input),
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('cover the shapes policies use most', () => {
    for (const pattern of [
      '**',
      'repos/api/**',
      'release/*',
      'feature/x-*',
      '**/.env',
      '**/*.lock',
      '*.md',
    ])
      expect(fastGlob(pattern), pattern).not.toBeNull();
  });

  it('leave every other shape to picomatch', () => {
    for (const pattern of ['a/**/b', 'a/{b,c}', '[ab]/x', 'a?c', '!a', 'a/*/b', '**/a/*'])
      expect(fastGlob(pattern), pattern).toBeNull();
  });
});
