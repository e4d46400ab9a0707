// Globs matched in time linear in the text (E10): a pattern is compiled once
// into alternatives of segments, and a value is matched by simulating the
// automaton, never by backtracking. A segment of `k` tokens matched against a
// text segment of `n` characters costs at most `(k + 1) * (n + 1)` steps, and
// the segments are themselves an automaton (`**` is a state that loops), so
// one alternative costs at most `(|pattern| + 1) * (|value| + 1)` steps and a
// pattern at most `MAX_ALTERNATIVES` times that. `steps` counts them, so a
// test proves the bound on agent-sized inputs without a clock.
//
// The semantics are picomatch's with dotfiles matched, for the patterns Warden
// accepts: `*` and `?` never cross `/`; `**` as a whole segment matches any
// number of segments (none included), elsewhere it is `*`; a segment of only
// stars needs at least one character; `*`, `**` and a leading `?` never match
// a `.` or `..` segment; `[…]` classes (`!` or `^` negates, ranges, POSIX
// names) never match `/`; `{a,b}`, `{1..5}`, `@(a|b)`, `(a|b)` and `?(a)`
// expand into alternatives; `\` escapes; a trailing `/` on the value is
// ignored unless the pattern ends in one. `*(…)`, `+(…)` and `!(…)` are
// refused (`globSyntaxProblem`): they cannot be expanded into a bounded set.

/** The most alternatives a pattern may expand into (`{a,b}{c,d}` is 4). */
export const MAX_ALTERNATIVES = 256;
/** The longest pattern compiled: longer ones are refused. */
export const MAX_PATTERN_LENGTH = 1024;

type Token =
  | { readonly t: 'lit'; readonly c: number }
  | { readonly t: 'any' }
  | { readonly t: 'star' }
  | { readonly t: 'class'; readonly negated: boolean; readonly ranges: readonly number[] };

/** A segment: its tokens, or `**` as a whole segment. */
type Segment =
  | { readonly globstar: true }
  | {
      readonly globstar: false;
      readonly tokens: readonly Token[];
      /** Only stars: it needs at least one character. */
      readonly starsOnly: boolean;
      /** Starts with `*` or `?`: never a `.` or `..` segment. */
      readonly wild: boolean;
    };

interface Alternative {
  readonly segments: readonly Segment[];
  /** The pattern ends in `/`: the value must too. */
  readonly trailingSlash: boolean;
}

export interface CompiledGlob {
  readonly alternatives: readonly Alternative[];
}

/** Counts the automaton's steps, for the test that proves the bound. */
export interface StepCounter {
  steps: number;
}

const SLASH = 0x2f;
const DOT = 0x2e;

const POSIX: Readonly<Record<string, readonly number[]>> = {
  alpha: ranges('azAZ'),
  digit: ranges('09'),
  alnum: ranges('azAZ09'),
  upper: ranges('AZ'),
  lower: ranges('az'),
  xdigit: ranges('09afAF'),
  space: [0x20, 0x20, 0x09, 0x0d],
  blank: [0x20, 0x20, 0x09, 0x09],
  word: [...ranges('azAZ09'), 0x5f, 0x5f],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
};

function ranges(pairs: string): number[] {
  return [...pairs].map((ch) => ch.charCodeAt(0));
}

/** Why a pattern cannot be compiled, or null. */
export function globSyntaxProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return `pattern longer than ${MAX_PATTERN_LENGTH} characters`;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if ((ch === '*' || ch === '+' || ch === '!') && pattern[i + 1] === '(')
      return `\`${ch}(…)\` is not supported: list the alternatives with \`{a,b}\` or write several patterns`;
  }
  if (pattern.startsWith('!')) return 'a pattern negated twice';
  try {
    const count = expand(pattern).length;
    if (count === 0) return 'the pattern matches nothing';
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}

/** Compiles a pattern that `globSyntaxProblem` accepts. */
export function compileGlob(pattern: string): CompiledGlob {
  return { alternatives: expand(pattern).map(alternative) };
}

/** Whether `value` matches; `counter` (when given) counts the automaton's steps. */
export function globMatches(glob: CompiledGlob, value: string, counter?: StepCounter): boolean {
  for (const alt of glob.alternatives) if (matchAlternative(alt, value, counter)) return true;
  return false;
}

// ─── Expansion: braces and groups into alternatives ─────────────────────────

/** The closing `}` or `)` that matches the opener at `open`, or -1. */
function closing(pattern: string, open: number): number {
  const opener = pattern[open];
  const closer = opener === '{' ? '}' : ')';
  let depth = 0;
  let inClass = false;
  for (let i = open; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[' && i > open) {
      inClass = pattern.indexOf(']', i + 2) > 0;
      continue;
    }
    if (ch === '{' || ch === '(') depth++;
    else if (ch === '}' || ch === ')') {
      depth--;
      if (depth === 0) return ch === closer ? i : -1;
    }
  }
  return -1;
}

/** The parts of a brace or group body split at top-level `sep`. */
function splitTop(body: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    else if (ch === sep && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** `{1..5}`, `{a..e}`, `{1..10..2}`: the values, or null when the body is no range. */
function rangeOf(body: string): string[] | null {
  const m = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(body);
  if (m === null) return null;
  const [from, to] = [m[1] as string, m[2] as string];
  const numeric = /\d/.test(from);
  if (numeric !== /\d/.test(to)) return null;
  const a = numeric ? Number(from) : from.charCodeAt(0);
  const b = numeric ? Number(to) : to.charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  if (Math.abs(b - a) / step + 1 > MAX_ALTERNATIVES)
    throw new Error(`the range \`{${body}}\` has more than ${MAX_ALTERNATIVES} values`);
  const out: string[] = [];
  for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step)
    out.push(numeric ? String(v) : String.fromCharCode(v));
  return out.map(escapeText);
}

function escapeText(text: string): string {
  return text.replace(/[\\*?[\]{}()!+@]/g, '\\$&');
}

/** Every alternative a pattern stands for, braces and groups expanded (bounded). */
function expand(pattern: string): string[] {
  let done: string[] = [];
  const pending: string[] = [pattern];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const at = firstGroup(current);
    if (at === null) {
      done.push(current);
      if (done.length > MAX_ALTERNATIVES)
        throw new Error(`the pattern expands into more than ${MAX_ALTERNATIVES} alternatives`);
      continue;
    }
    const { start, end, prefix } = at;
    const body = current.slice(start + 1, end);
    const before = current.slice(0, start - prefix.length);
    const after = current.slice(end + 1);
    let options: string[];
    if (current[start] === '{') {
      const range = rangeOf(body);
      const parts = splitTop(body, ',');
      // `{a}` without a comma or range is literal text, as in picomatch and bash.
      options = range ?? (parts.length > 1 ? parts : [escapeText(`{${body}}`)]);
    } else {
      options = splitTop(body, '|');
      if (prefix === '?') options.push('');
    }
    if (pending.length + done.length + options.length > MAX_ALTERNATIVES * 4)
      throw new Error(`the pattern expands into more than ${MAX_ALTERNATIVES} alternatives`);
    for (const option of options) pending.push(`${before}${option}${after}`);
  }
  done = [...new Set(done)];
  return done;
}

/** The first `{…}` or `(…)` (with its `@`/`?` prefix) that is not escaped, or null. */
function firstGroup(
  pattern: string,
): { readonly start: number; readonly end: number; readonly prefix: string } | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = classEnd(pattern, i) > 0;
      continue;
    }
    if (ch === '{' || ch === '(') {
      const end = closing(pattern, i);
      if (end < 0) throw new Error(`unbalanced \`${ch}\``);
      const before = pattern[i - 1];
      const prefix = ch === '(' && (before === '@' || before === '?') ? before : '';
      return { start: i, end, prefix };
    }
  }
  return null;
}

// ─── Compiling one alternative ──────────────────────────────────────────────

/** Where the class opened at `open` ends (its `]`), or -1 when `[` is literal. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === '!' || pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      i++;
      continue;
    }
    if (pattern[i] === '[' && pattern[i + 1] === ':') {
      const end = pattern.indexOf(':]', i + 2);
      if (end > 0) {
        i = end + 1;
        continue;
      }
    }
    if (pattern[i] === ']') return i;
  }
  return -1;
}

function classToken(body: string): Token {
  let i = 0;
  const negated = body[0] === '!' || body[0] === '^';
  if (negated) i++;
  const out: number[] = [];
  while (i < body.length) {
    if (body[i] === '[' && body[i + 1] === ':') {
      const end = body.indexOf(':]', i + 2);
      const named = POSIX[body.slice(i + 2, end)];
      if (end > 0 && named !== undefined) {
        out.push(...named);
        i = end + 2;
        continue;
      }
    }
    let ch = body.charCodeAt(i);
    if (body[i] === '\\' && i + 1 < body.length) ch = body.charCodeAt(++i);
    i++;
    if (body[i] === '-' && i + 1 < body.length) {
      let to = body.charCodeAt(i + 1);
      i += 2;
      if (body[i - 1] === '\\' && i < body.length) to = body.charCodeAt(i++);
      out.push(Math.min(ch, to), Math.max(ch, to));
      continue;
    }
    out.push(ch, ch);
  }
  return { t: 'class', negated, ranges: out };
}

function segmentOf(text: string): Segment {
  if (text === '**') return { globstar: true };
  const tokens: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\\' && i + 1 < text.length) {
      tokens.push({ t: 'lit', c: text.charCodeAt(++i) });
      continue;
    }
    if (ch === '*') {
      // `**` inside a segment is one star; consecutive stars collapse.
      if (tokens[tokens.length - 1]?.t !== 'star') tokens.push({ t: 'star' });
      continue;
    }
    if (ch === '?') {
      tokens.push({ t: 'any' });
      continue;
    }
    if (ch === '[') {
      const end = classEnd(text, i);
      if (end > 0) {
        tokens.push(classToken(text.slice(i + 1, end)));
        i = end;
        continue;
      }
    }
    tokens.push({ t: 'lit', c: text.charCodeAt(i) });
  }
  const first = tokens[0];
  return {
    globstar: false,
    tokens,
    starsOnly: tokens.length > 0 && tokens.every((t) => t.t === 'star'),
    wild: first !== undefined && (first.t === 'star' || first.t === 'any'),
  };
}

/** Splits at every `/` that is not escaped or inside a class. */
function splitSegments(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] === '[') {
      const end = classEnd(text, i);
      if (end > 0 && !text.slice(i, end).includes('/')) {
        i = end;
        continue;
      }
    }
    if (text[i] === '/') {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

function alternative(text: string): Alternative {
  const trailingSlash = text.length > 1 && text.endsWith('/') && !text.endsWith('\\/');
  const parts = splitSegments(trailingSlash ? text.slice(0, -1) : text);
  // `**/**` is one globstar.
  const segments = parts
    .filter((part, i) => !(part === '**' && parts[i - 1] === '**'))
    .map(segmentOf);
  // As picomatch reads it, a final `/**` after a segment that ends in a star takes at least
  // one segment (`*/**` does not match `a`, though `a/**` does).
  const last = segments[segments.length - 1];
  const before = segments[segments.length - 2];
  if (
    last?.globstar === true &&
    before !== undefined &&
    !before.globstar &&
    before.tokens[before.tokens.length - 1]?.t === 'star'
  )
    segments.splice(segments.length - 1, 0, segmentOf('*'));
  return { segments, trailingSlash };
}

// ─── Matching: two automata, simulated ──────────────────────────────────────

function classHas(token: Extract<Token, { t: 'class' }>, c: number): boolean {
  let inside = false;
  const r = token.ranges;
  for (let i = 0; i < r.length; i += 2) {
    if (c >= (r[i] as number) && c <= (r[i + 1] as number)) {
      inside = true;
      break;
    }
  }
  return inside !== token.negated;
}

function isDotSegment(text: string, from: number, to: number): boolean {
  const n = to - from;
  return (
    (n === 1 && text.charCodeAt(from) === DOT) ||
    (n === 2 && text.charCodeAt(from) === DOT && text.charCodeAt(from + 1) === DOT)
  );
}

/** One segment's tokens against `value[from, to)`: a set of token positions, advanced per character. */
function matchSegment(
  segment: Extract<Segment, { globstar: false }>,
  value: string,
  from: number,
  to: number,
  counter: StepCounter | undefined,
): boolean {
  const tokens = segment.tokens;
  const k = tokens.length;
  if (segment.starsOnly && to === from) return false;
  if (segment.wild && isDotSegment(value, from, to)) return false;
  let current = new Uint8Array(k + 1);
  let next = new Uint8Array(k + 1);
  const close = (set: Uint8Array): void => {
    for (let i = 0; i < k; i++) if (set[i] === 1 && tokens[i]?.t === 'star') set[i + 1] = 1;
  };
  current[0] = 1;
  close(current);
  for (let p = from; p < to; p++) {
    const c = value.charCodeAt(p);
    next.fill(0);
    let alive = false;
    for (let i = 0; i < k; i++) {
      if (current[i] !== 1) continue;
      const token = tokens[i] as Token;
      let advance = false;
      switch (token.t) {
        case 'star':
          next[i] = 1;
          alive = true;
          break;
        case 'any':
          advance = true;
          break;
        case 'lit':
          advance = token.c === c;
          break;
        case 'class':
          advance = c !== SLASH && classHas(token, c);
          break;
      }
      if (advance) {
        next[i + 1] = 1;
        alive = true;
      }
    }
    if (counter !== undefined) counter.steps += k + 1;
    if (!alive) return false;
    close(next);
    [current, next] = [next, current];
  }
  if (counter !== undefined) counter.steps += 1;
  return current[k] === 1;
}

function matchAlternative(alt: Alternative, raw: string, counter?: StepCounter): boolean {
  let value = raw;
  if (alt.trailingSlash) {
    if (!value.endsWith('/')) {
      // `x/**/` matches `x/` (the globstar takes nothing); any other needs the slash.
      if (alt.segments[alt.segments.length - 1]?.globstar !== true) return false;
    } else value = value.slice(0, -1);
  } else if (value.length > 1 && value.endsWith('/')) value = value.slice(0, -1);
  if (value === '') return false;
  const segments = alt.segments;
  const m = segments.length;
  let current = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  const close = (set: Uint8Array): void => {
    for (let i = 0; i < m; i++) if (set[i] === 1 && segments[i]?.globstar === true) set[i + 1] = 1;
  };
  current[0] = 1;
  close(current);
  let from = 0;
  for (;;) {
    let to = value.indexOf('/', from);
    if (to < 0) to = value.length;
    next.fill(0);
    let alive = false;
    for (let i = 0; i < m; i++) {
      if (current[i] !== 1) continue;
      const segment = segments[i] as Segment;
      if (segment.globstar) {
        if (to > from && !isDotSegment(value, from, to)) {
          next[i] = 1;
          alive = true;
        }
        if (counter !== undefined) counter.steps += 1;
      } else if (matchSegment(segment, value, from, to, counter)) {
        next[i + 1] = 1;
        alive = true;
      }
    }
    if (!alive) return false;
    close(next);
    [current, next] = [next, current];
    if (to === value.length) break;
    from = to + 1;
  }
  return current[m] === 1;
}
