// Who the inspector serves: an agent of the instance whose settings give it
// the `agentInspector` tool, with valid settings for it. Anything less is a
// refusal to start that lists every problem (fail-closed: no default
// supervisor sees the whole instance). What is allowed but unwise — a
// supervisor with tools that act (I7) — is a warning.

import { readdir } from 'node:fs/promises';
import type { InspectorSettings, InstanceAgent } from '../instance/index.js';
import {
  agentsFolder,
  listInstanceAgents,
  readAgent,
  supervisorWarnings,
} from '../instance/agents.js';
import { agentIdProblem, inspectorSettings } from '../instance/settings.js';
import { quote } from '../paths/problem.js';

/** The tool under which a supervisor's inspector settings stand (inspector.md §4). */
export const INSPECTOR_TOOL = 'agentInspector';

export type SupervisorResult =
  | {
      readonly ok: true;
      readonly agent: InstanceAgent;
      readonly settings: InspectorSettings;
      readonly warnings: readonly string[];
    }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Reads the supervisor `id` of the instance in `data` and its inspector
 * settings. Problems name the agent and the setting; they quote no setting's
 * value (the file holds credentials).
 */
export async function loadSupervisor(data: string, id: string): Promise<SupervisorResult> {
  const idProblem = agentIdProblem(id);
  if (idProblem !== null) return { ok: false, problems: [idProblem] };
  const agent = (await isAgentName(data, id)) ? await readAgent(data, id) : null;
  if (agent === null)
    return {
      ok: false,
      problems: [
        `${quote(id)} is not an agent of the instance in ${quote(data)}: there is no folder \`agents/${id}\``,
      ],
    };
  if (agent.settings === null)
    return { ok: false, problems: agent.problems.map((p) => `agent \`${id}\`: ${unquoted(p)}`) };
  if (!(INSPECTOR_TOOL in agent.settings.tools))
    return {
      ok: false,
      problems: [
        `agent \`${id}\` has no \`${INSPECTOR_TOOL}\` tool: give it \`tools.${INSPECTOR_TOOL}\` in its AgentSettings.json (\`{}\` for the defaults) to make it a supervisor`,
      ],
    };
  const settings = inspectorSettings(agent.settings);
  if (!settings.ok)
    return { ok: false, problems: settings.problems.map((p) => `agent \`${id}\`: ${p}`) };
  return {
    ok: true,
    agent,
    settings: settings.value,
    warnings: await warningsFor(data, agent, settings.value),
  };
}

/** A JSON parser's message quotes the text around the fault, which may be a credential: it is left out. */
function unquoted(problem: string): string {
  return problem.replace(
    /not JSON: .*$/s,
    'not JSON (the parser\u2019s message is not shown: it would quote the file)',
  );
}

/** The id must be a folder's exact name (a case-insensitive file system would open another's). */
async function isAgentName(data: string, id: string): Promise<boolean> {
  try {
    return (await readdir(agentsFolder(data))).includes(id);
  } catch {
    return false;
  }
}

async function warningsFor(
  data: string,
  agent: InstanceAgent,
  settings: InspectorSettings,
): Promise<string[]> {
  const warnings = [...supervisorWarnings(agent)];
  if (agent.role !== 'supervisor')
    warnings.push(
      `agent \`${agent.id}\` inspects the others but its role is ${agent.role === null ? 'not set' : `\`${agent.role}\``}: give it \`"role": "supervisor"\` so that Warden checks its tools`,
    );
  if (settings.observableAgents.includes(agent.id))
    warnings.push(
      `\`observableAgents\` of \`${agent.id}\` names \`${agent.id}\` itself: a supervisor never inspects itself, so that entry changes nothing`,
    );
  const known = new Set((await listInstanceAgents(data)).map((a) => a.id));
  for (const id of settings.observableAgents)
    if (id !== agent.id && !known.has(id))
      warnings.push(
        `\`observableAgents\` of \`${agent.id}\` names ${quote(id)}, which is not an agent of this instance (yet)`,
      );
  return warnings;
}
