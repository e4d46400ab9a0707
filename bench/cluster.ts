// The cluster part of `npm run bench`: what one decision costs in CPU on
// SQLite and on Postgres, with one server and with two on the same store
// (see cluster-load.ts for how it is measured), and how many decisions share
// one Postgres transaction (group commit). The measurement runs in a process
// of its own, with each server in another.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ClusterResult, ClusterRun } from './cluster-load.js';
import { round } from './report.js';

const LOAD = fileURLToPath(new URL('./cluster-load.ts', import.meta.url));

export function runClusterBench(quick: boolean, log: (message: string) => void): ClusterResult {
  log(`cluster: CPU per decision, ${quick ? 'quick' : 'full'}`);
  const child = spawnSync(process.execPath, [...process.execArgv, LOAD, quick ? 'quick' : 'full'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0)
    throw new Error(`the cluster measurement failed (exit ${String(child.status)})`);
  const result = JSON.parse(child.stdout) as ClusterResult;
  const failed = result.runs.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failed.length > 0)
    throw new Error(
      `the cluster bench got errors: ${failed.map((r) => `${r.backend} × ${r.servers}: ${r.non2xx} non-2xx, ${r.errors} errors`).join('; ')}`,
    );
  return result;
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (v: number | null) => (v === null ? '—' : `${v.toFixed(2)} ms`);

function line(r: ClusterRun): string {
  const label = `${r.backend === 'sqlite' ? 'SQLite' : 'Postgres'}, ${r.servers} server${r.servers === 1 ? '' : 's'}`;
  return `  ${label.padEnd(22)} ${n(r.perSec).padStart(9)} ${ms(r.serverCpuMs).padStart(10)} ${ms(r.postgresCpuMs).padStart(10)} ${ms(r.totalCpuMs).padStart(10)} ${(r.transactionsPerDecision === null ? '—' : r.transactionsPerDecision.toFixed(2)).padStart(14)}`;
}

export function renderCluster(result: ClusterResult): string {
  const lines = [
    '',
    `CPU per decision: POST /v1/decide under autocannon (${result.connections} connections split between the servers, ~${result.seconds} s), every decision durable before it is answered`,
    '',
    `  ${'store'.padEnd(22)} ${'decided/s'.padStart(9)} ${'servers'.padStart(10)} ${'Postgres'.padStart(10)} ${'total'.padStart(10)} ${'transactions'.padStart(14)}`,
    ...result.runs.map(line),
    '',
    '  servers: CPU of every server process (all threads) per decision; Postgres: CPU of every',
    '  postgres process per decision; transactions: Postgres commits per decision (group commit',
    '  puts many decisions in one). On a 2-core machine the load generator, the servers and',
    '  Postgres share the cores, so a second server adds CPU, not capacity.',
  ];
  if (result.postgresSkipped !== null)
    lines.push(`  Postgres rows left out: ${result.postgresSkipped}`);
  return lines.join('\n');
}

export function clusterJsonLines(result: ClusterResult): string[] {
  return result.runs.map((r) =>
    JSON.stringify({
      type: 'cluster',
      backend: r.backend,
      servers: r.servers,
      perSec: Math.round(r.perSec),
      decisions: r.decisions,
      serverCpuMs: round(r.serverCpuMs, 3),
      postgresCpuMs: r.postgresCpuMs === null ? null : round(r.postgresCpuMs, 3),
      totalCpuMs: round(r.totalCpuMs, 3),
      transactionsPerDecision:
        r.transactionsPerDecision === null ? null : round(r.transactionsPerDecision, 3),
    }),
  );
}
