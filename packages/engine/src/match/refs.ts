// Git refs (E11): `refs/heads/main` and `main` are the same ref; tags keep
// their prefix; a refspec `src:dst` contributes its destination.

import { globProblem } from './globs.js';
import type { Globs, Matcher } from './globs.js';

/** The ref a refspec or ref name names, or null when it names none. */
export function normalizeRef(input: string): string | null {
  let ref = input.startsWith('+') ? input.slice(1) : input;
  const colon = ref.lastIndexOf(':');
  if (colon >= 0) ref = ref.slice(colon + 1);
  if (ref.startsWith('refs/heads/')) ref = ref.slice('refs/heads/'.length);
  return ref === '' ? null : ref;
}

export interface RefPatternSet {
  readonly positives: readonly { readonly source: string; readonly match: Matcher }[];
  readonly negatives: readonly { readonly source: string; readonly match: Matcher }[];
}

export function compileRefPatterns(patterns: readonly string[], globs: Globs): RefPatternSet {
  const positives: { source: string; match: Matcher }[] = [];
  const negatives: { source: string; match: Matcher }[] = [];
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const body = negated ? raw.slice(1) : raw;
    const source = body.startsWith('refs/heads/') ? body.slice('refs/heads/'.length) : body;
    (negated ? negatives : positives).push({ source, match: globs.matcher(source) });
  }
  return { positives, negatives };
}

export function refPatternProblem(raw: string): string | null {
  const body = raw.startsWith('!') ? raw.slice(1) : raw;
  if (body === '') return raw === '!' ? 'a lone `!` negates nothing' : 'empty pattern';
  if (/\s/.test(body)) return 'refs hold no white space';
  if (body.includes(':')) return 'a ref pattern names one ref, not a refspec';
  if (body === 'refs/heads/') return 'empty branch name';
  return globProblem(body);
}

export function refInSet(ref: string, set: RefPatternSet): boolean {
  return (
    set.positives.some((pattern) => pattern.match(ref)) &&
    !set.negatives.some((pattern) => pattern.match(ref))
  );
}
