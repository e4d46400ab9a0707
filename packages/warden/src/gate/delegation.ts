// The `delegate_task` choke point (G33–G36, E40): the gate reads the
// delegator's run from the store, the engine's guards judge it, the budget is
// debited atomically, and the delegate's run starts inside the frame. Every
// attempt is recorded; a refusal's reason goes back to the agent verbatim.

import type { Autonomy, DelegationGuard } from '@warden/engine';
import { checkDelegation, DEFAULT_MAX_DEPTH, lowerAutonomy } from '@warden/engine';
import type { RunRecord, Store } from '../store/types.js';
import type { CallContext, Gate } from './gate.js';
import { newId as ulid } from '../ids.js';

export const DELEGATE_TOOL = 'delegate_task';

export interface DelegateAsk {
  readonly target: string;
  readonly budgetCents: number;
  /** An autonomy the delegator asks for; never above its own (G35). */
  readonly autonomy?: Autonomy;
  readonly taskId?: string;
  readonly callId?: string;
}

export type DelegateResult =
  | { readonly ok: true; readonly run: RunRecord }
  | {
      readonly ok: false;
      readonly guard: DelegationGuard | 'run';
      readonly reason: string;
      /** Set when the attempt could not be recorded: nothing about it is durable. */
      readonly failure?: string;
    };

export interface DelegationOptions {
  readonly maxDepth?: number;
  readonly clock?: () => number;
}

/** The autonomy an agent acts at: its space's setting; unset is actWithApproval (G31, E40). */
export async function autonomyOf(
  gate: Gate,
  workspace: string,
  space: string | null | undefined,
): Promise<Autonomy> {
  if (space === null || space === undefined) return 'actWithApproval';
  const snapshot = await gate.snapshot(workspace);
  return snapshot.compiled.autonomy.get(space) ?? 'actWithApproval';
}

export async function delegate(
  gate: Gate,
  store: Store,
  ctx: CallContext,
  ask: DelegateAsk,
  options: DelegationOptions = {},
): Promise<DelegateResult> {
  const clock = options.clock ?? Date.now;
  const started = clock();
  const callId = ask.callId ?? ulid();
  const args = {
    target: ask.target,
    budgetCents: ask.budgetCents,
    ...(ask.autonomy === undefined ? {} : { autonomy: ask.autonomy }),
  };
  const finish = async (result: DelegateResult): Promise<DelegateResult> => {
    try {
      await record(result);
    } catch (error) {
      const failure = `the delegation could not be recorded: ${error instanceof Error ? error.message : String(error)}`;
      return {
        ok: false,
        guard: 'run',
        reason: `delegation refused: ${failure} (Warden fails closed)`,
        failure,
      };
    }
    return result;
  };
  const record = async (result: DelegateResult): Promise<void> => {
    await gate.complete(ctx, {
      callId,
      decisionId: null,
      tool: DELEGATE_TOOL,
      arguments: args,
      status: result.ok ? 'Ok' : 'Denied',
      durationMs: clock() - started,
      ...(result.ok ? {} : { error: result.reason }),
    });
  };
  try {
    if (ctx.runId === undefined)
      return await finish({
        ok: false,
        guard: 'run',
        reason: 'delegation refused: run: a delegation names the run it belongs to',
      });
    const run = await store.runs.get(ctx.runId);
    if (run === null || run.workspace !== ctx.workspace || run.agent !== ctx.agent)
      return await finish({
        ok: false,
        guard: 'run',
        reason: `delegation refused: run: no run \`${ctx.runId}\` of \`${ctx.agent}\``,
      });
    if (run.status !== 'running')
      return await finish({
        ok: false,
        guard: 'run',
        reason: `delegation refused: run: run \`${run.id}\` is ${run.status}`,
      });
    // The delegator acts at most at what its run was handed and at what its space allows now.
    const now = lowerAutonomy(run.autonomy, await autonomyOf(gate, ctx.workspace, ctx.space));
    const target = await store.agents.get(ctx.workspace, ask.target);
    const targetAutonomy = await autonomyOf(gate, ctx.workspace, target?.space);
    const remaining =
      run.budgetCents === null ? null : run.budgetCents - run.costCents - run.delegatedCents;
    const verdict = checkDelegation(
      {
        runId: run.id,
        agent: run.agent,
        chain: run.chain,
        depth: run.depth,
        autonomy: now,
        remainingCents: remaining,
      },
      ask,
      targetAutonomy,
      options.maxDepth ?? DEFAULT_MAX_DEPTH,
    );
    if (!verdict.ok)
      return await finish({ ok: false, guard: verdict.guard, reason: verdict.reason });
    if (run.budgetCents !== null && !(await store.runs.debit(run.id, ask.budgetCents))) {
      const now = await store.runs.get(run.id);
      const left =
        now === null || now.budgetCents === null
          ? 0
          : now.budgetCents - now.costCents - now.delegatedCents;
      return await finish({
        ok: false,
        guard: 'budget',
        reason: `delegation refused: budget: asks ${ask.budgetCents} cents, and run \`${run.id}\` of \`${run.agent}\` has ${left} cents left`,
      });
    }
    const child = await store.runs.start({
      id: ulid(),
      workspace: ctx.workspace,
      agent: verdict.run.agent,
      model: target?.model ?? null,
      taskId: ask.taskId ?? null,
      parentRunId: run.id,
      chain: verdict.run.chain,
      depth: verdict.run.depth,
      autonomy: verdict.run.autonomy,
      budgetCents: verdict.run.budgetCents,
      startedAt: new Date(clock()).toISOString(),
    });
    const started = await finish({ ok: true, run: child });
    if (!started.ok) {
      // The delegation could not be recorded: it does not happen, and the budget goes back.
      await store.runs.finish(child.id, 'cancelled', clock());
      if (run.budgetCents !== null) await store.runs.debit(run.id, -ask.budgetCents);
    }
    return started;
  } catch (error) {
    // Fail-closed: a delegation that cannot be checked does not happen.
    const reason = `delegation refused: ${error instanceof Error ? error.message : String(error)} (Warden fails closed)`;
    return finish({ ok: false, guard: 'run', reason });
  }
}
