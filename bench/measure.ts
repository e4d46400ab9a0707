// The timing harness: warm up, then time single calls with hrtime under a
// per-measurement time budget, so slow engines finish and fast ones get many samples.

export interface Budget {
  /** Warm-up stops after this many calls or `warmupMs`, whichever comes first (at least one call). */
  readonly warmupCalls: number;
  readonly warmupMs: number;
  readonly minSamples: number;
  readonly maxSamples: number;
  /** Sampling stops once this much time has passed and `minSamples` are in. */
  readonly budgetMs: number;
}

export const FULL_BUDGET: Budget = {
  warmupCalls: 5_000,
  warmupMs: 500,
  minSamples: 20,
  maxSamples: 20_000,
  budgetMs: 2_000,
};

/**
 * Quick keeps a real warm-up (several passes over the 1,024-request pool, so
 * the JIT has settled and lazily built glob matchers exist) and cuts samples.
 */
export const QUICK_BUDGET: Budget = {
  warmupCalls: 5_000,
  warmupMs: 300,
  minSamples: 5,
  maxSamples: 300,
  budgetMs: 150,
};

export interface Stats {
  readonly samples: number;
  readonly p50us: number;
  readonly p99us: number;
  readonly opsPerSec: number;
}

/** Keeps results alive so no call can be optimised away. */
let sink = 0;
export function consumed(): number {
  return sink;
}

function absorb(value: unknown): void {
  if (value === true || (typeof value === 'object' && value !== null)) sink++;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

/**
 * Times `call(i)` one call at a time; `i` walks a request pool of `poolSize`
 * so consecutive calls ask different questions.
 */
export function measure(call: (i: number) => unknown, poolSize: number, budget: Budget): Stats {
  const ns = (): bigint => process.hrtime.bigint();
  let i = 0;
  const warmEnd = ns() + BigInt(budget.warmupMs) * 1_000_000n;
  for (let n = 0; n < budget.warmupCalls; n++) {
    absorb(call(i));
    i = (i + 1) % poolSize;
    if (ns() >= warmEnd) break;
  }

  const durations = new Float64Array(budget.maxSamples);
  let count = 0;
  const end = ns() + BigInt(budget.budgetMs) * 1_000_000n;
  while (count < budget.maxSamples) {
    const start = ns();
    const result = call(i);
    const stop = ns();
    absorb(result);
    durations[count++] = Number(stop - start);
    i = (i + 1) % poolSize;
    if (count >= budget.minSamples && stop >= end) break;
  }

  const sorted = durations.subarray(0, count).sort();
  let total = 0;
  for (const d of sorted) total += d;
  return {
    samples: count,
    p50us: percentile(sorted, 50) / 1_000,
    p99us: percentile(sorted, 99) / 1_000,
    opsPerSec: total === 0 ? Number.POSITIVE_INFINITY : (count * 1e9) / total,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
