// Every temporary folder the tests make lives under one folder per run, and
// every folder they make outside it (for the sandbox, and for Codex, which
// will not work under /tmp) under one more in /var/tmp; both are removed when
// the run ends, so test runs leave nothing behind. The resident runners the
// hooks' clients start in those folders are stopped then too, and waited for
// (they would also stop on their own once idle). Claude Code keeps a folder
// per project in `/tmp/claude-<uid>`, named after the project's path; those
// of the run's worktrees go too.

import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The process ids in every `runner.lock/pid` under `dir`. */
function runners(dir: string, depth = 0): number[] {
  if (depth > 6) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === 'runner.lock') {
      try {
        found.push(Number(readFileSync(join(path, 'pid'), 'utf8')));
      } catch {
        // not made whole
      }
    } else found.push(...runners(path, depth + 1));
  }
  return found;
}

/**
 * Removes, from Claude Code's folder of this user under `base`, the folders it
 * made for projects inside `root`: it names each after the project's path,
 * every character but a letter or digit written as `-`.
 */
function removeClaudeProjects(base: string, root: string): void {
  const folder = join(base, `claude-${process.getuid?.() ?? 0}`);
  const prefix = `${root.replace(/[^a-zA-Z0-9]/g, '-')}-`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names)
    if (name.startsWith(prefix))
      rmSync(join(folder, name), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/** Whether process `pid` is still there. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default function setup(): () => Promise<void> {
  const systemTmp = tmpdir();
  const root = mkdtempSync(join(systemTmp, 'warden-tests-'));
  const hostRoot = mkdtempSync(join('/var/tmp', 'warden-tests-'));
  process.env.TMPDIR = root;
  process.env.WARDEN_TEST_HOST_TMP = hostRoot;
  return async () => {
    const pids = [...runners(root), ...runners(hostRoot)].filter((pid) => pid > 1);
    for (const pid of pids)
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
    // A runner that was told to stop may still be writing in its folder: wait for it
    // (a few seconds at most) before the folder goes, then retry what it left behind.
    for (let waited = 0; waited < 5_000 && pids.some(alive); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    for (const folder of [root, hostRoot])
      try {
        rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      } catch (error) {
        process.stderr.write(
          `could not remove the tests' temporary folder ${folder}: ${String(error)}\n`,
        );
      }
    for (const base of new Set(['/tmp', systemTmp]))
      try {
        removeClaudeProjects(base, root);
      } catch (error) {
        process.stderr.write(
          `could not remove Claude Code's folders of the run: ${String(error)}\n`,
        );
      }
  };
}
