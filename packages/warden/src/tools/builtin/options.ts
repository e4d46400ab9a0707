// What every built-in tool is configured with, and the two helpers they all
// share: finding the worktree a call acts in, and turning a refusal of the
// shared path module (I5) into a `ToolRefusal` the registry records as `Denied`.

import type { Confinement, PathResult } from '../../paths/index.js';
import type { HostFacts } from '../../honesty/host.js';
import type { SandboxMode } from '../../sandbox/runtime.js';
import { DEFAULT_DENY_READ, SANDBOX_MODES } from '../../sandbox/runtime.js';
import { DEFAULT_MAX_ENTRIES, worktreeConfinement } from '../../paths/index.js';
import type { ToolContext } from '../registry.js';
import { ToolRefusal } from '../registry.js';

export interface BuiltinOptions {
  /** The worktree the tools act in; default: the registry's `CallContext.worktree` (E10). */
  readonly worktree?: string;
  /** Most bytes `read_file` returns (default 256 KiB); more is cut and said. */
  readonly maxReadBytes?: number;
  /** Most entries `list_files` returns (default 1000); more are cut and said. */
  readonly maxListEntries?: number;
  /** Most bytes of stdout and of stderr `run_command` keeps, each (default 64 KiB). */
  readonly maxOutputBytes?: number;
  /** `run_command`'s timeout when the call names none (default 2 minutes). */
  readonly commandTimeoutMs?: number;
  /** The longest timeout a call may ask for (default 10 minutes). */
  readonly maxTimeoutMs?: number;
  /** The git binary (default `git`, looked up on PATH). */
  readonly git?: string;
  /** How long one git or `gh` command may run (default 2 minutes). */
  readonly gitTimeoutMs?: number;
  /** GitHub's command line for the pull request tools (default `gh`, looked up on PATH). */
  readonly gh?: string;
  /** Most bytes of a response body `http_fetch` returns (default 256 KiB). */
  readonly maxBodyBytes?: number;
  /** `http_fetch`'s timeout when the call names none (default 30 seconds). */
  readonly fetchTimeoutMs?: number;
  /** The environment child processes start from, before Warden's credentials are removed (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Whether `run_command` runs its commands under the OS sandbox (G2): `auto`
   * (default) where the host offers a backend, `required` always (a host
   * without one refuses the command), `off` never.
   */
  readonly sandbox?: SandboxMode;
  /** Hosts a sandboxed command may reach besides those its command line names (a package registry, say). */
  readonly sandboxAllowedHosts?: readonly string[];
  /** Paths a sandboxed command may not read (default: the usual credential folders, `~/.ssh`, `~/.aws`, …). */
  readonly sandboxDenyRead?: readonly string[];
  /** The host the sandbox is chosen for (default: this one, read from the PATH). */
  readonly sandboxHost?: HostFacts;
}

/** The options with every default filled in. */
export interface Settings {
  readonly worktree: string | undefined;
  readonly maxReadBytes: number;
  readonly maxListEntries: number;
  readonly maxOutputBytes: number;
  readonly commandTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly git: string;
  readonly gitTimeoutMs: number;
  readonly gh: string;
  readonly maxBodyBytes: number;
  readonly fetchTimeoutMs: number;
  readonly env: NodeJS.ProcessEnv;
  readonly sandbox: SandboxMode;
  readonly sandboxAllowedHosts: readonly string[];
  readonly sandboxDenyRead: readonly string[];
  readonly sandboxHost: HostFacts | undefined;
}

const KIB = 1024;

function bytes(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`option \`${name}\` must be a whole number of bytes, not \`${n}\``);
  }
  return n;
}

function entries(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new RangeError(
      `option \`${name}\` must be a positive whole number of entries, not \`${n}\``,
    );
  }
  return n;
}

function millis(value: number | undefined, fallback: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new RangeError(`option \`${name}\` must be a positive whole number of milliseconds`);
  }
  return n;
}

function sandboxMode(value: SandboxMode | undefined): SandboxMode {
  const mode = value ?? 'auto';
  if (!SANDBOX_MODES.includes(mode)) {
    throw new RangeError(
      `option \`sandbox\` must be one of ${SANDBOX_MODES.map((m) => `\`${m}\``).join(', ')}, not \`${String(mode)}\``,
    );
  }
  return mode;
}

function strings(
  value: readonly string[] | undefined,
  fallback: readonly string[],
  name: string,
): readonly string[] {
  const list = value ?? fallback;
  if (!Array.isArray(list) || list.some((v) => typeof v !== 'string' || v.trim() === '')) {
    throw new RangeError(`option \`${name}\` must be a list of non-empty strings`);
  }
  return [...list];
}

/** Fills in the defaults; a bad option is a configuration bug and throws. */
export function settings(options: BuiltinOptions = {}): Settings {
  return {
    worktree: options.worktree,
    maxReadBytes: bytes(options.maxReadBytes, 256 * KIB, 'maxReadBytes'),
    maxListEntries: entries(options.maxListEntries, DEFAULT_MAX_ENTRIES, 'maxListEntries'),
    maxOutputBytes: bytes(options.maxOutputBytes, 64 * KIB, 'maxOutputBytes'),
    commandTimeoutMs: millis(options.commandTimeoutMs, 120_000, 'commandTimeoutMs'),
    maxTimeoutMs: millis(options.maxTimeoutMs, 600_000, 'maxTimeoutMs'),
    git: options.git ?? 'git',
    gitTimeoutMs: millis(options.gitTimeoutMs, 120_000, 'gitTimeoutMs'),
    gh: options.gh ?? 'gh',
    maxBodyBytes: bytes(options.maxBodyBytes, 256 * KIB, 'maxBodyBytes'),
    fetchTimeoutMs: millis(options.fetchTimeoutMs, 30_000, 'fetchTimeoutMs'),
    env: options.env ?? process.env,
    sandbox: sandboxMode(options.sandbox),
    sandboxAllowedHosts: strings(options.sandboxAllowedHosts, [], 'sandboxAllowedHosts'),
    sandboxDenyRead: strings(options.sandboxDenyRead, DEFAULT_DENY_READ, 'sandboxDenyRead'),
    sandboxHost: options.sandboxHost,
  };
}

/** The worktree a call acts in: the configured one, else the call's own (E10). */
export function worktreeOf(s: Settings, ctx: ToolContext): string {
  const worktree = s.worktree ?? ctx.call.worktree;
  if (worktree === undefined) {
    throw new Error('no worktree: configure the built-in tools or the call context with one');
  }
  return worktree;
}

/** The worktree's confinement (everything but `.trash`), resolved afresh for each call. */
export function callConfinement(s: Settings, ctx: ToolContext): Promise<Confinement> {
  return worktreeConfinement(worktreeOf(s, ctx));
}

/** The value of a path result, or the module's refusal as a `ToolRefusal`. */
export function accepted<T>(result: PathResult<T>): T {
  if (!result.ok) throw new ToolRefusal(result.problem.message);
  return result.value;
}
