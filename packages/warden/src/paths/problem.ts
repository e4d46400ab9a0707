// Why a path was refused, as data: a closed set of codes plus a Cedar-style
// sentence. Every refusal, and every failure the file system reports, is a
// result; only programming errors (bad arguments, a misused confinement) throw.

import { isInvisible, isMark } from './characters.js';

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
  /** Any failure while following a link: one code and one sentence, whatever lies beyond. */
  | 'symlink-out'
  | 'changed'
  | 'hardlink'
  | 'not-regular'
  | 'is-directory'
  | 'not-directory'
  | 'not-found'
  | 'exists'
  | 'permission'
  /** The file system failed in an ordinary way: full, busy, read-only, another device … */
  | 'io';

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
 * Puts user input in backticks for a message: control, invisible and
 * combining characters are shown as `\u{…}` code points, `\` and `` ` `` are
 * escaped (so a shown `\u{…}` is never the input's own text), and long input
 * is cut, so a message can neither hide text nor grow without bound.
 */
export function quote(input: string): string {
  let shown = '';
  let count = 0;
  for (const ch of input) {
    if (count === SHOWN_CHARS) return `\`${shown}…\``;
    shown += shownChar(ch);
    count += 1;
  }
  return `\`${shown}\``;
}

function shownChar(ch: string): string {
  if (ch === '`' || ch === '\\') return `\\${ch}`;
  if (ch === ' ') return ch;
  if (/\p{Z}/u.test(ch) || isInvisible(ch) || isMark(ch)) {
    return `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
  }
  return ch;
}

/** `U+FF0E` for a character, as messages name characters. */
export function codePoint(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The errno code of a file-system error (`ENOENT`), or `undefined` for anything else. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** Words for the ordinary failures; any other code is named as it is. */
const IO_CAUSES: Readonly<Record<string, string>> = {
  ETXTBSY: 'it is a program that is running',
  EXDEV: 'it would move to another file system',
  EBUSY: 'it is busy or a mount point',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file would grow too large',
  EMLINK: 'a folder on the way holds too many links',
  EIO: 'the disk reported an input/output error',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  ENOTEMPTY: 'a folder in the way is not empty',
};

/**
 * A refusal for an error the file system gave, naming the path the caller
 * gave (never a descriptor path, which the error's own text would show). An
 * error without an errno code is not the file system's: it is a bug, and throws.
 */
export function fsProblem(error: unknown, shown: string): Refusal {
  const code = errorCode(error);
  switch (code) {
    case undefined:
      throw error;
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
      return refuse(
        'io',
        `path ${shown} could not be used: ${IO_CAUSES[code] ?? `the file system reported \`${code}\``}`,
      );
  }
}

/** A folder or file on the way was swapped, moved or removed while it was checked. */
export function changed(shown: string): Refusal {
  return refuse('changed', `path ${shown} changed while it was checked: it was not used`);
}

/**
 * Every failure while following a link — its target missing, outside, hidden,
 * refused, a loop, a file where a folder should be — gets these same words,
 * so a link cannot tell what exists beyond the boundary.
 */
export function linkRefusal(shown: string): Refusal {
  return refuse(
    'symlink-out',
    `path ${shown} follows a symbolic link that does not lead to an allowed path`,
  );
}
