// Shell commands under an OS sandbox profile (G2). On Linux, Warden starts
// bubblewrap itself (linux.ts): writes reach only the writable roots, reads of
// credential folders and Warden's own data are refused, the network is gone
// but for the egress proxy (egress-proxy.ts), which lets through only the
// hosts the allowed command line named and those the operator listed; a
// transactional run (E44) runs over a copy-on-write layer (layer.ts) whose
// effects are decided before they land. On macOS the command runs under
// @anthropic-ai/sandbox-runtime's `sandbox-exec` profile. The gate decides
// whether a call may happen; this limits where the started process can reach
// once it runs.
//
// The macOS runtime is process-wide state (its proxies listen until reset),
// so it is started on the first command and reset after a few idle seconds.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { SandboxManager } from '@anthropic-ai/sandbox-runtime';
import { accessSync, constants, lstatSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative, isAbsolute } from 'node:path';
import type { HostFacts } from '../honesty/host.js';
import {
  detectHost,
  findOnPath,
  missingBackend,
  sandboxBackend,
  transactionalProblem,
} from '../honesty/host.js';

export { transactionalProblem };
import type { EgressProxy } from './egress-proxy.js';
import { startEgressProxy } from './egress-proxy.js';
import type { Layer } from './layer.js';
import { createLayer, discardLayer } from './layer.js';
import { linuxCommand } from './linux.js';

/**
 * When shell commands run sandboxed: `auto` where the host offers a backend,
 * `required` always (a host without one refuses the command), `off` never.
 */
export type SandboxMode = 'auto' | 'required' | 'off';
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];

/** Folders a sandboxed command may not read, unless the operator says otherwise. */
export const DEFAULT_DENY_READ: readonly string[] = [
  // The agent runtimes' own credentials and settings.
  '~/.claude',
  '~/.claude.json',
  '~/.codex',
  '~/.gemini',
  '~/.config/claude',
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.config/gh',
  '~/.config/gcloud',
  '~/.azure',
  '~/.kube',
  '~/.docker',
  '~/.netrc',
  '~/.npmrc',
  '~/.git-credentials',
];

export interface SandboxScope {
  /** The worktree's real path: the one place the command may write. */
  readonly worktree: string;
  /** Further paths (real, absolute) the command may write, beyond the worktree. */
  readonly write?: readonly string[];
  /** Hosts the proxy lets the command reach (`example.com`, `*.example.com`, `host:443`). */
  readonly hosts: readonly string[];
  /** Paths the command may not read (`~` is the home folder). */
  readonly denyRead: readonly string[];
  /** The shell that runs the command inside the sandbox (default `/bin/sh`). */
  readonly shell?: string;
  readonly signal?: AbortSignal;
  /** The folder the command runs in (default: the worktree). */
  readonly cwd?: string;
  /**
   * Whether the command runs over a copy-on-write layer whose effects are
   * decided before they land (E44): `required` refuses to run without one,
   * `auto` runs with one where the host can, `off` (default) never.
   */
  readonly transactional?: TransactionalMode;
  /** Where layers are made (default: a folder of this user under the system's temporary folder). */
  readonly layers?: string;
}

export type TransactionalMode = 'off' | 'auto' | 'required';
export const TRANSACTIONAL_MODES: readonly TransactionalMode[] = ['off', 'auto', 'required'];

/** A wrapped command ready to start, and what to do once it ended. */
export interface SandboxedLaunch {
  /** Start this with these arguments instead of the command itself. */
  readonly file: string;
  readonly args: readonly string[];
  /** The layer the command writes into, for a transactional run; null when its writes land as made. */
  readonly layer: Layer | null;
  /** Why a run asked to be transactional (`auto`) is not, or null. */
  readonly notTransactional: string | null;
  /** What the sandbox refused while the command ran, one line each. */
  violations(): readonly string[];
  /** The paths the command cannot read (shown empty or unreadable), for reading its errors. */
  readonly hidden: readonly string[];
  /** The command ended (or never started): its network is closed, its files removed (not its layer). */
  release(): Promise<void> | void;
}

export interface CommandSandbox {
  /** `bwrap+socat` or `sandbox-exec`. */
  readonly backend: string;
  launch(command: string, scope: SandboxScope): Promise<SandboxedLaunch>;
}

/** A command that must run sandboxed cannot: it is refused, never run without. */
export class SandboxUnavailable extends Error {
  override readonly name = 'SandboxUnavailable';
}

// ─── The runtime, started on demand and reset when idle ─────────────────────

type Manager = typeof SandboxManager;

/** How long the runtime stays up after its last command ended. */
const IDLE_MS = 5_000;

let manager: Manager | null = null;
let starting: Promise<Manager> | null = null;
let closing: Promise<void> | null = null;
let active = 0;
let idle: NodeJS.Timeout | undefined;

async function load(): Promise<Manager> {
  const mod = await import('@anthropic-ai/sandbox-runtime');
  return mod.SandboxManager;
}

/** The base profile: no network, no writes, nothing denied; each command gets its own. */
const BASE_CONFIG = {
  network: { allowedDomains: [] as string[], deniedDomains: [] as string[] },
  filesystem: { denyRead: [] as string[], allowWrite: [] as string[], denyWrite: [] as string[] },
};

async function started(): Promise<Manager> {
  if (closing !== null) await closing;
  if (manager !== null) return manager;
  if (starting === null) {
    starting = (async () => {
      const m = await load();
      await m.initialize(structuredClone(BASE_CONFIG));
      manager = m;
      return m;
    })();
    starting.then(
      () => {
        starting = null;
      },
      () => {
        starting = null;
      },
    );
  }
  return starting;
}

function scheduleIdleReset(): void {
  if (idle !== undefined) clearTimeout(idle);
  idle = setTimeout(() => {
    idle = undefined;
    if (active === 0) void closeSandbox();
  }, IDLE_MS);
}

/**
 * Stops the sandbox runtime's proxies now (it starts again on the next
 * command). A program that ran sandboxed commands may call this to end at
 * once instead of after the idle delay.
 */
export async function closeSandbox(): Promise<void> {
  if (idle !== undefined) {
    clearTimeout(idle);
    idle = undefined;
  }
  if (starting !== null) await starting.catch(() => undefined);
  const m = manager;
  if (m === null) return;
  manager = null;
  closing = m.reset().finally(() => {
    closing = null;
  });
  await closing;
}

/** A per-command id for the proxy: 128 random bits, as the runtime requires. */
function commandId(): string {
  return randomBytes(16).toString('base64url');
}

/** Turns the runtime's `<sandbox_violations>` block into lines. */
function violationLines(annotated: string): string[] {
  const open = annotated.indexOf('<sandbox_violations>');
  const close = annotated.indexOf('</sandbox_violations>');
  if (open < 0 || close < open) return [];
  return annotated
    .slice(open + '<sandbox_violations>'.length, close)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** The sandbox-runtime backend for this host. */
function runtimeSandbox(backend: string): CommandSandbox {
  return {
    backend,
    async launch(command, scope) {
      if (idle !== undefined) {
        clearTimeout(idle);
        idle = undefined;
      }
      active += 1;
      let released = false;
      const id = commandId();
      let m: Manager | null = null;
      const release = (): void => {
        if (released) return;
        released = true;
        m?.unregisterCommandNetworkLists(id);
        active -= 1;
        if (active === 0) scheduleIdleReset();
      };
      try {
        m = await started();
        const wrapped = await m.wrapWithSandbox(
          command,
          scope.shell ?? '/bin/sh',
          {
            filesystem: {
              allowWrite: [scope.worktree, ...(scope.write ?? [])],
              denyWrite: [],
              denyRead: [...scope.denyRead],
            },
          },
          scope.signal,
          { commandId: id, commandText: command },
        );
        if (scope.hosts.length > 0)
          m.registerCommandNetworkLists(id, { allowedDomains: [...scope.hosts] });
        const current = m;
        if (scope.transactional === 'required')
          throw new Error(
            'a transactional run needs Linux: this backend has no copy-on-write layer',
          );
        return {
          file: '/bin/sh',
          args: ['-c', wrapped],
          layer: null,
          notTransactional:
            scope.transactional === 'auto' ? 'this backend has no copy-on-write layer' : null,
          violations: () => violationLines(current.annotateStderrWithSandboxFailures(id, '')),
          hidden: [],
          release,
        };
      } catch (error) {
        release();
        const why = error instanceof Error ? error.message : String(error);
        throw new SandboxUnavailable(`the sandbox could not be set up for this command: ${why}`);
      }
    },
  };
}

// ─── Linux: bubblewrap, started directly ────────────────────────────────────

/** Expands `~` to the home folder. */
function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

/** The paths to hide that exist, as folders or files, by their real paths. */
function hidden(
  denyRead: readonly string[],
  home: string,
): { path: string; kind: 'folder' | 'file' }[] {
  const out: { path: string; kind: 'folder' | 'file' }[] = [];
  const seen = new Set<string>();
  for (const raw of denyRead) {
    const path = expandHome(raw, home);
    if (!isAbsolute(path)) continue;
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      continue; // Nothing there to read.
    }
    if (seen.has(real)) continue;
    seen.add(real);
    out.push({ path: real, kind: lstatSync(real).isDirectory() ? 'folder' : 'file' });
  }
  return out;
}

/** Whether `inner` is `outer` or lies under it. */
function within(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

let seccompPath: string | null | undefined;

/**
 * sandbox-runtime's `apply-seccomp` for this machine's architecture, which
 * loads a filter refusing new Unix sockets and runs the command; null where
 * the package has none.
 */
function applySeccomp(): string | null {
  if (seccompPath !== undefined) return seccompPath;
  const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'arm64' : null;
  seccompPath = null;
  if (arch === null) return null;
  try {
    const main = createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime');
    const path = join(dirname(dirname(main)), 'vendor', 'seccomp', arch, 'apply-seccomp');
    accessSync(path, constants.X_OK);
    seccompPath = path;
  } catch {
    // Not installed for this architecture: `/tmp` and `/run` are replaced instead.
  }
  return seccompPath;
}

/** Where this user's layers are made by default. */
export function defaultLayers(): string {
  const uid = process.getuid?.() ?? 0;
  return join(tmpdir(), `warden-layers-${uid}`);
}

function linuxSandbox(host: HostFacts): CommandSandbox {
  const bwrap = host.bwrap ?? 'bwrap';
  return {
    backend: 'bwrap+socat',
    async launch(command, scope) {
      const home =
        process.env.HOME !== undefined && process.env.HOME !== '' ? process.env.HOME : homedir();
      const run = await mkdtemp(join(tmpdir(), 'warden-run-'));
      let proxy: EgressProxy | null = null;
      let layer: Layer | null = null;
      const release = async (): Promise<void> => {
        await proxy?.close().catch(() => undefined);
        await rm(run, { recursive: true, force: true }).catch(() => undefined);
      };
      try {
        const mode = scope.transactional ?? 'off';
        const problem = mode === 'off' ? null : transactionalProblem(host);
        if (problem !== null && mode === 'required')
          throw new Error(`the command must run transactionally, but ${problem}`);
        const layers = scope.layers ?? defaultLayers();
        // Only folders are bound writable: a server that may write nowhere names `/dev/null`.
        const writable = [scope.worktree, ...(scope.write ?? [])].filter(isFolder);
        // Layered: the worktree, and each other root that neither holds nor lies in it or the layers.
        const layered =
          mode === 'off' || problem !== null
            ? []
            : writable.filter(
                (root) =>
                  root === scope.worktree ||
                  (!within(root, scope.worktree) &&
                    !within(scope.worktree, root) &&
                    !within(root, layers) &&
                    !within(layers, root)),
              );
        if (layered.length > 0 && within(scope.worktree, layers))
          throw new Error(`the layers folder \`${layers}\` lies inside the worktree`);
        if (layered.length > 0) layer = await createLayer(layers, layered);
        // The proxy runs even when no host is allowed, so what the command tries is recorded; a
        // run that must be transactional gets no network at all (E44).
        if (mode !== 'required')
          proxy = await startEgressProxy(join(run, 'egress.sock'), scope.hosts);
        // Other runs' layers are no command's to read.
        const hide = hidden([...scope.denyRead, layers], home);
        const tmp = join(run, 'tmp');
        await mkdir(tmp);
        const launched = linuxCommand(
          {
            command,
            // A server that may write nowhere names `/dev/null` as its worktree: it runs where it was started.
            cwd: scope.cwd ?? (isFolder(scope.worktree) ? scope.worktree : process.cwd()),
            shell: scope.shell === undefined || scope.shell === 'bash' ? '/bin/bash' : scope.shell,
            writable,
            hide,
            proxy: proxy?.socket ?? null,
            tmp,
            seccomp: applySeccomp(),
            setpriv: findOnPath('setpriv', {
              platform: 'linux',
              env: process.env,
              exists: (p) => {
                try {
                  return lstatSync(p).isFile();
                } catch {
                  return false;
                }
              },
            }),
            layer,
            uid: process.getuid?.() ?? 0,
            gid: process.getgid?.() ?? 0,
            varRunFolder: (() => {
              try {
                return !lstatSync('/var/run').isSymbolicLink();
              } catch {
                return false;
              }
            })(),
          },
          bwrap,
        );
        const current = proxy;
        return {
          file: launched.file,
          args: launched.args,
          layer,
          notTransactional: mode === 'auto' && problem !== null ? problem : null,
          violations: () => current?.refused() ?? [],
          hidden: hide.map((h) => h.path),
          release,
        };
      } catch (error) {
        await release();
        if (layer !== null) await discardLayer(layer);
        const why = error instanceof Error ? error.message : String(error);
        throw new SandboxUnavailable(`the sandbox could not be set up for this command: ${why}`);
      }
    },
  };
}

/**
 * The sandbox shell commands run under, by `mode` on `host`: `null` means
 * they run without one (mode `off`, or `auto` on a host without a backend).
 * `required` on a host without a backend throws `SandboxUnavailable`.
 */
export function commandSandbox(
  mode: SandboxMode,
  host: HostFacts = detectHost(),
): CommandSandbox | null {
  if (mode === 'off') return null;
  const backend = sandboxBackend(host);
  if (backend === null) {
    if (mode === 'required')
      throw new SandboxUnavailable(
        `shell commands must run sandboxed, but this host offers no sandbox backend (${missingBackend(host)})`,
      );
    return null;
  }
  return host.platform === 'linux' ? linuxSandbox(host) : runtimeSandbox(backend);
}

/** What a real run under the backend showed. */
export type SandboxProbe =
  | { readonly ok: true; readonly backend: string; readonly detail: string }
  | { readonly ok: false; readonly backend: string | null; readonly detail: string };

/**
 * Runs one command under the host's backend, as `run_command` would: it must
 * write inside a scratch worktree and be refused a write beside it. For
 * `warden doctor`: a backend on the PATH that cannot run (no user namespaces,
 * say) would make every sandboxed command fail, and the operator should know.
 */
export async function probeSandbox(host: HostFacts = detectHost()): Promise<SandboxProbe> {
  const backend = sandboxBackend(host);
  if (backend === null)
    return { ok: false, backend, detail: `no backend on this host (${missingBackend(host)})` };
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'warden-probe-')));
  const worktree = join(scratch, 'worktree');
  try {
    await mkdir(worktree);
    const sandbox = host.platform === 'linux' ? linuxSandbox(host) : runtimeSandbox(backend);
    const launch = await sandbox.launch(
      // The write beside the worktree must not reach the disk (inside the sandbox it may land in
      // the sandbox's own temporary folder, which is gone when it ends).
      `echo in > inside; { echo out > ../outside; } 2>/dev/null; exit 0`,
      { worktree, hosts: [], denyRead: [] },
    );
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(launch.file, [...launch.args], { cwd: worktree, stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', (c) => resolve(c));
    }).finally(() => launch.release());
    const exists = (path: string): Promise<boolean> =>
      stat(path).then(
        () => true,
        () => false,
      );
    const inside = await exists(join(worktree, 'inside'));
    const outside = await exists(join(scratch, 'outside'));
    if (code === 0 && inside && !outside)
      return {
        ok: true,
        backend,
        detail:
          'a command ran under it, wrote inside its worktree and was refused a write beside it',
      };
    return {
      ok: false,
      backend,
      detail: `a command under it did not behave as confined (exit ${String(code)}, wrote inside: ${inside}, wrote outside: ${outside})`,
    };
  } catch (error) {
    return { ok: false, backend, detail: error instanceof Error ? error.message : String(error) };
  } finally {
    await closeSandbox();
    await rm(scratch, { recursive: true, force: true });
  }
}
