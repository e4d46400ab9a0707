// What one tool call of an agent runtime comes to before any policy is read,
// and the pieces every runtime's planner shares: the audit's copy of the
// arguments, whether a file lies inside the worktree (by the one path
// confinement), and the mapping of an MCP tool the runtime reaches directly
// by a gateway configuration (the same mapping and argument extraction the
// gateway uses). Each runtime's own file (claude-code.ts, codex.ts, gemini.ts)
// reads its tool names and arguments into these.
//
// Every call is judged against the worktree the hook is bound to
// (`hook/worktree.ts`: `--worktree`, the runtime's project folder, or the
// folder the hook was started in), never against the `cwd` of its input,
// which the model may choose (Codex's `workdir`). That `cwd` only says where
// the call acts: relative paths resolve against it, and a shell command whose
// folder lies outside the bound worktree is decided as what it may do there,
// a `fileWriteOutsideWorktree` of that folder.

import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { GateAsk } from '../gate/types.js';
import { isControlPath } from './control-paths.js';

/** What one call comes to before any policy is read. */
export type HookPlan =
  /** Ask the gate; `shell` is a command that, once allowed, runs under Warden's sandbox. */
  | {
      readonly kind: 'gate';
      /**
       * What the gate is asked, its `command` as the runtime would run it
       * unsandboxed: in the folder the call names (`cd <folder> && …` when that
       * is not the worktree itself).
       */
      readonly ask: GateAsk;
      /** The bound worktree (never the input's `cwd`): the request's and the sandbox's. */
      readonly worktree: string;
      readonly shell?: ShellCall;
    }
  /** Nothing to decide: the call only reads, or writes inside the worktree (G14c). */
  /** `gateway`: Warden's MCP gateway decides the call and records how it ends. */
  | { readonly kind: 'ungated'; readonly reason: string; readonly gateway?: true }
  /** Refused before the gate: Warden cannot tell what the call does. */
  | { readonly kind: 'refuse'; readonly reason: string };

export type GatePlan = Extract<HookPlan, { kind: 'gate' }>;

/**
 * A shell call as the runtime sent it: once allowed, its input is sent back
 * with `command` rewritten to run the command under Warden's sandbox.
 */
export interface ShellCall {
  readonly input: Readonly<Record<string, unknown>>;
  /**
   * The command `warden exec` runs under the sandbox, in the bound worktree:
   * the ask's own, except for a call whose folder lies outside the worktree,
   * which runs in the worktree instead (so without the `cd` the ask has).
   */
  readonly command: string;
  /** The folder the call named, when it lies outside the bound worktree (it runs in the worktree). */
  readonly elsewhere?: string;
}

/** Longest string argument recorded whole; a file's new content is summarised beyond it. */
const RECORDED_TEXT = 4096;

/**
 * The arguments as the audit log keeps them: a long string (a file's content,
 * an edit, a patch) is cut to its start and its size, so a large write is
 * still decided and recorded rather than refused for its size.
 */
export function recordable(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args))
    out[key] =
      typeof value === 'string' && value.length > RECORDED_TEXT
        ? `${value.slice(0, RECORDED_TEXT)}… (${Buffer.byteLength(value)} bytes in all)`
        : value;
  return out;
}

/** A non-empty string argument, or null. */
export function text(input: Readonly<Record<string, unknown>>, key: string): string | null {
  const value = input[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Whether a file at `target` (absolute) lies inside `worktree`, judged by the
 * one path confinement: lexically, then walking the real folders without
 * following a link out. A path it refuses for any reason counts as outside.
 */
export async function insideWorktree(worktree: string, target: string): Promise<boolean> {
  const rel = relative(worktree, target);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return false;
  // Loaded only for a file write: most calls never need it.
  const { checkLexical, walk, worktreeConfinement } = await import('../paths/index.js');
  let c;
  try {
    c = await worktreeConfinement(worktree);
  } catch {
    return false;
  }
  const lexical = checkLexical(c, rel.split(sep).join('/'));
  if (!lexical.ok) return false;
  const walked = await walk(c, lexical.value.segments, lexical.value.rel, { last: 'entry' });
  if (!walked.ok) return false;
  await walked.value.dir.close();
  return true;
}

/**
 * The worktree of a planner called without one: the folder this process runs
 * in, as a hook started by its runtime binds to it (`hook/worktree.ts` says
 * which comes first). Never the input's `cwd`.
 */
export function processWorktree(): string {
  return resolvingFolder(process.cwd());
}

/** The real path of `path`, or null when it cannot be resolved (it does not exist). */
function realPath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The folder a call acts in (the input's `cwd`, or a folder its arguments
 * name) as a real path where it exists, and whether it lies inside the bound
 * `worktree` (the worktree itself does), judged by the one path confinement.
 * A folder that cannot be resolved lies outside.
 */
export async function actingFolder(
  worktree: string,
  folder: string,
): Promise<{ readonly folder: string; readonly inside: boolean }> {
  const real = realPath(folder);
  if (real === null) return { folder, inside: false };
  return { folder: real, inside: real === worktree || (await insideWorktree(worktree, real)) };
}

/**
 * Where relative paths of a call resolve: the real path of the folder it
 * acts in, or the folder as given when it cannot be resolved.
 */
export function resolvingFolder(cwd: string): string {
  return realPath(cwd) ?? cwd;
}

/** Quotes one word for a POSIX shell, always. */
export function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A shell command run in `folder` (the input's `cwd`, or the folder its
 * arguments name), judged against the bound `worktree`:
 * - in the worktree itself, as it is;
 * - in a folder inside it, as `cd <folder> && …` (the command's relative
 *   paths resolve there, E26), which is also what runs under the sandbox;
 * - in a folder outside it (or one that cannot be resolved), as what it may
 *   do there too: `fileWriteOutsideWorktree`, with the paths the command shows
 *   (unknown where it shows none, G18; `processSpawn` kept, as a command
 *   always is, G14c, E2), judged as `cd <folder> && …` where
 *   the runtime runs it there itself; under Warden's sandbox it runs in the
 *   worktree instead, as it is, the worktree its only writable root.
 * `input` is the runtime's arguments, sent back rewritten once allowed; null
 * for a call never rewritten (Claude Code's `dangerouslyDisableSandbox`).
 */
export async function planShell(
  base: GateAsk,
  command: string,
  folder: string,
  worktree: string,
  input: Readonly<Record<string, unknown>> | null,
  extra: Partial<GateAsk> = {},
): Promise<HookPlan> {
  const where = await actingFolder(worktree, folder);
  const inFolder = `cd ${quoted(where.folder)} && ${command}`;
  if (where.inside) {
    const judged = where.folder === worktree ? command : inFolder;
    return {
      kind: 'gate',
      worktree,
      ask: { ...base, command: judged, ...extra },
      ...(input === null ? {} : { shell: { input, command: judged } }),
    };
  }
  return {
    kind: 'gate',
    worktree,
    ask: {
      ...base,
      command: inFolder,
      // Which files it writes there is what the command shows (`cd <folder> && …`); the folder is
      // not named in `args`, which would be read as every class's paths and make an unknown
      // list a known one (E21, E42).
      actions: ['processSpawn', 'fileWriteOutsideWorktree'],
      ...extra,
    },
    ...(input === null ? {} : { shell: { input, command, elsewhere: where.folder } }),
  };
}

/** An MCP tool call of a server the runtime talks to directly. */
export interface McpCall {
  /** The tool as the runtime names it (`mcp__fake__write_note`, `mcp_fake_write_note`). */
  readonly tool: string;
  /** The server's name, as the gateway configuration lists it under `servers`. */
  readonly server: string;
  /** The tool's own name on that server. */
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The bound worktree, where the configuration names none. */
  readonly worktree: string;
  /** The runtime, in words (`Claude Code`), for the advice in a refusal. */
  readonly runtime: string;
}

/**
 * An MCP tool decided with the gateway configuration's mapping of
 * `<server>__<tool>` (contracts §7): its `actions`, its `args` read out of the
 * call's arguments, its `worktree` (else the bound one). Only `servers` (which names
 * exist), `tools` and `worktree` are read: the identity is the hook's
 * (contracts §4).
 */
export async function planMappedMcp(call: McpCall, base: GateAsk, file: string): Promise<HookPlan> {
  const { tool, server, args, runtime } = call;
  const exposed = `${server}__${call.name}`;
  // Loaded only for such a call: most calls never need the configuration's reader, nor the
  // argument extraction, which loads the engine.
  const [{ loadGatewayConfig, mappingMatcher }, { extractArgs }] = await Promise.all([
    import('../gateway/config.js'),
    import('../gateway/extract.js'),
  ]);
  const loaded = loadGatewayConfig(file);
  if (!loaded.ok)
    return {
      kind: 'refuse',
      reason: `the gateway configuration \`${file}\` (\`--gateway-config\`) cannot be used: ${loaded.problems
        .map((p) => {
          const at = p.path.startsWith(file)
            ? p.path.slice(file.length).replace(/^: /, '')
            : p.path;
          return at === '' || at === '--config' ? p.message : `${at}: ${p.message}`;
        })
        .join('; ')}`,
    };
  const { config } = loaded;
  if (!config.servers.some((s) => s.name === server))
    return {
      kind: 'refuse',
      reason: `\`${tool}\` is a tool of the MCP server \`${server}\`, which the gateway configuration \`${file}\` does not list: add \`${server}\` under \`servers\` there and map \`${exposed}\` under \`tools\` (\`actions\` with \`args\`, or \`readOnly: true\`), or give ${runtime} this server through \`warden gateway\``,
    };
  const mapping = mappingMatcher(config)(exposed);
  if (mapping === null)
    return {
      kind: 'refuse',
      reason: `\`${tool}\` has no mapping in the gateway configuration \`${file}\`: map \`${exposed}\` under \`tools\` there, with \`actions\` (and \`args\`) if it changes anything or \`readOnly: true\` if it only reads (the ratchet)`,
    };
  if (mapping.readOnly === true)
    return {
      kind: 'ungated',
      reason: `\`${tool}\` only reads (\`${exposed}\` is \`readOnly\` in \`${file}\`): not gated`,
    };
  const worktree = config.worktree ?? call.worktree;
  const extracted = extractArgs(mapping.args, args, worktree);
  if (!extracted.ok) return { kind: 'refuse', reason: `\`${tool}\`: ${extracted.problem}: denied` };
  return {
    kind: 'gate',
    worktree,
    ask: { ...base, actions: [...mapping.actions], args: extracted.args },
  };
}

/**
 * `mcp__<server>__<tool>` (Claude Code's and Codex's spelling) split into
 * server and tool, or null when the name is not of that form.
 */
export function splitMcpName(tool: string): { server: string; name: string } | null {
  if (!tool.startsWith('mcp__')) return null;
  const rest = tool.slice('mcp__'.length);
  const cut = rest.indexOf('__');
  if (cut <= 0 || cut + 2 >= rest.length) return null;
  return { server: rest.slice(0, cut), name: rest.slice(cut + 2) };
}

/** What every runtime's hook input carries: the event, the folder, the tool and its arguments. */
export interface ToolCallFields {
  readonly hook_event_name: string;
  readonly cwd: string;
  readonly tool_name: string;
  readonly tool_input: Readonly<Record<string, unknown>>;
}

/** How a runtime's input is checked: its event, where the hook is installed, its optional text fields. */
export interface CallFieldsSpec {
  /** The event the hook answers: `PreToolUse`, `BeforeTool`; or the events, for completions. */
  readonly event: string | readonly string[];
  /** Where the hook belongs in the runtime's configuration, as the advice says it. */
  readonly installUnder: string;
  /** The runtime in words, for the advice. */
  readonly runtime: string;
  /** The fields that, when present, must be strings. */
  readonly strings: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields every runtime's input has, checked by hand rather than with a
 * schema library (the hook starts for every tool call): the input as a
 * record and every problem with it (none when it is a call of `spec.event`).
 */
export function readCallFields(
  raw: unknown,
  spec: CallFieldsSpec,
): { readonly input: Record<string, unknown>; readonly problems: string[] } {
  if (!isRecord(raw)) return { input: {}, problems: ['the input is not a JSON object'] };
  const problems: string[] = [];
  const events: readonly unknown[] = typeof spec.event === 'string' ? [spec.event] : spec.event;
  if (!events.includes(raw.hook_event_name))
    problems.push(
      `\`hook_event_name\` is ${JSON.stringify(raw.hook_event_name ?? null)}: this hook answers ${events.map((e) => `\`${String(e)}\``).join(', ')} only, install it under \`${spec.installUnder}\``,
    );
  if (typeof raw.cwd !== 'string' || !isAbsolute(raw.cwd))
    problems.push(
      `\`cwd\` is not an absolute path: ${spec.runtime} always sends the working directory`,
    );
  if (typeof raw.tool_name !== 'string' || raw.tool_name === '')
    problems.push('`tool_name` is missing');
  if (!isRecord(raw.tool_input)) problems.push('`tool_input` is not an object');
  for (const key of spec.strings)
    if (raw[key] !== undefined && typeof raw[key] !== 'string')
      problems.push(`\`${key}\` is not a string`);
  return { input: raw, problems };
}

/** The call as `hook/run.ts` reads it, from a checked input that names its call and session by these fields. */
export function hookInputOf<R extends ToolCallFields>(
  read: R,
  ids: { readonly callId?: string | undefined; readonly sessionId?: string | undefined },
): {
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  readonly callId?: string;
  readonly sessionId?: string;
  readonly raw: R;
} {
  return {
    cwd: read.cwd,
    toolName: read.tool_name,
    toolInput: read.tool_input,
    ...(ids.callId === undefined ? {} : { callId: ids.callId }),
    ...(ids.sessionId === undefined ? {} : { sessionId: ids.sessionId }),
    raw: read,
  };
}

/**
 * A file tool's write (`Write`, `write_file`, …) named by the argument
 * `pathKey`, a relative one resolved against `cwd` (where the call acts):
 * inside the bound `worktree` not gated (G14c) — but a write to a path that
 * changes what later commands run is `workspaceMutation` (E44) — outside it
 * `fileWriteOutsideWorktree` with the path, judged by the one path confinement.
 */
export async function planFileWrite(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  pathKey: string,
  cwd: string,
  worktree: string,
  base: GateAsk,
): Promise<HookPlan> {
  const path = text(args, pathKey);
  if (path === null) return { kind: 'refuse', reason: `\`${tool}\` without a \`${pathKey}\`` };
  const target = resolve(resolvingFolder(cwd), path);
  if (await insideWorktree(worktree, target)) {
    // A git hook, a shell start file, an agent's settings: a write that changes what runs later.
    if (isControlPath(relative(worktree, target).split(sep).join('/')))
      return {
        kind: 'gate',
        worktree,
        ask: { ...base, actions: ['workspaceMutation'], args: { paths: [target] } },
      };
    return { kind: 'ungated', reason: `\`${tool}\` writes inside the worktree (not gated)` };
  }
  return {
    kind: 'gate',
    worktree,
    ask: { ...base, actions: ['fileWriteOutsideWorktree'], args: { paths: [target] } },
  };
}

/** What every ask of a runtime's call starts with: the tool, its recorded arguments, its id. */
export function askBase(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  callId: string | undefined,
): GateAsk {
  return { tool, arguments: recordable(args), ...(callId === undefined ? {} : { callId }) };
}

/**
 * An `mcp__<server>__<tool>` call (Claude Code's and Codex's spelling), or
 * null for another tool: Warden's own gateway (`mcp__<gateway>__*`) decides
 * its tools itself; another server's tool is decided with the mapping of
 * `--gateway-config`, and denied without one, saying how to map it.
 */
export function planMcpName(
  call: Omit<McpCall, 'server' | 'name'>,
  base: GateAsk,
  gateway: string,
  gatewayConfig: string | undefined,
): Promise<HookPlan> | HookPlan | null {
  const { tool, runtime } = call;
  if (!tool.startsWith('mcp__')) return null;
  if (tool.startsWith(`mcp__${gateway}__`))
    return {
      kind: 'ungated',
      reason: `\`${tool}\` goes through Warden's MCP gateway, which decides it`,
      gateway: true,
    };
  if (gatewayConfig === undefined)
    return {
      kind: 'refuse',
      reason: `\`${tool}\` is an MCP tool with no mapping to action classes: give ${runtime} this server through \`warden gateway\`, where each tool is mapped, or map its tools in a gateway configuration given to the hook with \`--gateway-config FILE\``,
    };
  const split = splitMcpName(tool);
  if (split === null)
    return {
      kind: 'refuse',
      reason: `\`${tool}\` is not an MCP tool name of the form \`mcp__<server>__<tool>\`: denied`,
    };
  return planMappedMcp({ ...call, ...split }, base, gatewayConfig);
}
