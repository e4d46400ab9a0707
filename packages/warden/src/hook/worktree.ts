// The worktree a hook binds every call to: the folder calls are judged
// against (a file written inside it is not gated, G14c), the `worktree` of the
// decision request (E10) and the writable root of Warden's sandbox, which the
// grant of a rewritten shell command is bound to (G2). The agent never chooses
// it: a runtime's `cwd` is written by the model in places (Codex sends the
// `workdir` of the model's `exec_command` as the hook's `cwd`; Gemini CLI's
// `run_shell_command` takes a `dir_path`), so the hook's input only says where
// a call acts, never where its boundary is.
//
// Where it comes from, first found wins:
//   1. `--worktree DIR` on the hook's command line (absolute): written by
//      `warden hook install --project DIR` (the project folder), or given to
//      a `--user` install by its operator;
//   2. the runtime's own word for the session's project, in an environment
//      variable the runtime sets for its hooks (not the model):
//      `CLAUDE_PROJECT_DIR` for Claude Code, `GEMINI_PROJECT_DIR` for Gemini
//      CLI (Codex sets none);
//   3. the folder the runtime started the hook process in: Claude Code, Codex
//      and Gemini CLI start hooks in the session's folder (Codex 0.171.0 in the
//      session's cwd even when the model's `workdir` names another, observed).
// Never the input's `cwd`. The folder must exist; its real path is the one
// bound.

import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { HookRuntime } from './runtime.js';
import { DEFAULT_DATA } from '../data-folder.js';

/** The environment variable a runtime names the session's project folder in, if it has one. */
const PROJECT_ENV: Readonly<Partial<Record<HookRuntime['name'], string>>> = {
  'claude-code': 'CLAUDE_PROJECT_DIR',
  'gemini-cli': 'GEMINI_PROJECT_DIR',
};

/** The bound worktree (a real path) and what named it, or why there is none: the call is then denied. */
export type BoundWorktree =
  { readonly worktree: string; readonly from: string } | { readonly problem: string };

/** The real path of an existing folder, or why it cannot be the worktree. */
function realFolder(dir: string, named: string): BoundWorktree {
  if (!isAbsolute(dir))
    return { problem: `the worktree \`${dir}\` (${named}) is not an absolute path` };
  try {
    const real = realpathSync(dir);
    if (!statSync(real).isDirectory())
      return { problem: `the worktree \`${dir}\` (${named}) is not a folder` };
    return { worktree: real, from: named };
  } catch (error) {
    return {
      problem: `the worktree \`${dir}\` (${named}) cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    };
  }
}

/**
 * The worktree the hook binds calls to (see above): `--worktree`, else the
 * runtime's project variable, else `processCwd()`, the folder the runtime
 * started the hook in.
 */
export function boundWorktree(
  flag: string | undefined,
  runtime: Pick<HookRuntime, 'name'>,
  env: NodeJS.ProcessEnv,
  processCwd: () => string,
): BoundWorktree {
  if (flag !== undefined) return realFolder(flag, '`--worktree`');
  const name = PROJECT_ENV[runtime.name];
  const project = name === undefined ? undefined : env[name];
  if (name !== undefined && project !== undefined && project !== '')
    return realFolder(project, name);
  let cwd: string;
  try {
    cwd = processCwd();
  } catch (error) {
    return {
      problem: `the hook's working folder cannot be read (${(error as Error).message}): give \`--worktree DIR\``,
    };
  }
  return realFolder(cwd, "the hook's working folder");
}

/**
 * Warden's data folder for a standalone hook: `--data` (default `.warden`),
 * a relative one read from the bound worktree — the project, where the hook
 * was started in it before — never from wherever the hook happens to run.
 */
export function dataFolder(data: string | undefined, worktree: string): string {
  return resolve(worktree, data ?? DEFAULT_DATA);
}
