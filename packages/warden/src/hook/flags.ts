// The flags of `warden hook <runtime>`, declared once: the hook's quick way
// in (`main.ts`, node's `parseArgs`, no command-line framework) and the
// `warden` command line (`cli/commands/hook/index.ts`) both read them.

import type { HookOptions } from './run.js';

export interface HookFlag {
  /** As commander spells it: `--name <value>`; every hook flag takes a value. */
  readonly usage: `--${string} <${string}>`;
  readonly description: string;
}

/** The two adapter modes (contracts §4), shared with `warden gateway` and `warden exec`. */
export const ADAPTER_FLAGS = {
  server: {
    usage: '--server <url>',
    description: 'connected: the Warden server decides (default: WARDEN_URL; token: WARDEN_TOKEN)',
  },
  token: { usage: '--token <token>', description: 'an `agent` token (default: WARDEN_TOKEN)' },
  policy: {
    usage: '--policy <file>',
    description: 'standalone: decide from this policy file (prompts are denied)',
  },
  managed: {
    usage: '--managed <file>',
    description: 'standalone: a managed policy file (default: WARDEN_MANAGED_POLICY)',
  },
  data: {
    usage: '--data <dir>',
    description: 'standalone: where the audit log is written (default `.warden`)',
  },
} as const satisfies Record<string, HookFlag>;

/** Every flag of the hook, in the order `--help` lists them; one per field of `HookOptions`. */
export const HOOK_FLAGS = {
  ...ADAPTER_FLAGS,
  // A relative data folder lies in the worktree (`hook/worktree.ts`), wherever the hook starts.
  data: {
    usage: '--data <dir>',
    description: 'standalone: where the audit log is written (default `.warden` in the worktree)',
  },
  agent: {
    usage: '--agent <id>',
    description:
      "the agent id (standalone default: the runtime's name, e.g. `codex`; connected: the token's)",
  },
  space: { usage: '--space <id>', description: 'the space' },
  mode: { usage: '--mode <name>', description: 'the mode' },
  gateway: {
    usage: '--gateway <name>',
    description:
      "the MCP server name the runtime knows Warden's gateway by, whose tools the gateway decides (default `warden`)",
  },
  gatewayConfig: {
    usage: '--gateway-config <file>',
    description:
      "map the tools of MCP servers the runtime reaches directly with this gateway configuration's mapping",
  },
  timeout: {
    usage: '--timeout <seconds>',
    description: 'answer within this long, else deny (default 55)',
  },
  worktree: {
    usage: '--worktree <dir>',
    description:
      'the worktree every call is judged against and the sandbox may write to, absolute (default: CLAUDE_PROJECT_DIR or GEMINI_PROJECT_DIR, else the folder the hook starts in); never a folder a call names',
  },
  sandbox: {
    usage: '--sandbox <mode>',
    description:
      'allowed shell commands: `auto` run under the sandbox where it can run (default), `required` deny them where it cannot, `off` run them as they are',
  },
} as const satisfies Record<keyof HookOptions, HookFlag>;

/** The flag's long name without its dashes: `gateway-config`. */
export function flagName(flag: HookFlag): string {
  return flag.usage.slice(2, flag.usage.indexOf(' '));
}

/**
 * The hook's options from parsed flags; `valueOf(key)` reads the value of the
 * flag `HOOK_FLAGS[key]`. A flag not given is left out.
 */
export function hookOptions(valueOf: (key: keyof HookOptions) => unknown): HookOptions {
  const options: { -readonly [K in keyof HookOptions]: HookOptions[K] } = {};
  for (const key of Object.keys(HOOK_FLAGS) as (keyof HookOptions)[]) {
    const value = valueOf(key);
    if (typeof value === 'string') options[key] = value;
  }
  return options;
}
