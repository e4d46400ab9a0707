// The parse curve of `npm run bench`: the time of one decision on a command
// line against its size, 1 KB to 1 MB, for several shapes. Reading a command
// is linear with hard limits (the engine's shell/limits.ts), so µs per KB
// stays flat or falls as the size grows, and past the limits a command is
// refused as unparseable in constant work per character.

import {
  analyzeCommand,
  compilePolicy,
  decide,
  DEFAULT_TABLE,
  validatePolicy,
} from '@warden/engine';
import type { ActionRequest, CompiledPolicy } from '@warden/engine';

/** The part of the engine this bench calls: the built package, or another build of it. */
export interface ParseEngine {
  readonly analyzeCommand: typeof analyzeCommand;
  readonly compilePolicy: typeof compilePolicy;
  readonly decide: typeof decide;
  readonly validatePolicy: typeof validatePolicy;
  readonly DEFAULT_TABLE: typeof DEFAULT_TABLE;
}

export interface ParseRow {
  readonly shape: string;
  readonly kb: number;
  readonly chars: number;
  readonly samples: number;
  /** Median and worst time of one `decide()`, validation excluded. */
  readonly medianUs: number;
  readonly maxUs: number;
  readonly usPerKb: number;
  /** Median time of reading and classifying the command alone (`analyzeCommand`). */
  readonly analyzeUs: number;
  readonly decision: string;
}

/** Shapes, each filled to `chars` characters by repeating a unit. */
const SHAPES: Readonly<Record<string, { readonly describe: string; make(chars: number): string }>> =
  {
    chain: {
      describe: '`rm a && rm a && …`',
      make: (chars) => repeatTo('rm a', ' && ', chars),
    },
    nested: {
      describe: '`( ( ( … rm a … ) ) )`',
      make: (chars) => {
        const depth = Math.max(1, Math.floor((chars - 4) / 4));
        return `${'( '.repeat(depth)}rm a${' )'.repeat(depth)}`;
      },
    },
    substitutions: {
      describe: '`echo $(echo $(… rm a …))`, 3 levels, repeated',
      make: (chars) => repeatTo('echo $(echo $(echo $(rm a)))', '; ', chars),
    },
    'quoted word': {
      describe: 'one long double-quoted argument',
      make: (chars) => `echo "${'a'.repeat(Math.max(0, chars - 7))}"`,
    },
    'glob path': {
      describe:
        '`rm backups/db------….sq`: one long path against the rule `backups/db-*-*-*.sql` (the red team stalled a server 8–10 s with 4 KB of it)',
      make: (chars) => `rm backups/db-${'-'.repeat(Math.max(0, chars - 19))}.sq`,
    },
    words: {
      describe: '`rm f0 f1 f2 …`',
      make: (chars) => {
        const parts = ['rm'];
        let length = 2;
        for (let i = 0; length < chars; i++) {
          const word = `f${i}`;
          parts.push(word);
          length += word.length + 1;
        }
        return parts.join(' ');
      },
    },
  };

function repeatTo(unit: string, separator: string, chars: number): string {
  const count = Math.max(
    1,
    Math.ceil((chars + separator.length) / (unit.length + separator.length)),
  );
  return Array.from({ length: count }, () => unit).join(separator);
}

export const PARSE_SIZES_KB = [1, 4, 16, 64, 256, 1024] as const;

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'no-rm', command: 'rm', decision: 'deny' },
    { id: 'no-etc', action: 'fileDelete', decision: 'deny', when: { paths: ['/etc/**'] } },
    {
      id: 'no-db-dumps',
      action: 'fileDelete',
      decision: 'deny',
      when: { paths: ['backups/db-*-*-*.sql'] },
    },
    { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
  ],
};

function compiled(engine: ParseEngine): CompiledPolicy {
  const result = engine.validatePolicy(POLICY, 'workspace');
  if (!result.ok) throw new Error('the parse bench policy does not validate');
  return engine.compilePolicy(result.value);
}

/**
 * Times `decide()` on each shape and size. Each sample's command is unique (a
 * trailing comment), so no memo answers for it.
 */
export function runParseBench(
  engine: ParseEngine,
  quick: boolean,
  log: (message: string) => void,
  sizesKb: readonly number[] = PARSE_SIZES_KB,
): ParseRow[] {
  const policy = compiled(engine);
  const at = Date.parse('2026-11-30T12:00:00Z');
  const rows: ParseRow[] = [];
  const budgetMs = quick ? 100 : 400;
  // Warm-up: every shape at small sizes, so the JIT has settled before the first row.
  const warmUntil = Date.now() + (quick ? 300 : 1000);
  for (let i = 0; Date.now() < warmUntil; i++) {
    for (const { make } of Object.values(SHAPES)) {
      engine.decide({
        policy,
        managed: null,
        request: { workspace: 'acme', agent: 'a', command: `${make(1024 * (1 + (i % 4)))}\n#${i}` },
        at,
        approverConnected: false,
        classifier: engine.DEFAULT_TABLE,
      });
    }
  }
  for (const [shape, { make }] of Object.entries(SHAPES)) {
    for (const kb of sizesKb) {
      const base = make(kb * 1024);
      let sample = 0;
      const once = (): { us: number; decision: string } => {
        const request: ActionRequest = {
          workspace: 'acme',
          agent: 'a',
          command: `${base}\n#${sample++}`,
        };
        const started = process.hrtime.bigint();
        const result = engine.decide({
          policy,
          managed: null,
          request,
          at,
          approverConnected: false,
          classifier: engine.DEFAULT_TABLE,
        });
        return { us: Number(process.hrtime.bigint() - started) / 1e3, decision: result.decision };
      };
      const first = once(); // warm-up, not counted
      const times: number[] = [];
      const began = Date.now();
      let decision = first.decision;
      while (times.length < 3 || (Date.now() - began < budgetMs && times.length < 200)) {
        const ran = once();
        times.push(ran.us);
        decision = ran.decision;
      }
      times.sort((a, b) => a - b);
      const medianUs = times[Math.floor(times.length / 2)] as number;
      const analyzeTimes: number[] = [];
      for (let i = 0; i < Math.min(times.length, 50); i++) {
        const text = `${base}\n#a${i}`;
        const started = process.hrtime.bigint();
        engine.analyzeCommand(text, engine.DEFAULT_TABLE, null);
        analyzeTimes.push(Number(process.hrtime.bigint() - started) / 1e3);
      }
      analyzeTimes.sort((a, b) => a - b);
      const row: ParseRow = {
        shape,
        kb,
        chars: base.length,
        samples: times.length,
        medianUs,
        maxUs: times[times.length - 1] as number,
        usPerKb: medianUs / kb,
        analyzeUs: analyzeTimes[Math.floor(analyzeTimes.length / 2)] as number,
        decision,
      };
      rows.push(row);
      log(
        `  parse ${shape} ${kb} KB: ${fmtMs(row.medianUs)} median, ${fmtMs(row.maxUs)} max, ${Math.round(row.usPerKb)} µs/KB, reading alone ${fmtMs(row.analyzeUs)} (${decision})`,
      );
    }
  }
  return rows;
}

function fmtMs(us: number): string {
  return us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${Math.round(us)} µs`;
}

export function renderParse(rows: readonly ParseRow[]): string {
  const sizes = [...new Set(rows.map((r) => r.kb))];
  const label = (kb: number) => (kb >= 1024 ? `${kb / 1024} MB` : `${kb} KB`);
  const lines = [
    '',
    'Parse curve: one decide() on a command of each size (median; µs per KB; reading = analyzeCommand alone)',
    '',
    `  ${'shape'.padEnd(15)}${sizes.map((kb) => label(kb).padStart(11)).join('')}`,
  ];
  for (const shape of Object.keys(SHAPES)) {
    const of = rows.filter((r) => r.shape === shape);
    if (of.length === 0) continue;
    lines.push(`  ${shape.padEnd(15)}${of.map((r) => fmtMs(r.medianUs).padStart(11)).join('')}`);
    lines.push(
      `  ${'  µs/KB'.padEnd(15)}${of.map((r) => String(Math.round(r.usPerKb)).padStart(11)).join('')}`,
    );
    lines.push(
      `  ${'  reading'.padEnd(15)}${of.map((r) => fmtMs(r.analyzeUs).padStart(11)).join('')}`,
    );
  }
  lines.push('');
  for (const [shape, { describe }] of Object.entries(SHAPES)) lines.push(`  ${shape}: ${describe}`);
  const worst = rows.reduce((a, b) => (b.maxUs > a.maxUs ? b : a), rows[0] as ParseRow);
  lines.push(
    `  slowest single decision: ${fmtMs(worst.maxUs)} (${worst.shape}, ${label(worst.kb)}); past the limits a command is unparseable (prompt)`,
  );
  return lines.join('\n');
}

export function parseJsonLines(rows: readonly ParseRow[]): string[] {
  return rows.map((row) => JSON.stringify({ type: 'parse', ...row }));
}

/** The engine as built, for run.ts. */
export const BUILT_ENGINE: ParseEngine = {
  analyzeCommand,
  compilePolicy,
  decide,
  validatePolicy,
  DEFAULT_TABLE,
};
