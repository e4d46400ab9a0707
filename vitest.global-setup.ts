// Every temporary folder the tests make lives under one folder per run, which
// is removed when the run ends: test runs leave nothing behind in /tmp. The
// resident runners the hooks' clients start in those folders are stopped
// then too (they would also stop on their own once idle).

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

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'warden-tests-'));
  process.env.TMPDIR = root;
  return () => {
    for (const pid of runners(root))
      try {
        if (pid > 1) process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
    rmSync(root, { recursive: true, force: true });
  };
}
