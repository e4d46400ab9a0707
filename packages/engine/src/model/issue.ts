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
  /** Where the problem is, e.g. `rules[3].when.refs[0]`; empty for the whole input. */
  readonly path: string;
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

export function issue(
  code: IssueCode,
  path: readonly PathSegment[] | string,
  message: string,
): Issue {
  return { code, path: typeof path === 'string' ? path : formatPath(path), message };
}
