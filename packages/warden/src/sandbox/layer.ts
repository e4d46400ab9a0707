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
// link out of a root: deletions first, then the folders that replaced files,
// then each folder the real root did not have, renamed into place whole (the
// layer holds all of it), then each other file renamed over its target (a
// rename replaces it whole, so no reader sees half a file). That works where
// the layer lies on the root's file system; elsewhere every file is first
// copied into a staging folder of the root, and a copy that fails changes
// nothing.
//
// The layer lives in its own folder, which this module makes and removes; it
// knows nothing of processes or decisions, so a resident process can own it.

import type { Dirent, Stats } from 'node:fs';
import { renameSync, rmSync, symlinkSync } from 'node:fs';
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

/**
 * A step of landing one root, in the order it is made. A `tree` is a folder
 * the real root did not have: the layer holds all of it, so it lands by one
 * rename (its sockets, dead once the command ended, removed first).
 */
export type LandStep =
  | { readonly kind: 'delete'; readonly rel: string }
  | { readonly kind: 'dir'; readonly rel: string; readonly mode: number }
  | { readonly kind: 'file'; readonly rel: string; readonly source: string }
  | { readonly kind: 'link'; readonly rel: string; readonly target: string }
  | {
      readonly kind: 'tree';
      readonly rel: string;
      readonly source: string;
      readonly sockets: readonly string[];
    };

/** What a command did to one root, read from its layer. */
export interface RootEffects {
  readonly root: string;
  /** The layer's upper folder for this root: a written file's content is there, at its path. */
  readonly upper: string;
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
    // One `find` for the layer's folders; the merged names by bash's own globbing (no process
    // per folder): `<folder>\0<name>\0` for each name, `.` and `..` left out.
    return [
      `( shopt -s nullglob dotglob; cd ${q(upper)} || exit 1`,
      `  find . -type d -printf '%P\\0' | while IFS= read -r -d '' d; do`,
      `    [ -d ${q(lower)}"/$d" ] || continue`,
      `    m=${q(root.real)}"\${d:+/$d}"`,
      `    for f in "$m"/*; do printf '%s\\0%s\\0' "$m" "\${f##*/}"; done`,
      `  done ) > ${q(listing)} 2>/dev/null`,
    ].join('\n');
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
  // Each folder to read, and the new folder it lies in (`null` where the real root has it too):
  // inside a new folder nothing exists in the real root, so nothing there is looked up.
  const pending: { rel: string; tree: { sockets: string[] } | null }[] = [{ rel: '', tree: null }];
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    const { rel, tree } = next;
    const here = join(upper, rel);
    let children: Dirent[];
    try {
      children = await readdir(here, { withFileTypes: true });
    } catch (error) {
      throw new LayerUnreadable(
        `the layer's folder \`${rel || '.'}\` cannot be read: ${(error as Error).message}`,
      );
    }
    const merged = tree === null ? listing.get(rel) : undefined;
    // What the real folder holds here, read once (a new folder's counterpart holds nothing).
    const lower = new Map<string, Dirent>();
    if (tree === null) {
      try {
        for (const entry of await readdir(join(root.real, rel), { withFileTypes: true }))
          lower.set(entry.name, entry);
      } catch {
        // Not a folder in the real root (a file the command replaced by one): nothing is there.
      }
    }
    if (merged !== undefined) {
      // What the real folder holds and the merged view does not, was deleted.
      for (const name of lower.keys())
        if (!merged.has(name)) {
          deleted.push(relJoin(rel, name));
          steps.push({ kind: 'delete', rel: relJoin(rel, name) });
        }
    }
    for (const entry of children) {
      if (++entries > MAX_LAYER_ENTRIES)
        throw new LayerUnreadable(
          `the command changed more than ${MAX_LAYER_ENTRIES.toLocaleString('en')} entries`,
        );
      const name = entry.name;
      const child = relJoin(rel, name);
      const lowerStat = lower.get(name) ?? null;
      if (entry.isCharacterDevice()) {
        const stat = await lstat(join(here, name));
        if (isWhiteout(stat)) {
          if (lowerStat !== null && merged === undefined) {
            deleted.push(child);
            steps.push({ kind: 'delete', rel: child });
          }
          continue;
        }
      }
      // A folder replaced by a file, or a file by a folder: the old one is deleted first.
      const replaced = lowerStat !== null && lowerStat.isDirectory() !== entry.isDirectory();
      if (replaced && !(merged !== undefined && deleted.includes(child))) {
        deleted.push(child);
        steps.push({ kind: 'delete', rel: child });
      }
      if (entry.isDirectory()) {
        if (tree !== null) {
          made.push(child);
          pending.push({ rel: child, tree });
        } else if (lowerStat === null) {
          made.push(child);
          const sockets: string[] = [];
          steps.push({ kind: 'tree', rel: child, source: join(here, name), sockets });
          pending.push({ rel: child, tree: { sockets } });
        } else {
          if (replaced) {
            const stat = await lstat(join(here, name));
            made.push(child);
            steps.push({ kind: 'dir', rel: child, mode: stat.mode & 0o7777 });
          }
          pending.push({ rel: child, tree: null });
        }
      } else if (entry.isFile()) {
        written.push(child);
        if (tree === null) steps.push({ kind: 'file', rel: child, source: join(here, name) });
      } else if (entry.isSymbolicLink()) {
        written.push(child);
        if (tree === null)
          steps.push({ kind: 'link', rel: child, target: await readlink(join(here, name)) });
      } else if (entry.isSocket()) {
        // A socket a finished process left behind is dead: it does not land.
        if (tree !== null) tree.sockets.push(join(here, name));
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
    upper,
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

/**
 * The steps that land a new folder entry by entry: where it cannot be
 * renamed whole (the layer lies on another file system, or the folder
 * appeared in the real root meanwhile).
 */
async function expandTree(tree: Extract<LandStep, { kind: 'tree' }>): Promise<LandStep[]> {
  const out: LandStep[] = [];
  const sockets = new Set(tree.sockets);
  const pending = [tree.rel];
  const sourceOf = (rel: string): string => join(tree.source, rel.slice(tree.rel.length));
  for (let rel = pending.shift(); rel !== undefined; rel = pending.shift()) {
    const here = sourceOf(rel);
    const stat = await lstat(here);
    out.push({ kind: 'dir', rel, mode: stat.mode & 0o7777 });
    for (const entry of await readdir(here, { withFileTypes: true })) {
      const child = relJoin(rel, entry.name);
      const source = join(here, entry.name);
      if (entry.isDirectory()) pending.push(child);
      else if (entry.isFile()) out.push({ kind: 'file', rel: child, source });
      else if (entry.isSymbolicLink())
        out.push({ kind: 'link', rel: child, target: await readlink(source) });
      else if (!sockets.has(source))
        throw new LayerUnreadable(
          `the command made \`${child}\`, which is neither a file, a folder nor a link`,
        );
    }
  }
  return out;
}

/** How many entries land between two turns of the event loop: a resident process stays responsive. */
const LANDING_BATCH = 256;

/**
 * Runs `work` on every item in batches, synchronously within a batch and
 * yielding to the event loop between them: a rename is a few microseconds of
 * the kernel's, and a thread-pool round trip for each would cost several times that.
 */
async function inBatches<T>(items: readonly T[], work: (item: T) => void): Promise<void> {
  for (let start = 0; start < items.length; start += LANDING_BATCH) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const item of items.slice(start, start + LANDING_BATCH)) work(item);
  }
}

/** Whether a rename failed because something stands at the target. */
function occupied(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR';
}

async function landRoot(effects: RootEffects): Promise<void> {
  const c = await confinement({ root: effects.root });
  const renames = await sameDevice(effects.upper, effects.root);
  // New folders land by one rename each where they can; the rest entry by entry.
  const steps: LandStep[] = [];
  const trees: Extract<LandStep, { kind: 'tree' }>[] = [];
  for (const step of effects.steps) {
    if (step.kind !== 'tree') steps.push(step);
    else if (renames) trees.push(step);
    else steps.push(...(await expandTree(step)));
  }
  const files = steps.filter(
    (step): step is Extract<LandStep, { kind: 'file' }> => step.kind === 'file',
  );
  // 1. Every new file where a rename can take it: the layer itself when it lies on the root's
  //    file system, else a copy in a staging folder of the root. A failed copy changes nothing.
  const sources = new Map<string, string>();
  let staging: string | null = null;
  if (files.length > 0 && !renames) {
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
    // 2. Deletions, then folders, then each new folder renamed whole, then each file and link.
    for (const step of steps) {
      if (step.kind !== 'delete') continue;
      await inParent(c, step.rel, false, (dir, name) =>
        rm(dir.child(name), { recursive: true, force: true }),
      ).catch((error: Error) => {
        // Gone already, or its folder went with a deletion above.
        if (!/ENOENT|not a folder|missing|no such/i.test(error.message)) throw error;
      });
    }
    const landDir = async (step: Extract<LandStep, { kind: 'dir' }>): Promise<void> => {
      await inParent(c, step.rel, true, async (dir, name) => {
        const existing = await lstatOrNull(dir.child(name));
        if (existing !== null && !existing.isDirectory())
          await rm(dir.child(name), { force: true });
        if (existing === null || !existing.isDirectory()) await mkdir(dir.child(name));
        await chmod(dir.child(name), step.mode);
      });
    };
    for (const step of steps) if (step.kind === 'dir') await landDir(step);
    const late: LandStep[] = [];
    for (const tree of trees) {
      for (const socket of tree.sockets) await rm(socket, { force: true });
      const whole = await inParent(c, tree.rel, true, async (dir, name) => {
        try {
          await rename(tree.source, dir.child(name));
          return true;
        } catch (error) {
          if (occupied(error)) return false;
          throw error;
        }
      });
      // Made meanwhile in the real root: what the layer holds lands into it, entry by entry.
      if (!whole) late.push(...(await expandTree(tree)));
    }
    for (const step of late) if (step.kind === 'dir') await landDir(step);
    // Files and links by folder: each folder is walked to once, whatever it holds.
    const byFolder = new Map<string, Extract<LandStep, { kind: 'file' | 'link' }>[]>();
    for (const step of [...steps, ...late]) {
      if (step.kind !== 'file' && step.kind !== 'link') continue;
      const folder = step.rel.includes('/') ? step.rel.slice(0, step.rel.lastIndexOf('/')) : '';
      const list = byFolder.get(folder);
      if (list === undefined) byFolder.set(folder, [step]);
      else list.push(step);
    }
    for (const list of byFolder.values()) {
      await inParent(c, (list[0] as LandStep).rel, true, async (dir) => {
        await inBatches(list, (step) => {
          const target = dir.child(step.rel.slice(step.rel.lastIndexOf('/') + 1));
          // A rename replaces the target whole, so no reader sees half a file; a link is
          // made beside it first.
          let source = sources.get(step.rel) ?? (step.kind === 'file' ? step.source : null);
          if (source === null) {
            source = dir.child(tempName());
            symlinkSync((step as Extract<LandStep, { kind: 'link' }>).target, source);
          }
          try {
            renameSync(source, target);
          } catch (error) {
            // A folder stands where the file lands (made meanwhile): it goes, as the command left it.
            if (!occupied(error)) throw error;
            rmSync(target, { recursive: true, force: true });
            renameSync(source, target);
          }
        });
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
      if (layer.roots[index] === undefined)
        throw new LayerUnreadable('the layer does not hold this root');
      await landRoot(root);
    }
  } finally {
    await discardLayer(layer);
  }
}

/** The path of `rel` under `root`, for messages and requests. */
export function absoluteOf(root: string, rel: string): string {
  return rel === '' ? root : `${root}${sep}${rel}`;
}
