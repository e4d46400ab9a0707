// `npm run bench`: Warden's engine against Cedar and casbin on equivalent
// generated policy sets of 50, 5,000 and 50,000 rules. Flags: --json, --quick, --sizes.

import os from 'node:os';
import type { AuthorizationCall, StatefulAuthorizationCall } from '@cedar-policy/cedar-wasm/nodejs';
import type { ActionRequest } from '@warden/engine';
import { checkAgreement } from './agree.js';
import { casbinArgs, casbinEnforcer } from './casbin.js';
import {
  cedarCall,
  cedarPolicyRecord,
  cedarPreparse,
  cedarRaw,
  cedarStatefulCall,
  cedarVersion,
} from './cedar.js';
import { generateClassRequests, generateRuleSet, generateShellRequests } from './generate.js';
import type { Budget } from './measure.js';
import { FULL_BUDGET, QUICK_BUDGET, consumed, measure, median } from './measure.js';
import type { Compile, EngineName, Kind, Row, SizeInfo } from './report.js';
import { computeRatios, evaluateTargets, fmtUs, jsonLines, renderHuman } from './report.js';
import {
  compileWarden,
  timeWardenCompile,
  wardenClassRequest,
  wardenDecide,
  wardenDocument,
  wardenShellRequest,
} from './warden.js';

interface Options {
  readonly json: boolean;
  readonly quick: boolean;
  readonly sizes: readonly number[];
}

const USAGE = 'usage: tsx bench/run.ts [--json] [--quick] [--sizes 50,5000,50000]';

function parseArgs(argv: readonly string[]): Options {
  let json = false;
  let quick = false;
  let sizes: number[] = [50, 5_000, 50_000];
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
    } else if (arg === '--help' || arg === '-h') {
      process.stderr.write(`${USAGE}\n`);
      process.exit(0);
    } else throw new Error(`unknown option \`${arg}\`\n${USAGE}`);
  }
  return { json, quick, sizes };
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const CLASS_POOL = 1_024;
const SHELL_POOL = 256;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const budget: Budget = options.quick ? QUICK_BUDGET : FULL_BUDGET;
  const at = Date.now();
  const rows: Row[] = [];
  const infos: SizeInfo[] = [];
  const started = process.hrtime.bigint();

  const record = (
    rules: number,
    engine: EngineName,
    kind: Kind,
    call: (i: number) => unknown,
    pool: number,
    taskBudget: Budget = budget,
  ): void => {
    const stats = measure(call, pool, taskBudget);
    rows.push({ rules, engine, kind, ...stats });
    log(
      `  ${engine} ${kind}: p50 ${fmtUs(stats.p50us)} µs, p99 ${fmtUs(stats.p99us)} µs, ${Math.round(stats.opsPerSec).toLocaleString('en-US')} ops/s (${stats.samples} samples)`,
    );
  };

  for (const size of options.sizes) {
    log(`${size.toLocaleString('en-US')} rules: generating`);
    const set = generateRuleSet(size);
    const classReqs = generateClassRequests(set, CLASS_POOL);
    const shellReqs = generateShellRequests(set, SHELL_POOL);

    let t = process.hrtime.bigint();
    const policy = compileWarden(wardenDocument(set));
    const wardenCompileMs = elapsedMs(t);
    const wardenClass: ActionRequest[] = classReqs.map((r) => wardenClassRequest(set, r));
    const wardenShell: ActionRequest[] = shellReqs.map((r) => wardenShellRequest(set, r));

    const cedarPolicies = cedarPolicyRecord(set);
    // The same policies as one text: what a plain isAuthorized call carries.
    const text = Object.values(cedarPolicies).join('\n');
    const policies = { staticPolicies: text };
    const policySetId = `bench-${size}`;
    t = process.hrtime.bigint();
    cedarPreparse(policySetId, cedarPolicies);
    const cedarPreparseMs = elapsedMs(t);
    const cedarCalls: AuthorizationCall[] = classReqs.map((r) => cedarCall(r, policies));
    const cedarStateful: StatefulAuthorizationCall[] = classReqs.map((r) =>
      cedarStatefulCall(r, policySetId),
    );

    t = process.hrtime.bigint();
    const enforcer = await casbinEnforcer(set);
    const casbinLoadMs = elapsedMs(t);
    const casbinCalls = classReqs.map(casbinArgs);

    log(
      `  setup: warden compile ${wardenCompileMs.toFixed(1)} ms, cedar preparse ${cedarPreparseMs.toFixed(1)} ms, casbin load ${casbinLoadMs.toFixed(1)} ms; checking agreement`,
    );
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
      wardenCompileMs,
      cedarTextKb: Buffer.byteLength(text) / 1024,
      cedarPreparseMs,
      casbinLoadMs,
      agreement,
    });

    record(
      size,
      'warden',
      'class',
      (i) => wardenDecide(policy, wardenClass[i] as ActionRequest, at),
      CLASS_POOL,
    );
    record(
      size,
      'warden',
      'shell',
      (i) => wardenDecide(policy, wardenShell[i] as ActionRequest, at),
      SHELL_POOL,
    );
    // A plain isAuthorized call reparses the whole text: at 50,000 rules one call takes
    // about a second, so from 5,000 rules up warm-up is capped at a couple of calls.
    record(
      size,
      'cedar',
      'class',
      (i) => cedarRaw.isAuthorized(cedarCalls[i] as AuthorizationCall),
      CLASS_POOL,
      size >= 5_000 ? { ...budget, warmupCalls: options.quick ? 1 : 2 } : budget,
    );
    record(
      size,
      'cedar-preparsed',
      'class',
      (i) => cedarRaw.statefulIsAuthorized(cedarStateful[i] as StatefulAuthorizationCall),
      CLASS_POOL,
    );
    record(
      size,
      'casbin',
      'class',
      (i) => {
        const [sub, space, act, obj] = casbinCalls[i] as [string, string, string, string];
        return enforcer.enforceSync(sub, space, act, obj);
      },
      CLASS_POOL,
    );
  }

  let compile: Compile | null = null;
  const largest = options.sizes[options.sizes.length - 1];
  if (largest !== undefined) {
    const doc = wardenDocument(generateRuleSet(largest));
    const runs = options.quick ? 1 : 5;
    log(
      `compile: validatePolicy + compilePolicy of ${largest.toLocaleString('en-US')} rules, ${runs} run(s)`,
    );
    compileWarden(doc); // warm the code paths once
    const parts = Array.from({ length: runs }, () => timeWardenCompile(doc));
    compile = {
      rules: largest,
      runs,
      compileMs: median(parts.map((p) => p.validateMs + p.compileMs)),
      validateMs: median(parts.map((p) => p.validateMs)),
      compileOnlyMs: median(parts.map((p) => p.compileMs)),
    };
    log(
      `  ${compile.compileMs.toFixed(1)} ms (validate ${compile.validateMs.toFixed(1)} ms, compile ${compile.compileOnlyMs.toFixed(1)} ms)`,
    );
  }

  const ratios = computeRatios(rows, options.sizes);
  const targets = evaluateTargets(rows, options.sizes, ratios, compile);
  log(`done in ${(elapsedMs(started) / 1000).toFixed(1)} s (sink ${consumed()})`);

  if (options.json) {
    process.stdout.write(`${jsonLines(rows, ratios, targets, compile).join('\n')}\n`);
    return;
  }
  const cpus = os.cpus();
  const header = [
    `Warden engine bench${options.quick ? ' (--quick: few samples, numbers are rough)' : ''}`,
    `node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown cpu'}; cedar ${cedarVersion}, casbin 5 (priority effect)`,
    `warden: decide() on a validated request; cedar: isAuthorized with the policy text per call; cedar-preparsed: preparsePolicySet once + statefulIsAuthorized; casbin: enforceSync`,
    `p50/p99 from single timed calls; ops/s = samples / total sampled time (so outliers count)`,
  ].join('\n');
  process.stdout.write(`${renderHuman(header, infos, rows, ratios, targets, compile)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
