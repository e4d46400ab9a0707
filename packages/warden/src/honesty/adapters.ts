// What each adapter through which Warden sees agents' actions declares (G37),
// as data. Every note says exactly what holds; where a claim is in doubt the
// cell claims less. The sandbox column depends on the host and is computed in
// `matrix.ts` from each adapter's reason for not being covered.

import type { Cell, Column, ProbePath } from './columns.js';

/**
 * Which adapters this build contains. A later change that builds the MCP
 * gateway or the Claude Code hook flips its entry here (and the test that pins
 * this list), and re-checks the row's cells against what it built.
 */
export const AVAILABLE_IN_THIS_BUILD = {
  builtin: true,
  library: true,
  exec: true,
  'mcp-gateway': true,
  'claude-code-via-gateway': true,
  'claude-code-hook': true,
  'codex-hook': true,
  'gemini-cli-hook': true,
  'decide-api': true,
} as const;

export type AdapterId = keyof typeof AVAILABLE_IN_THIS_BUILD;

/** The protocol revision and runtime version the specified rows were written against. */
export const MCP_PROTOCOL = 'mcp 2025-06-18';
export const CLAUDE_CODE = 'claude-code 2.1.197';
export const CODEX = 'codex 0.171.0';
export const GEMINI_CLI = 'gemini-cli 0.61.0';

export interface AdapterDeclaration {
  readonly adapter: AdapterId;
  readonly title: string;
  /** `warden <version>` is filled in with the package's version. */
  readonly verifiedWith: (wardenVersion: string) => string;
  readonly basis: string;
  readonly cells: Readonly<Record<Exclude<Column, 'sandboxCovered'>, Cell>>;
  /**
   * Why its tools are not under a sandbox profile: on a host without a backend
   * (all adapters), and on one with a backend (adapters without `sandboxed`).
   */
  readonly unsandboxed: string;
  /**
   * What of it runs under the host's backend where there is one, and what still
   * does not; absent: nothing of it does, wherever it runs.
   */
  readonly sandboxed?: {
    /** The path `warden doctor` runs a command through to check this. */
    readonly probe: ProbePath;
    /** What the cell claims once that check passed: `true` only if nothing it runs stays outside. */
    readonly value: true | 'partial';
    readonly covered: string;
    /** What stays outside even then. */
    readonly uncovered: string;
    /** What happens to the covered part while the backend cannot run: never a run without it. */
    readonly broken: string;
  };
}

export const ADAPTERS: readonly AdapterDeclaration[] = [
  {
    adapter: 'builtin',
    title: "Warden's in-process tool registry (the built-in harness)",
    verifiedWith: (v) => `warden ${v}`,
    basis: "checked against this build's tool registry and built-in tools",
    cells: {
      filtersToolSurface: {
        value: true,
        note: "the agent is offered exactly the tools registered in Warden's registry (`tools.list()`), and the ratchet keeps out a mutating tool that declares no class; the list is not trimmed by policy, so a tool whose every call is denied is still listed",
      },
      interceptsToolCalls: {
        value: true,
        note: 'every `tools.call` passes the registry and every call that names a class or a command is decided by the gate before it runs; reads and writes inside the worktree are recorded without a decision by design, and `run_command` is decided on its command line, not on what the started process does afterwards',
      },
      observesCompletion: {
        value: true,
        note: 'every call is recorded with its status (`Ok`, `Error`, `Denied`, `NotFound`) and, when it ran, its duration',
      },
      seesNativeTools: {
        value: false,
        note: 'the registry is the whole harness, so there is no runtime of its own to see into: Warden sees only calls made through `tools.call`, and what the embedding process does by itself (files, processes, network) is unseen',
      },
    },
    unsandboxed:
      "its file tools are confined by Warden's path module, not sandboxed (reads, deletes and writes inside the worktree stay in it, a write elsewhere is gated as `fileWriteOutsideWorktree`), so the tool surface and this engine are their only file-system boundary, and `run_command`, git, `gh` and `http_fetch` run with the full rights of Warden's user",
    sandboxed: {
      probe: 'run_command',
      value: 'partial',
      covered:
        "`run_command`'s shell commands run under the OS sandbox (Warden's own bubblewrap sandbox on Linux, `sandbox-exec` on macOS; unless the embedding sets `sandbox: 'off'`): they write only inside the worktree and the sandbox's own temporary folder, cannot read the usual credential folders, and reach the network only through its proxy, for the hosts the allowed command line names and those the operator listed",
      uncovered:
        "the file tools are confined by Warden's path module, not sandboxed, so the tool surface and this engine are their only file-system boundary, and git, `gh` and `http_fetch` run with the full rights of Warden's user",
      broken: '`run_command` refuses every command while its sandbox cannot start',
    },
  },
  {
    adapter: 'library',
    title: "a TypeScript agent wrapping its own tools with Warden's registry",
    verifiedWith: (v) => `warden ${v}`,
    basis: "checked against this build's tool registry (`defineTool`, `tools.call`)",
    cells: {
      filtersToolSurface: {
        value: false,
        note: 'the agent, not Warden, chooses which tools its model is offered; the registry lists only the tools the agent registered with it',
      },
      interceptsToolCalls: {
        value: 'partial',
        note: 'every call to a tool the agent wrapped passes the gate before it runs (reads are recorded without a decision); a tool it did not wrap, or calls directly, runs unseen',
      },
      observesCompletion: {
        value: 'partial',
        note: 'status and duration are recorded for calls made through `tools.call` only',
      },
      seesNativeTools: {
        value: false,
        note: "Warden sees nothing of the agent's framework or code outside the registry, only the calls to what it wraps",
      },
    },
    unsandboxed:
      "wrapped tools run inside the agent's own process with its user's rights, and Warden starts no sandbox around them",
  },
  {
    adapter: 'exec',
    title: '`warden exec`: one shell command line, decided by the gate and run by Warden',
    verifiedWith: (v) => `warden ${v}`,
    basis:
      "checked against this build's `warden exec`, standalone (`--policy`) and connected (`--server`), with and without a hook's `--grant`",
    cells: {
      filtersToolSurface: {
        value: false,
        note: '`warden exec` runs the one command line it is given: it offers no tools, so there is no tool list to shape',
      },
      interceptsToolCalls: {
        value: true,
        note: 'every command line given to `warden exec` is decided by the gate before anything runs (a deny exits 3, a prompt standalone is denied); a command the agent runs without `warden exec` is not seen',
      },
      observesCompletion: {
        value: true,
        note: 'each run is recorded against its decision with its status, duration, exit code and what the sandbox refused; a run that cannot be recorded is said so on standard error, and a command that succeeded then exits 1',
      },
      seesNativeTools: {
        value: false,
        note: "`warden exec` sees only the command lines passed to it: the agent runtime's own tools never reach it",
      },
    },
    unsandboxed:
      "without a backend `warden exec` refuses to run the command unless `--no-sandbox` is given, and then runs it with the guard rules as the only boundary (a hook's `--grant` is never run without the sandbox)",
    sandboxed: {
      probe: 'exec',
      value: true,
      covered:
        "every command `warden exec` runs, also one a hook's grant names, runs under the OS sandbox (Warden's own bubblewrap sandbox on Linux, `sandbox-exec` on macOS) with the profile made from its decision: it writes only inside the worktree and the folders the policy lets the agent write, cannot read the usual credential folders nor Warden's data folder, and reaches the network only through the sandbox's proxy, for the hosts its command line names",
      uncovered:
        'only what does not go through `warden exec`: a command the agent runs by other means is neither decided nor sandboxed by it',
      broken: '`warden exec` runs no command while its sandbox cannot start',
    },
  },
  {
    adapter: 'mcp-gateway',
    title: 'Warden as MCP gateway: server to the agent, client to downstream MCP servers',
    verifiedWith: () => MCP_PROTOCOL,
    basis: `\`warden gateway\` is in this build, written against MCP protocol revision ${MCP_PROTOCOL.slice(4)}; it is tested end to end with the MCP TypeScript SDK's client (stdio and Streamable HTTP) in front of the reference filesystem and memory MCP servers, standalone and connected to a Warden server`,
    cells: {
      filtersToolSurface: {
        value: true,
        note: "the agent's `tools/list` is answered by Warden with the downstream tools as `<server>__<tool>`, and the gateway does not start while a downstream tool has neither a mapping nor `readOnly: true` in its configuration; the list is trimmed by policy only with `hideDenied: true`, which leaves out each tool mapped to a class the policy denies outright for the agent (or none, when Warden cannot tell which), so without it a tool whose every call is denied is still listed; MCP servers the agent connects to directly, past the gateway, are not Warden's to filter",
      },
      interceptsToolCalls: {
        value: true,
        note: 'every `tools/call` to a tool mapped to action classes is decided by the gate before it is forwarded downstream; a tool the configuration marks `readOnly: true` is forwarded and recorded without a decision, so that mark is trusted as written; a call that does not go through the gateway is not seen',
      },
      observesCompletion: {
        value: true,
        note: 'each forwarded call is recorded with its status (`Ok`, or `Error` for an error result, a failed or crashed downstream server and a timeout) and its duration; what a downstream server does after it has answered is not seen',
      },
      seesNativeTools: {
        value: false,
        note: "the gateway sees only MCP traffic: the agent runtime's own tools never reach it",
      },
    },
    unsandboxed:
      "MCP tools run in the downstream servers' processes: without a backend the gateway starts its stdio servers unsandboxed under its `sandbox: auto` (and refuses them under `sandbox: required`), and servers reached by URL are never Warden's to sandbox",
    sandboxed: {
      probe: 'gateway',
      value: 'partial',
      covered:
        "each stdio server the gateway starts runs under the OS sandbox, unless its entry or the gateway's configuration says `sandbox: off` (logged as a warning): it reads everything but the usual credential folders, writes only the folders its entry lists under `sandbox.write` (none by default, never `/`) and reaches only the hosts listed under `sandbox.hosts` (none by default)",
      uncovered:
        'servers reached by URL (Streamable HTTP) run wherever they run, and Warden does not sandbox them',
      broken:
        'its stdio servers fail to start while the sandbox cannot, and are never started without it',
    },
  },
  {
    adapter: 'claude-code-via-gateway',
    title: 'Claude Code seen only through the MCP gateway',
    verifiedWith: () => `${CLAUDE_CODE}, ${MCP_PROTOCOL}`,
    basis: `the gateway is in this build and tested with the MCP TypeScript SDK's client, not with a running Claude Code; what Claude Code sends through MCP and runs natively is as specified against ${CLAUDE_CODE} and MCP protocol revision ${MCP_PROTOCOL.slice(4)}`,
    cells: {
      filtersToolSurface: {
        value: 'partial',
        note: "Warden decides which of the gateway's `mcp__*` tools Claude Code sees, but not its native tools nor MCP servers configured in Claude Code directly",
      },
      interceptsToolCalls: {
        value: 'partial',
        note: "only Claude Code's `mcp__*` calls to the gateway pass the gate; its own Read, Write, Edit and Bash tools run unseen",
      },
      observesCompletion: {
        value: 'partial',
        note: "Warden sees the outcome and duration of the `mcp__*` calls it forwarded, and nothing of the native tools' calls",
      },
      seesNativeTools: {
        value: false,
        note: "Claude Code's own Read, Write, Edit and Bash tools run unseen: they never leave Claude Code's process through MCP",
      },
    },
    unsandboxed:
      "Claude Code runs its native tools in its own process and the MCP tools run in downstream servers; Warden starts neither under a sandbox here and does not check whether Claude Code's own sandbox setting is on",
    sandboxed: {
      probe: 'gateway',
      value: 'partial',
      covered:
        'the `mcp__*` calls Claude Code sends through the gateway reach stdio servers that run under the OS sandbox, each writing only the folders its entry lists and reaching only its listed hosts',
      uncovered:
        'Claude Code runs its native Read, Write, Edit, Bash and web tools in its own process, which Warden starts no sandbox around and whose own sandbox setting it does not check, and downstream servers reached by URL are not sandboxed by Warden',
      broken: "the gateway's stdio servers fail to start while the sandbox cannot",
    },
  },
  {
    adapter: 'claude-code-hook',
    title:
      "Claude Code with Warden's `PreToolUse`, `PostToolUse` and `PostToolUseFailure` hooks installed for all tools",
    verifiedWith: () => CLAUDE_CODE,
    basis: `\`warden hook claude-code\` is in this build; its answers, failure paths and install are tested with recorded Claude Code inputs, and its denies, its sandboxed rewrite of \`Bash\`, its prompts and the completions it records end to end with the real ${CLAUDE_CODE} run offline against a local fake model API; that a \`PreToolUse\` hook still runs under \`--dangerously-skip-permissions\` was seen with ${CLAUDE_CODE}`,
    cells: {
      filtersToolSurface: {
        value: false,
        note: 'a hook answers calls, it does not shape the tool list: Claude Code offers its model every tool it has, and a call Warden denies is refused only when it is made',
      },
      interceptsToolCalls: {
        value: 'partial',
        note: `every native tool call passes the hook before it runs, also under \`--dangerously-skip-permissions\` (seen with ${CLAUDE_CODE}): \`Bash\`, writes outside the worktree, \`WebFetch\`/\`WebSearch\` are decided by the gate, an unmapped \`mcp__*\` or unknown tool is denied, reads and writes inside the worktree pass ungated; only a deny is reliable across versions (an allow may not be honoured alike by every version), and a hook that crashes, times out or prints bad JSON lets the call through, so Warden's hook turns every failure into a deny`,
      },
      observesCompletion: {
        value: true,
        note: `\`PostToolUse\` and \`PostToolUseFailure\` (which \`warden hook install claude-code\` installs) report every call that ran with Claude Code's own duration, its output size and, for \`Bash\`, its exit code, recorded against the decision that allowed it (seen with ${CLAUDE_CODE}); a call that ran without an allowing decision is recorded as such; a command run under \`warden exec\` is recorded by the runner, and a tool of Warden's gateway by the gateway`,
      },
      seesNativeTools: {
        value: true,
        note: 'installed for all tools, the hook shows Warden every native tool call (Read, Write, Edit, Bash, …) with its arguments before it runs; what a Bash process does once started is not seen',
      },
    },
    unsandboxed:
      "Claude Code runs its native tools in its own process: without a backend the hook's `--sandbox auto` lets an allowed `Bash` command run as it is (`--sandbox required` denies it), and Warden does not check whether Claude Code's own sandbox setting is on",
    sandboxed: {
      probe: 'hook',
      value: 'partial',
      covered:
        'an allowed `Bash` call is answered with its command rewritten to `warden exec --grant …`, which runs it under @anthropic-ai/sandbox-runtime with the profile made from its decision (writes only inside the worktree and the folders the policy lets the agent write, no credential folders, network only to the hosts its command line names), unless the hook was installed with `--sandbox off`',
      uncovered:
        "Write, Edit, MultiEdit and NotebookEdit run inside Claude Code's own process, confined only by Warden's path check (a write outside the worktree is gated), WebFetch and WebSearch run in Claude Code, MCP servers Claude Code reaches directly run as Claude Code started them, and a `Bash` call with `dangerouslyDisableSandbox: true` runs unsandboxed once a human approved it (it always prompts)",
      broken:
        'an allowed `Bash` command fails under `warden exec --grant`, which never runs it without the sandbox',
    },
  },
  {
    adapter: 'codex-hook',
    title: "Codex CLI with Warden's `PreToolUse` and `PostToolUse` hooks installed for all tools",
    verifiedWith: () => CODEX,
    basis: `\`warden hook codex\` is in this build; its answers are tested with Codex inputs captured from ${CODEX} and end to end with the real ${CODEX} run offline against a local fake model API (denies, allowed commands and patches, prompts answered by a connected approver, an unreachable server, completions recorded against their decisions)`,
    cells: {
      filtersToolSurface: {
        value: false,
        note: 'a hook answers calls, it does not shape the tool list: Codex offers its model every tool it has, and a call Warden denies is refused only when it is made',
      },
      interceptsToolCalls: {
        value: 'partial',
        note: `every shell command, \`apply_patch\` and MCP call passes the hook before it runs (seen with ${CODEX}): commands through the shell classifier, a patch as the files it writes and deletes; Codex runs the call when a hook fails, times out, prints bad JSON or is not trusted, so Warden's hook answers every failure with a deny; input typed into a running command (\`write_stdin\`) never reaches the hook`,
      },
      observesCompletion: {
        value: true,
        note: `\`PostToolUse\` (which \`warden hook install codex\` installs) reports every shell command, patch and MCP call that ran, recorded against the decision that allowed it with its output size; a shell command's exit code and duration come from the session's transcript, which Codex writes before the event (seen with ${CODEX}), and without it the command is recorded as run with no exit code; a patch's exit code is in its output`,
      },
      seesNativeTools: {
        value: 'partial',
        note: `Codex's shell, \`apply_patch\`, web search and MCP calls reach the hook with their arguments before they run; \`write_stdin\` does not (seen with ${CODEX}), and what a started process does is not seen`,
      },
    },
    unsandboxed:
      "Codex runs its tools itself: without a backend, or under Codex's own sandbox modes, the hook's `--sandbox auto` lets an allowed command run as Codex runs it (`--sandbox required` denies it)",
    sandboxed: {
      probe: 'hook',
      value: 'partial',
      covered:
        'under `-s danger-full-access`, an allowed shell command is answered with its command rewritten to `warden exec --grant …`, which runs it under the sandbox made from its decision',
      uncovered:
        "under Codex's own `workspace-write` and `read-only` sandboxes (its default) an allowed command runs in Codex's sandbox, not under its decision's profile, because Warden's runner cannot start inside it; `apply_patch` writes run in Codex's own process, confined only by Warden's path check; MCP servers Codex starts run as Codex started them",
      broken:
        'an allowed command fails under `warden exec --grant`, which never runs it without the sandbox',
    },
  },
  {
    adapter: 'gemini-cli-hook',
    title: "Gemini CLI with Warden's `BeforeTool` and `AfterTool` hooks installed for all tools",
    verifiedWith: () => GEMINI_CLI,
    basis: `\`warden hook gemini\` is in this build; its answers are tested with Gemini CLI inputs captured from ${GEMINI_CLI} and end to end with the real ${GEMINI_CLI} run offline against a local fake model API (denies, sandboxed commands, writes, an MCP server it starts, prompts answered by a connected approver, an unreachable server, completions matched to their decisions)`,
    cells: {
      filtersToolSurface: {
        value: false,
        note: 'a hook answers calls, it does not shape the tool list: Gemini CLI offers its model every tool its approval mode allows, and a call Warden denies is refused only when it is made',
      },
      interceptsToolCalls: {
        value: 'partial',
        note: `every tool call Gemini CLI makes passes \`BeforeTool\` before it runs (seen with ${GEMINI_CLI}); the CLI runs the call when a hook times out or prints text it cannot read with exit 0 or 1, and hangs on \`ask\`, so Warden's hook answers allow or deny only, waits for a human itself, and answers every failure with a deny`,
      },
      observesCompletion: {
        value: true,
        note: `\`AfterTool\` (which \`warden hook install gemini\` installs) reports every call that ran, with its output size, a shell command's exit code and a tool's error (seen with ${GEMINI_CLI}); it names no call, so Warden matches it to the newest unreported decision of the session for the same tool and arguments, and as Gemini CLI measures no duration, the one recorded runs from the decision to the report`,
      },
      seesNativeTools: {
        value: true,
        note: 'installed for all tools, the hook shows Warden every native tool call (shell, file writes, web fetch, MCP) with its arguments before it runs; what a started process does is not seen',
      },
    },
    unsandboxed:
      "Gemini CLI runs its tools itself: without a backend the hook's `--sandbox auto` lets an allowed shell command run as it is (`--sandbox required` denies it)",
    sandboxed: {
      probe: 'hook',
      value: 'partial',
      covered:
        'an allowed `run_shell_command` is answered with its arguments rewritten so that the command runs under `warden exec --grant …`, with the sandbox made from its decision',
      uncovered:
        "`write_file` and `replace` run in Gemini CLI's own process, confined only by Warden's path check; `web_fetch` runs in Gemini CLI; MCP servers it starts run as it started them; inside Gemini CLI's own container sandbox (`-s`) the rewrite is untested",
      broken:
        'an allowed command fails under `warden exec --grant`, which never runs it without the sandbox',
    },
  },
  {
    adapter: 'decide-api',
    title: "an agent that asks a Warden server's `POST /v1/decide` itself and runs its own tools",
    verifiedWith: (v) => `warden ${v}`,
    basis: "checked against this build's HTTP API (`POST /v1/decide`, `POST /v1/audit`)",
    cells: {
      filtersToolSurface: {
        value: false,
        note: 'the agent chooses its tools; the server answers only the calls it is asked about',
      },
      interceptsToolCalls: {
        value: 'partial',
        note: 'only the calls the agent asks about are decided, and the agent enforces the answer itself: a call it does not ask about, or runs despite a deny, is unseen',
      },
      observesCompletion: {
        value: 'partial',
        note: 'a run is recorded only when the agent reports it (`POST /v1/audit`)',
      },
      seesNativeTools: {
        value: false,
        note: "the server sees the requests it is sent and nothing of the agent's runtime",
      },
    },
    unsandboxed:
      'Warden cannot sandbox what such an agent runs: it runs its tools in its own process, on its own host, after the answer',
  },
];
