// Transactional runs (E44): a command runs over a copy-on-write layer of its
// writable roots, and what it really did is read from the layer and decided
// before anything lands. Each root is overlaid in the sandbox's own mount
// namespace (an unprivileged user namespace, `unshare -Urm`, then overlayfs
// with `userxattr`): the command sees and changes the merged view, the real
// folder stays as it was, and the changes collect in the layer's upper folder.
//
// After the command ends, a few lines still inside that namespace list the
// merged view of every folder the layer holds that the real folder has too:
// what the real folder holds and the merged view does not was deleted (a
// whiteout, or a folder made anew over an old one). Node reads the upper
// folder, the real folder and those listings; a layer it cannot read whole is
// discarded, never landed in part.
//
// Landing goes through the one path confinement (`paths/`), never through a
// link out of a root: deletions first, then new folders, then each file
// renamed over its target (written beside it under a temporary name first, so
// no reader sees half a file). The layer's files are renamed where it lies on
// the root's file system; elsewhere they are first copied into a staging
// folder of the root, and a copy that fails changes nothing.
//
// The layer lives in its own folder, which this module makes and removes; it
// knows nothing of processes or decisions, so a resident process can own it.

import type { Dirent, Stats } from 'node:fs';
import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rename,
  rm,
  symlink,
} from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join, sep } from 'node:path';
import type { Confinement } from '../paths/index.js';
import { confinement, walk } from '../paths/index.js';
import type { OpenedDir } from '../paths/descriptor.js';

/** The most deleted files listed one by one; past it a deletion is decided on its folders (E44). */
export const MAX_LISTED_DELETIONS = 50_000;
/** The most entries a layer may hold: a run that writes more is not landed. */
export const MAX_LAYER_ENTRIES = 500_000;

/** One writable root and where its layer lives. */
export interface LayerRoot {
  /** The real folder the command sees through the overlay. */
  readonly real: string;
  /** The layer's folders for it: `lower` (the real folder, bound), `upper`, `work`, `listing`. */
  readonly base: string;
}

export interface Layer {
  readonly dir: string;
  readonly roots: readonly LayerRoot[];
}

/** A step of landing one root, in the order it is made. */
export type LandStep =
  | { readonly kind: 'delete'; readonly rel: string }
  | { readonly kind: 'dir'; readonly rel: string; readonly mode: number }
  | { readonly kind: 'file'; readonly rel: string; readonly source: string; readonly mode: number }
  | { readonly kind: 'link'; readonly rel: string; readonly target: string };

/** What a command did to one root, read from its layer. */
export interface RootEffects {
  readonly root: string;
  /** Entries deleted, topmost only (a deleted folder stands for all it held); relative to the root. */
  readonly deleted: readonly string[];
  /** Each file (or link) those deletions removed, relative; empty past MAX_LISTED_DELETIONS. */
  readonly deletedFiles: readonly string[];
  /** How many files they removed; null past MAX_LISTED_DELETIONS. */
  readonly deletedCount: number | null;
  /** Files and links created or changed, relative to the root. */
  readonly written: readonly string[];
  /** Folders created, relative to the root. */
  readonly made: readonly string[];
  readonly steps: readonly LandStep[];
}

export interface Observed {
  readonly roots: readonly RootEffects[];
}

/** Makes a layer for `roots` (real, absolute folders) in a new folder under `parent`. */
export async function createLayer(parent: string, roots: readonly string[]): Promise<Layer> {
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const dir = await mkdtemp(join(parent, 'warden-layer-'));
  const made: LayerRoot[] = [];
  for (const [index, real] of roots.entries()) {
    const base = join(dir, String(index));
    for (const part of ['lower', 'upper', 'work'])
      await mkdir(join(base, part), { recursive: true });
    made.push({ real, base });
  }
  return { dir, roots: made };
}

/** Whether the layer was set up: without it the command never started. */
export async function layerMounted(layer: Layer): Promise<boolean> {
  return (await lstatOrNull(join(layer.dir, 'mounted'))) !== null;
}

/** Removes a layer: what it holds never lands. */
export async function discardLayer(layer: Layer): Promise<void> {
  await rm(layer.dir, { recursive: true, force: true }).catch(() => undefined);
}

/** Quotes one word for bash. */
function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The bash lines run inside the new mount namespace before the sandbox
 * starts: each root's real folder is bound under the layer (the lower
 * folder, still readable after the overlay hides it), then overlaid.
 */
export function mountLines(layer: Layer): string[] {
  const lines: string[] = [];
  for (const root of layer.roots) {
    const lower = join(root.base, 'lower');
    const options = `lowerdir=${lower},upperdir=${join(root.base, 'upper')},workdir=${join(root.base, 'work')},userxattr`;
    lines.push(`mount --bind -- ${q(root.real)} ${q(lower)} || exit 125`);
    lines.push(`mount -t overlay overlay -o ${q(options)} -- ${q(root.real)} || exit 125`);
  }
  // Said only once every root is overlaid: without it, nothing ran.
  lines.push(`: > ${q(join(layer.dir, 'mounted'))}`);
  return lines;
}

/**
 * The bash lines run inside the namespace after the command ended: for every
 * folder of the upper layer that the real folder also holds, the names its
 * merged view holds now (`<folder>\0<name>\0`…), so deletions are seen even
 * where the overlay made a folder anew (an opaque folder).
 */
export function listingLines(layer: Layer): string[] {
  return layer.roots.map((root) => {
    const upper = join(root.base, 'upper');
    const lower = join(root.base, 'lower');
    const listing = join(root.base, 'listing');
    return (
      `( cd ${q(upper)} && find . -type d -printf '%P\\0' | ` +
      `while IFS= read -r -d '' d; do [ -d ${q(lower)}"/$d" ] && printf '%s\\0' ${q(root.real)}"/$d"; done | ` +
      `xargs -0 -r bash -c 'exec find "$@" -mindepth 1 -maxdepth 1 -printf "%H\\0%f\\0"' find ) > ${q(listing)} 2>/dev/null`
    );
  });
}

/** Thrown when a layer cannot be read whole: it is then discarded. */
export class LayerUnreadable extends Error {
  override readonly name = 'LayerUnreadable';
}

function relJoin(rel: string, name: string): string {
  return rel === '' ? name : `${rel}/${name}`;
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch {
    return null;
  }
}

/** The merged names of each listed folder, by its path relative to the root. */
async function readListing(root: LayerRoot): Promise<Map<string, Set<string>>> {
  let text: string;
  try {
    text = await readFile(join(root.base, 'listing'), 'latin1');
  } catch {
    throw new LayerUnreadable('the merged view of the layer was not listed');
  }
  const out = new Map<string, Set<string>>();
  const parts = text.split('\0');
  const prefix = `${root.real}/`;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const folder = Buffer.from(parts[i] as string, 'latin1').toString('utf8');
    const name = Buffer.from(parts[i + 1] as string, 'latin1').toString('utf8');
    if (!folder.startsWith(prefix) && folder !== root.real) continue;
    const rel = folder === root.real ? '' : folder.slice(prefix.length).replace(/\/+$/, '');
    let set = out.get(rel);
    if (set === undefined) out.set(rel, (set = new Set()));
    set.add(name);
  }
  return out;
}

/** Whether an upper entry is an overlay whiteout: a character device 0:0. */
function isWhiteout(stat: Stats): boolean {
  return stat.isCharacterDevice() && stat.rdev === 0;
}

/** Files under a deleted folder of the real root, up to a cap: each one the deletion removed. */
async function filesUnder(
  real: string,
  rel: string,
  budget: { left: number },
): Promise<string[] | null> {
  const out: string[] = [];
  const pending = [rel];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(join(real, current), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const child = relJoin(current, entry.name);
      if (entry.isDirectory()) pending.push(child);
      else {
        if (--budget.left < 0) return null;
        out.push(child);
      }
    }
  }
  return out;
}

async function readRoot(root: LayerRoot): Promise<RootEffects> {
  const listing = await readListing(root);
  const upper = join(root.base, 'upper');
  const deleted: string[] = [];
  const written: string[] = [];
  const made: string[] = [];
  const steps: LandStep[] = [];
  let entries = 0;
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.shift() as string;
    const here = join(upper, rel);
    let children: string[];
    try {
      children = await readdir(here);
    } catch (error) {
      throw new LayerUnreadable(
        `the layer's folder \`${rel || '.'}\` cannot be read: ${(error as Error).message}`,
      );
    }
    const merged = listing.get(rel);
    if (merged !== undefined) {
      // What the real folder holds and the merged view does not, was deleted.
      let lowerNames: string[] = [];
      try {
        lowerNames = await readdir(join(root.real, rel));
      } catch {
        lowerNames = [];
      }
      for (const name of lowerNames)
        if (!merged.has(name)) {
          deleted.push(relJoin(rel, name));
          steps.push({ kind: 'delete', rel: relJoin(rel, name) });
        }
    }
    for (const name of children) {
      if (++entries > MAX_LAYER_ENTRIES)
        throw new LayerUnreadable(
          `the command changed more than ${MAX_LAYER_ENTRIES.toLocaleString('en')} entries`,
        );
      const child = relJoin(rel, name);
      const stat = await lstat(join(here, name));
      const lowerStat = await lstatOrNull(join(root.real, child));
      if (isWhiteout(stat)) {
        if (lowerStat !== null && merged === undefined) {
          deleted.push(child);
          steps.push({ kind: 'delete', rel: child });
        }
        continue;
      }
      // A folder replaced by a file, or a file by a folder: the old one is deleted first.
      const replaced = lowerStat !== null && lowerStat.isDirectory() !== stat.isDirectory();
      if (replaced && !(merged !== undefined && deleted.includes(child))) {
        deleted.push(child);
        steps.push({ kind: 'delete', rel: child });
      }
      if (stat.isDirectory()) {
        if (lowerStat === null || replaced) {
          made.push(child);
          steps.push({ kind: 'dir', rel: child, mode: stat.mode & 0o7777 });
        }
        pending.push(child);
      } else if (stat.isFile()) {
        written.push(child);
        steps.push({
          kind: 'file',
          rel: child,
          source: join(here, name),
          mode: stat.mode & 0o7777,
        });
      } else if (stat.isSymbolicLink()) {
        written.push(child);
        steps.push({ kind: 'link', rel: child, target: await readlink(join(here, name)) });
      } else if (stat.isSocket()) {
        // A socket a finished process left behind is dead: it does not land.
        continue;
      } else {
        throw new LayerUnreadable(
          `the command made \`${child}\`, which is neither a file, a folder nor a link`,
        );
      }
    }
  }
  // Each file a deletion removed, as far as the cap allows.
  const budget = { left: MAX_LISTED_DELETIONS };
  const files: string[] = [];
  let over = false;
  for (const rel of deleted) {
    const stat = await lstatOrNull(join(root.real, rel));
    if (stat?.isDirectory() === true) {
      const under = over ? null : await filesUnder(root.real, rel, budget);
      if (under === null) over = true;
      else files.push(...under);
    } else if (!over) {
      if (--budget.left < 0) over = true;
      else files.push(rel);
    }
  }
  return {
    root: root.real,
    deleted,
    deletedFiles: over ? [] : files,
    deletedCount: over ? null : files.length,
    written,
    made,
    steps,
  };
}

/** What the command did, read from the layer; throws `LayerUnreadable` when it cannot be read whole. */
export async function readLayer(layer: Layer): Promise<Observed> {
  const roots: RootEffects[] = [];
  for (const root of layer.roots) roots.push(await readRoot(root));
  return { roots };
}

// ─── Landing ────────────────────────────────────────────────────────────────

function segmentsOf(rel: string): string[] {
  return rel.split('/').filter((s) => s !== '');
}

/** The folder holding `rel`, walked through the confinement (created with `create`). */
async function parentOf(
  c: Confinement,
  rel: string,
  create: boolean,
): Promise<{ dir: OpenedDir; name: string }> {
  const segments = segmentsOf(rel);
  const name = segments.pop();
  if (name === undefined) throw new Error('the root itself cannot be landed on');
  const walked = await walk(c, segments, `\`${rel}\``, { last: 'follow', create });
  if (!walked.ok) throw new Error(walked.problem.message);
  if (walked.value.name !== undefined) {
    await walked.value.dir.close();
    throw new Error(`\`${segments.join('/')}\` is not a folder`);
  }
  return { dir: walked.value.dir, name };
}

function tempName(): string {
  return `.warden-land-${randomBytes(8).toString('hex')}`;
}

async function sameDevice(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([lstatOrNull(a), lstatOrNull(b)]);
  return x !== null && y !== null && x.dev === y.dev;
}

/** Runs `work` on the folder holding `rel`, closing it after. */
async function inParent<T>(
  c: Confinement,
  rel: string,
  create: boolean,
  work: (dir: OpenedDir, name: string) => Promise<T>,
): Promise<T> {
  const { dir, name } = await parentOf(c, rel, create);
  try {
    return await work(dir, name);
  } finally {
    await dir.close();
  }
}

async function landRoot(effects: RootEffects, upper: string): Promise<void> {
  const c = await confinement({ root: effects.root });
  const files = effects.steps.filter(
    (step): step is Extract<LandStep, { kind: 'file' }> => step.kind === 'file',
  );
  // 1. Every new file where a rename can take it: the layer itself when it lies on the root's
  //    file system, else a copy in a staging folder of the root. A failed copy changes nothing.
  const sources = new Map<string, string>();
  let staging: string | null = null;
  if (files.length > 0 && !(await sameDevice(upper, effects.root))) {
    staging = await mkdtemp(join(effects.root, '.warden-landing-'));
    try {
      for (const [index, step] of files.entries()) {
        const copy = join(staging, String(index));
        await copyFile(step.source, copy);
        sources.set(step.rel, copy);
      }
    } catch (error) {
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
      throw new LayerUnreadable(`the layer could not be copied: ${(error as Error).message}`);
    }
  }
  try {
    // 2. Deletions, then folders, then each file and link renamed into place.
    for (const step of effects.steps) {
      if (step.kind !== 'delete') continue;
      await inParent(c, step.rel, false, (dir, name) =>
        rm(dir.child(name), { recursive: true, force: true }),
      ).catch((error: Error) => {
        // Gone already, or its folder went with a deletion above.
        if (!/ENOENT|not a folder|missing|no such/i.test(error.message)) throw error;
      });
    }
    for (const step of effects.steps) {
      if (step.kind !== 'dir') continue;
      await inParent(c, step.rel, true, async (dir, name) => {
        const existing = await lstatOrNull(dir.child(name));
        if (existing !== null && !existing.isDirectory())
          await rm(dir.child(name), { force: true });
        if (existing === null || !existing.isDirectory()) await mkdir(dir.child(name));
        await chmod(dir.child(name), step.mode);
      });
    }
    // Files and links by folder: each folder is walked to once, whatever it holds.
    const byFolder = new Map<string, Extract<LandStep, { kind: 'file' | 'link' }>[]>();
    for (const step of effects.steps) {
      if (step.kind !== 'file' && step.kind !== 'link') continue;
      const folder = step.rel.includes('/') ? step.rel.slice(0, step.rel.lastIndexOf('/')) : '';
      const list = byFolder.get(folder);
      if (list === undefined) byFolder.set(folder, [step]);
      else list.push(step);
    }
    for (const steps of byFolder.values()) {
      await inParent(c, (steps[0] as LandStep).rel, true, async (dir) => {
        for (const step of steps) {
          const name = step.rel.slice(step.rel.lastIndexOf('/') + 1);
          const temp = dir.child(tempName());
          if (step.kind === 'link') await symlink(step.target, temp);
          else {
            await rename(sources.get(step.rel) ?? step.source, temp);
            await chmod(temp, step.mode);
          }
          const target = dir.child(name);
          const existing = await lstatOrNull(target);
          // A folder where a file lands was deleted above; anything else is replaced whole.
          if (existing?.isDirectory() === true) await rm(target, { recursive: true, force: true });
          await rename(temp, target);
        }
      });
    }
  } finally {
    if (staging !== null)
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Lands what the layer holds on the real roots. A failure while placing
 * leaves the roots as they were and throws `LayerUnreadable`; the layer's
 * folder is removed either way.
 */
export async function landLayer(layer: Layer, observed: Observed): Promise<void> {
  try {
    for (const [index, root] of observed.roots.entries()) {
      const layerRoot = layer.roots[index];
      if (layerRoot === undefined) throw new LayerUnreadable('the layer does not hold this root');
      await landRoot(root, join(layerRoot.base, 'upper'));
    }
  } finally {
    await discardLayer(layer);
  }
}

/** The path of `rel` under `root`, for messages and requests. */
export function absoluteOf(root: string, rel: string): string {
  return rel === '' ? root : `${root}${sep}${rel}`;
}
