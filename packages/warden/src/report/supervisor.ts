// Who a report is for: the supervisor's folder and settings, read and checked
// once. Its `observableAgents` (I8, I9) decide whom the report covers; a bad
// id, an unknown agent, a non-supervisor or bad settings is a problem, not a throw.

import type { InstanceAgent } from '../instance/index.js';
import { listInstanceAgents, readAgent } from '../instance/agents.js';
import { agentIdProblem, inspectorSettings } from '../instance/settings.js';

export interface ReportProblem {
  readonly path: 'supervisor' | 'since' | 'settings';
  readonly message: string;
}

/** The supervisor's settings, or why they cannot make a report. */
export async function readSupervisor(
  data: string,
  id: string,
): Promise<
  | { ok: true; agent: InstanceAgent; observable: readonly string[] }
  | { ok: false; problems: ReportProblem[] }
> {
  const bad = (path: ReportProblem['path'], message: string) => ({
    ok: false as const,
    problems: [{ path, message }],
  });
  const idProblem = agentIdProblem(id);
  if (idProblem !== null) return bad('supervisor', idProblem);
  const agent = await readAgent(data, id);
  if (agent === null) {
    const supervisors = (await listInstanceAgents(data)).filter((a) => a.role === 'supervisor');
    return bad(
      'supervisor',
      `no agent \`${id}\` in \`${data}\`${
        supervisors.length === 0
          ? ': it has no supervisor (`warden agent create ID --role supervisor`)'
          : `: its supervisors are ${supervisors.map((a) => `\`${a.id}\``).join(', ')}`
      }`,
    );
  }
  if (agent.settings === null)
    return {
      ok: false,
      problems: agent.problems.map((p) => ({
        path: 'settings' as const,
        message: `agent \`${id}\`: ${p}`,
      })),
    };
  if (agent.role !== 'supervisor')
    return bad(
      'supervisor',
      `agent \`${id}\` is not a supervisor: its role is ${agent.role === null ? 'not set' : `\`${agent.role}\``}`,
    );
  const settings = inspectorSettings(agent.settings);
  if (!settings.ok)
    return {
      ok: false,
      problems: settings.problems.map((p) => ({
        path: 'settings' as const,
        message: `agent \`${id}\`: ${p}`,
      })),
    };
  return { ok: true, agent, observable: settings.value.observableAgents };
}
