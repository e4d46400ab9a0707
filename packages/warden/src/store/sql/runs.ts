// Run receipts (I2): runs with their steps, tokens and cost, a linked task,
// and the delegation frame the guards read (E40). Totals move with each step
// in the same transaction, so a receipt never disagrees with its steps.

import type { Autonomy } from '@warden/engine';
import type { NewRun, RunFilter, RunRecord, RunStatus, RunStep, RunStore } from '../types.js';
import type { Database } from '../schema.js';
import type { SqlContext } from './context.js';
import { every, first, iso, newestFirst, num, numOrNull, whereGiven } from './context.js';
import { sql } from 'kysely';

type Row = Database['runs'];

function fromRow(row: Row): RunRecord {
  return {
    id: row.id,
    workspace: row.workspace,
    agent: row.agent,
    model: row.model,
    taskId: row.task_id,
    parentRunId: row.parent_run_id,
    chain: JSON.parse(row.chain) as string[],
    depth: num(row.depth),
    autonomy: row.autonomy as Autonomy,
    budgetCents: numOrNull(row.budget_cents),
    delegatedCents: num(row.delegated_cents),
    costCents: num(row.cost_cents),
    tokensIn: num(row.tokens_in),
    tokensOut: num(row.tokens_out),
    steps: num(row.steps),
    status: row.status as RunStatus,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

function stepFromRow(row: Database['run_steps']): RunStep {
  return {
    runId: row.run_id,
    seq: num(row.seq),
    kind: row.kind,
    tool: row.tool,
    tokensIn: num(row.tokens_in),
    tokensOut: num(row.tokens_out),
    costCents: num(row.cost_cents),
    at: row.at,
    note: row.note,
  };
}

export class SqlRunStore implements RunStore {
  constructor(private readonly ctx: SqlContext) {}

  async start(run: NewRun): Promise<RunRecord> {
    const row: Row = {
      id: run.id,
      workspace: run.workspace,
      agent: run.agent,
      model: run.model,
      task_id: run.taskId,
      parent_run_id: run.parentRunId,
      chain: JSON.stringify(run.chain),
      depth: run.depth,
      autonomy: run.autonomy,
      budget_cents: run.budgetCents,
      delegated_cents: 0,
      cost_cents: 0,
      tokens_in: 0,
      tokens_out: 0,
      steps: 0,
      status: 'running',
      started_at: run.startedAt,
      started_at_ms: Date.parse(run.startedAt),
      ended_at: null,
    };
    await this.ctx.write((tx) => tx.insertInto('runs').values(row).execute());
    return fromRow(row);
  }

  async get(id: string): Promise<RunRecord | null> {
    return first(this.ctx.db.selectFrom('runs').selectAll().where('id', '=', id), fromRow);
  }

  async list(filter: RunFilter): Promise<RunRecord[]> {
    let query = whereGiven(this.ctx.db.selectFrom('runs').selectAll(), {
      workspace: filter.workspace,
      agent: filter.agent,
    });
    if (filter.sinceMs !== undefined) query = query.where('started_at_ms', '>=', filter.sinceMs);
    if (filter.untilMs !== undefined) query = query.where('started_at_ms', '<', filter.untilMs);
    return every(newestFirst(query, 'started_at_ms', filter.limit ?? 100), fromRow);
  }

  async steps(runId: string): Promise<RunStep[]> {
    return every(
      this.ctx.db.selectFrom('run_steps').selectAll().where('run_id', '=', runId).orderBy('seq'),
      stepFromRow,
    );
  }

  async addStep(step: Omit<RunStep, 'seq'>): Promise<RunStep> {
    return this.ctx.write(async (tx) => {
      const run = await tx
        .updateTable('runs')
        .set({
          steps: sql<number>`steps + 1`,
          tokens_in: sql<number>`tokens_in + ${step.tokensIn}`,
          tokens_out: sql<number>`tokens_out + ${step.tokensOut}`,
          cost_cents: sql<number>`cost_cents + ${step.costCents}`,
        })
        .where('id', '=', step.runId)
        .returning('steps')
        .executeTakeFirst();
      if (run === undefined) throw new Error(`no run \`${step.runId}\``);
      const row: Database['run_steps'] = {
        run_id: step.runId,
        seq: num(run.steps),
        kind: step.kind,
        tool: step.tool,
        tokens_in: step.tokensIn,
        tokens_out: step.tokensOut,
        cost_cents: step.costCents,
        at: step.at,
        note: step.note,
      };
      await tx.insertInto('run_steps').values(row).execute();
      return stepFromRow(row);
    });
  }

  async finish(
    id: string,
    status: Exclude<RunStatus, 'running'>,
    at: number,
  ): Promise<RunRecord | null> {
    await this.ctx.write((tx) =>
      tx
        .updateTable('runs')
        .set({ status, ended_at: iso(at) })
        .where('id', '=', id)
        .execute(),
    );
    return this.get(id);
  }

  async debit(id: string, cents: number): Promise<boolean> {
    return this.ctx.write(async (tx) => {
      const result = await tx
        .updateTable('runs')
        .set({ delegated_cents: sql<number>`delegated_cents + ${cents}` })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('budget_cents', 'is', null),
            eb(sql<number>`budget_cents - cost_cents - delegated_cents`, '>=', cents),
          ]),
        )
        .executeTakeFirst();
      return num(result.numUpdatedRows) > 0;
    });
  }
}
