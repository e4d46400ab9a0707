// The AgentInspector (inspector.md): a supervisor's read-only view of the
// other agents — in process (`inspectorTools`) and as an MCP server.

export type { InspectorAnswer, JsonObject } from './answer.js';
export { DEFAULT_MAX_RESPONSE_BYTES } from './answer.js';
export type { InspectorOptions } from './inspector.js';
export { Inspector } from './inspector.js';
export type { InspectorAction } from './schemas.js';
export { ACTION_SCHEMAS, INSPECTOR_ACTIONS } from './schemas.js';
export { INSPECTOR_INSTRUCTIONS, inspectorDescriptions } from './descriptions.js';
export { FILE_NOTICE, MARKER_OPEN } from './envelope.js';
export { inspectorTools } from './tools.js';
export { inspectorMcpServer, inspectorToolList, serveInspectorStdio } from './mcp.js';
export type { SupervisorResult } from './supervisor.js';
export { INSPECTOR_TOOL, loadSupervisor } from './supervisor.js';
export type { EvidenceReader } from './context.js';
