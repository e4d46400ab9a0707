// Where each agent is registered (its space and mode), as every agent request
// needs it: read once and kept for as long as a policy snapshot is trusted.
// A registration written through any store of this process is seen by the
// next request; one written by another process reaches this one with its
// notice (Postgres) or when the quarter second is up, as a policy change does.

import type { AgentRecord, Store } from './types.js';

/** The part of a registration a decision needs. */
export interface Registration {
  readonly space: string | null;
  readonly mode: string | null;
}

const NONE: Registration = { space: null, mode: null };

/** Kept registrations, at most; beyond that the oldest go first. */
const MAX_KEPT = 10_000;

interface Kept {
  readonly value: Registration;
  readonly readAt: number;
}

export class Registrations {
  private readonly kept = new Map<string, Kept>();
  private readonly reading = new Map<string, Promise<Registration>>();
  /** Bumped by every change notice: a read that started before it is not kept. */
  private epoch = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Pick<Store, 'agents' | 'events'>,
    private readonly clock: () => number,
    private readonly refreshMs = 250,
  ) {
    this.unsubscribe = store.events.subscribe((event) => {
      if (event.topic !== 'agent') return;
      this.epoch += 1;
      if (event.workspace === null) this.kept.clear();
      else
        for (const key of this.kept.keys())
          if (key.startsWith(`${event.workspace}\u0000`)) this.kept.delete(key);
    });
  }

  /** The agent's registered space and mode (none when it is not registered). */
  get(workspace: string, agent: string): Promise<Registration> {
    const key = `${workspace}\u0000${agent}`;
    const kept = this.kept.get(key);
    if (kept !== undefined && this.clock() - kept.readAt < this.refreshMs)
      return Promise.resolve(kept.value);
    const inflight = this.reading.get(key);
    if (inflight !== undefined) return inflight;
    const epoch = this.epoch;
    const readAt = this.clock();
    const read = this.store.agents
      .get(workspace, agent)
      .then((record: AgentRecord | null) => {
        const value: Registration =
          record === null ? NONE : { space: record.space, mode: record.mode };
        if (epoch === this.epoch) {
          if (this.kept.size >= MAX_KEPT) {
            const oldest = this.kept.keys().next().value;
            if (oldest !== undefined) this.kept.delete(oldest);
          }
          this.kept.delete(key);
          this.kept.set(key, { value, readAt });
        }
        return value;
      })
      .finally(() => this.reading.delete(key));
    this.reading.set(key, read);
    return read;
  }

  close(): void {
    this.unsubscribe();
    this.kept.clear();
  }
}
