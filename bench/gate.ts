// The gate's part of `npm run bench`: recorded decisions per second with the
// audit log on SQLite (every decision committed before it is answered),
// beside the engine alone and the audit log's own ingest rate, with the raw
// SQLite insert rate as the ceiling; ratios and the issue's target.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { GateResult, GateTask } from './gate-worker.js';

const WORKER = fileURLToPath(new URL('./gate-worker.ts', import.meta.url));
/** Recorded decisions per second the gate should sustain on a 2-core machine. */
export const GATE_TARGET = 20_000;
/** One caller's median time per recorded decision the in-process gate should keep to, in µs. */
export const LATENCY_TARGET_US = 100;

function measure(task: GateTask, total: number): GateResult {
  const child = spawnSync(process.execPath, [...process.execArgv, WORKER, task, String(total)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0)
    throw new Error(`the gate's ${task} measurement failed (exit ${String(child.status)})`);
  return JSON.parse(child.stdout) as GateResult;
}

export interface GateReport {
  readonly results: readonly GateResult[];
  readonly ratios: Readonly<Record<string, number>>;
  readonly target: { readonly name: string; readonly pass: boolean; readonly detail: string };
  readonly latency: { readonly name: string; readonly pass: boolean; readonly detail: string };
}

export function runGateBench(quick: boolean, log: (message: string) => void): GateReport {
  const n = quick ? 20_000 : 100_000;
  const plan: [GateTask, number][] = [
    ['engine', n * 2],
    ['gate', n],
    ['gate-same-thread', Math.round(n / 2)],
    ['latency', Math.round(n / 4)],
    ['latency-same-thread', Math.round(n / 4)],
    ['ingest', n],
    ['raw', n],
  ];
  const results: GateResult[] = [];
  for (const [task, total] of plan) {
    // The gate runs three times in fresh processes; the median counts (this
    // machine's speed varies from run to run), and every run is shown.
    const runs = task === 'gate' ? 3 : 1;
    const measured: GateResult[] = [];
    for (let run = 0; run < runs; run++) {
      log(
        `gate: ${task} (${total.toLocaleString('en-US')})${runs > 1 ? `, run ${run + 1} of ${runs}` : ''}`,
      );
      const result = measure(task, total);
      log(
        `  ${Math.round(result.perSec).toLocaleString('en-US')}/s${result.p99us === undefined ? '' : `, p99 ${(result.p99us / 1000).toFixed(1)} ms`}`,
      );
      measured.push(result);
    }
    const sorted = [...measured].sort((a, b) => a.perSec - b.perSec);
    const median = sorted[Math.floor(sorted.length / 2)] as GateResult;
    const all = measured.map((r) => Math.round(r.perSec).toLocaleString('en-US')).join(', ');
    results.push(
      runs === 1
        ? median
        : { ...median, note: `${median.note ?? ''}; median of ${runs} runs: ${all}` },
    );
  }
  const rate = (task: GateTask) => results.find((r) => r.task === task)?.perSec ?? 0;
  const ratios = {
    gateOverTarget: rate('gate') / GATE_TARGET,
    engineOverGate: rate('engine') / rate('gate'),
    gateOverSameThread: rate('gate') / rate('gate-same-thread'),
    rawOverIngest: rate('raw') / rate('ingest'),
  };
  const pass = rate('gate') >= GATE_TARGET;
  const p50 = (task: GateTask) => results.find((r) => r.task === task)?.p50us ?? Infinity;
  const best = Math.min(p50('latency'), p50('latency-same-thread'));
  return {
    results,
    ratios,
    latency: {
      name: `gate + durable audit in process: ≤ ${LATENCY_TARGET_US} µs p50, one caller`,
      pass: best <= LATENCY_TARGET_US,
      detail: `${Math.round(p50('latency-same-thread'))} µs writing on the caller's thread (the resident runner, a library gate), ${Math.round(p50('latency'))} µs through the writer thread (the server: more decisions per second under load, one more hop each)`,
    },
    target: {
      name: `gate: ≥ ${GATE_TARGET.toLocaleString('en-US')} recorded decisions/s on SQLite`,
      pass,
      detail: `${Math.round(rate('gate')).toLocaleString('en-US')}/s`,
    },
  };
}

const LABEL: Record<GateTask, string> = {
  engine: 'engine alone (explainDecision)',
  gate: 'gate + audit on SQLite (writer thread)',
  'gate-same-thread': 'gate + audit on SQLite (one thread)',
  latency: 'one caller, writer thread',
  'latency-same-thread': 'one caller, one thread',
  ingest: 'audit ingest (append, batches of 500)',
  raw: 'raw better-sqlite3 inserts (ceiling)',
};

export function renderGate(report: GateReport): string {
  const lines = ['', 'Gate and audit log (SQLite, this machine)', ''];
  lines.push(`  ${'measurement'.padEnd(42)} ${'per second'.padStart(12)} ${'p99'.padStart(9)}`);
  for (const r of report.results) {
    const p99 = r.p99us === undefined ? '' : `${(r.p99us / 1000).toFixed(1)} ms`;
    const p50 = r.p50us === undefined ? '' : `  p50 ${Math.round(r.p50us)} µs`;
    lines.push(
      `  ${LABEL[r.task].padEnd(42)} ${Math.round(r.perSec).toLocaleString('en-US').padStart(12)} ${p99.padStart(9)}${p50}`,
    );
    if (r.note !== undefined) lines.push(`    ${r.note}`);
  }
  const x = (v: number | undefined) => `${(v ?? 0).toFixed(2)}×`;
  lines.push('');
  lines.push(
    `  gate / target ${GATE_TARGET.toLocaleString('en-US')}/s: ${x(report.ratios.gateOverTarget)}   engine alone / gate: ${x(report.ratios.engineOverGate)}`,
  );
  lines.push(
    `  writer thread / one thread: ${x(report.ratios.gateOverSameThread)}   raw SQLite / ingest: ${x(report.ratios.rawOverIngest)}`,
  );
  lines.push(
    `  ${report.target.pass ? 'PASS' : 'MISS'} ${report.target.name}: ${report.target.detail}`,
  );
  lines.push(
    `  ${report.latency.pass ? 'PASS' : 'MISS'} ${report.latency.name}: ${report.latency.detail}`,
  );
  return lines.join('\n');
}

export function gateJsonLines(report: GateReport): string[] {
  return [
    ...report.results.map((r) => JSON.stringify({ type: 'gate', ...r })),
    JSON.stringify({ type: 'gate-ratios', ...report.ratios }),
    JSON.stringify({ type: 'target', ...report.target }),
    JSON.stringify({ type: 'target', ...report.latency }),
  ];
}
