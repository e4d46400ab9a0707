// The transactional row of `npm run bench` (E44): what running a command over
// a copy-on-write layer adds to `warden exec`, for a small command, for one
// that writes 10,000 new files and for one that rewrites 10,000 files. Each
// case runs the real binary standalone, with `--transactional auto` (over a
// layer, its effects read, decided and landed) and `--transactional off` (the
// same sandbox, writes as they happen), interleaved, and reports the medians
// and their difference. Only on Linux
// with bwrap, socat and unshare; elsewhere the row says it was skipped.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../packages/warden/bin/warden.js', import.meta.url));

export interface TransactionalRow {
  readonly case: string;
  readonly runs: number;
  /** Median wall time of one `warden exec`, over a layer and without, in ms. */
  readonly layeredMs: number;
  readonly directMs: number;
  /** What the layer adds: the difference of the medians. */
  readonly addedMs: number;
}

export interface TransactionalBench {
  readonly rows: readonly TransactionalRow[];
  /** Why it did not run, when it did not. */
  readonly skipped: string | null;
}

const CASES: readonly {
  readonly name: string;
  readonly command: string;
  /** Files the worktree holds before the command runs. */
  readonly existing?: number;
}[] = [
  { name: 'echo hi > a.txt', command: 'echo hi > a.txt' },
  {
    name: 'write 10,000 new files',
    command: 'mkdir -p out && for i in {1..10000}; do echo $i > out/f$i; done',
  },
  {
    name: 'rewrite 10,000 files',
    command: 'for i in {1..10000}; do echo $i > out/f$i; done',
    existing: 10_000,
  },
];

const POLICY = `version: 1
workspace: bench
rules:
  - { id: spawn, action: processSpawn, decision: allow }
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function have(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

export function runTransactionalBench(
  quick: boolean,
  log: (message: string) => void,
): TransactionalBench {
  if (process.platform !== 'linux' || !['bwrap', 'socat', 'unshare'].every(have))
    return { rows: [], skipped: 'needs Linux with bwrap, socat and unshare' };
  const root = mkdtempSync(join(tmpdir(), 'warden-bench-tx-'));
  try {
    const policy = join(root, 'policy.yaml');
    writeFileSync(policy, POLICY);
    const runs = quick ? 3 : 7;
    const rows: TransactionalRow[] = [];
    for (const { name, command, existing } of CASES) {
      const times: Record<'auto' | 'off', number[]> = { auto: [], off: [] };
      for (let i = 0; i < runs; i++) {
        for (const mode of ['auto', 'off'] as const) {
          const worktree = join(root, `${mode}-${name.replace(/\W+/g, '-')}-${i}`);
          mkdirSync(worktree);
          if (existing !== undefined) {
            mkdirSync(join(worktree, 'out'));
            for (let f = 1; f <= existing; f++)
              writeFileSync(join(worktree, 'out', `f${f}`), 'old\n');
          }
          const started = process.hrtime.bigint();
          const ran = spawnSync(
            process.execPath,
            [
              BIN,
              'exec',
              '--policy',
              policy,
              '--data',
              join(root, 'data'),
              '--worktree',
              worktree,
              '--transactional',
              mode,
              '--',
              command,
            ],
            { encoding: 'utf8', env: { ...process.env, WARDEN_LOG_LEVEL: 'silent' } },
          );
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          if (ran.status !== 0)
            throw new Error(`\`warden exec --transactional ${mode}\` failed: ${ran.stderr}`);
          times[mode].push(ms);
          rmSync(worktree, { recursive: true, force: true });
        }
      }
      const row: TransactionalRow = {
        case: name,
        runs,
        layeredMs: median(times.auto),
        directMs: median(times.off),
        addedMs: median(times.auto) - median(times.off),
      };
      rows.push(row);
      log(
        `  transactional ${name}: ${row.layeredMs.toFixed(0)} ms over a layer, ${row.directMs.toFixed(0)} ms without (+${row.addedMs.toFixed(0)} ms), median of ${runs}`,
      );
    }
    return { rows, skipped: null };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function renderTransactional(bench: TransactionalBench): string {
  if (bench.skipped !== null) return `\nTransactional runs: skipped (${bench.skipped})\n`;
  const lines = [
    '',
    'Transactional runs (E44): one standalone `warden exec`, over a copy-on-write layer vs. the same sandbox without one (medians)',
    '',
    '  case                      over a layer   without    added',
    ...bench.rows.map(
      (r) =>
        `  ${r.case.padEnd(24)} ${`${r.layeredMs.toFixed(0)} ms`.padStart(12)} ${`${r.directMs.toFixed(0)} ms`.padStart(9)} ${`+${r.addedMs.toFixed(0)} ms`.padStart(8)}`,
    ),
  ];
  return lines.join('\n');
}

export function transactionalJsonLines(bench: TransactionalBench): string[] {
  if (bench.skipped !== null)
    return [JSON.stringify({ kind: 'transactional', skipped: bench.skipped })];
  return bench.rows.map((r) => JSON.stringify({ kind: 'transactional', ...r }));
}
