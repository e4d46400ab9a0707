// Measures one engine at one size in a process of its own, so no engine is
// timed with another engine's data on the heap (a larger heap means more
// garbage-collection work during every engine's calls). Prints one JSON line.

import { pathToFileURL } from 'node:url';
import type { AuthorizationCall, StatefulAuthorizationCall } from '@cedar-policy/cedar-wasm/nodejs';
import type { ActionRequest } from '@warden/engine';
import { casbinArgs, casbinEnforcer } from './casbin.js';
import {
  cedarCall,
  cedarPolicyRecord,
  cedarPreparse,
  cedarRaw,
  cedarStatefulCall,
} from './cedar.js';
import { generateClassRequests, generateRuleSet, generateShellRequests } from './generate.js';
import type { Budget } from './measure.js';
import { FULL_BUDGET, QUICK_BUDGET, consumed, measure, median } from './measure.js';
import type { Compile, EngineName, Kind, Row } from './report.js';
import {
  compileWarden,
  timeWardenCompile,
  wardenClassRequest,
  wardenDecide,
  wardenDocument,
  wardenShellRequest,
} from './warden.js';

export const CLASS_POOL = 1_024;
export const SHELL_POOL = 256;

export type Job = {
  readonly task: 'warden' | 'cedar' | 'casbin' | 'compile';
  readonly size: number;
  readonly quick: boolean;
};

export interface WorkerResult {
  readonly rows: Row[];
  /** Setup time of the engine (compile, preparse, load), in ms. */
  readonly setupMs: number;
  readonly compile?: Compile;
}

function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function run(job: Job): Promise<WorkerResult> {
  const budget: Budget = job.quick ? QUICK_BUDGET : FULL_BUDGET;
  const set = generateRuleSet(job.size);
  const classReqs = generateClassRequests(set, CLASS_POOL);
  const at = Date.now();
  const rows: Row[] = [];
  const record = (
    engine: EngineName,
    kind: Kind,
    call: (i: number) => unknown,
    pool: number,
    taskBudget: Budget = budget,
  ): void => {
    rows.push({ rules: job.size, engine, kind, ...measure(call, pool, taskBudget) });
  };
  const started = process.hrtime.bigint();
  switch (job.task) {
    case 'warden': {
      const policy = compileWarden(wardenDocument(set));
      const setupMs = elapsedMs(started);
      const classes: ActionRequest[] = classReqs.map((r) => wardenClassRequest(set, r));
      const shells: ActionRequest[] = generateShellRequests(set, SHELL_POOL).map((r) =>
        wardenShellRequest(set, r),
      );
      record(
        'warden',
        'class',
        (i) => wardenDecide(policy, classes[i] as ActionRequest, at),
        CLASS_POOL,
      );
      record(
        'warden',
        'shell',
        (i) => wardenDecide(policy, shells[i] as ActionRequest, at),
        SHELL_POOL,
      );
      return { rows, setupMs };
    }
    case 'cedar': {
      const records = cedarPolicyRecord(set);
      const policies = { staticPolicies: Object.values(records).join('\n') };
      const id = `bench-${job.size}`;
      cedarPreparse(id, records);
      const setupMs = elapsedMs(started);
      const plain: AuthorizationCall[] = classReqs.map((r) => cedarCall(r, policies));
      const stateful: StatefulAuthorizationCall[] = classReqs.map((r) => cedarStatefulCall(r, id));
      // A plain isAuthorized call reparses the whole text: at 50,000 rules one call takes
      // about a second, so from 5,000 rules up warm-up is capped at a couple of calls.
      record(
        'cedar',
        'class',
        (i) => cedarRaw.isAuthorized(plain[i] as AuthorizationCall),
        CLASS_POOL,
        job.size >= 5_000 ? { ...budget, warmupCalls: job.quick ? 1 : 2 } : budget,
      );
      record(
        'cedar-preparsed',
        'class',
        (i) => cedarRaw.statefulIsAuthorized(stateful[i] as StatefulAuthorizationCall),
        CLASS_POOL,
      );
      return { rows, setupMs };
    }
    case 'casbin': {
      const enforcer = await casbinEnforcer(set);
      const setupMs = elapsedMs(started);
      const calls = classReqs.map(casbinArgs);
      record(
        'casbin',
        'class',
        (i) => {
          const [sub, space, act, obj] = calls[i] as [string, string, string, string];
          return enforcer.enforceSync(sub, space, act, obj);
        },
        CLASS_POOL,
      );
      return { rows, setupMs };
    }
    case 'compile': {
      const doc = wardenDocument(set);
      const runs = job.quick ? 1 : 5;
      compileWarden(doc); // warm the code paths once
      const parts = Array.from({ length: runs }, () => timeWardenCompile(doc));
      const compile: Compile = {
        rules: job.size,
        runs,
        compileMs: median(parts.map((p) => p.validateMs + p.compileMs)),
        validateMs: median(parts.map((p) => p.validateMs)),
        compileOnlyMs: median(parts.map((p) => p.compileMs)),
      };
      return { rows, setupMs: 0, compile };
    }
  }
}

// Runs only as a program of its own, never when run.ts imports its types and constants.
const entry = process.argv[1];
const [task, size, quick] = process.argv.slice(2);
if (
  entry !== undefined &&
  import.meta.url === pathToFileURL(entry).href &&
  task !== undefined &&
  size !== undefined
) {
  run({ task: task as Job['task'], size: Number(size), quick: quick === 'quick' })
    .then((result) => process.stdout.write(`${JSON.stringify({ ...result, sink: consumed() })}\n`))
    .catch((error: unknown) => {
      process.stderr.write(
        `bench worker failed: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    });
}
