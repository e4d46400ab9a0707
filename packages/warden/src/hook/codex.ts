// Codex CLI's `PreToolUse` hook (observed with Codex 0.171.0): what a Codex
// tool call asks of the gate, by the same policy as Claude Code's. `Bash`
// (the model's `exec_command`; Codex sends only its `command`) goes through
// the shell classifier (G14b, G14c); `apply_patch` carries the raw patch in
// `tool_input.command` (and a `Bash` command that is only `apply_patch
// <<'EOF' … EOF` is one too: Codex applies it itself, not through the
// shell), read by `patch.ts` into the files it adds, updates,
// moves and deletes: a delete is `fileDelete`, a write outside the worktree
// `fileWriteOutsideWorktree` (judged by the one path confinement, like Claude
// Code's `Write`), writes inside the worktree alone pass ungated, and a patch
// with both kinds asks for all its classes at once; `mcp__<gateway>__*` is
// left to Warden's MCP gateway and another `mcp__<server>__<tool>` is decided
// with the mapping of `--gateway-config`; Codex's own tools that only read or
// steer the session pass; any other tool is denied until Warden knows it.
//
// Answers. Codex honours `permissionDecision: "deny"` with a non-empty reason
// (the model reads `Command blocked by PreToolUse hook: <reason>`), and
// `permissionDecision: "allow"` only together with `updatedInput` (the call
// runs rewritten). A plain allow is printed as `{}`: Codex 0.171.0 reads an
// `allow` without `updatedInput` as an unsupported, invalid output and `{}` as
// "no decision"; both let the call run with Codex's own checks, neither is
// warned about in `codex exec` (checked with the real CLI), and `{}` is the
// one Codex's hook parser accepts as valid. Every fault is a deny with exit 0
// (`run.ts`): Codex runs the tool when a hook fails in any other way.
//
// Sandbox. Codex runs a rewritten command inside its own sandbox, and there
// Warden's `warden exec --grant …` cannot start (checked with the real CLI,
// 0.171.0, Linux, bwrap): under `-s workspace-write` (exec's default) and
// `-s read-only` the data folder is read-only (standalone: `EROFS` opening
// the audit log) and the network is closed (connected: `EPERM` connecting to
// the server); with `sandbox_workspace_write.network_access = true` the server
// is reached but the nested bubblewrap cannot map its user namespace (as
// root). Only under `-s danger-full-access` (and `--dangerously-bypass-
// approvals-and-sandbox`, whose transcript says the same) does the rewritten
// command run, standalone and connected. The
// hook reads which sandbox the turn runs in from the last `turn_context` of
// the session's transcript (`transcript_path`, written by Codex before the
// call): `danger-full-access` is rewritten to run under Warden's sandbox;
// anything else, or a transcript it cannot read, is "cannot": `--sandbox
// auto` then allows the command to run under Codex's own sandbox (the
// answer cannot say so: Codex shows no reason for an allow), and `--sandbox
// required` denies it. The transcript lies in CODEX_HOME, outside the
// worktree: under Codex's sandbox a command cannot write there, and under
// `danger-full-access` every command runs under Warden's sandbox, which
// keeps its writes in the worktree, and a patch writing outside it is gated.
//
// Worktree. Codex sends the `workdir` the model gives `exec_command` as the
// hook's `cwd` (0.171.0, observed), while it starts the hook in the session's
// own folder: the hook binds calls to that folder or `--worktree`
// (`worktree.ts`), never to `cwd`. A command in a `workdir` outside it is
// also a write there (`plan.ts`), and rewritten it runs in the worktree:
// `warden exec` runs it there, whatever folder Codex starts it in.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { GateAsk } from '../gate/types.js';
import { hookAnswer } from './claude-code.js';
import type { HookCompletion } from './completion.js';
import { byExitCode, milliseconds, sizeOf, statedExitCode } from './completion.js';
import type { HookPlan } from './plan.js';
import {
  askBase,
  hookInputOf,
  insideWorktree,
  planMcpName,
  processWorktree,
  planShell,
  readCallFields,
  resolvingFolder,
  text,
} from './plan.js';
import { isControlPath } from './control-paths.js';
import { parsePatch, patchOfShellCommand, unwrapPatch } from './patch.js';
import type { HookInput, HookRuntime } from './runtime.js';

/** The fields of Codex's `PreToolUse` input that Warden reads; others pass unread. */
export interface CodexPreToolUse {
  readonly hook_event_name: 'PreToolUse';
  readonly cwd: string;
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
  readonly tool_use_id?: string;
  readonly session_id?: string;
  readonly turn_id?: string;
  readonly transcript_path?: string;
  readonly model?: string;
  readonly permission_mode?: string;
}

/**
 * Codex's input read field by field, or every problem with it. Checked by
 * hand, not with a schema library: the hook starts for every tool call.
 */
export function readCodexPreToolUse(raw: unknown): CodexPreToolUse | string[] {
  const { input, problems } = readCallFields(raw, {
    event: 'PreToolUse',
    installUnder: '[[hooks.PreToolUse]]',
    runtime: 'Codex',
    strings: [
      'tool_use_id',
      'session_id',
      'turn_id',
      'transcript_path',
      'model',
      'permission_mode',
    ],
  });
  if (problems.length > 0) return problems;
  return input as unknown as CodexPreToolUse;
}

/** Codex's own tools that only read, or steer the session. */
const UNGATED: Readonly<Record<string, string>> = {
  view_image: 'shows the model an image file (it only reads)',
  request_user_input: 'asks the user a question',
  update_plan: "updates Codex's own plan",
  get_goal: "reads Codex's own goal for the session",
  create_goal: "sets Codex's own goal for the session",
  update_goal: "updates Codex's own goal for the session",
  tool_search: "searches Codex's list of tools",
  list_mcp_resources: 'lists MCP resources',
  list_mcp_resource_templates: 'lists MCP resource templates',
  read_mcp_resource: 'reads an MCP resource',
};

/**
 * Codex's tools Warden refuses by name, with why. Codex 0.171.0 does not call
 * the hook for `write_stdin` at all (observed): input to a command started by
 * an allowed `Bash` call passes unseen, which the honesty matrix must say.
 */
const REFUSED: Readonly<Record<string, string>> = {
  write_stdin:
    'sends input to a command that is already running (a shell could run anything it is sent), which Warden cannot classify: denied',
};

/** The absolute paths an `apply_patch` call names (added, updated, moved to, deleted), or null if unreadable. */
function patchPaths(input: CodexPreToolUse): string[] | null {
  const patch = patchText(input);
  if (patch === null) return null;
  const parsed = parsePatch(patch);
  if (!parsed.ok) return null;
  const paths: string[] = [];
  for (const file of parsed.files) {
    paths.push(resolve(input.cwd, file.path));
    if (file.op === 'update' && file.moveTo !== undefined)
      paths.push(resolve(input.cwd, file.moveTo));
  }
  return paths;
}

/**
 * The patch a call applies: `apply_patch`'s text (bare or in a here-document),
 * or a `Bash` command that is only `apply_patch <<'EOF' … EOF`, which Codex
 * applies itself rather than through the shell. Null for anything else.
 */
function patchText(input: CodexPreToolUse): string | null {
  const command = text(input.tool_input, 'command');
  if (command === null) return null;
  if (input.tool_name === 'apply_patch') return unwrapPatch(command);
  if (input.tool_name === 'Bash') return patchOfShellCommand(command);
  return null;
}

/**
 * A patch's files, resolved against the input's `cwd` (where Codex applies
 * it), judged against the bound `worktree`.
 */
async function planPatch(
  input: CodexPreToolUse,
  patch: string | null,
  base: GateAsk,
  worktree: string,
): Promise<HookPlan> {
  const cwd = resolvingFolder(input.cwd);
  if (patch === null)
    return { kind: 'refuse', reason: '`apply_patch` without a patch in `command`' };
  const parsed = parsePatch(patch);
  if (!parsed.ok) return { kind: 'refuse', reason: `\`apply_patch\`: ${parsed.problem}: denied` };
  const deletes: string[] = [];
  const outside: string[] = [];
  const mutated: string[] = [];
  const write = async (path: string) => {
    const target = resolve(cwd, path);
    if (!(await insideWorktree(worktree, target))) {
      if (!outside.includes(target)) outside.push(target);
    } else if (
      isControlPath(relative(worktree, target).split(sep).join('/')) &&
      !mutated.includes(target)
    )
      mutated.push(target);
  };
  for (const file of parsed.files) {
    if (file.op === 'delete') {
      const target = resolve(cwd, file.path);
      if (!deletes.includes(target)) deletes.push(target);
    } else if (file.op === 'add') await write(file.path);
    else if (file.moveTo === undefined) await write(file.path);
    else {
      // A move writes the new file and removes the old one.
      const target = resolve(cwd, file.path);
      if (!deletes.includes(target)) deletes.push(target);
      await write(file.moveTo);
    }
  }
  if (deletes.length === 0 && outside.length === 0 && mutated.length === 0)
    return {
      kind: 'ungated',
      reason: '`apply_patch` writes inside the worktree only (not gated)',
    };
  const actions = [
    ...(deletes.length > 0 ? ['fileDelete'] : []),
    ...(outside.length > 0 ? ['fileWriteOutsideWorktree'] : []),
    // A git hook, a shell start file, an agent's settings: it changes what runs later (E44).
    ...(mutated.length > 0 ? ['workspaceMutation'] : []),
  ];
  return {
    kind: 'gate',
    worktree,
    ask: { ...base, actions, args: { paths: [...deletes, ...outside, ...mutated] } },
  };
}

/**
 * What the call asks of the gate, from Codex's input alone, against the bound
 * `worktree`. The input's `cwd` is where the call acts: Codex sends the
 * `workdir` the model gave `exec_command` there (0.171.0, observed), so a
 * command there is decided as run in that folder (`planShell`), never as if
 * that folder were the worktree.
 */
export async function planCodexCall(
  input: CodexPreToolUse,
  /**
   * The bound worktree (`hook/worktree.ts`), a real path: never the input's
   * `cwd`. The hook always gives it; by default the folder this process runs in.
   */
  worktree: string = processWorktree(),
  gateway = 'warden',
  gatewayConfig?: string,
): Promise<HookPlan> {
  const { tool_name: tool, tool_input: args, cwd } = input;
  const callId = input.tool_use_id;
  const base = askBase(tool, args, callId);
  if (tool === 'Bash') {
    const command = text(args, 'command');
    if (command === null) return { kind: 'refuse', reason: '`Bash` without a `command`' };
    // Codex applies such a patch itself, never through the shell: it is judged as the patch.
    const patch = patchOfShellCommand(command);
    if (patch !== null) return planPatch(input, patch, base, worktree);
    return planShell(base, command, cwd, worktree, args);
  }
  if (tool === 'apply_patch') return planPatch(input, patchText(input), base, worktree);
  if (tool === 'web_search')
    // The hosts a search reaches are not in its input (E8: unknown).
    return { kind: 'gate', worktree, ask: { ...base, actions: ['networkEgress'] } };
  const ungated = UNGATED[tool];
  if (ungated !== undefined) return { kind: 'ungated', reason: `\`${tool}\` ${ungated}` };
  const refused = REFUSED[tool];
  if (refused !== undefined) return { kind: 'refuse', reason: `\`${tool}\` ${refused}` };
  const mcp = planMcpName({ tool, args, worktree, runtime: 'Codex' }, base, gateway, gatewayConfig);
  if (mcp !== null) return mcp;
  return {
    kind: 'refuse',
    reason: `\`${tool}\` is a Codex tool Warden does not know, so it cannot tell what it does: denied`,
  };
}

/** How much of the transcript's end is read for the turn's sandbox. */
const TRANSCRIPT_TAIL = 1024 * 1024;

/** The lines of the end of the session's transcript, or null when it cannot be read. */
function transcriptTail(transcript: string | undefined): string[] | null {
  if (transcript === undefined || !isAbsolute(transcript)) return null;
  let fd: number;
  try {
    fd = openSync(transcript, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TRANSCRIPT_TAIL);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8').split('\n');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The last transcript entry, from the end, that `pick` makes something of. */
function lastEntry<T>(
  transcript: string | undefined,
  marker: string,
  pick: (entry: Record<string, unknown>) => T | null,
): T | null {
  const lines = transcriptTail(transcript);
  if (lines === null) return null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (!line.includes(marker)) continue;
    try {
      const entry = JSON.parse(line) as unknown;
      if (typeof entry !== 'object' || entry === null) continue;
      const picked = pick(entry as Record<string, unknown>);
      if (picked !== null) return picked;
    } catch {
      continue;
    }
  }
  return null;
}

/**
 * The sandbox Codex runs this turn's commands in (`workspace-write`,
 * `read-only`, `danger-full-access`, …), from the last `turn_context` in the
 * end of the session's transcript; null when it cannot be read.
 */
export function codexSandbox(transcript: string | undefined): string | null {
  return lastEntry(transcript, '"turn_context"', (entry) => {
    if (entry.type !== 'turn_context') return null;
    const type = (entry.payload as { sandbox_policy?: { type?: unknown } } | undefined)
      ?.sandbox_policy?.type;
    return typeof type === 'string' ? type : null;
  });
}

/**
 * How a shell call ended as the transcript records it (`item_completed` of a
 * `CommandExecution` with the call's id: `exit_code`, `duration`), which the
 * `PostToolUse` input does not carry; null when the transcript does not say.
 */
export function codexCommandEnd(
  transcript: string | undefined,
  callId: string,
): { exitCode?: number; durationMs?: number } | null {
  return lastEntry(transcript, callId, (entry) => {
    const payload = entry.payload as { type?: unknown; item?: Record<string, unknown> } | undefined;
    const item = payload?.item;
    if (payload?.type !== 'item_completed' || item?.id !== callId) return null;
    const duration = item.duration as { secs?: unknown; nanos?: unknown } | undefined;
    const ms =
      typeof duration?.secs === 'number' && typeof duration.nanos === 'number'
        ? milliseconds(duration.secs * 1000 + duration.nanos / 1e6)
        : undefined;
    return {
      ...(typeof item.exit_code === 'number' ? { exitCode: item.exit_code } : {}),
      ...(ms === undefined ? {} : { durationMs: ms }),
    };
  });
}

/**
 * Codex's `PostToolUse` input (0.171.0): the `PreToolUse` fields with
 * `tool_response`, the text the model reads back. For `apply_patch` it states
 * `Exit code: N`; for a shell command only the output, whose exit code and
 * duration the transcript's record of the call gives.
 */
export function readCodexCompletion(
  raw: unknown,
): (HookInput & { readonly raw: CodexPreToolUse } & HookCompletion) | string[] {
  const { input, problems } = readCallFields(raw, {
    event: ['PostToolUse'],
    installUnder: '[[hooks.PostToolUse]]',
    runtime: 'Codex',
    strings: ['tool_use_id', 'session_id', 'turn_id', 'transcript_path', 'model'],
  });
  if (typeof input.tool_use_id !== 'string' || input.tool_use_id === '')
    problems.push('`tool_use_id` is missing: Codex names every call it reports');
  if (problems.length > 0) return problems;
  const read = input as unknown as CodexPreToolUse & {
    readonly tool_use_id: string;
    readonly tool_response?: unknown;
  };
  const response = read.tool_response;
  const said = typeof response === 'string' ? response : '';
  const ended =
    read.tool_name === 'Bash' &&
    patchOfShellCommand(text(read.tool_input, 'command') ?? '') === null
      ? codexCommandEnd(read.transcript_path, read.tool_use_id)
      : null;
  const exitCode = ended?.exitCode ?? statedExitCode(said);
  const failedMcp =
    typeof response === 'object' &&
    response !== null &&
    (response as { isError?: unknown }).isError === true;
  const verdict = failedMcp
    ? { status: 'Error' as const, error: 'the MCP tool answered with an error' }
    : byExitCode(exitCode);
  return {
    ...hookInputOf(read, { callId: read.tool_use_id, sessionId: read.session_id }),
    event: 'PostToolUse',
    match: { callId: read.tool_use_id },
    outputBytes: sizeOf(response),
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(ended?.durationMs === undefined ? {} : { durationMs: ended.durationMs }),
    ...verdict,
  };
}

/**
 * Codex's answer: Claude Code's `PreToolUse` shape for a deny with its reason
 * and an allow with the rewritten input, or `{}` (no objection).
 */
export type CodexAnswer = ReturnType<typeof hookAnswer> | Record<string, never>;

/** Codex's `PreToolUse` hook as a runtime of `hook/run.ts`. */
export const codex: HookRuntime<HookInput & { readonly raw: CodexPreToolUse }, CodexAnswer> = {
  name: 'codex',
  title: 'Codex',
  event: 'PreToolUse',
  read(raw) {
    const read = readCodexPreToolUse(raw);
    if (Array.isArray(read)) return read;
    return hookInputOf(read, { callId: read.tool_use_id, sessionId: read.session_id });
  },
  plan: (input, options) =>
    planCodexCall(input.raw, options.worktree, options.gateway, options.gatewayConfig),
  namedPaths(input) {
    if (input.toolName === 'view_image') {
      const path = text(input.toolInput, 'path');
      return path === null ? [] : [resolve(input.cwd, path)];
    }
    // An unreadable patch is denied by its plan; it names nothing here.
    return patchPaths(input.raw) ?? [];
  },
  sandboxUnavailable(input) {
    const sandbox = codexSandbox(input.raw.transcript_path);
    if (sandbox === 'danger-full-access') return null;
    return sandbox === null
      ? "Codex's sandbox for this turn cannot be read from its transcript, and inside Codex's own sandbox Warden's cannot start"
      : `Codex runs shell commands inside its own sandbox (\`${sandbox}\`), where Warden's cannot start`;
  },
  allow: (reason, updatedInput) =>
    updatedInput === undefined ? {} : hookAnswer('allow', reason, updatedInput),
  // Codex treats a deny without a reason as no decision: the reason is never empty.
  deny: (reason) => hookAnswer('deny', reason === '' ? 'Warden: denied' : reason),
  completionEvents: ['PostToolUse'],
  readCompletion: readCodexCompletion,
  // Codex shows nothing of a `PostToolUse` answer in `codex exec`; a warning goes to standard error.
  completed: () => ({}),
};
