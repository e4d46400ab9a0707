// The instance on disk (inspector.md §2): agents' folders and their settings.

export type { AgentSettings, InspectorSettings, SettingsResult } from './settings.js';
export {
  AGENT_ID,
  AgentSettingsSchema,
  DEFAULT_INSPECTOR_SETTINGS,
  InspectorSettingsSchema,
  agentIdProblem,
  inspectorSettings,
  parseAgentSettings,
} from './settings.js';
export type { InstanceAgent } from './agents.js';
export {
  IDENTITY_FILE,
  NON_ACTING_TOOLS,
  SETTINGS_FILE,
  SOUL_FILE,
  WORKSPACE_DIR,
  agentFolder,
  agentsFolder,
  declaredClasses,
  listInstanceAgents,
  readAgent,
  supervisorWarnings,
} from './agents.js';
export { agentCredentials } from './credentials.js';
export type { NewAgent } from './create.js';
export { SUPERVISOR_SOUL, createAgent } from './create.js';
