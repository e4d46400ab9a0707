// An allowed `Bash` call runs under Warden's sandbox (G2): the hook answers
// `allow` with the call's input rewritten so that Claude Code runs
// `warden exec --grant …` instead, which verifies the grant and runs the
// original command line under the profile made from its decision. Where the
// host has no backend, `--sandbox auto` (the default) lets the command run as
// it is and `required` denies it; `off` never rewrites.

import { realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  detectHost,
  missingBackend,
  sandboxBackend,
  transactionalProblem,
} from '../honesty/host.js';

export type HookSandbox = 'auto' | 'required' | 'off';
export const HOOK_SANDBOX_MODES: readonly HookSandbox[] = ['auto', 'required', 'off'];

/** Whether allowed shell commands are rewritten, or why the call is denied. */
export type SandboxPlan =
  | {
      readonly kind: 'rewrite';
      readonly worktree: string;
      /** Whether the runner can run it over a copy-on-write layer (E44). */
      readonly transactional: boolean;
    }
  | { readonly kind: 'plain' }
  | { readonly kind: 'refuse'; readonly reason: string };

export function planSandbox(
  mode: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): SandboxPlan {
  const chosen = mode ?? 'auto';
  if (!(HOOK_SANDBOX_MODES as readonly string[]).includes(chosen))
    return {
      kind: 'refuse',
      reason: `\`--sandbox ${chosen}\` is not one of ${HOOK_SANDBOX_MODES.join(', ')}`,
    };
  if (chosen === 'off') return { kind: 'plain' };
  const host = detectHost({ env });
  if (sandboxBackend(host) === null) {
    if (chosen === 'required')
      return {
        kind: 'refuse',
        reason: `shell commands must run sandboxed (\`--sandbox required\`), but this host offers no sandbox backend (${missingBackend(host)})`,
      };
    return { kind: 'plain' };
  }
  try {
    // The grant names the worktree as the runner will see it: its real path.
    return {
      kind: 'rewrite',
      worktree: realpathSync(cwd),
      transactional: transactionalProblem(host, env) === null,
    };
  } catch {
    return { kind: 'refuse', reason: `the working folder \`${cwd}\` cannot be read` };
  }
}

/** Quotes one word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Who the runner asks: the server, or the policy file and data folder. */
export type RunnerSource =
  /** `data`: the data folder whose runner serves the run (connected, it holds only the runner). */
  | { readonly server: string; readonly data?: string }
  | { readonly policy: string; readonly data: string; readonly managed?: string };

/** The program that is `warden`: this Node and this package's entry point. */
function wardenArgv(): string[] {
  return [process.execPath, fileURLToPath(new URL('../../bin/warden.js', import.meta.url))];
}

/** The resident runner's client for a granted run (`bin/warden-run`), run by bash. */
function runClientArgv(): string[] {
  return [
    '/bin/bash',
    fileURLToPath(new URL('../../bin/warden-run', import.meta.url)),
    process.execPath,
  ];
}

/**
 * Whether a granted run goes through the resident runner: where bash and
 * socat are there to be its client. Elsewhere `warden exec --grant` runs it in
 * a Node process of its own.
 */
export function runnerClientUsable(env: NodeJS.ProcessEnv = process.env): boolean {
  const exists = (path: string): boolean => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };
  if (!exists('/bin/bash')) return false;
  return (env.PATH ?? '')
    .split(':')
    .some((dir) => dir.startsWith('/') && exists(join(dir, 'socat')));
}

/**
 * Whether a command line is one `runnerCommand` wrote: this Warden's
 * `exec --grant`, or its runner's client. Such a run records how it ended itself.
 */
export function isRunnerCommand(command: string): boolean {
  return (
    command.startsWith(`${wardenArgv().map(shellQuote).join(' ')} exec --grant `) ||
    command.startsWith(`${runClientArgv().map(shellQuote).join(' ')} --grant `)
  );
}

/**
 * The command line the runtime runs instead: the original, under Warden's
 * sandbox — through the resident runner's client where it can be used, else
 * `warden exec --grant`.
 */
export function runnerCommand(
  grant: string,
  worktree: string,
  command: string,
  source: RunnerSource,
  client: boolean = runnerClientUsable(),
): string {
  const where =
    'server' in source
      ? [
          '--server',
          source.server,
          ...(client && source.data !== undefined ? ['--data', resolve(source.data)] : []),
        ]
      : [
          '--policy',
          resolve(source.policy),
          '--data',
          resolve(source.data),
          ...(source.managed === undefined ? [] : ['--managed', resolve(source.managed)]),
        ];
  return [
    ...(client ? runClientArgv() : [...wardenArgv(), 'exec']),
    '--grant',
    grant,
    '--worktree',
    worktree,
    ...where,
    '--',
    command,
  ]
    .map(shellQuote)
    .join(' ');
}
