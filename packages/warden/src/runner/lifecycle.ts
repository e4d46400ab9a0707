// Starting, finding and stopping a data folder's resident runner. At most one
// runs per data folder: a starting runner takes the lock folder
// (`runner.lock`, made atomically, holding its process id) before it takes
// the socket; a lock whose process is gone is stale and taken over, and so
// is a socket nobody answers on. A socket or data folder of another user
// stops it from starting at all.

import { connect } from 'node:net';
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { LOCK_NAME, LOG_NAME, SOCKET_NAME, prepareDataFolder, socketProblem } from './place.js';
import { askRunner } from './protocol.js';

/** Whether something answers on the socket at `path` within `ms`. */
export function answers(path: string, ms = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data folder's lock, or says who holds it. */
function takeLock(data: string): { ok: true; release(): void } | { ok: false; holder: number } {
  const lock = join(data, LOCK_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(lock, { mode: 0o700 });
      writeFileSync(join(lock, 'pid'), `${process.pid}\n`);
      return { ok: true, release: () => rmSync(lock, { recursive: true, force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = 0;
      try {
        holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // A lock without its pid is being made right now, or was left half made.
        try {
          if (Date.now() - statSync(lock).mtimeMs < 2000) return { ok: false, holder: 0 };
        } catch {
          continue;
        }
      }
      if (holder > 0 && alive(holder)) return { ok: false, holder };
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return { ok: false, holder: 0 };
}

/** The runner's log: appended to, and cut when it grows past 1 MiB. */
export function runnerLog(data: string): (line: string) => void {
  const file = join(data, LOG_NAME);
  return (line) => {
    try {
      if (statSync(file).size > 1024 * 1024) truncateSync(file, 0);
    } catch {
      // made below
    }
    try {
      appendFileSync(file, `${new Date().toISOString()} [${process.pid}] ${line}\n`, {
        mode: 0o600,
      });
    } catch {
      // a log that cannot be written loses the line, never the runner
    }
  };
}

/**
 * Makes this process the data folder's runner: the lock taken, a stale
 * socket removed. `null` when another runner serves it already; a string
 * says why none may start here.
 */
export async function claimRunner(data: string): Promise<{ release(): void } | null | string> {
  const problem = prepareDataFolder(data);
  if (problem !== null) return problem;
  const socket = join(data, SOCKET_NAME);
  let lock = takeLock(data);
  // Held by a runner that serves the folder: nothing to do. Held by one whose socket is gone, it
  // stops within a second or two (it looks for its socket every second): wait for it.
  for (let waited = 0; !lock.ok && waited < 5000; waited += 100) {
    if (await answers(socket)) return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
    lock = takeLock(data);
  }
  if (!lock.ok) return null;
  try {
    statSync(socket);
  } catch {
    return lock;
  }
  const foreign = socketProblem(socket);
  if (foreign !== null && !foreign.startsWith('no runner')) {
    lock.release();
    return foreign;
  }
  if (await answers(socket)) {
    lock.release();
    return null;
  }
  rmSync(socket, { force: true });
  return lock;
}

/** What a data folder's runner says of itself, or why none answers. */
export type RunnerStatus =
  | {
      readonly running: true;
      readonly pid: number;
      readonly since: string;
      readonly hooks: number;
      readonly runs: number;
      readonly open: number;
    }
  | { readonly running: false; readonly reason: string };

/** Whether the data folder's runner runs, and what it served. */
export async function runnerStatus(data: string): Promise<RunnerStatus> {
  const path = join(data, SOCKET_NAME);
  const problem = socketProblem(path);
  if (problem !== null) return { running: false, reason: problem };
  let answer: { status: number; text: string };
  try {
    answer = await askRunner(path, 'status');
  } catch (error) {
    return {
      running: false,
      reason: `its socket does not answer (${(error as Error).message})`,
    };
  }
  try {
    const status = JSON.parse(answer.text) as {
      pid: number;
      since: string;
      hooks: number;
      runs: number;
      open: number;
    };
    return { running: true, ...status };
  } catch {
    return {
      running: false,
      reason: `it answered something that is not its status (HTTP ${answer.status})`,
    };
  }
}
