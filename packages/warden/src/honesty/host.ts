// The facts about the running host that the matrix depends on (G2, G7): which
// sandbox backend's programs are on the PATH. Found by looking at PATH entries,
// never by running anything; every input can be injected for tests.

import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

export interface HostFacts {
  /** `process.platform` or what a test says it is. */
  readonly platform: string;
  /** The `bwrap` (bubblewrap) executable found on the PATH, or `null`. */
  readonly bwrap: string | null;
  /** The `socat` executable found on the PATH, or `null`. */
  readonly socat: string | null;
  /**
   * The `unshare` executable found on the PATH, or `null`; absent means not
   * looked for. A transactional run (E44) needs it on Linux to overlay the
   * writable roots in a namespace of its own.
   */
  readonly unshare?: string | null;
  /** macOS's `sandbox-exec` found on the PATH, or `null`; absent means not looked for. */
  readonly sandboxExec?: string | null;
}

export interface DetectOptions {
  readonly platform?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Whether the path is an executable file (default: a real check on this file system). */
  readonly exists?: (path: string) => boolean;
}

/** An executable regular file; anything that cannot be checked is not one. */
function executableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The environment variable's value, by the platform's rules (Windows names are case-insensitive). */
function variable(env: NodeJS.ProcessEnv, name: string, platform: string): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/**
 * The first executable named `name` in the PATH's entries. Empty and relative
 * entries are skipped: they name the current folder, which says nothing about
 * the host.
 */
export function findOnPath(
  name: string,
  options: { platform: string; env: NodeJS.ProcessEnv; exists: (path: string) => boolean },
): string | null {
  const { platform, env, exists } = options;
  const path = platform === 'win32' ? win32 : posix;
  const entries = (variable(env, 'PATH', platform) ?? '').split(path.delimiter);
  const suffixes =
    platform === 'win32'
      ? (variable(env, 'PATHEXT', platform) ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)
      : [''];
  for (const entry of entries) {
    if (entry === '' || !path.isAbsolute(entry)) continue;
    for (const suffix of suffixes) {
      const candidate = path.join(entry, name + suffix);
      if (exists(candidate)) return candidate;
    }
  }
  return null;
}

/** What this host offers a sandbox with, read from the PATH. */
export function detectHost(options: DetectOptions = {}): HostFacts {
  const search = {
    platform: options.platform ?? process.platform,
    env: options.env ?? process.env,
    exists: options.exists ?? executableFile,
  };
  return {
    platform: search.platform,
    bwrap: findOnPath('bwrap', search),
    socat: findOnPath('socat', search),
    unshare: findOnPath('unshare', search),
    sandboxExec: findOnPath('sandbox-exec', search),
  };
}

/**
 * The sandbox backend the host offers, or `null`: on Linux `bwrap` and `socat`
 * together, on macOS
 * `sandbox-exec`; Windows and every other platform have none Warden knows of (G2).
 */
export function sandboxBackend(host: HostFacts): string | null {
  if (host.platform === 'linux')
    return host.bwrap !== null && host.socat !== null ? 'bwrap+socat' : null;
  if (host.platform === 'darwin')
    return host.sandboxExec !== undefined && host.sandboxExec !== null ? 'sandbox-exec' : null;
  return null;
}

/** Why the host has no backend, as a phrase: "Linux without `socat` on the PATH". */
export function missingBackend(host: HostFacts): string {
  if (host.platform === 'linux') {
    const missing = [host.bwrap === null ? '`bwrap`' : null, host.socat === null ? '`socat`' : null]
      .filter((m) => m !== null)
      .join(' and ');
    return `Linux without ${missing} on the PATH`;
  }
  if (host.platform === 'win32') return 'Windows';
  if (host.platform === 'darwin') return 'macOS without `sandbox-exec` on the PATH';
  return `platform \`${host.platform}\`, for which Warden knows no sandbox backend`;
}

/** Where the backend's programs are, as a phrase: "`bwrap` at `/usr/bin/bwrap` and …". */
export function presentBackend(host: HostFacts): string {
  if (host.platform === 'darwin') return `\`sandbox-exec\` at \`${host.sandboxExec ?? ''}\``;
  return `\`bwrap\` at \`${host.bwrap ?? ''}\` and \`socat\` at \`${host.socat ?? ''}\``;
}

/**
 * Why this host cannot run a command transactionally (E44), or null when it
 * can: it needs Linux and `unshare` (looked up on the PATH of `env` when the
 * facts did not look).
 */
export function transactionalProblem(
  host: HostFacts,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (host.platform !== 'linux') return 'a copy-on-write layer needs Linux';
  const unshare =
    host.unshare !== undefined
      ? host.unshare
      : findOnPath('unshare', { platform: host.platform, env, exists: executableFile });
  return unshare === null ? 'this host has no `unshare` on the PATH' : null;
}
