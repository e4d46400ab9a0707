// Globs are matched by an automaton in time linear in the value (E10): the
// same answers as picomatch (dotfiles matched) for the patterns Warden
// accepts, a step count bounded by the pattern's and the value's sizes, and
// no backtracking on agent-sized text.

import fc from 'fast-check';
import picomatch from 'picomatch/posix.js';
import { describe, expect, it } from 'vitest';
import type { StepCounter } from '../src/match/glob-automaton.js';
import {
  MAX_ALTERNATIVES,
  compileGlob,
  globMatches,
  globSyntaxProblem,
} from '../src/match/glob-automaton.js';
import { Globs, globProblem } from '../src/match/globs.js';

const piece = fc.constantFrom(
  'a',
  'b',
  'ab',
  '-',
  '.',
  '*',
  '?',
  '[ab]',
  '[a-c]',
  '[^a]',
  '{a,b}',
  '{a,-}',
  '@(a|b)',
);
const patternSegment = fc.oneof(
  { weight: 6, arbitrary: fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.constant('**') },
);
const pattern = fc
  .array(patternSegment, { minLength: 1, maxLength: 4 })
  .map((segments) => segments.join('/'))
  // Patterns with `.` segments are refused for paths; after a group picomatch reads `?`, `*`
  // and `+` as regular-expression quantifiers, where Warden reads them as globs.
  // Where picomatch's reading is accidental, Warden's differs: `**` glued to a brace or group
  // crosses `/` there (elsewhere `a**b` is `a*b`), and a `.` after a POSIX class and `-` is any
  // character there. picomatch's fast path for a whole `*.*` (alone, or beside `**`) wants a
  // character after the dot, and its fast path for `**.a` crosses `/`; its general reading,
  // and Warden's, let `*` be empty and keep `**.a` within a segment, so the comparison
  // turns picomatch's fast paths off.
  .filter((p) => !/(^|\/)\.(\/|$)/.test(p) && !/\)[?*+]/.test(p) && !/\*\*[{@]|[})]\*\*/.test(p));
const valueSegment = fc
  .array(fc.constantFrom('a', 'b', 'c', '-', '.'), { minLength: 1, maxLength: 5 })
  .map((chars) => chars.join(''))
  .filter((s) => s !== '.' && s !== '..');
const value = fc
  .array(valueSegment, { minLength: 1, maxLength: 5 })
  .map((segments) => segments.join('/'));

describe('E10: globs as an automaton', () => {
  it('answers as picomatch does for normalised values', () => {
    fc.assert(
      fc.property(pattern, value, (p, v) => {
        const problem = globSyntaxProblem(p);
        // Only a pattern of too many alternatives is refused among these.
        if (problem !== null) {
          expect(problem).toMatch(/more than 256 alternatives/);
          return;
        }
        const expected = picomatch(p, { dot: true, fastpaths: false })(v);
        expect(globMatches(compileGlob(p), v), `${p} vs ${v}`).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers the shapes policies use as picomatch does, absolute paths and refs included', () => {
    const cases: [string, string, boolean][] = [
      ['/tmp/**', '/tmp/x/y', true],
      ['/tmp/**', '/tmpx', false],
      ['backups/db-*-*-*.sql', 'backups/db-1-2-3.sql', true],
      ['backups/db-*-*-*.sql', 'backups/db-1-2.sql', false],
      ['**/.env', '.env', true],
      ['**/.env', 'a/b/.env', true],
      ['feature/**', 'feature', true],
      ['feature/*', 'feature/a/b', false],
      ['refs/tags/v{1..3}', 'refs/tags/v2', true],
      ['a/**/b', 'a/b', true],
      ['a/**/b', 'a/x/y/b', true],
      ['a**b', 'axxb', true],
      ['a/**b', 'a/x/b', false],
      ['**.log', 'a.log', true],
      ['**.log', 'x/a.log', false],
      ['**/*.log', 'x/a.log', true],
      ['*', '.env', true],
      ['*', '.', false],
      ['**', 'a/../b', false],
      ['\\*', '*', true],
      ['[!a]', 'b', true],
      ['[!a]', 'a', false],
      ['[!a]', '/', false],
      ['?(x)a', 'a', true],
      ['?(x)a', 'xa', true],
    ];
    for (const [p, v, want] of cases)
      expect(globMatches(compileGlob(p), v), `${p} vs ${v}`).toBe(want);
  });

  it('refuses what cannot be expanded into a bounded automaton, with a reason', () => {
    expect(globProblem('*(a|b)')).toMatch(/not supported/);
    expect(globProblem('+(a)')).toMatch(/not supported/);
    expect(globProblem('x/!(a)')).toMatch(/not supported/);
    expect(globProblem('!a')).toMatch(/negated twice/);
    expect(globProblem('{1..100000}')).toMatch(/more than/);
    expect(globProblem('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toMatch(/more than/);
    expect(globProblem('x'.repeat(2000))).toMatch(/longer than/);
    expect(globProblem('{a,b}{c,d}')).toBeNull();
  });

  it('takes steps bounded by the sizes of the pattern and the value, whatever the text', () => {
    const bound = (p: string, v: string) =>
      compileGlob(p).alternatives.length * (p.length + 2) * (v.length + 2);
    fc.assert(
      fc.property(pattern, fc.string({ maxLength: 300 }), (p, v) => {
        if (globSyntaxProblem(p) !== null) return;
        const counter: StepCounter = { steps: 0 };
        globMatches(compileGlob(p), v, counter);
        expect(counter.steps).toBeLessThanOrEqual(bound(p, v));
      }),
      { numRuns: 2_000 },
    );
    // The red team's pattern against 4 KB and 64 KB of agent path: linear, not polynomial.
    const p = 'backups/db-*-*-*.sql';
    for (const size of [4096, 65536]) {
      const v = `backups/db-${'-'.repeat(size)}.sq`;
      const counter: StepCounter = { steps: 0 };
      expect(globMatches(compileGlob(p), v, counter)).toBe(false);
      expect(counter.steps).toBeLessThanOrEqual(bound(p, v));
      expect(new Globs().matcher(p)(v)).toBe(false);
    }
  });

  it('expands at most the set number of alternatives', () => {
    expect(compileGlob('{a,b}{c,d}').alternatives).toHaveLength(4);
    expect(MAX_ALTERNATIVES).toBe(256);
  });
});
