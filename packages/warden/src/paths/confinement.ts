// The one description of "where may this caller go" (I5): a real root folder,
// an allowlist, hidden prefixes, the exact-case names and whether it is read-only.
// Callers configure it; nobody re-implements the check.

import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { foldKey } from './characters.js';

/** What a caller configures; {@link confinement} turns it into a {@link Confinement}. */
export interface ConfinementOptions {
  /** Absolute root; the module resolves its realpath once when created. */
  readonly root: string;
  /**
   * Allowlist over the normalised relative path segments; default: everything
   * under the root. It is asked about every name a walk looks up, folders on
   * the way included, so it must admit the folders leading to what it admits.
   */
  readonly allow?: (segments: readonly string[]) => boolean;
  /** Segment prefixes that are hidden from listings and refused for every access, e.g. [['Workspace', '.trash']] or [['.trash']]. */
  readonly hidden?: readonly (readonly string[])[];
  /** Exact-case names the allowlist knows; a path that equals one of them case-insensitively but not exactly is refused (case alias). An entry with `/` names a path from the root. */
  readonly knownNames?: readonly string[];
  /** What the allowlist admits, for refusal messages, e.g. "`Workspace/**`, `Identity.md`, `Soul.md`". */
  readonly allowed?: string;
  /** Nothing may change through it (I4): `writeConfined` and `trashConfined` throw. Default: false. */
  readonly readOnly?: boolean;
}

/** A created confinement: its root is a real folder and every list is filled in. */
export interface Confinement extends ConfinementOptions {
  readonly hidden: readonly (readonly string[])[];
  readonly knownNames: readonly string[];
  readonly readOnly: boolean;
}

/**
 * Creates a confinement: resolves the root's realpath once and checks it is a
 * folder. A missing or non-absolute root is a configuration bug, so it throws.
 */
export async function confinement(options: ConfinementOptions): Promise<Confinement> {
  if (!isAbsolute(options.root)) {
    throw new TypeError(`confinement root \`${options.root}\` must be absolute`);
  }
  const root = await realpath(options.root);
  if (!(await stat(root)).isDirectory()) {
    throw new TypeError(`confinement root \`${options.root}\` is not a folder`);
  }
  const hidden = (options.hidden ?? []).map((prefix) => {
    if (prefix.length === 0 || prefix.some((s) => s === '' || s.includes('/'))) {
      throw new TypeError(`hidden prefix \`${prefix.join('/')}\` must be non-empty segments`);
    }
    return Object.freeze([...prefix]);
  });
  return Object.freeze({
    root,
    hidden: Object.freeze(hidden),
    knownNames: Object.freeze([...(options.knownNames ?? [])]),
    readOnly: options.readOnly ?? false,
    ...(options.allow !== undefined ? { allow: options.allow } : {}),
    ...(options.allowed !== undefined ? { allowed: options.allowed } : {}),
  });
}

/** Whether `segments` starts with `prefix`, compared segment by segment, ignoring case and compatibility forms. */
export function startsWithFolded(segments: readonly string[], prefix: readonly string[]): boolean {
  return (
    prefix.length <= segments.length &&
    prefix.every((p, i) => foldKey(p) === foldKey(segments[i] ?? ''))
  );
}

/** The hidden prefix `segments` lies in, if any. Case never unhides: `.TRASH` is `.trash`. */
export function hiddenPrefix(
  c: Confinement,
  segments: readonly string[],
): readonly string[] | undefined {
  return c.hidden.find((prefix) => startsWithFolded(segments, prefix));
}

/** The known name a segment prefix aliases by case or compatibility form, if any. */
export function caseAlias(
  c: Confinement,
  segments: readonly string[],
): { readonly known: string; readonly given: string } | undefined {
  for (const known of c.knownNames) {
    const parts = known.split('/');
    if (!startsWithFolded(segments, parts)) continue;
    const given = segments.slice(0, parts.length);
    if (given.some((s, i) => s !== parts[i])) return { known, given: given.join('/') };
  }
  return undefined;
}

/** Whether the allowlist admits `segments` (no allowlist admits everything under the root). */
export function isAllowed(c: Confinement, segments: readonly string[]): boolean {
  return c.allow === undefined || c.allow(segments);
}

/** A change through a read-only confinement is a programming error (I4), not a refusal. */
export function assertWritable(c: Confinement, action: string): void {
  if (c.readOnly) {
    throw new TypeError(`confinement of \`${c.root}\` is read-only: it cannot ${action}`);
  }
}
