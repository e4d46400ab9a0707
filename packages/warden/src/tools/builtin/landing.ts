// Where a write would land, decided before it is gated (G14c, E10): inside the
// worktree it is not gated; anywhere else it is `fileWriteOutsideWorktree` with
// its real absolute path, found with realpath on the deepest folder that exists,
// so a symlinked folder cannot hide where the bytes go. The text rules are the
// shared module's (I5); this file only follows folders to their real place.

import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { Confinement } from '../../paths/index.js';
import { checkLexical, confinement } from '../../paths/index.js';
import { ToolRefusal } from '../registry.js';
import { accepted } from './options.js';

export type Landing =
  /** Inside the worktree: written with the worktree's confinement, as the relative path. */
  | { readonly inside: true; readonly rel: string }
  /** Outside: the real absolute path the write lands on. */
  | { readonly inside: false; readonly real: string };

let filesystemRoot: Promise<Confinement> | undefined;

/** The shared text rules for an absolute path: the path below `/`, checked like any other. */
async function checkAbsolute(input: string): Promise<string> {
  filesystemRoot ??= confinement({ root: '/' });
  const checked = checkLexical(await filesystemRoot, input.slice(1));
  if (!checked.ok) {
    throw new ToolRefusal(`absolute path \`${input}\` is refused: ${checked.problem.message}`);
  }
  return `/${checked.value.rel}`;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

async function isLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The real path of a folder that may not exist yet: its deepest existing ancestor, resolved, plus the rest. */
export async function realFolder(folder: string, shown: string): Promise<string> {
  const rest: string[] = [];
  let probe = folder;
  for (;;) {
    try {
      return join(await realpath(probe), ...rest);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT') {
        if (await isLink(probe)) {
          throw new ToolRefusal(`path ${shown} leads through a symbolic link to nothing`);
        }
        const parent = dirname(probe);
        if (parent === probe) throw error;
        rest.unshift(basename(probe));
        probe = parent;
        continue;
      }
      if (code === 'ENOTDIR') {
        throw new ToolRefusal(`path ${shown} does not exist: a part of it is not a folder`);
      }
      if (code === 'ELOOP') throw new ToolRefusal(`path ${shown} leads through a loop of links`);
      if (code === 'EACCES' || code === 'EPERM') {
        throw new ToolRefusal(`path ${shown} is not accessible: permission denied`);
      }
      throw error;
    }
  }
}

/** `abs` relative to `root` with `/` separators, or `undefined` outside it. */
export function below(root: string, abs: string): string | undefined {
  const rel = relative(root, abs);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/**
 * Where a write of `input` lands. A relative path is checked by the worktree
 * confinement (so `..` and `.trash` are refused); an absolute path by the same
 * text rules. The final name is never followed: a link there is refused when
 * the write is made, as the shared module never writes through a link.
 */
export async function landing(worktree: Confinement, input: string): Promise<Landing> {
  const shown = `\`${input}\``;
  let relInput: string | undefined;
  let given: string;
  if (input.startsWith('/')) {
    given = await checkAbsolute(input);
  } else {
    relInput = accepted(checkLexical(worktree, input)).rel;
    given = join(worktree.root, relInput);
  }
  const real = join(await realFolder(dirname(given), shown), basename(given));
  const rel = below(worktree.root, real);
  if (rel === undefined) return { inside: false, real };
  // A relative path keeps its form: a folder link that stays inside is the shared
  // module's to follow and re-check. An absolute path into the worktree becomes
  // its relative form, checked by the same rules (so `.trash` stays refused).
  if (relInput !== undefined) return { inside: true, rel: relInput };
  return { inside: true, rel: accepted(checkLexical(worktree, rel)).rel };
}
