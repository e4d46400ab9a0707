// What `warden hook install <runtime>` does the same for every runtime: check
// the flags, build the hook's command line, pick the runtimes' timeouts, and
// write a settings file whole or not at all. Each runtime's module
// (`claude-code.ts`, `codex.ts`, `gemini.ts`) only knows its own file format.

import { existsSync, mkdirSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGatewayConfig } from '../../gateway/config.js';
import { loadPolicyFile } from '../../policy/load.js';
import { DEFAULT_TIMEOUT_SECONDS, timeoutSeconds } from '../../hook/run.js';
import { HOOK_SANDBOX_MODES, runnerClientUsable, shellQuote } from '../../hook/sandboxed.js';

/** The flags of `warden hook install` the hook's command line is planned from. */
export interface HookInstallFlags {
  readonly project?: string;
  readonly user?: true;
  readonly worktree?: string;
  readonly server?: string;
  readonly policy?: string;
  readonly data?: string;
  readonly agent?: string;
  readonly gatewayConfig?: string;
  readonly sandbox?: string;
  readonly timeout?: string;
  /** False: each call in a Node process of its own (`--no-runner`). */
  readonly runner?: boolean;
}

/** The runtimes `warden hook install` writes into, by their `warden hook` name. */
export type InstallRuntime = 'claude-code' | 'codex' | 'gemini';

/** `package/bin/warden.js`, the entry point the installed command starts. */
export const WARDEN_BIN = fileURLToPath(new URL('../../../bin/warden.js', import.meta.url));

/** `package/bin/warden-hook`, the resident runner's client the installed command starts. */
export const HOOK_CLIENT = fileURLToPath(new URL('../../../bin/warden-hook', import.meta.url));

/** The runtime waits this much longer than the hook takes to answer. */
const RUNTIME_MARGIN_SECONDS = 5;

/** The installed hook: its command line, and how long it and the runtime wait. */
export interface HookCommand {
  /** The shell command line the runtime runs. */
  readonly command: string;
  /** The worktree it binds calls to (`--worktree`), or null where the runtime's session says. */
  readonly worktree: string | null;
  /** The hook's own deadline (`--timeout`, default 55 s). */
  readonly hookSeconds: number;
  /** The runtime's `timeout` for the hook, in seconds: a little longer than the hook's. */
  readonly runtimeSeconds: number;
}

/** A checked installation, or the flag that is wrong and why. */
export type Planned =
  | { readonly ok: true; readonly hook: HookCommand }
  | { readonly ok: false; readonly path: string; readonly message: string };

/**
 * The worktree the installed hook binds calls to: `--worktree DIR`, else for
 * a project's settings the project folder (the hook installed for a project
 * judges every call against it, whatever folder a call names), else none:
 * a `--user` hook serves every project, and binds each call to the session's
 * own (the runtime's project folder, or the folder it starts the hook in).
 * A real path, of a folder that exists; or why it cannot be used.
 */
function installedWorktree(
  options: HookInstallFlags,
): { readonly worktree: string | null } | { readonly problem: string } {
  const given = options.worktree;
  if (given === undefined && options.user === true) return { worktree: null };
  const dir = resolve(given ?? options.project ?? '.');
  try {
    const real = realpathSync(dir);
    if (statSync(real).isDirectory()) return { worktree: real };
  } catch {
    // Said below.
  }
  return {
    problem:
      given === undefined
        ? `the project \`${dir}\` is not a folder: the hook binds every call to it`
        : `\`--worktree ${given}\` is not a folder`,
  };
}

/**
 * Checks the flags and builds the command line of `warden hook <runtime>` with
 * them. Paths are made absolute: the runtime starts the hook in the session's
 * folder. A token is never part of it: connected, the hook reads WARDEN_TOKEN.
 * The worktree is written in (`installedWorktree`): the agent never chooses it.
 */
export function planHookCommand(runtime: InstallRuntime, options: HookInstallFlags): Planned {
  const bad = (path: string, message: string): Planned => ({ ok: false, path, message });
  if (options.user === true && options.project !== undefined)
    return bad('--user', 'give `--project DIR` or `--user`, not both');
  if (options.server !== undefined && options.policy !== undefined)
    return bad(
      '--policy',
      'give `--server URL` (connected) or `--policy FILE` (standalone), not both',
    );
  if (options.policy !== undefined && !existsSync(options.policy))
    return bad('--policy', `no file \`${options.policy}\``);
  // A policy that does not load would make the hook deny every call: refused here, with why.
  if (options.policy !== undefined) {
    const loaded = loadPolicyFile(options.policy, 'workspace', () => '');
    if (!loaded.ok)
      return bad(
        '--policy',
        `\`${options.policy}\` does not load, so the hook would deny every call; fix it first (\`warden policy lint\` shows the same): ${loaded.issues
          .slice(0, 5)
          .map((i) => `${i.path === '' ? '' : `${i.path}: `}${i.message}`)
          .join('; ')}${loaded.issues.length > 5 ? `; and ${loaded.issues.length - 5} more` : ''}`,
      );
  }
  if (
    options.sandbox !== undefined &&
    !(HOOK_SANDBOX_MODES as readonly string[]).includes(options.sandbox)
  )
    return bad(
      '--sandbox',
      `\`--sandbox ${options.sandbox}\` is not one of ${HOOK_SANDBOX_MODES.join(', ')}`,
    );
  const seconds = timeoutSeconds({ timeout: options.timeout });
  if (typeof seconds === 'string') return bad('--timeout', seconds);
  const bound = installedWorktree(options);
  if ('problem' in bound)
    return bad(options.worktree === undefined ? '--project' : '--worktree', bound.problem);
  if (options.gatewayConfig !== undefined) {
    // Checked now: a file the hook cannot read would deny every MCP call it was meant to map.
    const loaded = loadGatewayConfig(options.gatewayConfig);
    if (!loaded.ok)
      return bad(
        '--gateway-config',
        `\`${options.gatewayConfig}\` cannot be used, nothing was written: ${loaded.problems
          .map((p) => (p.path === '--config' ? p.message : `${p.path}: ${p.message}`))
          .join('; ')}`,
      );
  }
  // Through the resident runner where its client can run (a shell and curl), else one Node
  // process per call.
  const words =
    options.runner !== false && runnerClientUsable()
      ? ['/bin/sh', HOOK_CLIENT, process.execPath, runtime]
      : [process.execPath, WARDEN_BIN, 'hook', runtime];
  if (options.server !== undefined) words.push('--server', options.server);
  if (options.policy !== undefined) words.push('--policy', resolve(options.policy));
  if (options.data !== undefined) words.push('--data', resolve(options.data));
  if (options.agent !== undefined) words.push('--agent', options.agent);
  if (options.gatewayConfig !== undefined)
    words.push('--gateway-config', resolve(options.gatewayConfig));
  if (options.sandbox !== undefined) words.push('--sandbox', options.sandbox);
  if (options.timeout !== undefined) words.push('--timeout', String(seconds));
  if (bound.worktree !== null) words.push('--worktree', bound.worktree);
  return {
    ok: true,
    hook: {
      command: words.map(shellQuote).join(' '),
      worktree: bound.worktree,
      hookSeconds: seconds,
      runtimeSeconds: Math.ceil(seconds) + RUNTIME_MARGIN_SECONDS,
    },
  };
}

/** The default hook deadline's runtime timeout (Claude Code's own default, 60 s). */
export const DEFAULT_RUNTIME_SECONDS = DEFAULT_TIMEOUT_SECONDS + RUNTIME_MARGIN_SECONDS;

/**
 * Whether a hook's command line is Warden's: the runner's client
 * (`…/bin/warden-hook NODE <runtime>`), `…/bin/warden.js hook <runtime>` or
 * `warden hook <runtime>`, with any runtime name or alias.
 */
export function isWardenCommand(command: unknown): command is string {
  return (
    typeof command === 'string' &&
    (/\bwarden(?:\.js)?'? +hook +(?:claude-code|codex|gemini|gemini-cli)\b/.test(command) ||
      /\bwarden-hook'? +\S+ +'?(?:claude-code|codex|gemini|gemini-cli)\b/.test(command))
  );
}

/** The user's home folder as the command sees it (HOME first, as the runtimes read it). */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
}

/** Writes the file whole: to a temporary file beside it, then renamed over it. */
export function writeWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.warden-${process.pid}`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * The program the command line starts and the script it runs (`node
 * …/bin/warden.js`), each with whether it exists, for `warden doctor`.
 */
export function commandPaths(command: string): { path: string; exists: boolean }[] {
  const words = [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)]
    .slice(0, 2)
    .map((m) => (m[1] !== undefined ? m[1].replaceAll(`'\\''`, "'") : (m[2] ?? '')));
  return words
    .filter((word) => word.startsWith('/'))
    .map((path) => ({ path, exists: existsSync(path) }));
}
