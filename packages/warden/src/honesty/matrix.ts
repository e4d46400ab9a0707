// The honesty matrix computed for the running host (G37, G2, G7): the adapters'
// declarations plus the sandbox column and the host statement, which depend on
// whether the host offers a sandbox backend. Where it does, the built-in
// `run_command` runs its shell commands under it and nothing else does, so no
// adapter is ever wholly sandbox-covered.

import { createRequire } from 'node:module';
import type { ActionClass } from '@warden/engine';
import { ACTION_CLASSES, defaultDecision } from '@warden/engine';
import type { AdapterDeclaration } from './adapters.js';
import { ADAPTERS, AVAILABLE_IN_THIS_BUILD } from './adapters.js';
import type { AdapterRow, Cell } from './columns.js';
import type { HostFacts } from './host.js';
import { detectHost, missingBackend, presentBackend, sandboxBackend } from './host.js';

export interface HonestyMatrix {
  readonly host: HostFacts & {
    /** Whether the host offers a sandbox backend at all (G2). */
    readonly sandboxBackend: boolean;
    /** Which one: `bwrap+socat`, `sandbox-exec`, or `null`. */
    readonly backend: string | null;
    /** Whether the sandbox floor the allow defaults assume is missing for every available adapter (G7). */
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

/**
 * The operator's sentence about the host. Without a backend the guard rules
 * are the outermost layer, full stop. With one, only the built-in
 * `run_command`'s shell commands run under it; for every other tool the guard
 * rules are still the outermost layer Warden enforces, and a runtime may
 * sandbox its own tools, which Warden does not check.
 */
export function hostStatement(host: HostFacts): string {
  if (sandboxBackend(host) === null) {
    return `this host offers no sandbox backend (${missingBackend(host)}): the guard rules are the outermost enforcement layer here, and ${allowDefaultsPhrase()} assume a sandbox floor that is missing (G2, G7)`;
  }
  return `this host offers a sandbox backend (${presentBackend(host)}): the built-in \`run_command\` runs its shell commands under it, but every other tool of every adapter runs outside it, so for those the guard rules are the outermost layer Warden enforces, and ${allowDefaultsPhrase()} lack the sandbox floor they assume unless the agent runtime sandboxes its own tools, which Warden does not check (G2, G7)`;
}

/**
 * The sandbox cell. Without a backend nothing is covered. With one, an
 * adapter that runs some of its tools under it is `partial` and says which;
 * no adapter claims `true`, because none runs every tool under it.
 */
function sandboxCell(declaration: AdapterDeclaration, host: HostFacts): Cell {
  if (sandboxBackend(host) === null) {
    return {
      value: false,
      note: `not covered: ${declaration.unsandboxed}; this host has no sandbox backend either (${missingBackend(host)})`,
    };
  }
  if (declaration.sandboxed !== undefined) {
    return {
      value: 'partial',
      note: `partly covered, by ${presentBackend(host)}: ${declaration.sandboxed.covered}; not covered: ${declaration.sandboxed.uncovered}`,
    };
  }
  return {
    value: false,
    note: `not covered: ${declaration.unsandboxed}; ${presentBackend(host)} are on this host, but this adapter's tools do not run under them`,
  };
}

function row(declaration: AdapterDeclaration, host: HostFacts, version: string): AdapterRow {
  return {
    adapter: declaration.adapter,
    title: declaration.title,
    available: AVAILABLE_IN_THIS_BUILD[declaration.adapter],
    verifiedWith: declaration.verifiedWith(version),
    basis: declaration.basis,
    cells: { ...declaration.cells, sandboxCovered: sandboxCell(declaration, host) },
  };
}

/** The matrix for `host` (default: this host, detected from its PATH). */
export function honestyMatrix(
  host: HostFacts = detectHost(),
  options: { readonly version?: string } = {},
): HonestyMatrix {
  const version = options.version ?? PACKAGE_VERSION;
  const adapters = ADAPTERS.map((d) => row(d, host, version));
  const backend = sandboxBackend(host);
  const floorMissing = !adapters.some((a) => a.available && a.cells.sandboxCovered.value === true);
  return {
    host: {
      ...host,
      sandboxBackend: backend !== null,
      backend,
      floorMissing,
      statement: hostStatement(host),
    },
    adapters,
  };
}
