// Walks a lexically checked path from the real root one name at a time (I5):
// each name is checked against the confinement BEFORE the disk is asked about
// it, folders are entered through their parent's descriptor, and a link is
// read, never resolved by the kernel: its target's names join the walk. So no
// hidden or outside folder is ever traversed, and a failure while following a
// link has one answer, whatever exists beyond the boundary.

import type { Stats } from 'node:fs';
import { lstat, mkdir, readlink } from 'node:fs/promises';
import type { Confinement } from './confinement.js';
import type { OpenedDir } from './descriptor.js';
import { absOf, openFolder, openRoot } from './descriptor.js';
import { checkSegments, isPlainName, relOf } from './lexical.js';
import type { PathResult, Refusal } from './problem.js';
import { changed, errorCode, fsProblem, linkRefusal, ok, quote, refuse } from './problem.js';

/** Links one walk follows before it refuses the path as a loop (Linux's own limit). */
export const MAX_LINK_HOPS = 40;
/** Names one walk may visit, link targets included, so its cost is bounded. */
const MAX_STEPS = 4096;

export interface WalkOptions {
  /** `follow`: the last name is resolved through links like every other; `entry`: the last entry itself, never followed (a write, a trash). */
  readonly last: 'follow' | 'entry';
  /** Create missing folders on the way, and with `follow` at the end. */
  readonly create?: boolean;
  /** Only the trash's own walk: no link is followed anywhere, and this hidden prefix may be entered. */
  readonly trash?: readonly string[];
}

export interface Walked {
  /** The folder the walk ended in, or the folder holding the end; pinned, and the caller closes it. */
  readonly dir: OpenedDir;
  /** The end's name in `dir`; `undefined` when the end is `dir` itself. */
  readonly name: string | undefined;
  /** `lstat` of a named end (never a link, but with `entry`); `undefined` when an `entry` end does not exist. */
  readonly stat: Stats | undefined;
  /** Real segments of the end below the root. */
  readonly segments: readonly string[];
  /** Whether a link was followed on the way. */
  readonly viaLink: boolean;
  /** The folders this walk created, outermost first. */
  readonly made: readonly (readonly string[])[];
}

/** Follows `segments` from the root; see {@link WalkOptions} for the end. */
export async function walk(
  c: Confinement,
  segments: readonly string[],
  shown: string,
  options: WalkOptions,
): Promise<PathResult<Walked>> {
  const root = await openRoot(c, shown);
  if (!root.ok) return root;
  const walker = new Walker(c, shown, options, root.value, segments);
  const result = await walker.run();
  if (!result.ok) await walker.dir.close();
  return result;
}

type Step = PathResult<Walked> | undefined;

/** What a name in the pinned folder turned out to be. */
type Found =
  | { readonly kind: 'folder'; readonly dir: OpenedDir }
  | { readonly kind: 'link' }
  | { readonly kind: 'other'; readonly stat: Stats }
  | { readonly kind: 'missing' };

class Walker {
  dir: OpenedDir;
  /** Names still to visit, the next one last. */
  private readonly pending: string[];
  private readonly made: (readonly string[])[] = [];
  private viaLink = false;
  private hops = 0;
  private steps = 0;

  constructor(
    private readonly c: Confinement,
    private readonly shown: string,
    private readonly options: WalkOptions,
    root: OpenedDir,
    segments: readonly string[],
  ) {
    this.dir = root;
    this.pending = [...segments].reverse();
  }

  async run(): Promise<PathResult<Walked>> {
    for (let name = this.pending.pop(); name !== undefined; name = this.pending.pop()) {
      this.steps += 1;
      // `.`, `..` and empty names come only from link targets: the lexical check refused them.
      if (name === '' || name === '.') continue;
      const step = name === '..' ? await this.stepBack() : await this.visit(name);
      if (step !== undefined) return step;
    }
    // The end is the folder the walk stands in, reached by a folder name, `..` or `.`.
    const checked = checkSegments(this.c, this.dir.segments, this.shown, this.options.trash);
    return checked.ok ? this.end(undefined, undefined) : this.fail(checked);
  }

  /** Once a link was followed, every refusal but a race gets the one link answer. */
  private fail(refusal: Refusal): Refusal {
    return this.viaLink && refusal.problem.code !== 'changed' ? linkRefusal(this.shown) : refusal;
  }

  private end(name: string | undefined, stat: Stats | undefined): PathResult<Walked> {
    const segments = name === undefined ? this.dir.segments : [...this.dir.segments, name];
    return ok({ dir: this.dir, name, stat, segments, viaLink: this.viaLink, made: this.made });
  }

  /** One name: checked as a place first, only then looked up, then entered, followed or returned. */
  private async visit(name: string): Promise<Step> {
    const last = this.pending.length === 0;
    const position = [...this.dir.segments, name];
    if (this.viaLink && !isPlainName(name)) return linkRefusal(this.shown);
    const checked = checkSegments(this.c, position, this.shown, this.options.trash);
    if (!checked.ok) return this.fail(checked);
    if (last && this.options.last === 'entry') {
      const looked = await this.look(name);
      return looked.ok ? this.end(name, looked.value) : this.fail(looked);
    }

    // A name on the way is most likely a folder, the last one most likely a file.
    let found = await this.find(name, !last);
    if (found.ok && found.value.kind === 'missing' && this.options.create === true) {
      const made = await this.makeFolder(name);
      found = made.ok ? await this.find(name, true) : made;
    }
    if (!found.ok) return this.fail(found);
    switch (found.value.kind) {
      case 'folder':
        await this.dir.close();
        this.dir = found.value.dir;
        return undefined;
      case 'link':
        return this.follow(name, position);
      case 'other':
        if (last) return this.end(name, found.value.stat);
        return this.fail(
          refuse(
            'not-directory',
            `path ${this.shown} does not exist: ${quote(relOf(position))} is not a folder`,
          ),
        );
      case 'missing':
        return this.fail(refuse('not-found', `path ${this.shown} does not exist`));
    }
  }

  /** Opens `name` as a folder, or finds out what it is instead. */
  private async find(name: string, folderFirst: boolean): Promise<PathResult<Found>> {
    const segments = [...this.dir.segments, name];
    const child = this.dir.child(name);
    if (folderFirst) {
      const opened = await openFolder(this.c, child, segments, this.dir, this.shown);
      if (opened.ok) return ok({ kind: 'folder', dir: opened.value });
      const why = 'errno' in opened ? opened.errno : undefined;
      if (why === 'ELOOP') return ok({ kind: 'link' });
      if (why !== 'ENOTDIR' && why !== 'ENOENT') return opened;
    }
    const looked = await this.look(name);
    if (!looked.ok) return looked;
    const stat = looked.value;
    if (stat === undefined) return ok({ kind: 'missing' });
    if (stat.isSymbolicLink()) return ok({ kind: 'link' });
    if (!stat.isDirectory()) return ok({ kind: 'other', stat });
    if (folderFirst) return changed(this.shown); // it was no folder a moment ago
    const opened = await openFolder(this.c, child, segments, this.dir, this.shown);
    if (opened.ok) return ok({ kind: 'folder', dir: opened.value });
    const errno = 'errno' in opened ? opened.errno : undefined;
    return errno === 'ELOOP' || errno === 'ENOTDIR' || errno === 'ENOENT'
      ? changed(this.shown)
      : opened;
  }

  /** `lstat` of a name in the pinned folder; `undefined` when it does not exist. */
  private async look(name: string): Promise<PathResult<Stats | undefined>> {
    try {
      return ok(await lstat(this.dir.child(name)));
    } catch (error) {
      if (!(await this.dir.stillThere())) return changed(this.shown);
      return errorCode(error) === 'ENOENT' ? ok(undefined) : fsProblem(error, this.shown);
    }
  }

  private async makeFolder(name: string): Promise<PathResult<true>> {
    try {
      await mkdir(this.dir.child(name));
      this.made.push([...this.dir.segments, name]);
      return ok(true);
    } catch (error) {
      return errorCode(error) === 'EEXIST' ? ok(true) : fsProblem(error, this.shown);
    }
  }

  /** Reads the link and queues its target's names; an absolute target must spell the root. */
  private async follow(name: string, position: readonly string[]): Promise<Step> {
    if (this.options.trash !== undefined) {
      return refuse(
        'symlink',
        `path ${this.shown} cannot be moved to the trash: ${quote(relOf(position))} is a symbolic link, and the trash must be real folders`,
      );
    }
    this.viaLink = true;
    this.hops += 1;
    if (this.hops > MAX_LINK_HOPS) return linkRefusal(this.shown);
    let target: string;
    try {
      target = await readlink(this.dir.child(name));
    } catch (error) {
      const code = errorCode(error);
      if (code === undefined) throw error;
      return code === 'EINVAL' || code === 'ENOENT' ? changed(this.shown) : linkRefusal(this.shown);
    }
    let parts = target.split('/');
    if (target.startsWith('/')) {
      const rest = belowRoot(this.c.root, parts);
      if (rest === undefined) return linkRefusal(this.shown);
      const back = await this.backTo(0);
      if (back !== undefined) return back;
      parts = rest;
    }
    if (this.steps + this.pending.length + parts.length > MAX_STEPS) return linkRefusal(this.shown);
    for (let i = parts.length - 1; i >= 0; i -= 1) this.pending.push(parts[i] ?? '');
    return undefined;
  }

  /** `..` in a link target: back from a folder known to be real and inside, never above the root. */
  private stepBack(): Promise<Step> {
    const depth = this.dir.segments.length;
    return depth === 0 ? Promise.resolve(linkRefusal(this.shown)) : this.backTo(depth - 1);
  }

  /** Returns to the folder the walk passed at `depth`, which must still lie at its real path. */
  private async backTo(depth: number): Promise<Step> {
    const segments = this.dir.segments.slice(0, depth);
    // Pinned, `<fd>/..` is the kernel's parent of this very folder; otherwise the real path.
    const parent = this.dir.pinned && depth === this.dir.segments.length - 1;
    const path = parent ? `${this.dir.path}/..` : absOf(this.c, segments);
    const opened = await openFolder(this.c, path, segments, undefined, this.shown);
    if (!opened.ok) return 'errno' in opened ? changed(this.shown) : this.fail(opened);
    await this.dir.close();
    this.dir = opened.value;
    return undefined;
  }
}

/**
 * The parts of an absolute link target below the root, or `undefined` when
 * it does not spell the root's real path first (a target above or beside the
 * root is refused without asking the disk about it).
 */
function belowRoot(root: string, parts: readonly string[]): string[] | undefined {
  const rootSegments = root.split('/').filter((s) => s !== '');
  let matched = 0;
  for (let i = 0; i < parts.length; i += 1) {
    if (matched === rootSegments.length) return parts.slice(i);
    const part = parts[i];
    if (part === '' || part === '.') continue;
    if (part !== rootSegments[matched]) return undefined;
    matched += 1;
  }
  return matched === rootSegments.length ? [] : undefined;
}
