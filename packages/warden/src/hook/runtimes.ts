// The agent runtimes `warden hook <runtime>` answers, by the name on the
// command line. Each loads only when its hook runs: the hook starts for every
// tool call, so it pays for one runtime's reader, not all of them.

import type { HookInput, HookRuntime } from './runtime.js';

type Loaded = HookRuntime<HookInput, object>;

/** A runtime as the command line and its help know it. */
export interface RuntimeEntry {
  readonly name: string;
  /** Other names the command line takes for it. */
  readonly aliases: readonly string[];
  /** What `warden hook <name> --help` says it does. */
  readonly description: string;
  readonly load: () => Promise<Loaded>;
}

export const HOOK_RUNTIMES: readonly RuntimeEntry[] = [
  {
    name: 'claude-code',
    aliases: [],
    description:
      "Claude Code's `PreToolUse` hook: reads its JSON on standard input, prints allow or deny; every failure is a deny",
    load: async () => (await import('./claude-code.js')).claudeCode as unknown as Loaded,
  },
  {
    name: 'codex',
    aliases: [],
    description:
      "Codex CLI's `PreToolUse` hook: reads its JSON on standard input, prints deny with Warden's reason or lets the call run; every failure is a deny",
    load: async () => (await import('./codex.js')).codex as unknown as Loaded,
  },
  {
    name: 'gemini',
    aliases: ['gemini-cli'],
    description:
      "Gemini CLI's `BeforeTool` hook: reads its JSON on standard input, prints allow or deny (never ask), an allowed shell command rewritten to run under Warden's sandbox; every failure is a deny",
    load: async () => (await import('./gemini.js')).gemini as unknown as Loaded,
  },
];

/** The names `warden hook` takes, in the order help lists them. */
export const RUNTIME_NAMES: readonly string[] = HOOK_RUNTIMES.map((r) => r.name);

/** The runtime of that name (or alias), or null for a name Warden has no hook for. */
export async function loadRuntime(name: string): Promise<Loaded | null> {
  const entry = HOOK_RUNTIMES.find((r) => r.name === name || r.aliases.includes(name));
  return entry === undefined ? null : entry.load();
}
