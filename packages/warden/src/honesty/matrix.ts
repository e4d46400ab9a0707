// The honesty matrix computed for the running host (G37, G2, G7): the adapters'
// declarations plus the sandbox column and the host statement, which depend on
// whether the host offers a sandbox backend and, where `warden doctor` ran a
// command through each path, on what that showed. A cell claims a path is
// covered only where the backend is present and its check passed; unchecked it
// says "where the backend runs"; on macOS, where Warden's sandbox is untested,
// it claims nothing.

import { createRequire } from 'node:module';
import type { ActionClass } from '@warden/engine';
import { ACTION_CLASSES, defaultDecision } from '@warden/engine';
import type { AdapterDeclaration } from './adapters.js';
import { ADAPTERS, AVAILABLE_IN_THIS_BUILD } from './adapters.js';
import type { AdapterRow, Cell, ProbePath, ProbeResult } from './columns.js';
import type { HostFacts } from './host.js';
import {
  detectHost,
  missingBackend,
  presentBackend,
  sandboxBackend,
  transactionalProblem,
} from './host.js';

export interface HonestyMatrix {
  readonly host: HostFacts & {
    /** Whether the host offers a sandbox backend at all (G2). */
    readonly sandboxBackend: boolean;
    /** Which one: `bwrap+socat`, `sandbox-exec`, or `null`. */
    readonly backend: string | null;
    /**
     * Whether sandboxed shell commands run transactionally here (E44): over a
     * copy-on-write layer whose effects are decided before they land.
     */
    readonly transactional: boolean;
    /**
     * Whether no available adapter is known to run everything under the
     * sandbox (missing, failed or not checked), so the floor the allow
     * defaults assume is not there to rely on (G7).
     */
    readonly floorMissing: boolean;
    /** One sentence for the operator, shown before the table. */
    readonly statement: string;
  };
  readonly adapters: readonly AdapterRow[];
}

/** The installed package's version, read from its manifest (as `warden --version` does). */
const PACKAGE_VERSION = (
  createRequire(import.meta.url)('../../package.json') as { version: string }
).version;

const NUMBER_WORDS = [
  'no',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
];

/** The classes whose built-in default is `allow`: the ones that assume a sandbox floor (G7). */
export function allowDefaults(): readonly ActionClass[] {
  return ACTION_CLASSES.filter((c) => defaultDecision(c) === 'allow');
}

function allowDefaultsPhrase(): string {
  const classes = allowDefaults();
  const count = NUMBER_WORDS[classes.length] ?? String(classes.length);
  return `the ${count} allow defaults (${classes.map((c) => `\`${c}\``).join(', ')})`;
}

/** What runs under the backend where the host has one, and what never does. */
const UNDER_BACKEND =
  "the built-in `run_command`, `warden exec`, the shell commands the Claude Code and Gemini CLI hooks allow (and the Codex hook's, under Codex's `danger-full-access`) and the stdio servers the MCP gateway starts";
const OUTSIDE_BACKEND =
  "the built-in file, git, `gh` and `http_fetch` tools, a library agent's wrapped tools, the agent runtimes' own file, web and MCP tools (Claude Code's, Codex's, Gemini CLI's), commands Codex runs in its own sandbox, MCP servers reached by URL, and whatever an agent that asks a Warden server itself runs";

/** Warden's sandbox runs on macOS through the same runtime (Seatbelt), but is not tested there. */
function untested(host: HostFacts): boolean {
  return host.platform === 'darwin';
}

const PATH_NAMES: Readonly<Record<ProbePath, string>> = {
  run_command: '`run_command`',
  hook: "the hook's `Bash` commands",
  exec: '`warden exec`',
  gateway: "the gateway's stdio servers",
};

function ran(probes: readonly ProbeResult[] | undefined): readonly ProbeResult[] {
  return (probes ?? []).filter((p) => p.status !== 'skipped');
}

/** What the checks showed, as a clause for the host statement. */
function checksClause(host: HostFacts, probes: readonly ProbeResult[] | undefined): string {
  const done = ran(probes);
  const failed = done.filter((p) => p.status === 'failed');
  if (failed.length > 0)
    return `, except where the check on this host failed (${failed.map((p) => PATH_NAMES[p.path]).join(', ')}): there nothing runs, since none of them falls back to running without the sandbox`;
  if (untested(host))
    return ", untested on macOS: Warden's sandbox is not verified there, so no cell claims it";
  if (done.length === 0) return ' (where the backend runs: `warden doctor` checks each path)';
  return ` (checked on this host for ${done.map((p) => PATH_NAMES[p.path]).join(', ')})`;
}

/** Whether what a sandboxed command does inside its writable folders is decided before it lands. */
function transactionalClause(host: HostFacts): string {
  const problem = transactionalProblem(host, {});
  return problem === null
    ? 'they run transactionally: what one deletes, plants or changes in the folders it may write is decided before it lands'
    : `they do not run transactionally (${problem}): what one writes in the folders it may write lands as it happens`;
}

/**
 * The operator's sentence about the host. Without a backend the guard rules
 * are the outermost layer, full stop. With one, the paths by which Warden
 * starts processes run under it (as far as checked); for every other tool the
 * guard rules are still the outermost layer Warden enforces, and a runtime may
 * sandbox its own tools, which Warden does not check.
 */
export function hostStatement(host: HostFacts, probes?: readonly ProbeResult[]): string {
  if (sandboxBackend(host) === null) {
    return `this host offers no sandbox backend (${missingBackend(host)}): the guard rules are the outermost enforcement layer here, and ${allowDefaultsPhrase()} assume a sandbox floor that is missing`;
  }
  return `this host offers a sandbox backend (${presentBackend(host)}): ${UNDER_BACKEND} run under it${checksClause(host, probes)}; ${transactionalClause(host)}; ${OUTSIDE_BACKEND} run outside it, so for those the guard rules are the outermost layer Warden enforces, and ${allowDefaultsPhrase()} lack the sandbox floor they assume there unless the agent runtime sandboxes its own tools, which Warden does not check`;
}

/**
 * The sandbox cell. Without a backend nothing is covered, and the note names
 * what is missing. With one, an adapter that starts processes under it claims
 * its declared value (`true` only where nothing it runs stays outside) once
 * `warden doctor`'s check of that path passed, `partial` "where the backend
 * runs" when unchecked, and `false` when the check failed; on macOS it claims
 * nothing, untested.
 */
function sandboxCell(
  declaration: AdapterDeclaration,
  host: HostFacts,
  probes: readonly ProbeResult[] | undefined,
): Cell {
  if (sandboxBackend(host) === null) {
    return {
      value: false,
      note: `not covered: ${declaration.unsandboxed}; this host has no sandbox backend either (${missingBackend(host)})`,
    };
  }
  const backend = presentBackend(host);
  const sandboxed = declaration.sandboxed;
  if (sandboxed === undefined) {
    return {
      value: false,
      note: `not covered: ${declaration.unsandboxed}; the backend (${backend}) is on this host, but this adapter's tools do not run under it`,
    };
  }
  const probe = ran(probes).find((p) => p.path === sandboxed.probe);
  if (probe?.status === 'failed')
    return {
      value: false,
      note: `not covered: the backend (${backend}) is on this host, but the check of this path failed (${probe.detail}), so ${sandboxed.broken}; not covered in any case: ${sandboxed.uncovered}`,
    };
  if (untested(host))
    return {
      value: false,
      note: `untested: on macOS ${sandboxed.covered}, through Seatbelt (${backend}), but Warden's sandbox is not tested on macOS, so no coverage is claimed${probe === undefined ? '' : ` (the check on this host passed: ${probe.detail})`}; not covered in any case: ${sandboxed.uncovered}`,
    };
  if (probe === undefined)
    return {
      value: 'partial',
      note: `where the backend runs (${backend}; not checked here: \`warden doctor\` runs a command through this path): ${sandboxed.covered}; not covered: ${sandboxed.uncovered}`,
    };
  return {
    value: sandboxed.value,
    note: `${sandboxed.value === true ? 'covered' : 'partly covered'}, by ${backend}, checked on this host (${probe.detail}): ${sandboxed.covered}; not covered: ${sandboxed.uncovered}`,
  };
}

function row(
  declaration: AdapterDeclaration,
  host: HostFacts,
  version: string,
  probes: readonly ProbeResult[] | undefined,
): AdapterRow {
  return {
    adapter: declaration.adapter,
    title: declaration.title,
    available: AVAILABLE_IN_THIS_BUILD[declaration.adapter],
    verifiedWith: declaration.verifiedWith(version),
    basis: declaration.basis,
    cells: { ...declaration.cells, sandboxCovered: sandboxCell(declaration, host, probes) },
  };
}

/**
 * The matrix for `host` (default: this host, detected from its PATH), and
 * what `warden doctor`'s checks of each sandboxed path showed, if they ran.
 */
export function honestyMatrix(
  host: HostFacts = detectHost(),
  options: { readonly version?: string; readonly probes?: readonly ProbeResult[] } = {},
): HonestyMatrix {
  const version = options.version ?? PACKAGE_VERSION;
  const adapters = ADAPTERS.map((d) => row(d, host, version, options.probes));
  const backend = sandboxBackend(host);
  const floorMissing = !adapters.some((a) => a.available && a.cells.sandboxCovered.value === true);
  return {
    host: {
      ...host,
      sandboxBackend: backend !== null,
      backend,
      transactional: backend !== null && transactionalProblem(host, {}) === null,
      floorMissing,
      statement: hostStatement(host, options.probes),
    },
    adapters,
  };
}
