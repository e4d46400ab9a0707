// Shell commands under an OS sandbox profile (G2): where the host offers
// `bwrap` and `socat` (Linux) or `sandbox-exec` (macOS), a command the gate
// allowed runs under @anthropic-ai/sandbox-runtime. Writes reach only the
// worktree (and the sandbox's own temporary folder), reads of credential
// folders are refused, and the network is gone but for the runtime's proxy,
// which lets through only the hosts the allowed command named and those the
// operator listed. The gate decides whether a call may happen; this limits
// where the started process can reach once it runs.
//
// The runtime is process-wide state (its proxies listen until reset), so it is
// started on the first command and reset after a few idle seconds: a process
// that is done with its commands can end.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { SandboxManager } from '@anthropic-ai/sandbox-runtime';
import { mkdir, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostFacts } from '../honesty/host.js';
import { detectHost, missingBackend, sandboxBackend } from '../honesty/host.js';

/**
 * When shell commands run sandboxed: `auto` where the host offers a backend,
 * `required` always (a host without one refuses the command), `off` never.
 */
export type SandboxMode = 'auto' | 'required' | 'off';
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];

/** Folders a sandboxed command may not read, unless the operator says otherwise. */
export const DEFAULT_DENY_READ: readonly string[] = [
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
}

/** A wrapped command ready to start, and what to do once it ended. */
export interface SandboxedLaunch {
  /** Start this with these arguments instead of the command itself. */
  readonly file: string;
  readonly args: readonly string[];
  /** What the sandbox refused while the command ran, one line each. */
  violations(): readonly string[];
  /** The command ended (or never started): its network list is dropped. */
  release(): void;
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
        return {
          file: '/bin/sh',
          args: ['-c', wrapped],
          violations: () => violationLines(current.annotateStderrWithSandboxFailures(id, '')),
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
  return runtimeSandbox(backend);
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
    const sandbox = runtimeSandbox(backend);
    const launch = await sandbox.launch(
      `echo in > inside; if echo out > ../outside 2>/dev/null; then exit 3; fi`,
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
