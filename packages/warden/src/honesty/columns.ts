// The honesty matrix's shape (G37): what an adapter can say about its coverage,
// as data, so `warden doctor` and the UI render the same claims the tests pin.

/** The five things an adapter does or does not do, in the order they are shown. */
export const MATRIX_COLUMNS = [
  'filtersToolSurface',
  'interceptsToolCalls',
  'observesCompletion',
  'seesNativeTools',
  'sandboxCovered',
] as const;

export type Column = (typeof MATRIX_COLUMNS)[number];

/** What each column means (guard-rules §10), for a legend. */
export const COLUMN_MEANINGS: Readonly<Record<Column, string>> = {
  filtersToolSurface: 'Warden decides which tools the agent even sees',
  interceptsToolCalls: 'every call passes the gate before it runs',
  observesCompletion: "Warden sees the call's outcome (status, duration)",
  seesNativeTools: "the runtime's built-in tools are visible to Warden",
  sandboxCovered: 'in-process tools run under an OS sandbox profile',
};

/**
 * One claim. `partial` means "for some calls": the note names which. The note
 * is one sentence that states exactly what holds — never more than that.
 */
export interface Cell {
  readonly value: true | false | 'partial';
  readonly note: string;
}

/**
 * The paths by which Warden starts processes under the sandbox, each checked
 * on its own by `warden doctor`: the built-in `run_command`, the Claude Code
 * hook's rewritten `Bash` call, `warden exec`, and the gateway's stdio servers.
 */
export const PROBE_PATHS = ['run_command', 'hook', 'exec', 'gateway'] as const;

export type ProbePath = (typeof PROBE_PATHS)[number];

/**
 * What a real run through one path showed: `ok` when a command wrote inside
 * its worktree and was refused a write beside it, `failed` with why otherwise,
 * `skipped` when it was not run (no backend, or not asked for), with why.
 */
export interface ProbeResult {
  readonly path: ProbePath;
  readonly status: 'ok' | 'failed' | 'skipped';
  readonly detail: string;
}

export interface AdapterRow {
  /** A stable id: `builtin`, `library`, `mcp-gateway`, … */
  readonly adapter: string;
  readonly title: string;
  /** Whether this build contains the adapter; a row that is not available states its specification. */
  readonly available: boolean;
  /** The runtime (and version) the row's claims were checked against: `claude-code 2.1.197`, `warden 0.1.0`. */
  readonly verifiedWith: string;
  /** What was checked against that version, and what is still only specified. */
  readonly basis: string;
  readonly cells: Readonly<Record<Column, Cell>>;
}
