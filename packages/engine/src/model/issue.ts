// Problems as structured data: a code, a path into the input, and a message.
// Every problem Warden reports (a policy's, a request's, a configuration's, an
// API call's) has this shape; rendering it is the caller's business.

export type IssueCode =
  | 'syntax'
  | 'invalid_type'
  | 'missing_field'
  | 'unknown_field'
  | 'invalid_value'
  | 'unknown_class'
  | 'bad_scope'
  | 'bad_pattern'
  | 'bad_timestamp'
  | 'bad_command'
  | 'duplicate_id'
  | 'conflict'
  | 'empty_list'
  | 'too_big';

export interface Issue {
  readonly code: IssueCode;
  /**
   * Where the problem is, as data: `['rules', 3, 'when', 'refs', 0]`; empty
   * for the whole input. `formatPath` renders it (`rules[3].when.refs[0]`).
   */
  readonly path: readonly PathSegment[];
  readonly message: string;
}

export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly Issue[] };

export type PathSegment = string | number;

/**
 * `['rules', 3, 'when', 'refs']` → `rules[3].when.refs`, continuing `base`
 * when one is given; a key that is not a plain name is quoted (`["a b"]`).
 * The one path formatter: the engine's issues, API bodies and configuration
 * files all name their places with it.
 */
export function formatPath(segments: readonly PathSegment[], base = ''): string {
  let out = base;
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * The inverse of `formatPath`: `rules[3].when["a b"]` → `['rules', 3, 'when', 'a b']`.
 * A rule keeps its place as text (`Rule.path`, which reasons quote); an issue
 * about a part of the rule takes the place back as data with this. Text
 * `formatPath` cannot have written reads as one key.
 */
export function parsePath(text: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let i = 0;
  const name = /[A-Za-z_][A-Za-z0-9_-]*/y;
  while (i < text.length) {
    if (text[i] === '[') {
      const close = text[i + 1] === '"' ? closingQuote(text, i + 1) : text.indexOf(']', i);
      const inner = close < 0 ? null : text.slice(i + 1, close + (text[i + 1] === '"' ? 1 : 0));
      const end = close < 0 ? -1 : text[i + 1] === '"' ? close + 1 : close;
      if (inner === null || text[end] !== ']') return [text];
      if (/^(0|[1-9][0-9]*)$/.test(inner)) segments.push(Number(inner));
      else if (inner.startsWith('"')) {
        const key = jsonString(inner);
        if (key === null) return [text];
        segments.push(key);
      } else return [text];
      i = end + 1;
      continue;
    }
    if (text[i] === '.' && segments.length > 0) i += 1;
    name.lastIndex = i;
    const match = name.exec(text);
    if (match === null) return [text];
    segments.push(match[0]);
    i += match[0].length;
  }
  return segments;
}

function jsonString(quoted: string): string | null {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The index of the quote that closes the JSON string opening at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return -1;
}

export function issue(code: IssueCode, path: readonly PathSegment[], message: string): Issue {
  return { code, path: [...path], message };
}

/** An issue as people read it and the contracts print it: `rules[3].action: unknown …`. */
export function issueText(problem: Issue): string {
  const where = formatPath(problem.path);
  return where === '' ? problem.message : `${where}: ${problem.message}`;
}
