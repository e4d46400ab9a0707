// `warden/instance`: the instance on disk (inspector.md §2) — one folder per
// agent with its settings, Identity, Soul and Workspace.

export type { AgentSettings, InspectorSettings } from '../instance/settings.js';
export { inspectorSettings, parseAgentSettings } from '../instance/settings.js';
export type { InstanceAgent } from '../instance/agents.js';
export { listInstanceAgents, readAgent, supervisorWarnings } from '../instance/agents.js';
export type { NewAgent } from '../instance/create.js';
export { createAgent } from '../instance/create.js';
