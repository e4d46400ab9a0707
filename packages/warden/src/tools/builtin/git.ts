// Running git for the repository tools: always an argument array, never a
// shell; in the worktree; without a terminal prompt; without Warden's
// credentials in the environment; and without running any program the
// repository's own configuration or hooks name (git-guard.ts).

import { guardedGitEnv } from './git-guard.js';
import type { Settings } from './options.js';
import type { Finished } from './process.js';
import { runProcess } from './process.js';

/** Most bytes kept of a git command's output. */
const GIT_OUTPUT_BYTES = 64 * 1024;

/** Runs `git <args>` in `cwd` and returns how it ended, whatever the exit code. */
export async function runGit(
  s: Settings,
  cwd: string,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<Finished> {
  return runProcess({
    file: s.git,
    args,
    cwd,
    env: await guardedGitEnv(s, cwd),
    timeoutMs: s.gitTimeoutMs,
    maxOutputBytes: GIT_OUTPUT_BYTES,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** The first lines of what git said, for an error message. */
function said(done: Finished): string {
  const text = (done.stderr.text.trim() || done.stdout.text.trim()).split('\n').slice(0, 6);
  return text.join('; ') || 'no output';
}

/** Runs `git <args>` and returns what it wrote; a failure throws with what git said. */
export async function git(
  s: Settings,
  cwd: string,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<{ readonly stdout: string; readonly stderr: string }> {
  const done = await runGit(s, cwd, args, signal);
  if (done.timedOut)
    throw new Error(`\`git ${args[0] ?? ''}\` ran longer than ${s.gitTimeoutMs} ms`);
  if (done.exitCode !== 0) {
    const how = done.exitCode === null ? `signal ${done.signal ?? '?'}` : `exit ${done.exitCode}`;
    throw new Error(`\`git ${args[0] ?? ''}\` failed (${how}): ${said(done)}`);
  }
  return { stdout: done.stdout.text, stderr: done.stderr.text };
}

/** A branch name git reported, if it looks like one. */
const BRANCH = /^[A-Za-z0-9._/@-]+$/;

/**
 * The current branch, or `undefined` when HEAD is detached, the branch has no
 * commit yet, or the folder is not a repository: the caller then leaves the
 * ref unknown (E26), so a rule on refs escalates (G18).
 */
export async function currentBranch(
  s: Settings,
  cwd: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
  let done: Finished;
  try {
    done = await runGit(s, cwd, ['rev-parse', '--abbrev-ref', 'HEAD'], signal);
  } catch {
    return undefined;
  }
  const branch = done.stdout.text.trim();
  if (done.exitCode !== 0 || branch === 'HEAD' || !BRANCH.test(branch)) return undefined;
  return branch;
}
