// The pure half of the confinement (I5): decides from the text alone whether a
// path may be used, without touching the disk. Nothing is decoded, nothing is
// resolved: a suspicious path is refused, never repaired.

import { charProblem, isDeviceName, isMark } from './characters.js';
import type { Confinement } from './confinement.js';
import { caseAlias, hiddenPrefix, isAllowed, startsWithFolded } from './confinement.js';
import type { PathResult, Refusal } from './problem.js';
import { codePoint, ok, quote, refuse } from './problem.js';

/** Longest path accepted, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 1024;
/** Longest segment accepted, in UTF-8 bytes (the common file-system limit). */
export const MAX_SEGMENT_BYTES = 255;

export interface LexicalPath {
  /** The normalised relative path, `.` for the root itself. */
  readonly rel: string;
  readonly segments: string[];
  /** Present when the path ends in `/` or `/.` (or is `.`): it names a folder, so a file there is refused. */
  readonly folder?: true;
}

/** Segments parsed by the text rules alone. */
export interface ParsedPath {
  readonly segments: string[];
  /** The path ends in `/` or `/.`, or is `.`. */
  readonly folder: boolean;
}

const CHAR_MESSAGES: Record<string, string> = {
  control: 'control and invisible characters are not allowed',
  'lookalike-dot': 'it looks like `.` and is not allowed',
  'lookalike-separator': 'it looks like `/` or `\\` and is not allowed',
  lookalike: 'it looks like `:`, `%` or a space and is not allowed',
};

/**
 * Checks a relative path given by an agent or supervisor. Design choices:
 * `.` segments are dropped (`./a` and `a/./b` are accepted), one trailing `/`
 * is accepted and remembered as `folder`, an empty segment (`a//b`) is
 * refused, and any `..` is refused outright rather than resolved.
 */
export function checkLexical(c: Confinement, input: string): PathResult<LexicalPath> {
  const parsed = parsePath(input);
  if (!parsed.ok) return parsed;
  const { segments, folder } = parsed.value;
  const checked = checkSegments(c, segments, quote(input));
  if (!checked.ok) return checked;
  return ok({ rel: relOf(segments), segments, ...(folder ? { folder: true as const } : {}) });
}

/** Whether a name read from the disk (a listed entry, a link target's segment) could be given as one path segment. */
export function isPlainName(name: string): boolean {
  const parsed = parsePath(name);
  return parsed.ok && !parsed.value.folder && parsed.value.segments[0] === name;
}

/** The normalised relative path of segments: `a/b`, or `.` for the root. */
export function relOf(segments: readonly string[]): string {
  return segments.length === 0 ? '.' : segments.join('/');
}

/** Text rules only: turns a path into checked segments, with no confinement. */
export function parsePath(input: unknown): PathResult<ParsedPath> {
  if (typeof input !== 'string')
    return refuse('not-text', `path must be text, not ${typeof input}`);
  if (input === '') return refuse('empty', 'path is empty');
  const shown = quote(input);
  const bytes = Buffer.byteLength(input, 'utf8');
  if (bytes > MAX_PATH_BYTES) {
    return refuse(
      'too-long',
      `path ${shown} is too long: ${bytes} bytes, at most ${MAX_PATH_BYTES}`,
    );
  }
  for (const ch of input) {
    const problem = charProblem(ch);
    if (problem !== undefined) {
      const what = `contains ${codePoint(ch)}`;
      return refuse(problem, `path ${shown} ${what}: ${CHAR_MESSAGES[problem] ?? 'not allowed'}`);
    }
  }
  const shape = shapeProblem(input, shown);
  if (shape !== undefined) return shape;

  const parts = input.split('/');
  const slash = parts.length > 1 && parts.at(-1) === '';
  if (slash) parts.pop();
  const segments: string[] = [];
  for (const part of parts) {
    if (part === '.') continue;
    const problem = segmentProblem(part, shown);
    if (problem !== undefined) return problem;
    segments.push(part);
  }
  return ok({ segments, folder: slash || parts.at(-1) === '.' });
}

/** Whole-path shapes: UNC, device, drive, absolute; then the characters `%`, `\` and `:`. */
function shapeProblem(input: string, shown: string): Refusal | undefined {
  const relative = 'give a path relative to the root';
  if (/^[\\/]{2}[?.][\\/]/.test(input)) {
    return refuse('device', `path ${shown} is a device path: ${relative}`);
  }
  if (/^[\\/]{2}/.test(input)) {
    return refuse('unc', `path ${shown} is a network (UNC) path: ${relative}`);
  }
  if (/^[A-Za-z]:[\\/]/.test(input)) {
    return refuse('drive', `path ${shown} is an absolute Windows path: ${relative}`);
  }
  if (/^[A-Za-z]:/.test(input)) {
    return refuse('drive', `path ${shown} is relative to a drive: ${relative}`);
  }
  if (/^[\\/]/.test(input)) return refuse('absolute', `path ${shown} is absolute: ${relative}`);
  if (input.includes('%')) {
    return refuse(
      'percent',
      `path ${shown} contains \`%\`: nothing is URL-decoded, so \`%\` is not allowed`,
    );
  }
  if (input.includes('\\')) {
    return refuse('backslash', `path ${shown} contains a backslash: separate segments with \`/\``);
  }
  if (input.includes(':')) {
    return refuse('stream', `path ${shown} contains \`:\`: alternate data streams are not allowed`);
  }
  return undefined;
}

/** Rules for one segment, also applied to names read back from the disk. */
export function segmentProblem(segment: string, shown: string): Refusal | undefined {
  if (segment === '')
    return refuse('empty-segment', `path ${shown} has an empty segment: \`//\` is not allowed`);
  if (segment === '..')
    return refuse('traversal', `path ${shown} climbs out of the root: \`..\` is not allowed`);
  if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
    return refuse('too-long', `path ${shown} has a segment longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
  if (/[. ]$/.test(segment)) {
    return refuse(
      'trailing',
      `path ${shown} has segment ${quote(segment)} ending in a dot or space: it would name another file on Windows`,
    );
  }
  const chars = [...segment];
  if (isMark(chars[0] ?? '')) {
    return refuse(
      'lookalike-separator',
      `path ${shown} has a segment starting with a combining mark`,
    );
  }
  if (chars.some((ch, i) => isMark(ch) && chars[i - 1] === '.')) {
    return refuse('lookalike-dot', `path ${shown} has a combining mark on a \`.\``);
  }
  if (isDeviceName(segment)) {
    return refuse(
      'device',
      `path ${shown} names the Windows device ${quote(segment.split('.')[0] ?? '')}`,
    );
  }
  return undefined;
}

/**
 * Confinement rules over checked segments, in this order: hidden (case never
 * unhides), case alias of a known name, allowlist. Segment-wise, never by
 * string prefix, so `Workspace-Backup` is not `Workspace`. Only the trash's
 * own walk passes `trash`: the one hidden place it may enter.
 */
export function checkSegments(
  c: Confinement,
  segments: readonly string[],
  shown: string,
  trash?: readonly string[],
): PathResult<true> {
  const hidden = hiddenPrefix(c, segments);
  const inTrash = trash !== undefined && startsWithFolded(segments, trash);
  if (hidden !== undefined && !inTrash) return hiddenRefusal(hidden, shown);
  const alias = caseAlias(c, segments);
  if (alias !== undefined) {
    return refuse(
      'case-alias',
      `path ${shown} names ${quote(alias.known)} as ${quote(alias.given)}: write the name exactly`,
    );
  }
  if (!isAllowed(c, segments)) {
    const allowed = c.allowed !== undefined ? `: allowed are only ${c.allowed}` : '';
    return refuse('not-allowed', `path ${shown} is not allowed${allowed}`);
  }
  return ok(true);
}

/** The same words whether or not anything exists under the hidden prefix. */
export function hiddenRefusal(prefix: readonly string[], shown: string): Refusal {
  return refuse(
    'hidden',
    `path ${shown} is hidden: ${quote(prefix.join('/'))} cannot be read, listed or changed`,
  );
}
