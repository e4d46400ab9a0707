// What each runtime's installer offers `warden hook install` and `warden
// doctor`: where its settings live, how Warden's hook goes in, and whether the
// hook found there would be called.

import type { HookCommand, InstallRuntime } from './common.js';

/** Project settings (under the project folder) or the user's. */
export type Scope = 'project' | 'user';

export interface Target {
  readonly scope: Scope;
  /** The project folder (absolute), for `project`. */
  readonly project: string;
  readonly env: NodeJS.ProcessEnv;
}

export type Installed =
  | {
      readonly ok: true;
      /** The files written, the settings file first. */
      readonly files: readonly string[];
      /** Whether an earlier Warden entry was replaced. */
      readonly replaced: boolean;
      /** The runtime's own timeout for the hook, in its unit (`timeoutUnit`). */
      readonly timeout: number;
      /** What the user still has to do before the runtime calls the hook; empty when nothing. */
      readonly todo: readonly string[];
      /** What else the user should know about what was written (a copy kept); none when absent. */
      readonly notes?: readonly string[];
    }
  | { readonly ok: false; readonly path: string; readonly message: string };

/** Warden's hook in one settings file, as `warden doctor` reports it. */
export interface HookStatus {
  readonly runtime: InstallRuntime;
  readonly scope: Scope;
  readonly file: string;
  /** Whether a Warden hook entry is in the file. */
  readonly installed: boolean;
  /** The events it is installed for (the runtime's names: `PreToolUse`, `BeforeTool`). */
  readonly events: readonly string[];
  readonly command: string | null;
  /** The program and script the command starts, and whether they exist. */
  readonly paths: readonly { readonly path: string; readonly exists: boolean }[];
  /** Whether the runtime would call it: installed, its files exist and nothing below is missing. */
  readonly called: boolean;
  /** Why it would not be called, or what does not reach it; empty when nothing. */
  readonly problems: readonly string[];
  /** Codex: whether Codex trusts the entries (it skips untrusted hooks silently). */
  readonly trusted?: boolean;
  /** Gemini CLI: whether WARDEN_URL and WARDEN_TOKEN are let through its environment redaction. */
  readonly envAllowed?: boolean;
}

export interface RuntimeInstaller {
  readonly runtime: InstallRuntime;
  /** As messages name it: `Claude Code`. */
  readonly label: string;
  /** The events Warden's hook is installed for: the decision, then the completions. */
  readonly events: readonly [string, ...string[]];
  readonly timeoutUnit: 's' | 'ms';
  /** The settings file of that scope. */
  file(target: Target): string;
  install(target: Target, hook: HookCommand): Installed;
  inspect(target: Target): HookStatus;
}

/** A settings file without Warden's hook (or one that cannot be read: `problems` say why). */
export function notInstalled(
  base: Pick<HookStatus, 'runtime' | 'scope' | 'file'>,
  problems: readonly string[],
): HookStatus {
  return {
    ...base,
    installed: false,
    events: [],
    command: null,
    paths: [],
    called: false,
    problems,
  };
}
