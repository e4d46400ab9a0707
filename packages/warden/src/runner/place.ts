// Where a data folder's resident runner listens, and the checks both sides
// make before they trust that place. The socket lies in the data folder
// (`runner.sock`), which only its owner may enter; it is reached by a path
// relative to that folder, so a long data folder path never runs into the
// length limit of a socket address (108 bytes). A socket or folder that
// belongs to another user is never used: the runner does not start, and a
// client denies.

import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The socket's name inside the data folder. */
export const SOCKET_NAME = 'runner.sock';
/** The folder a starting runner holds while it takes the socket (one runner per data folder). */
export const LOCK_NAME = 'runner.lock';
/** What the runner writes while it runs: its start, its faults. */
export const LOG_NAME = 'runner.log';

/** The uid of this process (0 where the platform has none). */
export function ownUid(): number {
  return process.getuid?.() ?? 0;
}

/**
 * Makes the data folder where it is missing (only its owner may enter it),
 * or says why this user cannot keep a runner in it.
 */
export function prepareDataFolder(data: string): string | null {
  try {
    mkdirSync(data, { recursive: true, mode: 0o700 });
    const stat = statSync(data);
    if (!stat.isDirectory()) return `\`${data}\` is not a folder`;
    if (stat.uid !== ownUid())
      return `the data folder \`${data}\` belongs to another user (uid ${stat.uid})`;
    // It holds the audit log, the key grants are signed with and the runner's socket.
    if ((stat.mode & 0o077) !== 0) chmodSync(data, 0o700);
    return null;
  } catch (error) {
    return `the data folder \`${data}\` cannot be made: ${(error as Error).message}`;
  }
}

/** Why the socket at `path` must not be used, or null when it is this user's own socket. */
export function socketProblem(path: string): string | null {
  try {
    const stat = lstatSync(path);
    if (!stat.isSocket()) return `\`${path}\` is not a socket`;
    if (stat.uid !== ownUid())
      return `the runner's socket \`${path}\` belongs to another user (uid ${stat.uid})`;
    return null;
  } catch (error) {
    return `no runner's socket at \`${path}\` (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

export function socketPath(data: string): string {
  return join(data, SOCKET_NAME);
}
