// The HTTP part of `npm run bench`: POST /v1/decide of `warden serve` over
// loopback under autocannon (50 connections), beside a bare Hono endpoint
// answering a constant of the same size, which is the cost of HTTP itself;
// the issue's target is Warden at ≥ 50 % of that bare throughput. Every
// decide is recorded in the audit log (SQLite) before it is answered, and the
// log is checked against the 2xx count afterwards. The measurement runs in a
// process of its own, with each server in another (see http-load.ts).

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HttpResult, HttpRun } from './http-load.js';
import { round } from './report.js';

const LOAD = fileURLToPath(new URL('./http-load.ts', import.meta.url));
/** Warden's decide throughput over the bare endpoint's that the issue asks for. */
export const HTTP_TARGET = 0.5;

export interface HttpReport {
  readonly result: HttpResult;
  readonly ratio: number;
  readonly target: { readonly name: string; readonly pass: boolean; readonly detail: string };
  /** What must hold for the figures to count: all answers 2xx, the audit log complete. */
  readonly checks: readonly { readonly name: string; readonly pass: boolean }[];
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (v: number) => `${v.toFixed(2)} ms`;

function run(result: HttpResult, server: HttpRun['server']): HttpRun {
  const found = result.runs.find((r) => r.server === server);
  if (found === undefined) throw new Error(`the http bench has no ${server} run`);
  return found;
}

export function runHttpBench(quick: boolean, log: (message: string) => void): HttpReport {
  log(`http: decide over loopback, ${quick ? 'quick' : 'full'}`);
  const child = spawnSync(process.execPath, [...process.execArgv, LOAD, quick ? 'quick' : 'full'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.status !== 0)
    throw new Error(`the http measurement failed (exit ${String(child.status)})`);
  const result = JSON.parse(child.stdout) as HttpResult;
  const warden = run(result, 'warden');
  const bare = run(result, 'bare');
  for (const r of [warden, bare])
    log(`  ${r.server}: ${n(r.perSec)}/s, p50 ${ms(r.p50ms)}, p99 ${ms(r.p99ms)}`);
  const ratio = warden.perSec / bare.perSec;
  const pass = ratio >= HTTP_TARGET;
  const clean = (r: HttpRun) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0;
  const { audit } = result;
  const report: HttpReport = {
    result,
    ratio,
    target: {
      name: `http: Warden decide ≥ ${HTTP_TARGET * 100} % of bare Hono throughput`,
      pass,
      detail: `${(ratio * 100).toFixed(1)} % (${n(warden.perSec)}/s of ${n(bare.perSec)}/s)${pass ? '' : `; short by ${((HTTP_TARGET - ratio) * 100).toFixed(1)} points`}`,
    },
    checks: [
      { name: 'every Warden answer 2xx, no errors or timeouts', pass: clean(warden) },
      { name: 'every bare answer 2xx, no errors or timeouts', pass: clean(bare) },
      { name: 'a decision entry in the audit log per 2xx', pass: audit.decisions === audit.ok },
      { name: 'a Denied entry per deny', pass: audit.denied === audit.expectedDenied },
    ],
  };
  const failed = report.checks.filter((c) => !c.pass);
  if (failed.length > 0) {
    process.stderr.write(`${renderHttp(report)}\n`);
    throw new Error(`the http bench does not hold: ${failed.map((c) => c.name).join('; ')}`);
  }
  return report;
}

function runLine(label: string, r: HttpRun): string {
  const errors = r.non2xx + r.errors + r.timeouts;
  return `  ${label.padEnd(42)} ${n(r.perSec).padStart(9)} ${ms(r.p50ms).padStart(10)} ${ms(r.p99ms).padStart(10)} ${n(r.ok).padStart(10)} ${String(errors).padStart(7)} ${`${(r.ms / 1000).toFixed(1)} s`.padStart(7)}`;
}

export function renderHttp(report: HttpReport): string {
  const { result, ratio } = report;
  const warden = run(result, 'warden');
  const bare = run(result, 'bare');
  const lines = [
    '',
    `HTTP decide over loopback (autocannon: ${result.connections} connections, pipelining ${result.pipelining}; ${result.warmupSeconds} s of warm-up, then ~${result.seconds} s of requests)`,
    '',
    `  ${'server'.padEnd(42)} ${'req/s'.padStart(9)} ${'p50'.padStart(10)} ${'p99'.padStart(10)} ${'2xx'.padStart(10)} ${'errors'.padStart(7)} ${'time'.padStart(7)}`,
    runLine('bare Hono, constant answer', bare),
    runLine('Warden POST /v1/decide (audit on SQLite)', warden),
  ];
  const statuses = Object.entries(warden.statuses).map(([code, count]) => `${code}: ${count}`);
  if (statuses.length > 0) lines.push(`    Warden non-2xx: ${statuses.join(', ')}`);
  const outcomes = new Map<string, number>();
  for (const m of result.mix) {
    const key = m.outcome === m.decision ? m.outcome : `${m.decision} → ${m.outcome}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  lines.push(
    `    mix of ${result.mix.length} requests from ${result.agents} agents: ${[...outcomes].map(([o, c]) => `${c} ${o}`).join(', ')}; bodies ${Math.round(result.requestBytes)} B, answers ${Math.round(result.answerBytes)} B on average (the bare endpoint answers one of them)`,
  );
  const { audit } = result;
  lines.push(
    `    audit log: ${n(audit.decisions)} decision entries for ${n(audit.ok)} 2xx answers ${audit.decisions === audit.ok ? '(equal)' : '(NOT equal)'}; ${n(audit.denied)} Denied entries for ${n(audit.expectedDenied)} denies ${audit.denied === audit.expectedDenied ? '(equal)' : '(NOT equal)'}; ${n(audit.entries)} entries in all`,
  );
  lines.push('');
  lines.push(
    `  Warden / bare: ${(ratio * 100).toFixed(1)} % of the requests/s; p99 ${(warden.p99ms / bare.p99ms).toFixed(1)}× the bare p99`,
  );
  for (const c of report.checks) if (!c.pass) lines.push(`  FAILED ${c.name}`);
  lines.push(
    `  ${report.target.pass ? 'PASS' : 'MISS'} ${report.target.name}: ${report.target.detail}`,
  );
  return lines.join('\n');
}

export function httpJsonLines(report: HttpReport): string[] {
  const { result } = report;
  return [
    ...result.runs.map((r) =>
      JSON.stringify({
        type: 'http',
        server: r.server,
        connections: result.connections,
        perSec: Math.round(r.perSec),
        p50ms: round(r.p50ms, 3),
        p99ms: round(r.p99ms, 3),
        maxMs: round(r.maxMs, 3),
        answers: r.answers,
        ok: r.ok,
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        ms: Math.round(r.ms),
      }),
    ),
    JSON.stringify({ type: 'http-audit', ...result.audit }),
    JSON.stringify({ type: 'http-ratio', wardenOverBare: round(report.ratio, 3) }),
    JSON.stringify({ type: 'target', ...report.target }),
  ];
}
