// `warden hook install <runtime> [--project DIR | --user]`: writes the entries
// that send every tool call of Claude Code, Codex or Gemini CLI through
// `warden hook <runtime>` (the decision event) and every completion too (the
// event after the call), into the project's settings or the user's. The rest of
// the settings stays; an entry written before is replaced, so installing twice
// leaves one. A token is never written: connected, the hook reads WARDEN_TOKEN
// from the runtime's environment. The worktree is: `--worktree`, by default
// the project's folder (a `--user` hook binds each call to its session's). `hook-install/` holds one module per
// runtime's settings format; the flags and the command line are checked and
// built once, in `hook-install/common.ts`.

import { resolve } from 'node:path';
import type { HookInstallOptions } from './commands/hook.js';
import { claudeCodeInstaller } from './hook-install/claude-code.js';
import { codexInstaller } from './hook-install/codex.js';
import type { InstallRuntime } from './hook-install/common.js';
import { planHookCommand } from './hook-install/common.js';
import { geminiInstaller } from './hook-install/gemini.js';
import type { RuntimeInstaller } from './hook-install/runtime.js';
import type { Io } from './io.js';
import { EXIT, printJson, style, usage } from './io.js';

/** Every runtime `warden hook install` knows, in the order help and `warden doctor` list them. */
export const INSTALLERS: readonly RuntimeInstaller[] = [
  claudeCodeInstaller,
  codexInstaller,
  geminiInstaller,
];

export function runHookInstall(
  io: Io,
  options: HookInstallOptions,
  runtime: InstallRuntime = 'claude-code',
): number {
  const json = options.json === true;
  const installer = INSTALLERS.find((i) => i.runtime === runtime);
  if (installer === undefined) return usage(io, json, 'runtime', `no installer for \`${runtime}\``);
  const planned = planHookCommand(runtime, options);
  if (!planned.ok) return usage(io, json, planned.path, planned.message);
  const { hook } = planned;
  const target = {
    scope: options.user === true ? ('user' as const) : ('project' as const),
    project: resolve(options.project ?? '.'),
    env: io.env,
  };
  const installed = installer.install(target, hook);
  if (!installed.ok) return usage(io, json, installed.path, installed.message);
  const [file] = installed.files;

  if (json) {
    printJson(io, {
      installed: true,
      runtime,
      file,
      files: installed.files,
      events: installer.events,
      command: hook.command,
      worktree: hook.worktree,
      timeout: installed.timeout,
      timeoutUnit: installer.timeoutUnit,
      hookTimeout: hook.hookSeconds,
      replaced: installed.replaced,
      todo: installed.todo,
      notes: installed.notes ?? [],
    });
    return EXIT.ok;
  }
  const s = style(io.color);
  const [decision, ...completions] = installer.events;
  io.out(
    `${s.green('installed')}: every ${installer.label} tool call now asks Warden (${decision}) and its completion is recorded (${completions.join(', ')}) (${file}${installed.replaced ? ', the earlier entries replaced' : ''})\n`,
  );
  io.out(`  ${hook.command}\n`);
  io.out(
    hook.worktree === null
      ? `  every call is judged against its session's folder, as ${installer.label} names it or starts the hook in, never a folder the call names\n`
      : `  every call is judged against the worktree ${hook.worktree}, whatever folder it names\n`,
  );
  for (const other of installed.files.slice(1))
    io.out(`  Codex's trust for these entries written to ${other}\n`);
  if (runtime === 'codex' && installed.files.length === 1)
    io.out(`  Codex's trust for these entries written to the same file\n`);
  io.out(
    `  ${installer.label} waits ${installed.timeout}${installer.timeoutUnit === 'ms' ? ' ms' : ' s'} for it; it answers within ${hook.hookSeconds} s\n`,
  );
  io.out(
    options.server !== undefined
      ? `  connected: start ${installer.label} with WARDEN_TOKEN set to an \`agent\` token of this server\n`
      : options.policy !== undefined
        ? '  standalone: decisions from the policy file; prompts are denied (no approver)\n'
        : `  give it a policy: set WARDEN_URL and WARDEN_TOKEN for ${installer.label}, or install again with --server or --policy; until then every call is denied\n`,
  );
  for (const note of installed.notes ?? []) io.out(`  note: ${note}\n`);
  for (const todo of installed.todo) io.out(`  ${s.yellow('to do')}: ${todo}\n`);
  return EXIT.ok;
}
