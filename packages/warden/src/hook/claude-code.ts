// Claude Code's `PreToolUse` hook (contracts §4): what a native tool call asks
// of the gate. `Bash` goes through the shell classifier (G14b, G14c), run in
// the input's `cwd` (outside the bound worktree also a
// `fileWriteOutsideWorktree` of that folder, `plan.ts`); file writes are
// gated only outside the bound worktree (`hook/worktree.ts`; a relative path
// resolved against `cwd`), judged by the one path confinement;
// `WebFetch`/`WebSearch` are network egress with their hosts (E12); tools that only read or steer Claude Code itself pass ungated;
// `mcp__<gateway>__*` is left to Warden's MCP gateway; another `mcp__*` tool
// is decided with the mapping of a gateway configuration given with
// `--gateway-config FILE` (the same mapping and argument extraction the
// gateway uses) when that file lists its server; an MCP tool without a
// mapping and a tool Warden does not know are denied until they are mapped —
// never guessed to be harmless.

import { resolve } from 'node:path';
import type { HookCompletion } from './completion.js';
import { milliseconds, shortError, sizeOf, statedExitCode } from './completion.js';
import type { HookPlan } from './plan.js';
import {
  askBase,
  hookInputOf,
  planFileWrite,
  planMcpName,
  processWorktree,
  planShell,
  readCallFields,
  text,
} from './plan.js';
import type { HookInput, HookRuntime } from './runtime.js';

/** The fields of Claude Code's `PreToolUse` input that Warden reads; others pass unread. */
export interface PreToolUse {
  readonly hook_event_name: 'PreToolUse';
  readonly cwd: string;
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
  readonly tool_use_id?: string;
  readonly session_id?: string;
  readonly permission_mode?: string;
}

/**
 * Claude Code's input read field by field, or every problem with it. Checked
 * by hand, not with a schema library: the hook starts for every tool call, and
 * loading one would cost more than the rest of its start.
 */
export function readPreToolUse(raw: unknown): PreToolUse | string[] {
  const { input, problems } = readCallFields(raw, {
    event: 'PreToolUse',
    installUnder: 'PreToolUse',
    runtime: 'Claude Code',
    strings: ['tool_use_id', 'session_id', 'permission_mode'],
  });
  if (problems.length > 0) return problems;
  return input as unknown as PreToolUse;
}

/** Claude Code's own tools that only read, or steer the session; their effects pass other hooks. */
const UNGATED: Readonly<Record<string, string>> = {
  Read: 'reads a file',
  NotebookRead: 'reads a notebook',
  Glob: 'lists files',
  Grep: 'searches files',
  LS: 'lists a folder',
  TodoWrite: "updates Claude Code's own task list",
  ExitPlanMode: 'leaves plan mode',
  Task: 'starts a subagent, whose own tool calls pass this hook',
  Agent: 'starts a subagent, whose own tool calls pass this hook',
  BashOutput: 'reads the output of a running shell',
  KillShell: 'stops a shell Claude Code started',
  KillBash: 'stops a shell Claude Code started',
  ListMcpResourcesTool: 'lists MCP resources',
  ReadMcpResourceTool: 'reads an MCP resource',
  SlashCommand: 'runs a slash command, whose tool calls pass this hook',
  Skill: 'loads a skill, whose tool calls pass this hook',
};

const FILE_WRITERS: Readonly<Record<string, string>> = {
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};

/** What the call asks of the gate, from Claude Code's input alone (never from its words about itself). */
export async function planCall(
  input: PreToolUse,
  /**
   * The bound worktree (`hook/worktree.ts`), a real path: never the input's
   * `cwd`. The hook always gives it; by default the folder this process runs in.
   */
  worktree: string = processWorktree(),
  /** The name Claude Code knows Warden's own MCP gateway by: its tools are decided there. */
  gateway = 'warden',
  /** A gateway configuration file mapping the tools of MCP servers Claude Code reaches directly. */
  gatewayConfig?: string,
): Promise<HookPlan> {
  const { tool_name: tool, tool_input: args, cwd } = input;
  const callId = input.tool_use_id;
  const base = askBase(tool, args, callId);
  if (tool === 'Bash') {
    const command = text(args, 'command');
    if (command === null) return { kind: 'refuse', reason: '`Bash` without a `command`' };
    // Asking to run without the sandbox always needs a human (and then runs as asked).
    if (args.dangerouslyDisableSandbox === true)
      return planShell(base, command, cwd, worktree, null, { unsandboxed: true });
    return planShell(base, command, cwd, worktree, args);
  }
  const pathKey = FILE_WRITERS[tool];
  if (pathKey !== undefined) return planFileWrite(tool, args, pathKey, cwd, worktree, base);
  if (tool === 'WebFetch') {
    const url = text(args, 'url');
    if (url === null) return { kind: 'refuse', reason: '`WebFetch` without a `url`' };
    // The engine reads the URL's host as the fetcher's WHATWG URL parser does (E12); a URL it
    // cannot read names an unknown host (G18), never a validation error that hides the call.
    const { normalizeHost } = await import('@warden/engine');
    return {
      kind: 'gate',
      worktree,
      ask: {
        ...base,
        actions: ['networkEgress'],
        ...(normalizeHost(url) === null ? {} : { args: { hosts: [url] } }),
      },
    };
  }
  if (tool === 'WebSearch') {
    // The hosts a search reaches are only known when it is limited to some (E8: unknown otherwise).
    const allowed = args.allowed_domains;
    const known =
      Array.isArray(allowed) && allowed.length > 0 && allowed.every((h) => typeof h === 'string');
    return {
      kind: 'gate',
      worktree,
      ask: {
        ...base,
        actions: ['networkEgress'],
        ...(known ? { args: { hosts: allowed as string[] } } : {}),
      },
    };
  }
  const ungated = UNGATED[tool];
  if (ungated !== undefined) return { kind: 'ungated', reason: `\`${tool}\` ${ungated}` };
  const mcp = planMcpName(
    { tool, args, worktree, runtime: 'Claude Code' },
    base,
    gateway,
    gatewayConfig,
  );
  if (mcp !== null) return mcp;
  return {
    kind: 'refuse',
    reason: `\`${tool}\` is a Claude Code tool Warden does not know, so it cannot tell what it does: denied`,
  };
}

/** Claude Code's answer shape: `allow` or `deny`, with the reason it shows, and the call's input rewritten. */
export function hookAnswer(
  decision: 'allow' | 'deny',
  reason: string,
  updatedInput?: Readonly<Record<string, unknown>>,
): {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'allow' | 'deny';
    permissionDecisionReason: string;
    updatedInput?: Readonly<Record<string, unknown>>;
  };
} {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: reason,
      ...(updatedInput === undefined ? {} : { updatedInput }),
    },
  };
}

/** Claude Code's answer: to a `PreToolUse` call, or to a completion (`{}`, or a message for the user). */
export type ClaudeCodeAnswer = ReturnType<typeof hookAnswer> | { readonly systemMessage?: string };

/** The events Claude Code reports a call's end with: it ran, or it failed. */
const COMPLETIONS = ['PostToolUse', 'PostToolUseFailure'] as const;

/**
 * A `PostToolUse` (`tool_response`, `duration_ms`) or `PostToolUseFailure`
 * (`error`, `is_interrupt`, `duration_ms`) input, observed with Claude Code
 * 2.1.197; a `Bash` failure's `error` starts `Exit code N`.
 */
export function readClaudeCompletion(
  raw: unknown,
): (HookInput & { readonly raw: PreToolUse } & HookCompletion) | string[] {
  const { input, problems } = readCallFields(raw, {
    event: COMPLETIONS,
    installUnder: 'PostToolUse and PostToolUseFailure',
    runtime: 'Claude Code',
    strings: ['tool_use_id', 'session_id', 'permission_mode', 'error'],
  });
  if (typeof input.tool_use_id !== 'string' || input.tool_use_id === '')
    problems.push('`tool_use_id` is missing: Claude Code names every call it reports');
  if (problems.length > 0) return problems;
  const read = input as unknown as Omit<PreToolUse, 'hook_event_name'> & {
    readonly hook_event_name: (typeof COMPLETIONS)[number];
    readonly tool_use_id: string;
    readonly tool_response?: unknown;
    readonly error?: string;
    readonly is_interrupt?: unknown;
    readonly duration_ms?: unknown;
  };
  const failed = read.hook_event_name === 'PostToolUseFailure';
  const response = read.tool_response;
  const shell = read.tool_name === 'Bash';
  const exitCode = failed
    ? shell
      ? statedExitCode(read.error ?? '')
      : undefined
    : shell
      ? 0
      : undefined;
  const outputBytes = failed
    ? sizeOf(read.error)
    : shell && typeof response === 'object' && response !== null
      ? sizeOf((response as { stdout?: unknown }).stdout) +
        sizeOf((response as { stderr?: unknown }).stderr)
      : sizeOf(response);
  const durationMs = milliseconds(read.duration_ms);
  return {
    // What `planCall` reads of it is what a `PreToolUse` input has.
    ...hookInputOf(read as unknown as PreToolUse, {
      callId: read.tool_use_id,
      sessionId: read.session_id,
    }),
    event: read.hook_event_name,
    match: { callId: read.tool_use_id },
    status: failed ? 'Error' : 'Ok',
    outputBytes,
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(durationMs === undefined ? {} : { durationMs }),
    ...(failed
      ? {
          error:
            read.is_interrupt === true
              ? 'interrupted by the user'
              : shortError(read.error ?? 'failed'),
        }
      : {}),
  };
}

/** The arguments of Claude Code's file tools that name a path. */
const PATH_KEYS = ['file_path', 'notebook_path', 'path'] as const;

/** Claude Code's `PreToolUse` hook as a runtime of `hook/run.ts`. */
export const claudeCode: HookRuntime<HookInput & { readonly raw: PreToolUse }, ClaudeCodeAnswer> = {
  name: 'claude-code',
  title: 'Claude Code',
  event: 'PreToolUse',
  read(raw) {
    const read = readPreToolUse(raw);
    if (Array.isArray(read)) return read;
    return hookInputOf(read, { callId: read.tool_use_id, sessionId: read.session_id });
  },
  plan: (input, options) =>
    planCall(input.raw, options.worktree, options.gateway, options.gatewayConfig),
  namedPaths(input) {
    if (input.toolName === 'Bash' || input.toolName.startsWith('mcp__')) return [];
    const paths: string[] = [];
    for (const key of PATH_KEYS) {
      const value = input.toolInput[key];
      if (typeof value === 'string' && value !== '') paths.push(resolve(input.cwd, value));
    }
    return paths;
  },
  allow: (reason, updatedInput) => hookAnswer('allow', reason, updatedInput),
  deny: (reason) => hookAnswer('deny', reason),
  completionEvents: COMPLETIONS,
  readCompletion: readClaudeCompletion,
  completed: (warning) => (warning === undefined ? {} : { systemMessage: warning }),
};
