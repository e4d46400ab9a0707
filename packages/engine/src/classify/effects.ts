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
  /**
   * For a key that is unknown (`null`): the values the command certainly
   * touches all the same (E42). `git -c k=v push origin main` pushes `main`
   * and maybe more; `xargs rm a` deletes `a` and maybe more. A restrictive
   * rule that one of them touches holds; an allow still needs the whole
   * list, which is not known. Never set for a key that is known or absent.
   */
  known?: KnownValues;
}

/** Values certainly touched by a command whose full list for a key is unknown (E42). */
export interface KnownValues {
  paths?: string[];
  refs?: string[];
  hosts?: string[];
  /** A lower bound for an unknown count. */
  count?: number;
}

export type ListKey = 'paths' | 'refs' | 'hosts';
export const LIST_KEYS: readonly ListKey[] = ['paths', 'refs', 'hosts'];

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
  /** The values of those variables, when known (`HTTPS_PROXY=http://p:3128 curl …`); null: not literal. */
  readonly environment?: ReadonlyMap<string, string | null>;
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
  // A target that cannot be read may lie outside; the ones that do are still certainly written (E42).
  if (unknown) return [openArgs(effect('fileWriteOutsideWorktree', { paths: outside }))];
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

/**
 * Every key the effect reports made unknown — the unread rest of the command
 * may add to it — while the values it already named stay certainly touched
 * (E42): `git push origin main $(x)` pushes `main` and maybe more.
 */
export function openArgs(item: Effect, drop: readonly ListKey[] = []): Effect {
  const args: KeyValues = {};
  const known: KnownValues = {};
  for (const key of LIST_KEYS) {
    const value = item.args[key];
    if (value === undefined) continue;
    args[key] = null;
    if (drop.includes(key)) continue;
    const certain = [...(value ?? []), ...(item.args.known?.[key] ?? [])];
    if (certain.length > 0) known[key] = certain;
  }
  if (item.args.count !== undefined) {
    args.count = null;
    const certain = (item.args.count ?? 0) + (item.args.known?.count ?? 0);
    if (certain > 0) known.count = certain;
  }
  if (Object.keys(known).length > 0) args.known = known;
  return { cls: item.cls, args };
}

/** A list that is at least `values`, maybe more: unknown, with `values` certainly touched (E42). */
export function openList(key: ListKey, values: readonly string[]): KeyValues {
  if (values.length === 0) return { [key]: null };
  return { [key]: null, known: { [key]: [...values] } };
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

/** Pager and editor settings (`GIT_PAGER`, `core.pager`, `EDITOR`, `pager.log`) name a program to run. */
const PROGRAM_SETTING =
  /^(core\.(pager|editor)|sequence\.editor|pager\..+|GIT_PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|PAGER|MANPAGER|EDITOR|VISUAL)$/i;
/** Values that run nothing but a plain pager, or turn paging off. */
const HARMLESS_PROGRAM = /^(cat|less(\s+-[A-Za-z]+)*|more|true|false|:|)$/;

/** Whether a setting that names a program names only a harmless one (`GIT_PAGER=cat`). */
export function harmlessProgramSetting(name: string, value: string | null | undefined): boolean {
  return (
    value !== null &&
    value !== undefined &&
    PROGRAM_SETTING.test(name) &&
    HARMLESS_PROGRAM.test(value.trim())
  );
}

/**
 * `fileDelete` of these operands: their paths, and their count when each
 * names one file (`countable`; else at least one each). An operand that cannot be read (`$X`, a glob)
 * leaves the paths open; the others are still certainly deleted (E26, E42).
 */
export function deletion(
  operands: readonly Word[],
  ctx: ExtractContext,
  countable: boolean,
): Effect {
  const paths: string[] = [];
  let open = false;
  for (const operand of operands) {
    const path = wordPath(operand, ctx);
    if (path === null) open = true;
    else paths.push(path);
  }
  if (open) return openArgs(effect('fileDelete', { paths, count: paths.length }));
  if (countable) return effect('fileDelete', { paths, count: paths.length });
  // A folder among them deletes what it holds too: at least one file per operand.
  return effect('fileDelete', {
    paths,
    count: null,
    ...(paths.length > 0 ? { known: { count: paths.length } } : {}),
  });
}
