// The cluster bench's load process: the CPU one decision costs, on SQLite and
// on Postgres, with one server and with two on the same store, as a team that
// runs several servers would. Each server is `warden serve` in a process of
// its own (http-server.ts); autocannon loads them over loopback with the HTTP
// bench's mix, its connections split between the servers, for a fixed time.
// Measured: decisions per second; the servers' CPU (every thread, from
// `process.cpuUsage`) and Postgres's (every `postgres` process, from
// /proc/PID/stat) per decision; Postgres's committed transactions per
// decision (pg_stat_database), which says how many decisions share one
// transaction. Prints one JSON result on stdout (cluster.ts reads it).
// Postgres is the test database at 127.0.0.1:5432 (BENCH_DATABASE_URL);
// without one, its rows are left out and the result says why.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type autocannon from 'autocannon';
import { MIX, ServerProcess, load, settle } from './http-load.js';
import type { WardenSetting } from './http-server.js';

export const CLUSTER_CONNECTIONS = 50;

export interface ClusterRun {
  readonly backend: 'sqlite' | 'postgres';
  readonly servers: number;
  readonly decisions: number;
  readonly seconds: number;
  readonly perSec: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU per decision, in milliseconds: all servers, Postgres (null on SQLite), both. */
  readonly serverCpuMs: number;
  readonly postgresCpuMs: number | null;
  readonly totalCpuMs: number;
  /** Postgres's committed transactions per decision (null on SQLite). */
  readonly transactionsPerDecision: number | null;
}

export interface ClusterResult {
  readonly seconds: number;
  readonly connections: number;
  readonly runs: readonly ClusterRun[];
  /** Why the Postgres rows are missing; null when they ran. */
  readonly postgresSkipped: string | null;
}

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** CPU of every process named `postgres` (the postmaster, its backends, its workers), in ms. */
function postgresCpuMs(): number {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    if (!name.startsWith('postgres')) continue;
    const fields = stat.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of the file, 12 and 13 after the name.
    total += ((Number(fields[11]) + Number(fields[12])) / tick) * 1000;
  }
  return total;
}

async function committed(client: pg.Client): Promise<number> {
  // Statistics reach the view when a backend reports them (at most a second after).
  await new Promise((resolve) => setTimeout(resolve, 1200));
  await client.query('select pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ n: string }>(
    'select xact_commit::text as n from pg_stat_database where datname = current_database()',
  );
  return Number(rows[0]?.n ?? 0);
}

async function runCluster(
  backend: 'sqlite' | 'postgres',
  servers: number,
  seconds: number,
  admin: pg.Client | null,
  log: (message: string) => void,
): Promise<ClusterRun> {
  const data = mkdtempSync(join(tmpdir(), 'warden-bench-cluster-'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const shared = (setup: boolean): WardenSetting => ({
    data,
    setup,
    ...(backend === 'postgres' ? { databaseUrl: DATABASE_URL, schema } : {}),
  });
  const procs: ServerProcess[] = [];
  try {
    const first = new ServerProcess('warden', JSON.stringify(shared(true)));
    procs.push(first);
    const ready = await first.next('ready');
    const urls = [ready.url];
    for (let i = 1; i < servers; i++) {
      const next = new ServerProcess('warden', JSON.stringify(shared(false)));
      procs.push(next);
      urls.push((await next.next('ready')).url);
    }
    const requests: autocannon.Request[] = MIX.map((item, i) => ({
      method: 'POST',
      path: '/v1/decide',
      headers: {
        authorization: `Bearer ${ready.tokens[i % ready.tokens.length] ?? ''}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(item.body),
    }));
    const per = Math.floor(CLUSTER_CONNECTIONS / servers);
    log(`cluster: ${backend}, ${servers} server${servers === 1 ? '' : 's'}: warm-up`);
    await Promise.all(urls.map((url) => load(url, requests, { seconds: 1 }, per)));
    for (const p of procs) await settle(p);
    const cpuBefore = await Promise.all(procs.map((p) => p.count()));
    const pgBefore = backend === 'postgres' ? postgresCpuMs() : 0;
    const xactBefore = admin === null || backend !== 'postgres' ? 0 : await committed(admin);
    log(`cluster: ${backend}, ${servers} server${servers === 1 ? '' : 's'}: ${seconds} s`);
    const loads = await Promise.all(urls.map((url) => load(url, requests, { seconds }, per)));
    for (const p of procs) await settle(p);
    const cpuAfter = await Promise.all(procs.map((p) => p.count()));
    const pgAfter = backend === 'postgres' ? postgresCpuMs() : 0;
    const xactAfter = admin === null || backend !== 'postgres' ? 0 : await committed(admin);
    const decisions = loads.reduce((sum, l) => sum + l.result['2xx'], 0);
    const ms = Math.max(...loads.map((l) => l.ms));
    const serverCpu =
      cpuAfter.reduce((sum, c, i) => sum + c.cpuMicros - (cpuBefore[i]?.cpuMicros ?? 0), 0) / 1000;
    // The reads of the counts run in the same window: a handful of queries, against thousands.
    const postgresCpu = backend === 'postgres' ? pgAfter - pgBefore : null;
    const per1 = (v: number) => (decisions === 0 ? 0 : v / decisions);
    return {
      backend,
      servers,
      decisions,
      seconds: ms / 1000,
      perSec: (decisions / ms) * 1000,
      non2xx: loads.reduce((sum, l) => sum + l.result.non2xx, 0),
      errors: loads.reduce((sum, l) => sum + l.result.errors + l.result.timeouts, 0),
      serverCpuMs: per1(serverCpu),
      postgresCpuMs: postgresCpu === null ? null : per1(postgresCpu),
      totalCpuMs: per1(serverCpu + (postgresCpu ?? 0)),
      transactionsPerDecision: backend === 'postgres' ? per1(xactAfter - xactBefore) : null,
    };
  } finally {
    for (const p of procs) await p.stop().catch(() => undefined);
    rmSync(data, { recursive: true, force: true });
    if (backend === 'postgres' && admin !== null)
      await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const quick = process.argv[2] === 'quick';
  const seconds = quick ? 2 : 6;
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  let admin: pg.Client | null = new pg.Client({
    connectionString: DATABASE_URL,
    connectionTimeoutMillis: 3000,
  });
  let postgresSkipped: string | null = null;
  try {
    await admin.connect();
  } catch (error) {
    postgresSkipped = `no Postgres at ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}`;
    admin = null;
  }
  const runs: ClusterRun[] = [];
  runs.push(await runCluster('sqlite', 1, seconds, null, log));
  runs.push(await runCluster('sqlite', 2, seconds, null, log));
  if (admin !== null) {
    runs.push(await runCluster('postgres', 1, seconds, admin, log));
    runs.push(await runCluster('postgres', 2, seconds, admin, log));
    await admin.end();
  }
  const result: ClusterResult = {
    seconds,
    connections: CLUSTER_CONNECTIONS,
    runs,
    postgresSkipped,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
