// Why this file exists: runs and their receipts (I2), and delegation (E40),
// are one capability of the `Warden` facade (`warden.runs`). A run is started,
// given steps, finished and read here only, so the rules about a run record
// — the autonomy it acts at, its timestamps, the delegation guards — live in
// one place, whether the run is started by a library caller or over HTTP.

import type { Autonomy } from '@warden/engine';
import { autonomyOf, delegate } from '../gate/delegation.js';
import type { DelegateAsk, DelegateResult } from '../gate/delegation.js';
import type { Gate } from '../gate/gate.js';
import type { CallContext } from '../gate/types.js';
import { newId } from '../ids.js';
import type { RunFilter, RunRecord, RunStatus, RunStep, Store } from '../store/types.js';

/** What a step says; what is left out is none (or zero). */
export type StepInput = Partial<Omit<RunStep, 'runId' | 'seq' | 'at'>> & { readonly kind: string };

export class Runs {
  constructor(
    private readonly parts: {
      readonly store: Store;
      readonly gate: Gate;
      readonly clock: () => number;
    },
  ) {}

  /** Starts a run nobody delegated: it acts at its space's autonomy. */
  async start(
    context: CallContext,
    options: { readonly taskId?: string; readonly budgetCents?: number; readonly id?: string } = {},
  ): Promise<RunRecord> {
    const { store, gate, clock } = this.parts;
    const autonomy: Autonomy = await autonomyOf(gate, context.workspace, context.space);
    return store.runs.start({
      id: options.id ?? newId(),
      workspace: context.workspace,
      agent: context.agent,
      model: context.model ?? null,
      taskId: options.taskId ?? null,
      parentRunId: null,
      chain: [context.agent],
      depth: 0,
      autonomy,
      budgetCents: options.budgetCents ?? null,
      startedAt: new Date(clock()).toISOString(),
    });
  }

  /** Adds a step (tokens, cost) to a run's receipt (I2). */
  step(runId: string, step: StepInput): Promise<RunStep> {
    return this.parts.store.runs.addStep({
      runId,
      kind: step.kind,
      tool: step.tool ?? null,
      tokensIn: step.tokensIn ?? 0,
      tokensOut: step.tokensOut ?? 0,
      costCents: step.costCents ?? 0,
      note: step.note ?? null,
      at: new Date(this.parts.clock()).toISOString(),
    });
  }

  /** Finishes a run; null when there is no such run. */
  finish(
    id: string,
    status: Exclude<RunStatus, 'running'>,
    at: number = this.parts.clock(),
  ): Promise<RunRecord | null> {
    return this.parts.store.runs.finish(id, status, at);
  }

  /** One run; null when there is no such run. */
  get(id: string): Promise<RunRecord | null> {
    return this.parts.store.runs.get(id);
  }

  /** Runs, newest first. */
  list(filter: RunFilter): Promise<RunRecord[]> {
    return this.parts.store.runs.list(filter);
  }

  /** A run's steps, in order. */
  steps(runId: string): Promise<RunStep[]> {
    return this.parts.store.runs.steps(runId);
  }

  /** The `delegate_task` choke point: four guards, then the delegate's run (G33–G36). */
  delegate(context: CallContext, ask: DelegateAsk): Promise<DelegateResult> {
    return delegate(this.parts.gate, this.parts.store, context, ask, { clock: this.parts.clock });
  }
}
