// Each stdio downstream server starts under the OS sandbox (G2), like a
// container of its own: it reads everything but the credential folders,
// writes only the folders its entry lists (`sandbox.write`, none by default)
// and reaches only the hosts it lists (`sandbox.hosts`, none by default). So a
// filesystem server given `/` as its root still writes only where Warden lets
// it, whatever the gate allowed. A host without a backend follows the
// gateway's `sandbox` mode: `auto` starts the server without one and says so,
// `required` refuses to start it.

import { realpath, stat } from 'node:fs/promises';
import type { HostFacts } from '../honesty/host.js';
import { detectHost, missingBackend, sandboxBackend } from '../honesty/host.js';
import type {
  CommandSandbox,
  SandboxMode,
  SandboxScope,
  SandboxedLaunch,
} from '../sandbox/runtime.js';
import { DEFAULT_DENY_READ, commandSandbox } from '../sandbox/runtime.js';
import type { GatewayConfig, ServerEntry, StdioServer } from './config.js';
import { ROOT_NOT_WRITABLE } from './config.js';

/** How one stdio server starts. */
export type SandboxPlan =
  | {
      readonly kind: 'sandboxed';
      readonly sandbox: CommandSandbox;
      /** Real paths of the folders it may write. */
      readonly write: readonly string[];
      readonly hosts: readonly string[];
      /** Paths it may not read: the credential folders and Warden's own data folder. */
      readonly denyRead: readonly string[];
    }
  | { readonly kind: 'unsandboxed' };

/** Every stdio server's plan, or the problems that keep the gateway from starting. */
export type SandboxPlans =
  | {
      readonly ok: true;
      readonly plans: ReadonlyMap<string, SandboxPlan>;
      /** Lines for the log: how each server starts, loudly when without the sandbox. */
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly problems: readonly string[] };

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The real path of a writable root, or why it cannot be one. */
async function realRoot(path: string): Promise<{ real: string } | { problem: string }> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      problem:
        code === 'ENOENT'
          ? `\`${path}\` does not exist: a writable root is an existing folder`
          : `\`${path}\` cannot be resolved: ${describeError(error)}`,
    };
  }
  if (real === '/') return { problem: `\`${path}\` resolves to \`/\`: ${ROOT_NOT_WRITABLE}` };
  const info = await stat(real).catch(() => null);
  if (info === null || !info.isDirectory())
    return { problem: `\`${path}\` is not a folder: a writable root is an existing folder` };
  return { real };
}

function listed(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.map((i) => `\`${i}\``).join(', ');
}

/**
 * How every stdio server starts, by the configuration and the host: the
 * writable roots resolved to real paths (`/`, a missing folder or a file is a
 * problem), and `required` on a host without a backend is a problem for each
 * server that would start sandboxed. Servers reached by URL have no plan.
 */
export async function planSandboxes(
  config: GatewayConfig,
  host: HostFacts = detectHost(),
  /** Paths beyond the credential folders no server may read (the gateway's data folder). */
  denyRead: readonly string[] = [],
): Promise<SandboxPlans> {
  const mode: SandboxMode = config.sandbox ?? 'auto';
  const problems: string[] = [];
  const notes: string[] = [];
  const plans = new Map<string, SandboxPlan>();
  const stdio = config.servers.filter(
    (s): s is Extract<ServerEntry, { kind: 'stdio' }> => s.kind === 'stdio',
  );
  const backend = sandboxBackend(host);
  const sandbox = backend === null ? null : commandSandbox('auto', host);
  if (mode === 'off' && stdio.length > 0)
    notes.push(
      'warning: `sandbox: off`: every stdio server starts WITHOUT the OS sandbox and may write wherever this user can and reach any host',
    );
  for (const entry of stdio) {
    const at = `servers.${entry.name}`;
    if (entry.sandbox === 'off' || mode === 'off') {
      if (mode !== 'off')
        notes.push(
          `warning: ${at}: starts WITHOUT the OS sandbox (\`sandbox: off\`): it may write wherever this user can and reach any host`,
        );
      plans.set(entry.name, { kind: 'unsandboxed' });
      continue;
    }
    const write: string[] = [];
    for (const [index, path] of entry.sandbox.write.entries()) {
      const root = await realRoot(path);
      if ('problem' in root) problems.push(`${at}.sandbox.write[${index}]: ${root.problem}`);
      else write.push(root.real);
    }
    if (sandbox === null) {
      const why = `this host offers no sandbox backend (${missingBackend(host)})`;
      if (mode === 'required')
        problems.push(
          `${at}: must start under the OS sandbox (\`sandbox: required\`), but ${why}: it is not started`,
        );
      else
        notes.push(
          `warning: ${at}: starts WITHOUT the OS sandbox: ${why}; it may write wherever this user can and reach any host (set \`sandbox: required\` to refuse instead)`,
        );
      plans.set(entry.name, { kind: 'unsandboxed' });
      continue;
    }
    const hosts = [...entry.sandbox.hosts];
    plans.set(entry.name, {
      kind: 'sandboxed',
      sandbox,
      write,
      hosts,
      denyRead: [...DEFAULT_DENY_READ, ...denyRead],
    });
    notes.push(
      `${at}: starts under the OS sandbox (${sandbox.backend}): it may write ${listed(write)} and reach ${listed(hosts)}`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, plans, notes };
}

/** A word as `/bin/sh` reads it back unchanged: bare when it is plainly safe, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The server's command line for `/bin/sh -c`: `exec` so the shell becomes the server. */
export function commandLine(entry: StdioServer): string {
  return ['exec', ...[entry.command, ...(entry.args ?? [])].map(shellWord)].join(' ');
}

/** What to spawn for one stdio server, and the launch to release when it ends. */
export interface ServerProcess {
  readonly command: string;
  readonly args: readonly string[];
  readonly launch: SandboxedLaunch | null;
}

/**
 * The process for one start of a stdio server: the sandbox's wrapper around
 * its command line, or the command itself when it runs without one. A server
 * that should run sandboxed and cannot throws (`SandboxUnavailable`): it is
 * never started without.
 */
export async function serverProcess(
  entry: StdioServer,
  plan: SandboxPlan | undefined,
): Promise<ServerProcess> {
  if (plan === undefined || plan.kind === 'unsandboxed')
    return { command: entry.command, args: [...(entry.args ?? [])], launch: null };
  const [first, ...rest] = plan.write;
  // The scope names one writable path first; a server that may write nothing
  // gets the null device there, which the sandbox keeps writable anyway.
  const scope: SandboxScope = {
    worktree: first ?? '/dev/null',
    write: rest,
    hosts: plan.hosts,
    denyRead: plan.denyRead,
  };
  const launch = await plan.sandbox.launch(commandLine(entry), scope);
  return { command: launch.file, args: [...launch.args], launch };
}

/**
 * Logs what the sandbox refused a server since the last look, one line each,
 * and answers those lines (the gateway names them when the server then dies).
 */
export function violationReporter(
  server: string,
  launch: SandboxedLaunch,
  log: (line: string) => void,
): () => readonly string[] {
  let seen = 0;
  return () => {
    const lines = launch.violations();
    const fresh = lines.slice(seen);
    for (const line of fresh) log(`servers.${server}: the sandbox refused: ${line}`);
    seen = Math.max(seen, lines.length);
    return fresh;
  };
}
