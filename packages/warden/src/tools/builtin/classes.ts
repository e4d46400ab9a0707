// What each built-in tool may do, as data: the action classes its calls may
// belong to (G5) or that it only reads. The tools declare exactly this, and the
// read-only side (instance, inspector, report) reads it without loading a tool.

import type { ActionClass } from '@warden/engine';

export interface BuiltinClasses {
  /** The classes its calls may belong to; empty for a tool that only reads. */
  readonly actions: readonly ActionClass[];
  /** A read: declares no class and is not gated, only recorded. */
  readonly readOnly: boolean;
  /** What it does, in a few words (its full description names its configured limits). */
  readonly summary: string;
}

export const BUILTIN_CLASSES = {
  read_file: { actions: [], readOnly: true, summary: 'reads a file of its worktree' },
  list_files: { actions: [], readOnly: true, summary: 'lists a folder of its worktree' },
  write_file: {
    actions: ['fileWriteOutsideWorktree'],
    readOnly: false,
    summary: 'writes a file, gated when it lands outside its worktree',
  },
  delete_file: {
    actions: ['fileDelete'],
    readOnly: false,
    summary: "moves a file or folder of its worktree into the worktree's trash",
  },
  run_command: {
    actions: ['processSpawn'],
    readOnly: false,
    summary: 'runs a shell command in its worktree',
  },
  git_commit: { actions: ['gitCommit'], readOnly: false, summary: 'creates a git commit' },
  git_push: { actions: ['gitPush'], readOnly: false, summary: 'pushes a branch to a remote' },
  pr_create: { actions: ['prCreate'], readOnly: false, summary: 'opens a pull request' },
  pr_merge: { actions: ['prPublish'], readOnly: false, summary: 'merges a pull request' },
  http_fetch: { actions: ['networkEgress'], readOnly: false, summary: 'makes an HTTP request' },
} as const satisfies Readonly<Record<string, BuiltinClasses>>;

export type BuiltinName = keyof typeof BUILTIN_CLASSES;

/** The built-in tools' names, in the order `builtinTools` makes them. */
export const BUILTIN_NAMES = Object.keys(BUILTIN_CLASSES) as readonly BuiltinName[];

/** `true` for the name of a built-in tool. */
export function isBuiltinName(name: string): name is BuiltinName {
  return Object.hasOwn(BUILTIN_CLASSES, name);
}

/** What a built-in tool's definition declares: its name and its classes, or that it only reads. */
export type BuiltinDeclaration =
  | { readonly name: BuiltinName; readonly actions: readonly ActionClass[] }
  | { readonly name: BuiltinName; readonly readOnly: true };

/** The declaration a built-in tool's definition spreads in, read from the table. */
export function builtinDeclaration(name: BuiltinName): BuiltinDeclaration {
  const entry: BuiltinClasses = BUILTIN_CLASSES[name];
  return entry.readOnly ? { name, readOnly: true } : { name, actions: entry.actions };
}
