// What a simple command does, as classes with extracted arguments. Extraction
// leaves what it does not know unknown (null), never empty (E26).

import type { ActionClass } from '../model/classes.js';
import { normalizePath } from '../match/paths.js';
import type { Word } from '../shell/ast.js';

/** Per key: `undefined` when the command says nothing of it, `null` when it is unknown. */
export interface KeyValues {
  paths?: string[] | null;
  refs?: string[] | null;
  hosts?: string[] | null;
  count?: number | null;
}

export interface Effect {
  readonly cls: ActionClass;
  readonly args: KeyValues;
}

export interface ExtractContext {
  /** The working directory: `.` is the worktree root; null when unknown. */
  readonly cwd: string | null;
  readonly worktree: string | null;
  /** Variables assigned for this command (`A=1 cmd`, `env A=1 cmd`). */
  readonly assigned: ReadonlySet<string>;
  /** The command line sets CDPATH, so `cd name` may lead anywhere. */
  readonly cdpath: boolean;
}

export function effect(cls: ActionClass, args: KeyValues = {}): Effect {
  return { cls, args };
}

/** Joins a path onto a working directory, both left unnormalised. */
export function joinPath(cwd: string, path: string): string {
  if (path.startsWith('/')) return path;
  if (cwd === '.') return path;
  return `${cwd.replace(/\/+$/, '')}/${path}`;
}

/** The path a word names from the working directory, or null when unknown. */
export function wordPath(word: Word, ctx: ExtractContext): string | null {
  if (!word.literal || word.value === '') return null;
  if (word.value.startsWith('/')) return word.value;
  if (ctx.cwd === null) return null;
  return joinPath(ctx.cwd, word.value);
}

export function isOutsideWorktree(path: string, worktree: string | null): boolean {
  return normalizePath(path, worktree).kind !== 'inside';
}

/** Standard streams and descriptor files are not file writes (E26). */
export function isStreamPath(path: string): boolean {
  return path === '/dev/null' || path === '/dev/stdout' || path === '/dev/stderr';
}

/**
 * `fileWriteOutsideWorktree` for files written by a command or a redirection,
 * when they lie outside the worktree; writes inside it are not gated.
 */
export function writeEffects(targets: readonly Word[], ctx: ExtractContext): Effect[] {
  const outside: string[] = [];
  let unknown = false;
  for (const target of targets) {
    const path = wordPath(target, ctx);
    if (path === null) {
      unknown = true;
      continue;
    }
    if (isStreamPath(path)) continue;
    if (isOutsideWorktree(path, ctx.worktree)) outside.push(path);
  }
  if (unknown) return [effect('fileWriteOutsideWorktree', { paths: null })];
  if (outside.length === 0) return [];
  return [effect('fileWriteOutsideWorktree', { paths: outside })];
}

/** Every key the effect knows made unknown: what `xargs` and `find -exec` pass is not known. */
export function blurArgs(item: Effect): Effect {
  const args: KeyValues = {};
  if (item.args.paths !== undefined) args.paths = null;
  if (item.args.refs !== undefined) args.refs = null;
  if (item.args.hosts !== undefined) args.hosts = null;
  if (item.args.count !== undefined) args.count = null;
  return { cls: item.cls, args };
}

/** The working directory after changing into `dir` (null: unknown). */
export function changeDir(cwd: string | null, dir: Word | null | undefined): string | null {
  if (dir === null || dir === undefined || !dir.literal) return null;
  const text = dir.value;
  if (text === '' || text === '-' || /^[+-]\d+$/.test(text)) return null;
  if (text.startsWith('/')) return text;
  return cwd === null ? null : joinPath(cwd, text);
}

/** The paths of operands from the working directory; null when any is unknown. */
export function pathsOf(operands: readonly Word[], ctx: ExtractContext): string[] | null {
  const paths: string[] = [];
  for (const operand of operands) {
    const path = wordPath(operand, ctx);
    if (path === null) return null;
    paths.push(path);
  }
  return paths;
}
