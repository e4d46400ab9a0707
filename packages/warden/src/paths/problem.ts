// Why a path was refused, as data: a closed set of codes plus a Cedar-style
// sentence. Expected refusals are results; only programming bugs throw.

/** Every reason the confinement refuses a path. */
export type PathCode =
  | 'not-text'
  | 'empty'
  | 'empty-segment'
  | 'too-long'
  | 'control'
  | 'lookalike-dot'
  | 'lookalike-separator'
  | 'lookalike'
  | 'percent'
  | 'backslash'
  | 'absolute'
  | 'drive'
  | 'unc'
  | 'device'
  | 'stream'
  | 'traversal'
  | 'trailing'
  | 'hidden'
  | 'case-alias'
  | 'not-allowed'
  | 'root'
  | 'trash'
  | 'symlink'
  | 'symlink-out'
  | 'changed'
  | 'hardlink'
  | 'not-regular'
  | 'is-directory'
  | 'not-directory'
  | 'not-found'
  | 'exists'
  | 'permission';

export interface PathProblem {
  readonly code: PathCode;
  readonly message: string;
}

/** A refusal fits every result type, so checks can pass one on unchanged. */
export interface Refusal {
  readonly ok: false;
  readonly problem: PathProblem;
}

export type PathResult<T> = { readonly ok: true; readonly value: T } | Refusal;

export function ok<T>(value: T): PathResult<T> {
  return { ok: true, value };
}

export function refuse(code: PathCode, message: string): Refusal {
  return { ok: false, problem: { code, message } };
}

const SHOWN_CHARS = 120;

/**
 * Puts user input in backticks for a message: invisible and control
 * characters are shown as `U+XXXX`, and long input is cut, so a message can
 * neither hide text nor grow without bound.
 */
export function quote(input: string): string {
  let shown = '';
  let count = 0;
  for (const ch of input) {
    if (count === SHOWN_CHARS) return `\`${shown}…\``;
    shown += /[\p{C}\p{Z}]/u.test(ch) && ch !== ' ' ? codePoint(ch) : ch === '`' ? '\\`' : ch;
    count += 1;
  }
  return `\`${shown}\``;
}

/** `U+FF0E` for a character, as messages name characters. */
export function codePoint(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Maps the errors a file system gives for ordinary refusals; anything else is a fault and throws. */
export function fsProblem(error: unknown, shown: string): Refusal {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return refuse('not-found', `path ${shown} does not exist`);
    case 'ENOTDIR':
      return refuse('not-directory', `path ${shown} does not exist: a part of it is not a folder`);
    case 'EEXIST':
      return refuse('exists', `path ${shown} already exists`);
    case 'ELOOP':
      return refuse('symlink', `path ${shown} is a symbolic link: links are not followed here`);
    case 'EISDIR':
      return refuse('is-directory', `path ${shown} is a folder, not a file`);
    case 'ENXIO':
      return refuse('not-regular', `path ${shown} is not a regular file`);
    case 'EACCES':
    case 'EPERM':
      return refuse('permission', `path ${shown} is not accessible: permission denied`);
    case 'ENAMETOOLONG':
      return refuse('too-long', `path ${shown} is too long for the file system`);
    default:
      throw error;
  }
}
