// An agent runtime's hook, as `hook/run.ts` drives it: how the runtime's JSON
// input is read, what a call comes to (its plan), how an answer is written in
// the runtime's own format, and which files a call names (the data folder's
// guard). One contract for Claude Code, Codex and Gemini CLI: the same policy,
// the same gate and the same audit, whatever runtime asks.

import type { HookCompletion } from './completion.js';
import type { HookPlan } from './plan.js';

/** The call as every runtime's input carries it, read and checked. */
export interface HookInput {
  /**
   * The folder the call acts in, as the runtime's input says: relative paths
   * resolve against it. Never the boundary — the model may choose it (Codex
   * sends its `workdir` here) — which is the bound worktree (`hook/worktree.ts`).
   */
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  /** The runtime's id for the call; Warden makes one where the runtime sends none. */
  readonly callId?: string;
  readonly sessionId?: string;
}

/** What a planner may read of the hook's options. */
export interface PlanOptions {
  /** The bound worktree (a real path, `hook/worktree.ts`): every call is judged against it. */
  readonly worktree: string;
  /** The MCP server name the runtime knows Warden's own gateway by (default `warden`). */
  readonly gateway: string;
  /** A gateway configuration file mapping the tools of MCP servers the runtime reaches directly. */
  readonly gatewayConfig?: string | undefined;
}

export interface HookRuntime<I extends HookInput = HookInput, A extends object = object> {
  /** The runtime's name: the audit's `source`, the adapter header, the default agent id. */
  readonly name: 'claude-code' | 'codex' | 'gemini-cli';
  /** The runtime in words, for messages: `Claude Code`. */
  readonly title: string;
  /** The hook event it answers: `PreToolUse`, `BeforeTool`. */
  readonly event: string;
  /** The parsed JSON input read field by field, or every problem with it. */
  read(raw: unknown): I | string[];
  plan(input: I, options: PlanOptions): Promise<HookPlan>;
  /** The absolute paths of files the call names (read or written), for the data folder's guard. */
  namedPaths(input: I): readonly string[];
  /**
   * Why a shell command rewritten to run under Warden's sandbox could not run
   * where this runtime runs it (inside a sandbox of its own), or null when it
   * can; a runtime without it always can.
   */
  sandboxUnavailable?(input: I): string | null;
  /** The runtime's answer that lets the call run, its input rewritten when `updatedInput` is given. */
  allow(reason: string, updatedInput?: Readonly<Record<string, unknown>>): A;
  /** The runtime's answer that stops the call, with the reason the model reads. */
  deny(reason: string): A;
  /** The events that report how a call ended: `PostToolUse`, `AfterTool`. */
  readonly completionEvents: readonly string[];
  /** Such an event's input read field by field (with what `plan` reads of the call), or every problem with it. */
  readCompletion(raw: unknown): (I & HookCompletion) | string[];
  /**
   * The answer to a completion: nothing to object to, the call has run.
   * `warning` says that it could not be recorded, where the runtime shows one.
   */
  completed(warning?: string): A;
}
