// Walks a lexically checked path on disk, segment by segment from the real
// root: every link is resolved on the spot and its target re-checked against
// the same root and hidden prefixes before the walk goes on (I5).

import type { Stats } from 'node:fs';
import { lstat, mkdir, readlink, realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Confinement } from './confinement.js';
import { openDir, segmentsInside } from './descriptor.js';
import { checkSegments, relOf } from './lexical.js';
import type { PathResult, Refusal } from './problem.js';
import { fsProblem, ok, quote, refuse } from './problem.js';

export interface Walked {
  /** The real absolute path: no link in it. */
  readonly abs: string;
  /** Its segments below the root. */
  readonly segments: readonly string[];
  /** `lstat` of `abs`. */
  readonly stat: Stats;
  /** Whether a link was followed on the way, so the real path differs from the given one. */
  readonly viaLink: boolean;
}

export interface WalkOptions {
  /** Create missing folders (for the parents of a write, or a trash entry). */
  readonly create?: boolean;
  /** Skip the hidden and allowlist checks of link targets (only for the trash's own destination). */
  readonly hiddenOk?: boolean;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function changed(shown: string): Refusal {
  return refuse('changed', `path ${shown} changed while it was checked: it was not used`);
}

/** `lstat` for a path that a concurrent change may just have removed. */
async function lstatResult(path: string, shown: string): Promise<PathResult<Stats>> {
  try {
    return ok(await lstat(path));
  } catch (error) {
    return fsProblem(error, shown);
  }
}

function linkOut(shown: string): Refusal {
  return refuse(
    'symlink-out',
    `path ${shown} leads outside the allowed paths through a symbolic link`,
  );
}

/**
 * Follows `segments` from the root. Each segment before the last must be a
 * folder; a link is replaced by its realpath, which must lie inside the root,
 * outside every hidden prefix and within the allowlist. The caller re-checks
 * the end result with {@link recheck}.
 */
export async function walk(
  c: Confinement,
  segments: readonly string[],
  shown: string,
  options: WalkOptions = {},
): Promise<PathResult<Walked>> {
  let abs = c.root;
  let real: string[] = [];
  let stat = await lstat(c.root);
  let viaLink = false;
  for (const name of segments) {
    if (!stat.isDirectory()) {
      return refuse(
        'not-directory',
        `path ${shown} does not exist: ${quote(relOf(real))} is not a folder`,
      );
    }
    let next = join(abs, name);
    let found: Stats;
    try {
      found = await lstat(next);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || options.create !== true) return fsProblem(error, shown);
      const made = await makeDir(c, abs, name, shown);
      if (!made.ok) return made;
      const again = await lstatResult(next, shown);
      if (!again.ok) return again;
      found = again.value;
    }
    if (found.isSymbolicLink()) {
      let target: string;
      try {
        target = await realpath(next);
      } catch (error) {
        if (errorCode(error) === 'ELOOP') return linkOut(shown);
        if (errorCode(error) === 'ENOENT') return dangling(c, next, shown);
        return fsProblem(error, shown);
      }
      const inside = segmentsInside(c.root, target);
      if (inside === undefined) return linkOut(shown);
      if (options.hiddenOk !== true) {
        // A link must land on an allowed path, so links cannot probe what lies elsewhere.
        const landed = recheck(c, inside, true, shown);
        if (!landed.ok) return landed;
      }
      const landedStat = await lstatResult(target, shown);
      if (!landedStat.ok) return landedStat;
      next = target;
      real = inside;
      viaLink = true;
      found = landedStat.value;
    } else {
      real = [...real, name];
    }
    abs = next;
    stat = found;
  }
  return ok({ abs, segments: real, stat, viaLink });
}

/**
 * A link whose target is missing: "not found" only when it points at an
 * allowed place, so a link cannot tell whether something exists outside.
 */
async function dangling(c: Confinement, link: string, shown: string): Promise<Refusal> {
  let pointed: string;
  try {
    pointed = await readlink(link);
  } catch (error) {
    // EINVAL: no longer a link, swapped while we looked.
    if (errorCode(error) === 'EINVAL') return changed(shown);
    return fsProblem(error, shown);
  }
  const target = resolve(dirname(link), pointed);
  const inside = segmentsInside(c.root, target);
  if (inside === undefined || !checkSegments(c, inside, shown).ok) return linkOut(shown);
  return refuse('not-found', `path ${shown} does not exist`);
}

/**
 * Re-checks the real segments a walk ended at against the allowlist, hidden
 * prefixes and case aliases: a link inside `Workspace/` to
 * `../AgentSettings.json` is refused here.
 */
export function recheck(
  c: Confinement,
  segments: readonly string[],
  viaLink: boolean,
  shown: string,
): PathResult<true> {
  const checked = checkSegments(c, segments, shown);
  if (checked.ok || !viaLink || checked.problem.code === 'hidden') return checked;
  return linkOut(shown);
}

/** Creates one folder inside an opened (pinned) parent, so it cannot land outside the root. */
async function makeDir(
  c: Confinement,
  parent: string,
  name: string,
  shown: string,
): Promise<PathResult<true>> {
  const dir = await openDir(c, parent, shown);
  if (!dir.ok) return dir;
  try {
    await mkdir(dir.value.child(name));
    return ok(true);
  } catch (error) {
    return errorCode(error) === 'EEXIST' ? ok(true) : fsProblem(error, shown);
  } finally {
    await dir.value.close();
  }
}
