// `npm run bench`: Warden's engine against Cedar and casbin on equivalent
// generated policy sets of 50, 5,000 and 50,000 rules, the gate, the HTTP
// decide endpoint, the MCP gateway's overhead per tool call, the parse
// curve (decision time against command size), and what a transactional run
// adds to `warden exec`, and a tool call in each real agent CLI with and without Warden.
// Flags: --json, --quick, --sizes, --only.

import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AuthorizationCall, StatefulAuthorizationCall } from '@cedar-policy/cedar-wasm/nodejs';
import type { ActionRequest } from '@warden/engine';
import { checkAgreement } from './agree.js';
import { casbinEnforcer } from './casbin.js';
import {
  cedarCall,
  cedarPolicyRecord,
  cedarPreparse,
  cedarStatefulCall,
  cedarVersion,
} from './cedar.js';
import { generateClassRequests, generateRuleSet } from './generate.js';
import type { Compile, Row, SizeInfo } from './report.js';
import { computeRatios, evaluateTargets, fmtUs, jsonLines, renderHuman } from './report.js';
import { compileWarden, wardenClassRequest, wardenDocument } from './warden.js';
import { gateJsonLines, renderGate, runGateBench } from './gate.js';
import { httpJsonLines, renderHttp, runHttpBench } from './http.js';
import { clusterJsonLines, renderCluster, runClusterBench } from './cluster.js';
import { hookJsonLines, renderHook, runHookBench } from './hook.js';
import { gatewayJsonLines, renderGateway, runGatewayBench } from './gateway.js';
import { BUILT_ENGINE, parseJsonLines, renderParse, runParseBench } from './parse.js';
import { agentsJsonLines, renderAgents, runAgentsBench } from './agents.js';
import {
  renderTransactional,
  runTransactionalBench,
  transactionalJsonLines,
} from './transactional.js';
import type { Job, WorkerResult } from './worker.js';
import { CLASS_POOL } from './worker.js';

interface Options {
  readonly json: boolean;
  readonly quick: boolean;
  readonly sizes: readonly number[];
  readonly only:
    | 'engine'
    | 'gate'
    | 'http'
    | 'cluster'
    | 'hook'
    | 'gateway'
    | 'parse'
    | 'transactional'
    | 'agents'
    | null;
}

const USAGE =
  'usage: tsx bench/run.ts [--json] [--quick] [--sizes 50,5000,50000] [--only engine|gate|http|cluster|hook|gateway|parse|transactional|agents]';

function parseArgs(argv: readonly string[]): Options {
  let json = false;
  let quick = false;
  let sizes: number[] = [50, 5_000, 50_000];
  let only: Options['only'] = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--json') json = true;
    else if (arg === '--quick') quick = true;
    else if (arg === '--sizes' || arg.startsWith('--sizes=')) {
      const value = arg === '--sizes' ? argv[++i] : arg.slice('--sizes='.length);
      const parsed = (value ?? '').split(',').map((s) => Number(s.trim().replace(/_/g, '')));
      if (parsed.length === 0 || parsed.some((n) => !Number.isInteger(n) || n < 1)) {
        throw new Error(
          `--sizes takes positive integers separated by commas, got \`${value ?? ''}\``,
        );
      }
      sizes = [...new Set(parsed)].sort((a, b) => a - b);
    } else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (
        value !== 'engine' &&
        value !== 'gate' &&
        value !== 'http' &&
        value !== 'cluster' &&
        value !== 'hook' &&
        value !== 'gateway' &&
        value !== 'parse' &&
        value !== 'transactional' &&
        value !== 'agents'
      )
        throw new Error(
          `--only takes \`engine\`, \`gate\`, \`http\`, \`cluster\`, \`hook\`, \`gateway\`, \`parse\`, \`transactional\` or \`agents\`, got \`${value ?? ''}\``,
        );
      only = value;
    } else if (arg === '--help' || arg === '-h') {
      process.stderr.write(`${USAGE}\n`);
      process.exit(0);
    } else throw new Error(`unknown option \`${arg}\`\n${USAGE}`);
  }
  return { json, quick, sizes, only };
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Runs one measurement in a process of its own (see worker.ts). */
function inWorker(task: Job['task'], size: number, quick: boolean): WorkerResult {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, WORKER, task, String(size), quick ? 'quick' : 'full'],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (child.status !== 0)
    throw new Error(
      `the ${task} measurement at ${size} rules failed (exit ${String(child.status)})`,
    );
  return JSON.parse(child.stdout) as WorkerResult;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.only === 'parse') {
    const parse = runParseBench(BUILT_ENGINE, options.quick, log);
    if (options.json) process.stdout.write(`${parseJsonLines(parse).join('\n')}\n`);
    else process.stdout.write(`${renderParse(parse)}\n`);
    return;
  }
  if (options.only === 'transactional') {
    const tx = runTransactionalBench(options.quick, log);
    if (options.json) process.stdout.write(`${transactionalJsonLines(tx).join('\n')}\n`);
    else process.stdout.write(`${renderTransactional(tx)}\n`);
    return;
  }
  if (options.only === 'agents') {
    const agents = await runAgentsBench(options.quick, log);
    if (options.json) process.stdout.write(`${agentsJsonLines(agents).join('\n')}\n`);
    else process.stdout.write(`${renderAgents(agents)}\n`);
    return;
  }
  if (options.only === 'hook') {
    const hook = await runHookBench(options.quick, log);
    if (options.json) process.stdout.write(`${hookJsonLines(hook).join('\n')}\n`);
    else process.stdout.write(`${renderHook(hook)}\n`);
    return;
  }
  if (options.only === 'gateway') {
    const gateway = await runGatewayBench(options.quick, log);
    if (options.json) process.stdout.write(`${gatewayJsonLines(gateway).join('\n')}\n`);
    else process.stdout.write(`${renderGateway(gateway)}\n`);
    return;
  }
  if (options.only === 'cluster') {
    const cluster = runClusterBench(options.quick, log);
    if (options.json) process.stdout.write(`${clusterJsonLines(cluster).join('\n')}\n`);
    else process.stdout.write(`${renderCluster(cluster)}\n`);
    return;
  }
  if (options.only === 'http') {
    const http = runHttpBench(options.quick, log);
    if (options.json) process.stdout.write(`${httpJsonLines(http).join('\n')}\n`);
    else process.stdout.write(`${renderHttp(http)}\n`);
    return;
  }
  const gate = options.only === 'engine' ? null : runGateBench(options.quick, log);
  if (options.only === 'gate' && gate !== null) {
    if (options.json) process.stdout.write(`${gateJsonLines(gate).join('\n')}\n`);
    else process.stdout.write(`${renderGate(gate)}\n`);
    return;
  }
  const at = Date.now();
  const rows: Row[] = [];
  const infos: SizeInfo[] = [];
  const started = process.hrtime.bigint();

  for (const size of options.sizes) {
    log(`${size.toLocaleString('en-US')} rules`);
    const setup: Record<string, number> = {};
    for (const task of ['warden', 'cedar', 'casbin'] as const) {
      const result = inWorker(task, size, options.quick);
      setup[task] = result.setupMs;
      rows.push(...result.rows);
      for (const row of result.rows) {
        log(
          `  ${row.engine} ${row.kind}: p50 ${fmtUs(row.p50us)} µs, p99 ${fmtUs(row.p99us)} µs, ${Math.round(row.opsPerSec).toLocaleString('en-US')} ops/s (${row.samples} samples)`,
        );
      }
    }

    // Agreement is checked here, with all three engines loaded; nothing is timed in this process.
    const set = generateRuleSet(size);
    const classReqs = generateClassRequests(set, CLASS_POOL);
    const policy = compileWarden(wardenDocument(set));
    const wardenClass: ActionRequest[] = classReqs.map((r) => wardenClassRequest(set, r));
    const cedarPolicies = cedarPolicyRecord(set);
    const text = Object.values(cedarPolicies).join('\n');
    const policySetId = `agree-${size}`;
    cedarPreparse(policySetId, cedarPolicies);
    const cedarCalls: AuthorizationCall[] = classReqs.map((r) =>
      cedarCall(r, { staticPolicies: text }),
    );
    const cedarStateful: StatefulAuthorizationCall[] = classReqs.map((r) =>
      cedarStatefulCall(r, policySetId),
    );
    const enforcer = await casbinEnforcer(set);
    const agreement = checkAgreement({
      requests: classReqs,
      warden: wardenClass,
      policy,
      at,
      cedarCalls,
      cedarStateful,
      enforcer,
      // Cedar's preparsed call alone takes ~0.25 s at 50,000 rules: fewer checks there.
      count: size >= 50_000 ? (options.quick ? 10 : 40) : options.quick ? 50 : 500,
      plainCount: size >= 50_000 ? (options.quick ? 1 : 3) : size >= 5_000 ? 10 : 50,
    });
    log(
      `  agreement with warden on ${agreement.checked}: casbin ${agreement.casbinAgree}, cedar ${agreement.cedarAgree} (cedar stricter in ${agreement.cedarStricter}); plain = preparsed ${agreement.plainAgree}/${agreement.plainChecked}`,
    );
    for (const example of agreement.examples) log(`    e.g. ${example}`);
    infos.push({
      rules: size,
      agents: set.agents.length,
      spaces: set.spaces.length,
      wardenCompileMs: setup.warden ?? 0,
      cedarTextKb: Buffer.byteLength(text) / 1024,
      cedarPreparseMs: setup.cedar ?? 0,
      casbinLoadMs: setup.casbin ?? 0,
      agreement,
    });
  }

  let compile: Compile | null = null;
  const largest = options.sizes[options.sizes.length - 1];
  if (largest !== undefined) {
    log(`compile: validatePolicy + compilePolicy of ${largest.toLocaleString('en-US')} rules`);
    compile = inWorker('compile', largest, options.quick).compile ?? null;
    if (compile !== null) {
      log(
        `  ${compile.compileMs.toFixed(1)} ms (validate ${compile.validateMs.toFixed(1)} ms, compile ${compile.compileOnlyMs.toFixed(1)} ms)`,
      );
    }
  }

  const ratios = computeRatios(rows, options.sizes);
  const targets = evaluateTargets(rows, options.sizes, ratios, compile);
  const http = options.only === null ? runHttpBench(options.quick, log) : null;
  const cluster = options.only === null ? runClusterBench(options.quick, log) : null;
  const hook = options.only === null ? await runHookBench(options.quick, log) : null;
  const gateway = options.only === null ? await runGatewayBench(options.quick, log) : null;
  const parse = options.only === null ? runParseBench(BUILT_ENGINE, options.quick, log) : null;
  const tx = options.only === null ? runTransactionalBench(options.quick, log) : null;
  const agents = options.only === null ? await runAgentsBench(options.quick, log) : null;
  log(`done in ${(elapsedMs(started) / 1000).toFixed(1)} s`);

  if (options.json) {
    const lines = [
      ...jsonLines(rows, ratios, targets, compile),
      ...(gate === null ? [] : gateJsonLines(gate)),
      ...(http === null ? [] : httpJsonLines(http)),
      ...(cluster === null ? [] : clusterJsonLines(cluster)),
      ...(hook === null ? [] : hookJsonLines(hook)),
      ...(gateway === null ? [] : gatewayJsonLines(gateway)),
      ...(parse === null ? [] : parseJsonLines(parse)),
      ...(tx === null ? [] : transactionalJsonLines(tx)),
      ...(agents === null ? [] : agentsJsonLines(agents)),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  const cpus = os.cpus();
  const header = [
    `Warden engine bench${options.quick ? ' (--quick: few samples, numbers are rough)' : ''}`,
    `node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown cpu'}; cedar ${cedarVersion}, casbin 5 (priority effect)`,
    `warden: decide() on a validated request; cedar: isAuthorized with the policy text per call; cedar-preparsed: preparsePolicySet once + statefulIsAuthorized; casbin: enforceSync`,
    `each engine measured in a process of its own; p50/p99 from single timed calls; ops/s = samples / total sampled time (so outliers count)`,
  ].join('\n');
  process.stdout.write(`${renderHuman(header, infos, rows, ratios, targets, compile)}\n`);
  if (gate !== null) process.stdout.write(`${renderGate(gate)}\n`);
  if (http !== null) process.stdout.write(`${renderHttp(http)}\n`);
  if (cluster !== null) process.stdout.write(`${renderCluster(cluster)}\n`);
  if (hook !== null) process.stdout.write(`${renderHook(hook)}\n`);
  if (gateway !== null) process.stdout.write(`${renderGateway(gateway)}\n`);
  if (parse !== null) process.stdout.write(`${renderParse(parse)}\n`);
  if (tx !== null) process.stdout.write(`${renderTransactional(tx)}\n`);
  if (agents !== null) process.stdout.write(`${renderAgents(agents)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
