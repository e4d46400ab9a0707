// Where a write would land, decided before it is gated (G14c, E10), without
// telling the agent what exists beyond a link. Inside the worktree the shared
// module's walk decides (I5); a folder link that leads out names the place its
// text points to, which is never looked up, so the answer is the same whatever
// exists there. An absolute path outside the worktree is gated with its real
// path, so a symlinked folder cannot hide where the bytes go.

import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Confinement, PathCode } from '../../paths/index.js';
import { MAX_LINK_HOPS, checkLexical, confinement, quote, walk } from '../../paths/index.js';
import { ToolRefusal } from '../registry.js';
import { accepted } from './options.js';

export type Landing =
  /** Inside the worktree: written with the worktree's confinement, as the relative path. */
  | { readonly inside: true; readonly rel: string }
  /**
   * Outside: the absolute path the write lands on. `via` is the folder as
   * given inside the worktree when a link there leads out; the write is made
   * only if that folder still leads to the real folder of `real`.
   */
  | { readonly inside: false; readonly real: string; readonly via?: string };

let filesystemRoot: Promise<Confinement> | undefined;

function folderRefusal(shown: string): ToolRefusal {
  return new ToolRefusal(`path ${shown} names a folder: a file cannot be written there`);
}

/** The shared text rules for an absolute path: the path below `/`, checked like any other. */
async function checkAbsolute(input: string, shown: string): Promise<string> {
  filesystemRoot ??= confinement({ root: '/' });
  const checked = checkLexical(await filesystemRoot, input.slice(1));
  if (!checked.ok) {
    throw new ToolRefusal(`absolute path ${shown} is refused: ${checked.problem.message}`);
  }
  if (checked.value.folder === true) throw folderRefusal(shown);
  return `/${checked.value.rel}`;
}

/** The code a file-system error carries (`ENOENT` …), or `undefined` for any other throw. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The real path of a folder outside the worktree that may not exist: its
 * deepest ancestor that resolves, plus the rest as written. Whatever stops the
 * resolution (a missing name, a file, a loop, a dangling link, no permission)
 * gets the same answer, so the gated path does not tell which; a write there
 * is refused after the gate, as its folder is not a real one.
 */
async function realFolder(folder: string): Promise<string> {
  const rest: string[] = [];
  let probe = folder;
  for (;;) {
    try {
      return join(await realpath(probe), ...rest);
    } catch (error) {
      const parent = dirname(probe);
      if (errorCode(error) === undefined || parent === probe) throw error;
      rest.unshift(basename(probe));
      probe = parent;
    }
  }
}

/** `abs` relative to `root` with `/` separators, or `undefined` outside it. */
function below(root: string, abs: string): string | undefined {
  const rel = relative(root, abs);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** How far a folder walks inside: the real segments reached, and whether the end was a file. */
interface Reached {
  readonly segments: readonly string[];
  readonly file: boolean;
}

type Walk =
  | { readonly ok: true; readonly reached: Reached }
  | { readonly ok: false; readonly code: PathCode };

/** The shared walk to `segments`, following links, inside the worktree only; the refusal's code on failure. */
async function walkTo(c: Confinement, segments: readonly string[], shown: string): Promise<Walk> {
  const walked = await walk(c, segments, shown, { last: 'follow' });
  if (!walked.ok) return { ok: false, code: walked.problem.code };
  await walked.value.dir.close();
  const file = walked.value.name !== undefined;
  return { ok: true, reached: { segments: walked.value.segments, file } };
}

/** The text of the link at `abs`, or `undefined` when it is no link (or cannot be read). */
async function linkText(abs: string): Promise<string | undefined> {
  try {
    return (await lstat(abs)).isSymbolicLink() ? await readlink(abs) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the folder `segments` (lexically checked) lies when a link on the way
 * leads out of the worktree: the absolute place the link's text names, plus
 * the rest of the path; `undefined` when it lies inside or the shared module
 * will refuse it. Only the worktree is asked about: the walk reaches the
 * deepest folder it can (a failure there means a failure beyond), and the
 * link found next is read, never followed. A link whose text stays inside is
 * replaced by its target and the search goes on.
 */
async function outsidePlace(
  c: Confinement,
  segments: readonly string[],
  shown: string,
): Promise<string | undefined> {
  let current = [...segments];
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops += 1) {
    const whole = await walkTo(c, current, shown);
    if (whole.ok || whole.code !== 'symlink-out') return undefined;
    // A walk that fails at a name fails for every longer path: search for the deepest that does not.
    let reached: Reached = { segments: [], file: false };
    let lo = 0;
    let hi = current.length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      const part = await walkTo(c, current.slice(0, mid), shown);
      if (part.ok) {
        lo = mid;
        reached = part.reached;
      } else {
        hi = mid;
      }
    }
    const name = current[lo];
    if (reached.file || name === undefined) return undefined;
    const position = [...reached.segments, name];
    if (!checkLexical(c, position.join('/')).ok) return undefined;
    const text = await linkText(join(c.root, ...position));
    if (text === undefined) return undefined;
    const target = resolve(c.root, ...reached.segments, text);
    const rest = current.slice(lo + 1);
    const rel = below(c.root, target);
    if (rel === undefined) return join(target, ...rest);
    current = rel === '.' ? rest : [...rel.split('/'), ...rest];
  }
  return undefined; // a loop: the shared module refuses it when the write is made
}

/** A path inside the worktree, relative: inside, or outside through a folder link. */
async function fromWorktree(worktree: Confinement, input: string, shown: string): Promise<Landing> {
  const lexical = accepted(checkLexical(worktree, input));
  const name = lexical.segments.at(-1);
  if (lexical.folder === true || name === undefined) throw folderRefusal(shown);
  const folder = lexical.segments.slice(0, -1);
  const outside = await outsidePlace(worktree, folder, shown);
  if (outside === undefined) return { inside: true, rel: lexical.rel };
  return { inside: false, real: join(outside, name), via: folder.join('/') };
}

/**
 * Where a write of `input` lands. A relative path — or an absolute one that
 * spells a place in the worktree — is checked by the worktree confinement (so
 * `..` and `.trash` are refused); any other absolute path by the same text
 * rules. A trailing `/` is refused: a file cannot be named that way. The
 * final name is never followed: a link there is refused when the write is
 * made, as the shared module never writes through a link.
 */
export async function landing(worktree: Confinement, input: string): Promise<Landing> {
  const shown = quote(input);
  if (!input.startsWith('/')) return fromWorktree(worktree, input, shown);
  const given = await checkAbsolute(input, shown);
  const spelled = below(worktree.root, given);
  if (spelled !== undefined) return fromWorktree(worktree, spelled, shown);
  const real = join(await realFolder(dirname(given)), basename(given));
  const rel = below(worktree.root, real);
  if (rel === undefined) return { inside: false, real };
  // An absolute path whose real place is in the worktree becomes that place's
  // relative form, checked by the same rules (so `.trash` stays refused).
  return { inside: true, rel: accepted(checkLexical(worktree, rel)).rel };
}
