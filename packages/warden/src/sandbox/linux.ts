// Warden's own Linux sandbox (G2): one `bwrap` started directly, with the
// profile a decision was made with. The root file system is read-only; the
// writable roots (the worktree, the folders the policy lets the agent write
// in) and the run's own temporary folder are bound writable; the credential
// folders and Warden's own data are replaced by empty, unreadable ones (a
// read fails with "Permission denied", which the run's record notes); the
// network is the command's own, with only the egress proxy bridged in; every
// namespace is new, and when the command ends, everything it started ends
// with it. No Unix socket of the host (a Docker daemon, an ssh agent, a tmux
// server, Warden's own runner) is reachable: a seccomp filter refuses the
// command any new Unix socket, applied after the proxy's bridge started
// (sandbox-runtime's `apply-seccomp`); where that program is missing, `/tmp`
// and `/run`, where such sockets live, are replaced by empty read-only ones.
//
// A transactional run (E44) starts `bwrap` inside a new user and mount
// namespace (`unshare`) whose first lines overlay each writable root with
// the run's layer (layer.ts), and whose last lines list what the command
// left in the merged view.
//
// Building the command line is pure: what it reads of the host (ids, which
// folders exist, where programs are) comes in as arguments.

import type { Layer } from './layer.js';
import { listingLines, mountLines } from './layer.js';
import { PROXY_PORT } from './egress-proxy.js';

/** The command's own temporary folder where `/tmp` is replaced (TMPDIR), gone when it ends. */
export const TMP_INSIDE = '/tmp/.warden-tmp';
/** Exit status of the namespace's script when the layer could not be set up: nothing ran. */
export const LAYER_FAILED = 125;

export interface LinuxRun {
  readonly command: string;
  /** The folder the command runs in. */
  readonly cwd: string;
  /** The shell that runs it (`/bin/bash`). */
  readonly shell: string;
  /** Real folders bound writable, the worktree first. */
  readonly writable: readonly string[];
  /** Paths replaced by empty, unreadable ones: folders and files, as `kind`. */
  readonly hide: readonly { readonly path: string; readonly kind: 'folder' | 'file' }[];
  /** The egress proxy's socket, or null: then there is no network at all. */
  readonly proxy: string | null;
  /** The run's own temporary folder (TMPDIR), bound writable. */
  readonly tmp: string;
  /**
   * sandbox-runtime's `apply-seccomp`, which refuses the command new Unix
   * sockets; null where it is missing (then `/tmp` and `/run` are replaced).
   */
  readonly seccomp: string | null;
  /** The transactional layer, or null for a run whose writes land as they happen. */
  readonly layer: Layer | null;
  /** The ids the command runs as: the caller's own. */
  readonly uid: number;
  readonly gid: number;
  /** Whether `/var/run` is a folder of its own rather than a link to `/run`. */
  readonly varRunFolder: boolean;
  /**
   * util-linux's `setpriv`, or null: with it, the sandbox (and a layer's
   * namespace) is killed when the process that started it dies, even by
   * SIGKILL, so nothing of a run outlives its caller.
   */
  readonly setpriv?: string | null;
}

/** Quotes one word for bash. */
function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What runs inside the sandbox: the command, after the proxy's bridge where there is one. */
function inner(run: LinuxRun): string[] {
  // The filter is applied last, so only the bridge may open a Unix socket (to the proxy).
  const filtered = run.seccomp === null ? [] : ['env', 'SRT_ALLOW_NESTED_USERNS=0', run.seccomp];
  if (run.proxy === null) return [...filtered, run.shell, '-c', run.command];
  // The bridge from 127.0.0.1:3128 to the proxy's socket, ready before the command starts: bash
  // itself tries the port until socat listens (a connection that sends nothing asks the proxy
  // nothing), without starting a process per try; it gives up after 2 s.
  const bridge = [
    `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${q(run.proxy)} 2>/dev/null &`,
    `for ((_w = 0; _w < 4000; _w++)); do { : 3<>/dev/tcp/127.0.0.1/${PROXY_PORT}; } 2>/dev/null && break; ((_w % 20 == 19)) && sleep 0.01; done`,
    'unset _w',
    `exec ${[...filtered, run.shell].map(q).join(' ')} -c "$1"`,
  ].join('\n');
  return [run.shell, '-c', bridge, 'warden-sandbox', run.command];
}

/** The proxy's variables, for the programs that read them (curl, git, npm, pip, …). */
function proxyEnv(): string[] {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  const out: string[] = [];
  for (const name of [
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'http_proxy',
    'https_proxy',
    'ALL_PROXY',
    'all_proxy',
  ])
    out.push('--setenv', name, url);
  out.push(
    '--setenv',
    'NO_PROXY',
    'localhost,127.0.0.1,::1',
    '--setenv',
    'no_proxy',
    'localhost,127.0.0.1,::1',
  );
  out.push(
    '--setenv',
    'GIT_SSH_COMMAND',
    `ssh -o ProxyCommand='socat - PROXY:127.0.0.1:%h:%p,proxyport=${PROXY_PORT}'`,
  );
  return out;
}

/** `bwrap`'s arguments for a run. */
export function bwrapArgs(run: LinuxRun): string[] {
  const args = [
    '--new-session',
    '--die-with-parent',
    '--unshare-all',
    '--unshare-user',
    '--uid',
    String(run.uid),
    '--gid',
    String(run.gid),
    '--cap-drop',
    'ALL',
    // `apply-seccomp` makes a namespace of its own to load its filter.
    ...(run.seccomp === null ? [] : ['--cap-add', 'CAP_SETFCAP']),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
  // Without the filter, the folders where the host's sockets live are replaced.
  const replaced = run.seccomp === null;
  if (replaced) {
    args.push('--tmpfs', '/tmp', '--tmpfs', '/run');
    if (run.varRunFolder) args.push('--tmpfs', '/var/run');
  }
  if (run.proxy !== null) args.push(...proxyEnv());
  // A hidden folder that holds a writable root is hidden first, and the root bound into it after;
  // every other hidden path after the writable binds, so a secret inside a root stays hidden.
  const holds = (outer: string, inner: string): boolean =>
    inner === outer || inner.startsWith(`${outer}/`);
  const before = run.hide.filter((h) => run.writable.some((w) => holds(h.path, w)));
  const after = run.hide.filter((h) => !before.includes(h));
  // A folder that holds a root can be passed through (mode 0111) to reach it, never listed.
  const hideArgs = (list: typeof run.hide, mode: string): string[] =>
    list.flatMap((h) =>
      h.kind === 'folder'
        ? ['--perms', mode, '--tmpfs', h.path]
        : ['--ro-bind', '/dev/null', h.path],
    );
  args.push(...hideArgs(before, '0111'));
  for (const folder of run.writable) args.push('--bind', folder, folder);
  // The command's own temporary folder.
  const tmp = replaced ? TMP_INSIDE : run.tmp;
  if (replaced) args.push('--tmpfs', TMP_INSIDE);
  else args.push('--bind', run.tmp, run.tmp);
  // The proxy's socket, where `/tmp` is replaced.
  if (replaced && run.proxy !== null) args.push('--ro-bind', run.proxy, run.proxy);
  args.push(...hideArgs(after, '0000'));
  // A replaced `/tmp` or `/run` is read-only like the rest: a write there fails as any write
  // outside the writable roots does ("Read-only file system").
  if (replaced) {
    args.push('--remount-ro', '/tmp', '--remount-ro', '/run');
    if (run.varRunFolder) args.push('--remount-ro', '/var/run');
  }
  args.push('--setenv', 'TMPDIR', tmp, '--chdir', run.cwd, '--', ...inner(run));
  return args;
}

/**
 * The program to start and its arguments: `bwrap` itself, or, for a
 * transactional run, `unshare` with the script that mounts the layer, runs
 * `bwrap` and lists what the command left.
 */
export function linuxCommand(run: LinuxRun, bwrap: string): { file: string; args: string[] } {
  const sandbox = bwrapArgs(run);
  const setpriv = run.setpriv ?? null;
  // Killed with its parent: a sandbox whose caller is gone does not run on.
  const tied = (file: string, args: string[]): { file: string; args: string[] } =>
    setpriv === null
      ? { file, args }
      : { file: setpriv, args: ['--pdeathsig', 'KILL', file, ...args] };
  if (run.layer === null) return tied(bwrap, sandbox);
  const script = [
    ...mountLines(run.layer),
    setpriv === null ? '"$@"' : `${q(setpriv)} --pdeathsig KILL "$@"`,
    'rc=$?',
    ...listingLines(run.layer),
    'exit $rc',
  ].join('\n');
  return tied('unshare', [
    '--user',
    '--map-root-user',
    '--mount',
    '--propagation',
    'private',
    '--',
    '/bin/bash',
    '-c',
    script,
    'warden-layer',
    bwrap,
    ...sandbox,
  ]);
}
