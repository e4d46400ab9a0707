// One gate measurement in a process of its own (so one's garbage and threads
// never slow another): prints a JSON result on stdout.
//   engine   — the engine alone on the request the gate decides
//   gate     — Warden's gate on SQLite, every decision recorded in the audit log
//   ingest   — the audit log's append: call entries in batches, pipelined
//   raw      — better-sqlite3 inserting rows of the same size into the same table (the ceiling)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compilePolicy, explainDecision, validatePolicy, validateRequest } from '@warden/engine';
import type { CallContext } from 'warden';
import { Warden } from 'warden';
import type { AuditDraft } from 'warden/store';
import { openSqlite } from 'warden/store';

export type GateTask =
  'engine' | 'gate' | 'gate-same-thread' | 'latency' | 'latency-same-thread' | 'ingest' | 'raw';

export interface GateResult {
  readonly task: GateTask;
  readonly ops: number;
  readonly ms: number;
  readonly perSec: number;
  readonly p99us?: number;
  /** One caller's median time per recorded decision, where measured. */
  readonly p50us?: number;
  readonly note?: string;
}

const POLICY = {
  version: 1,
  workspace: 'acme',
  spaces: { payments: { autonomy: 'actWithApproval' } },
  rules: [
    { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    {
      id: 'feature-branches',
      action: 'gitPush',
      decision: 'allow',
      when: { refs: ['feature/**'] },
    },
    {
      id: 'no-egress-prod',
      action: 'networkEgress',
      decision: 'deny',
      when: { hosts: ['*.prod.internal'] },
    },
  ],
};
const CTX: CallContext = {
  workspace: 'acme',
  agent: 'coder-1',
  source: 'bench',
  model: 'm1',
  runId: 'r-1',
};
/** A mix of allows and denies, as agents' calls come. */
const ASKS = [
  {
    tool: 'git_push',
    actions: ['gitPush'],
    args: { refs: ['feature/login'] },
    arguments: { ref: 'feature/login' },
  },
  { tool: 'git_push', actions: ['gitPush'], args: { refs: ['main'] }, arguments: { ref: 'main' } },
  { tool: 'git_commit', actions: ['gitCommit'], arguments: { message: 'fix the login form' } },
  {
    tool: 'web_fetch',
    actions: ['networkEgress'],
    args: { hosts: ['api.github.com'] },
    arguments: { url: 'https://api.github.com/repos' },
  },
];

function temp(): string {
  return mkdtempSync(join(tmpdir(), 'warden-bench-'));
}

async function gate(total: number, concurrency: number, sameThread: boolean): Promise<GateResult> {
  const data = temp();
  const store = await openSqlite({ data, auditThread: !sameThread });
  const warden = await Warden.open({ store, env: {} });
  try {
    await warden.putPolicy(POLICY, { author: 'bench' });
    // Warm up the engine, the snapshot and the writer (steady state is what is measured).
    for (let i = 0; i < 5000; i++) await warden.gate.decide(CTX, ASKS[i % ASKS.length] as never);
    let next = 0;
    const latencies: number[] = [];
    const started = performance.now();
    const loop = async (): Promise<void> => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const decision = await warden.gate.decide(CTX, ASKS[i % ASKS.length] as never);
        if (i % 16 === 0) latencies.push(performance.now() - t0);
        if (decision.rule === 'failClosed') throw new Error(decision.reason);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, loop));
    const ms = performance.now() - started;
    const recorded = (await store.audit.group({ kinds: ['decision'] }, []))[0]?.count ?? 0;
    if (recorded < total) throw new Error(`only ${recorded} of ${total} decisions are in the log`);
    latencies.sort((a, b) => a - b);
    return {
      task: sameThread ? 'gate-same-thread' : 'gate',
      ops: total,
      ms,
      perSec: (total / ms) * 1000,
      p99us: (latencies[Math.floor(latencies.length * 0.99)] ?? 0) * 1000,
      note: `${concurrency} callers; every decision committed before it is answered`,
    };
  } finally {
    await warden.close();
    await store.close();
    rmSync(data, { recursive: true, force: true });
  }
}

/** One caller deciding after the other: the time a single decision takes, committed. */
async function latency(total: number, sameThread: boolean): Promise<GateResult> {
  const data = temp();
  const store = await openSqlite({ data, auditThread: !sameThread });
  const warden = await Warden.open({ store, env: {} });
  try {
    await warden.putPolicy(POLICY, { author: 'bench' });
    for (let i = 0; i < 3000; i++) await warden.gate.decide(CTX, ASKS[i % ASKS.length] as never);
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const t0 = performance.now();
      const decision = await warden.gate.decide(CTX, ASKS[i % ASKS.length] as never);
      times.push(performance.now() - t0);
      if (decision.rule === 'failClosed') throw new Error(decision.reason);
    }
    const ms = performance.now() - started;
    times.sort((a, b) => a - b);
    return {
      task: sameThread ? 'latency-same-thread' : 'latency',
      ops: total,
      ms,
      perSec: (total / ms) * 1000,
      p50us: (times[Math.floor(times.length / 2)] ?? 0) * 1000,
      p99us: (times[Math.floor(times.length * 0.99)] ?? 0) * 1000,
      note: 'one caller; every decision committed before it is answered',
    };
  } finally {
    await warden.close();
    await store.close();
    rmSync(data, { recursive: true, force: true });
  }
}

function valid<T>(result: { readonly ok: true; readonly value: T } | { readonly ok: false }): T {
  if (!result.ok) throw new Error('the bench policy or request is not valid');
  return result.value;
}

function engine(total: number): GateResult {
  const compiled = compilePolicy(valid(validatePolicy(POLICY, 'workspace')));
  const requests = ASKS.map((ask) =>
    valid(
      validateRequest({
        workspace: 'acme',
        agent: 'coder-1',
        tool: ask.tool,
        actions: ask.actions,
        ...(ask.args ? { args: ask.args } : {}),
      }),
    ),
  );
  for (let i = 0; i < 5000; i++)
    explainDecision({
      policy: compiled,
      request: requests[i % 4] as never,
      at: Date.now(),
      approverConnected: false,
    });
  const started = performance.now();
  for (let i = 0; i < total; i++)
    explainDecision({
      policy: compiled,
      request: requests[i % 4] as never,
      at: Date.now(),
      approverConnected: false,
    });
  const ms = performance.now() - started;
  return { task: 'engine', ops: total, ms, perSec: (total / ms) * 1000 };
}

function callDraft(i: number): AuditDraft {
  const id = `01BENCH${String(i).padStart(19, '0')}`;
  const occurredAt = new Date().toISOString();
  const body = {
    id,
    kind: 'call',
    workspace: 'acme',
    callId: `c-${i}`,
    decisionId: `d-${i}`,
    runId: 'r-1',
    agentId: 'coder-1',
    model: 'm1',
    source: 'bench',
    tool: 'web_fetch',
    arguments: { url: `https://api.github.com/repos/acme/api/issues/${i}` },
    status: 'Ok',
    durationMs: 12.5,
    occurredAt,
  };
  return {
    id,
    kind: 'call',
    workspace: 'acme',
    agentId: 'coder-1',
    runId: 'r-1',
    callId: body.callId,
    decisionId: body.decisionId,
    tool: 'web_fetch',
    status: 'Ok',
    occurredAt,
    body,
  };
}

async function ingest(total: number): Promise<GateResult> {
  const data = temp();
  const store = await openSqlite({ data });
  try {
    const drafts = Array.from({ length: total }, (_, i) => callDraft(i));
    const batch = 500;
    const started = performance.now();
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < total; i += batch)
      writes.push(store.audit.append(drafts.slice(i, i + batch)));
    await Promise.all(writes);
    const ms = performance.now() - started;
    return {
      task: 'ingest',
      ops: total,
      ms,
      perSec: (total / ms) * 1000,
      note: `batches of ${batch}`,
    };
  } finally {
    await store.close();
    rmSync(data, { recursive: true, force: true });
  }
}

async function raw(total: number): Promise<GateResult> {
  const data = temp();
  const made = await openSqlite({ data, auditThread: false }); // the same schema, made by the migrations
  await made.close();
  const db = new Database(join(data, 'warden.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 10000');
  try {
    const insert = db.prepare(
      'insert into audit_entries (seq, id, kind, workspace, agent_id, run_id, call_id, decision_id, tool, status, occurred_at_ms, entry, prev_hash, hash) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
    );
    const entry = JSON.stringify(callDraft(0).body);
    const hash = 'a'.repeat(64);
    const started = performance.now();
    for (let i = 0; i < total; i += 1000) {
      db.exec('begin immediate');
      for (let j = i; j < Math.min(total, i + 1000); j++)
        insert.run(
          j + 1,
          `01BENCH${String(j).padStart(19, '0')}`,
          'call',
          'acme',
          'coder-1',
          'r-1',
          `c-${j}`,
          `d-${j}`,
          'web_fetch',
          'Ok',
          Date.now(),
          entry,
          hash,
          hash,
        );
      db.exec('commit');
    }
    const ms = performance.now() - started;
    return {
      task: 'raw',
      ops: total,
      ms,
      perSec: (total / ms) * 1000,
      note: 'transactions of 1,000 rows, no hashing',
    };
  } finally {
    db.close();
    rmSync(data, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [task, size] = process.argv.slice(2) as [GateTask, string];
  const total = Number(size);
  let result: GateResult;
  if (task === 'engine') result = engine(total);
  else if (task === 'gate') result = await gate(total, 512, false);
  else if (task === 'gate-same-thread') result = await gate(total, 512, true);
  else if (task === 'latency') result = await latency(total, false);
  else if (task === 'latency-same-thread') result = await latency(total, true);
  else if (task === 'ingest') result = await ingest(total);
  else if (task === 'raw') result = await raw(total);
  else throw new Error(`unknown task \`${String(task)}\``);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
