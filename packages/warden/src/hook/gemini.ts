// Gemini CLI's `BeforeTool` hook (observed with Gemini CLI 0.61.0): what a
// native tool call asks of the gate, in the same terms as Claude Code's.
// `run_shell_command` goes through the shell classifier (G14b, G14c) and, once
// allowed, runs under Warden's sandbox (G2): the answer hands Gemini CLI the
// whole arguments back with `command` rewritten, as `hookSpecificOutput.tool_input`
// replaces them; a `dir_path` outside the bound worktree (`hook/worktree.ts`)
// makes it also a write there (`plan.ts`). `write_file` and `replace` are
// gated only outside the bound worktree, judged by the one path confinement
// (G14c); `web_fetch` and `google_web_search` are network egress with the
// hosts they name (E12, E8); tools that only read, or steer Gemini CLI
// itself, pass ungated; an MCP tool (`mcp_<server>_<tool>`) of Warden's own
// gateway is left to the gateway, any other is decided with the mapping of a
// gateway configuration given with `--gateway-config FILE`; a tool Warden
// does not know is denied.
//
// Gemini CLI reads `{"decision": "allow" | "deny", "reason": …}` and nothing
// else of Claude Code's shape. It never gets "ask": with `--approval-mode
// yolo` the CLI hangs on it, elsewhere it is an error; a prompt waits for an
// approver inside the hook (`hook/run.ts`) and ends in allow or deny.

import { createHash, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { HookCompletion } from './completion.js';
import { byExitCode, shortError, sizeOf, statedExitCode } from './completion.js';
import type { HookPlan } from './plan.js';
import {
  askBase,
  planFileWrite,
  planMappedMcp,
  planShell,
  processWorktree,
  readCallFields,
  resolvingFolder,
  text,
} from './plan.js';
import type { HookInput, HookRuntime } from './runtime.js';

/** Which MCP server a Gemini CLI tool belongs to, as its input says. */
export interface McpContext {
  readonly server_name?: string;
  readonly tool_name?: string;
}

/** The fields of Gemini CLI's `BeforeTool` input that Warden reads; others pass unread. */
export interface BeforeTool {
  readonly hook_event_name: 'BeforeTool';
  readonly cwd: string;
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
  readonly session_id?: string;
  readonly timestamp?: string;
  readonly transcript_path?: string;
  readonly mcp_context?: McpContext;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Gemini CLI's input read field by field, or every problem with it. Checked
 * by hand, not with a schema library: the hook starts for every tool call.
 */
export function readBeforeTool(raw: unknown): BeforeTool | string[] {
  const { input, problems } = readCallFields(raw, {
    event: 'BeforeTool',
    installUnder: 'BeforeTool',
    runtime: 'Gemini CLI',
    strings: ['session_id', 'timestamp', 'transcript_path'],
  });
  const mcp = input.mcp_context;
  if (mcp !== undefined) {
    if (!isObject(mcp)) problems.push('`mcp_context` is not an object');
    else
      for (const key of ['server_name', 'tool_name'] as const)
        if (mcp[key] !== undefined && (typeof mcp[key] !== 'string' || mcp[key] === ''))
          problems.push(`\`mcp_context.${key}\` is not a non-empty string`);
  }
  if (problems.length > 0) return problems;
  return input as unknown as BeforeTool;
}

/**
 * JSON with the keys of every object sorted: the same value always prints the
 * same. Not the engine's `canonicalJson`: a connected hook never loads the
 * engine, and this runs for every call; the digest only has to be stable, not
 * canonical.
 */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedJson(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * The digest of what a call is: its tool and its arguments. Arguments nested
 * too deeply to print get a digest of their own that nothing else matches.
 */
export function callDigest(tool: string, args: Readonly<Record<string, unknown>>): string {
  let printed: string;
  try {
    printed = sortedJson(args);
  } catch {
    printed = `unprintable:${randomUUID()}`;
  }
  return createHash('sha256').update(`${tool}\u0000${printed}`).digest('hex').slice(0, 16);
}

/**
 * Warden's id for a call: Gemini CLI sends none. It is
 * `gemini:<session_id>:<timestamp>:<digest>`, the digest being that of the
 * tool's name and arguments (`callDigest`). A later `AfterTool` input carries
 * the same `session_id`, `tool_name` and — for a call that was not rewritten —
 * the same `tool_input`, with a later `timestamp`: its completion belongs to
 * the latest decision of that session with the same digest made before it.
 * A shell command Warden rewrote comes back with the rewritten `command`,
 * whose `--grant` names the decision's audit entry itself.
 */
export function makeCallId(input: BeforeTool, now: () => Date = () => new Date()): string {
  const session = input.session_id ?? 'no-session';
  const at = input.timestamp ?? now().toISOString();
  return `gemini:${session}:${at}:${callDigest(input.tool_name, input.tool_input)}`;
}

/**
 * Gemini CLI's `AfterTool` input (0.61.0): the `BeforeTool` fields with a
 * later `timestamp` and `tool_response` (`llmContent`, what the model reads,
 * which for a shell command states `Exit Code: N`; `returnDisplay`; `error`
 * when the tool failed). No call id: the decision is the newest of this
 * session made for the same tool and arguments (`makeCallId`'s start and end).
 */
export function readAfterTool(
  raw: unknown,
): (HookInput & { readonly raw: BeforeTool } & HookCompletion) | string[] {
  const { input, problems } = readCallFields(raw, {
    event: ['AfterTool'],
    installUnder: 'AfterTool',
    runtime: 'Gemini CLI',
    strings: ['session_id', 'timestamp', 'transcript_path'],
  });
  if (problems.length > 0) return problems;
  const read = input as unknown as BeforeTool & { readonly tool_response?: unknown };
  const response = isObject(read.tool_response) ? read.tool_response : {};
  const content = response.llmContent;
  const exitCode =
    read.tool_name === 'run_shell_command' && typeof content === 'string'
      ? statedExitCode(content.replace(/^<untrusted_context>\n/, ''))
      : undefined;
  const error = response.error;
  const message = isObject(error)
    ? typeof error.message === 'string'
      ? error.message
      : 'failed'
    : typeof error === 'string' && error !== ''
      ? error
      : null;
  const session = read.session_id ?? 'no-session';
  return {
    cwd: read.cwd,
    toolName: read.tool_name,
    toolInput: read.tool_input,
    ...(read.session_id === undefined ? {} : { sessionId: read.session_id }),
    raw: read,
    event: 'AfterTool',
    match: {
      callIdPrefix: `gemini:${session}:`,
      callIdSuffix: `:${callDigest(read.tool_name, read.tool_input)}`,
    },
    outputBytes: sizeOf(content),
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(message === null
      ? byExitCode(exitCode)
      : { status: 'Error' as const, error: shortError(message) }),
  };
}

/** Gemini CLI's own tools that only read, or steer the session; their effects pass other hooks. */
const UNGATED: Readonly<Record<string, string>> = {
  read_file: 'reads a file',
  read_many_files: 'reads files',
  list_directory: 'lists a folder',
  glob: 'lists files',
  grep_search: 'searches files',
  list_background_processes: 'lists the shell commands running in the background',
  read_background_output: 'reads the output of a shell command running in the background',
  list_mcp_resources: 'lists MCP resources',
  read_mcp_resource: 'reads an MCP resource',
  get_internal_docs: "reads Gemini CLI's own documentation",
  write_todos: "updates Gemini CLI's own task list",
  update_topic: "titles Gemini CLI's current topic",
  tracker_create_task: "updates Gemini CLI's own task tracker",
  tracker_update_task: "updates Gemini CLI's own task tracker",
  tracker_get_task: "reads Gemini CLI's own task tracker",
  tracker_list_tasks: "reads Gemini CLI's own task tracker",
  tracker_add_dependency: "updates Gemini CLI's own task tracker",
  tracker_visualize: "reads Gemini CLI's own task tracker",
  enter_plan_mode: 'enters plan mode',
  exit_plan_mode: 'leaves plan mode',
  ask_user: 'asks the user a question',
  activate_skill: 'loads a skill, whose tool calls pass this hook',
  invoke_agent: 'starts a subagent, whose own tool calls pass this hook',
  complete_task: "ends a subagent's task",
};

/** Gemini CLI's file writers and the argument naming the file (absolute, as Gemini CLI requires). */
const FILE_WRITERS: Readonly<Record<string, string>> = {
  write_file: 'file_path',
  replace: 'file_path',
};

/**
 * The folder a shell command runs in: `dir_path` (Gemini CLI 0.61), or
 * `directory` (earlier versions), resolved against `cwd`; null when neither is
 * given, or a problem when they disagree or are not strings. The model
 * writes it: it says where the command acts, never where the worktree is.
 */
function shellFolder(
  args: Readonly<Record<string, unknown>>,
  cwd: string,
): { folder: string | null } | { problem: string } {
  const given: string[] = [];
  for (const key of ['dir_path', 'directory'] as const) {
    const value = args[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string')
      return { problem: `\`run_shell_command\` with a \`${key}\` that is not a string` };
    given.push(resolve(cwd, value));
  }
  if (given.length === 0) return { folder: null };
  if (given.length === 2 && given[0] !== given[1])
    return {
      problem:
        '`run_shell_command` names two different folders to run in (`dir_path` and `directory`), so Warden cannot tell where it runs: denied',
    };
  return { folder: given[0] as string };
}

/** The URLs a `web_fetch` call reaches, as Gemini CLI reads them, or null when one cannot be read. */
function fetchedUrls(args: Readonly<Record<string, unknown>>): string[] | null {
  const urls: string[] = [];
  const direct = args.url;
  if (direct !== undefined) {
    if (typeof direct !== 'string') return null;
    urls.push(direct);
  }
  const prompt = args.prompt;
  if (prompt !== undefined) {
    if (typeof prompt !== 'string') return null;
    // As Gemini CLI does: every whitespace-separated token holding `://` is a URL.
    for (const token of prompt.split(/\s+/)) {
      if (!token.includes('://')) continue;
      let url: URL;
      try {
        url = new URL(token);
      } catch {
        return null;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
      urls.push(url.href);
      // Gemini CLI fetches a GitHub `blob` page from raw.githubusercontent.com instead.
      if (url.hostname === 'github.com' && url.pathname.includes('/blob/'))
        urls.push(`https://raw.githubusercontent.com${url.pathname}`);
    }
  }
  return urls.length === 0 ? null : urls;
}

/**
 * Gemini CLI's name for an MCP tool (its `generateValidName`): `mcp_` and
 * `<server>_<tool>`, characters other than letters, digits, `_-.:` made `_`,
 * and a name past 63 characters cut to its first and last 30 around `...`.
 */
export function geminiMcpName(server: string, tool: string): string {
  let name = `${server}_${tool}`;
  if (!name.startsWith('mcp_')) name = `mcp_${name}`;
  name = name.replace(/[^a-zA-Z0-9_\-.:]/g, '_');
  if (/^[^a-zA-Z_]/.test(name)) name = `_${name}`;
  if (name.length > 63) name = `${name.slice(0, 30)}...${name.slice(-30)}`;
  return name;
}

/**
 * The server and tool of an MCP call: from `mcp_context` when it agrees with
 * the tool's name, else as Gemini CLI itself splits `mcp_<server>_<tool>` (the
 * server up to the first `_`); a problem when `mcp_context` names another tool.
 */
export function mcpCall(input: BeforeTool): { server: string; name: string } | string {
  const tool = input.tool_name;
  const context = input.mcp_context;
  if (context?.server_name !== undefined && context.tool_name !== undefined) {
    if (geminiMcpName(context.server_name, context.tool_name) !== tool)
      return `\`${tool}\` comes with \`mcp_context\` naming the tool \`${context.tool_name}\` of the MCP server \`${context.server_name}\`, which is not the tool called: denied`;
    return { server: context.server_name, name: context.tool_name };
  }
  const split = /^mcp_([^_]+)_(.+)$/.exec(tool);
  if (split === null)
    return `\`${tool}\` is not an MCP tool name of the form \`mcp_<server>_<tool>\`: denied`;
  return { server: split[1] as string, name: split[2] as string };
}

/** What the call asks of the gate, from Gemini CLI's input alone (never from its words about itself). */
export async function planCall(
  input: BeforeTool,
  /**
   * The bound worktree (`hook/worktree.ts`), a real path: never the input's
   * `cwd`. The hook always gives it; by default the folder this process runs in.
   */
  worktree: string = processWorktree(),
  /** The name Gemini CLI knows Warden's own MCP gateway by: its tools are decided there. */
  gateway = 'warden',
  /** A gateway configuration file mapping the tools of MCP servers Gemini CLI reaches directly. */
  gatewayConfig?: string,
  callId: string = makeCallId(input),
): Promise<HookPlan> {
  const { tool_name: tool, tool_input: args, cwd } = input;
  const base = askBase(tool, args, callId);
  if (tool === 'run_shell_command') {
    const command = text(args, 'command');
    if (command === null)
      return { kind: 'refuse', reason: '`run_shell_command` without a `command`' };
    const where = shellFolder(args, resolvingFolder(cwd));
    if ('problem' in where) return { kind: 'refuse', reason: where.problem };
    // Run in a folder inside the worktree, the command is judged (and, sandboxed, run) as
    // `cd <folder> && …`, so its relative paths resolve where they will (E26); in one outside
    // it, it is also a write there (`planShell`).
    return planShell(base, command, where.folder ?? cwd, worktree, args);
  }
  const pathKey = FILE_WRITERS[tool];
  if (pathKey !== undefined) return planFileWrite(tool, args, pathKey, cwd, worktree, base);
  if (tool === 'web_fetch') {
    // A URL the engine cannot read names an unknown host (G18), never a validation error.
    const urls = fetchedUrls(args);
    const { normalizeHost } = await import('@warden/engine');
    const hosts = urls?.every((url) => normalizeHost(url) !== null) === true ? urls : null;
    return {
      kind: 'gate',
      worktree,
      ask: { ...base, actions: ['networkEgress'], ...(hosts === null ? {} : { args: { hosts } }) },
    };
  }
  if (tool === 'google_web_search')
    // The hosts a search reaches are not known (E8).
    return { kind: 'gate', worktree, ask: { ...base, actions: ['networkEgress'] } };
  const ungated = UNGATED[tool];
  if (ungated !== undefined) return { kind: 'ungated', reason: `\`${tool}\` ${ungated}` };
  if (tool.startsWith('mcp_')) {
    const call = mcpCall(input);
    if (typeof call === 'string') return { kind: 'refuse', reason: call };
    if (call.server === gateway)
      return {
        kind: 'ungated',
        reason: `\`${tool}\` goes through Warden's MCP gateway, which decides it`,
        gateway: true,
      };
    if (gatewayConfig === undefined)
      return {
        kind: 'refuse',
        reason: `\`${tool}\` is an MCP tool with no mapping to action classes: give Gemini CLI this server through \`warden gateway\`, where each tool is mapped, or map its tools in a gateway configuration given to the hook with \`--gateway-config FILE\``,
      };
    return planMappedMcp(
      { tool, ...call, args, worktree, runtime: 'Gemini CLI' },
      base,
      gatewayConfig,
    );
  }
  return {
    kind: 'refuse',
    reason: `\`${tool}\` is a Gemini CLI tool Warden does not know, so it cannot tell what it does: denied`,
  };
}

/** Gemini CLI's answer: `allow` or `deny` with the reason; an allowed call's whole arguments replaced. */
export type GeminiAnswer =
  | { readonly decision: 'deny'; readonly reason: string }
  | {
      readonly decision: 'allow';
      readonly reason: string;
      readonly hookSpecificOutput?: { readonly tool_input: Readonly<Record<string, unknown>> };
    }
  /** To `AfterTool`: nothing to add. */
  | Record<string, never>;

export function hookAnswer(
  decision: 'allow' | 'deny',
  reason: string,
  toolInput?: Readonly<Record<string, unknown>>,
): GeminiAnswer {
  if (decision === 'deny') return { decision, reason };
  // `tool_input` replaces the call's arguments (0.61.0 builds the tool anew from it): always whole.
  return toolInput === undefined
    ? { decision, reason }
    : { decision, reason, hookSpecificOutput: { tool_input: toolInput } };
}

/** The arguments of Gemini CLI's tools that name a file or folder. */
const PATH_KEYS = ['file_path', 'dir_path', 'directory', 'path'] as const;

/** Gemini CLI's `BeforeTool` hook as a runtime of `hook/run.ts`. */
export const gemini: HookRuntime<HookInput & { readonly raw: BeforeTool }, GeminiAnswer> = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  event: 'BeforeTool',
  read(raw) {
    const read = readBeforeTool(raw);
    if (Array.isArray(read)) return read;
    return {
      cwd: read.cwd,
      toolName: read.tool_name,
      toolInput: read.tool_input,
      callId: makeCallId(read),
      ...(read.session_id === undefined ? {} : { sessionId: read.session_id }),
      raw: read,
    };
  },
  plan: (input, options) =>
    planCall(input.raw, options.worktree, options.gateway, options.gatewayConfig, input.callId),
  namedPaths(input) {
    if (input.toolName.startsWith('mcp_')) return [];
    const paths: string[] = [];
    for (const key of PATH_KEYS) {
      const value = input.toolInput[key];
      if (typeof value === 'string' && value !== '') paths.push(resolve(input.cwd, value));
    }
    // `read_many_files` names its files (or globs of them) in `include`.
    const include = input.toolInput.include;
    if (Array.isArray(include))
      for (const value of include)
        if (typeof value === 'string' && value !== '') paths.push(resolve(input.cwd, value));
    return paths;
  },
  allow: (reason, toolInput) => hookAnswer('allow', reason, toolInput),
  deny: (reason) => hookAnswer('deny', reason),
  completionEvents: ['AfterTool'],
  readCompletion: readAfterTool,
  completed: () => ({}),
};
