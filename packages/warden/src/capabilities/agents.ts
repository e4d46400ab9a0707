// Why this file exists: an agent is known to Warden two ways — registered in
// the store (its space, mode, model) and as a folder of the data folder
// (`warden agent create`). Which agents a workspace has, and how the two
// combine, is decided here once (`warden.agents`), for the permissions
// matrix's columns and for the server's agent list alike.

import { listInstanceAgents } from '../instance/agents.js';
import type { InstanceAgent } from '../instance/agents.js';
import type { AgentRecord, Store } from '../store/types.js';

/** An agent the permissions matrix gives a column. */
export interface KnownAgent {
  readonly id: string;
  readonly name: string | null;
  /** The space it is registered in; null for none (or an agent known only from its folder). */
  readonly space: string | null;
  /** The mode it is registered in; null for none. */
  readonly mode: string | null;
}

/** An agent of a workspace as the agent list shows it: its registration, its folder, its last activity. */
export interface WorkspaceAgent {
  readonly id: string;
  /** Its registration; undefined when it is known only from its folder. */
  readonly record: AgentRecord | undefined;
  /** Its folder in the data folder; undefined when it is only registered. */
  readonly folder: InstanceAgent | undefined;
  /** When its newest audit entry occurred; null for none. */
  readonly lastActivity: string | null;
}

/** What an agent's registration says; what is left out is none. */
export type AgentRegistration = Omit<AgentRecord, 'createdAt' | 'updatedAt' | 'mode'> & {
  readonly mode?: string | null;
};

export class Agents {
  constructor(
    private readonly parts: {
      readonly store: Pick<Store, 'agents' | 'audit'>;
      readonly data: string;
      readonly clock: () => number;
    },
  ) {}

  /** An agent's registration; null when it is not registered. */
  get(workspace: string, id: string): Promise<AgentRecord | null> {
    return this.parts.store.agents.get(workspace, id);
  }

  /** The registered agents of a workspace. */
  registered(workspace: string): Promise<AgentRecord[]> {
    return this.parts.store.agents.list(workspace);
  }

  /** Registers or changes an agent. */
  register(agent: AgentRegistration, at: number = this.parts.clock()): Promise<AgentRecord> {
    return this.parts.store.agents.upsert(agent, at);
  }

  /**
   * The agents of a workspace that the permissions matrix gives a column:
   * the registered ones, and those of the data folder (`warden agent create`)
   * whose settings name the workspace or none, sorted by id.
   */
  async known(workspace: string): Promise<KnownAgent[]> {
    const [registered, onDisk] = await Promise.all([
      this.parts.store.agents.list(workspace),
      listInstanceAgents(this.parts.data),
    ]);
    const byId = new Map<string, KnownAgent>();
    for (const a of onDisk)
      if (a.workspace === null || a.workspace === workspace)
        byId.set(a.id, { id: a.id, name: a.settings?.name ?? null, space: null, mode: null });
    for (const a of registered)
      byId.set(a.id, { id: a.id, name: a.name, space: a.space, mode: a.mode });
    return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * The agents of a workspace, sorted by id: the registered ones and those
   * of the data folder that work in it, each with its newest audit entry's time.
   */
  async list(workspace: string): Promise<WorkspaceAgent[]> {
    const { store, data } = this.parts;
    const registered = await store.agents.list(workspace);
    // Agents on disk belong to the workspace their settings name (or to every one, when none is named).
    const onDisk = (await listInstanceAgents(data)).filter(
      (a) => a.workspace === null || a.workspace === workspace,
    );
    const byId = new Map(onDisk.map((a) => [a.id, a]));
    const ids = [...new Set([...registered.map((a) => a.id), ...onDisk.map((a) => a.id)])].sort();
    return Promise.all(
      ids.map(async (id): Promise<WorkspaceAgent> => {
        const [newest] = await store.audit.query({ workspace, agent: id, limit: 1 });
        const at = newest?.['occurredAt'];
        return {
          id,
          record: registered.find((a) => a.id === id),
          folder: byId.get(id),
          lastActivity: typeof at === 'string' ? at : null,
        };
      }),
    );
  }
}
