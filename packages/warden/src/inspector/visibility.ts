// Which agents a supervisor sees (I8, I9): those of the instance that its
// `observableAgents` admits (empty: all), never itself. An agent it may not
// see gets the very words an agent that does not exist gets, so no answer
// tells the two apart.
//
// Why never itself: a supervisor judges the others and reports to a human;
// its own evidence is for that human (or a supervisor above it, I9) to judge,
// and it does not get a second way to read its own folder. Naming it in its
// own `observableAgents` changes nothing (the command warns about it).

import { readdir } from 'node:fs/promises';
import type { InstanceAgent } from '../instance/index.js';
import { agentsFolder, listInstanceAgents, readAgent } from '../instance/agents.js';
import { quote } from '../paths/problem.js';

export interface Audience {
  /** The instance's data folder. */
  readonly data: string;
  /** The supervisor's own id. */
  readonly supervisor: string;
  /** Empty: every agent but the supervisor. */
  readonly observable: readonly string[];
}

/** Whether `id` may be seen, judged by the settings alone (the disk is not asked). */
export function admits(audience: Audience, id: string): boolean {
  if (id === audience.supervisor) return false;
  return audience.observable.length === 0 || audience.observable.includes(id);
}

/** The one answer for an agent that is not there and one that may not be seen (I8). */
export function unknownAgent(id: string): string {
  return `no agent ${quote(id)} is visible to this supervisor: \`list_agents\` names the agents it may inspect`;
}

/**
 * The agent `id` when the supervisor may see it. The id must be a folder's
 * exact name: on a file system that ignores case, `A1` would otherwise open
 * the folder of `a1` under a name that `observableAgents` never admitted.
 */
export async function visibleAgent(audience: Audience, id: string): Promise<InstanceAgent | null> {
  if (!admits(audience, id)) return null;
  let names: string[];
  try {
    names = await readdir(agentsFolder(audience.data));
  } catch {
    return null;
  }
  if (!names.includes(id)) return null;
  return readAgent(audience.data, id);
}

/** Every agent the supervisor may see, by id. */
export async function visibleAgents(audience: Audience): Promise<InstanceAgent[]> {
  return (await listInstanceAgents(audience.data)).filter((agent) => admits(audience, agent.id));
}
