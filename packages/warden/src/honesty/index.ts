// The honesty matrix (G37): what each adapter lets Warden see and stop, computed
// for the running host, so the product never claims coverage it does not have.

export type { AdapterRow, Cell, Column, ProbePath, ProbeResult } from './columns.js';
export { COLUMN_MEANINGS, MATRIX_COLUMNS, PROBE_PATHS } from './columns.js';
export type { AdapterDeclaration, AdapterId } from './adapters.js';
export { ADAPTERS, AVAILABLE_IN_THIS_BUILD, CLAUDE_CODE, MCP_PROTOCOL } from './adapters.js';
export type { DetectOptions, HostFacts } from './host.js';
export { detectHost, findOnPath, missingBackend, sandboxBackend } from './host.js';
export type { HonestyMatrix } from './matrix.js';
export { allowDefaults, honestyMatrix, hostStatement } from './matrix.js';
export { MARKS, mark, renderMatrix } from './render.js';
