// Turns bench measurements into the human tables, the ratios and the target
// marks (informational only), and into the --json lines.

import type { Agreement } from './agree.js';

export type EngineName = 'warden' | 'cedar' | 'cedar-preparsed' | 'casbin';
export type Kind = 'class' | 'shell';

export interface Row {
  readonly rules: number;
  readonly engine: EngineName;
  readonly kind: Kind;
  readonly p50us: number;
  readonly p99us: number;
  readonly opsPerSec: number;
  readonly samples: number;
}

export interface SizeInfo {
  readonly rules: number;
  readonly agents: number;
  readonly spaces: number;
  readonly wardenCompileMs: number;
  readonly cedarTextKb: number;
  readonly cedarPreparseMs: number;
  readonly casbinLoadMs: number;
  readonly agreement: Agreement;
}

export interface Compile {
  readonly rules: number;
  /** validatePolicy + compilePolicy, median of `runs`. */
  readonly compileMs: number;
  readonly validateMs: number;
  readonly compileOnlyMs: number;
  readonly runs: number;
}

export interface Target {
  readonly name: string;
  /** null when the sizes run do not allow the check. */
  readonly pass: boolean | null;
  readonly detail: string;
}

export interface Ratios {
  readonly cedarOverWarden: Record<string, number>;
  readonly cedarPreparsedOverWarden: Record<string, number>;
  readonly casbinOverWarden: Record<string, number>;
  /** Warden class p50 at the largest size over the smallest (50,000 over 50 by default). */
  readonly wardenFlatness: number | null;
  readonly wardenShellFlatness: number | null;
  readonly flatnessSizes: readonly [number, number] | null;
}

function find(
  rows: readonly Row[],
  rules: number,
  engine: EngineName,
  kind: Kind,
): Row | undefined {
  return rows.find((r) => r.rules === rules && r.engine === engine && r.kind === kind);
}

function ratio(a: Row | undefined, b: Row | undefined): number | undefined {
  if (a === undefined || b === undefined || b.p50us <= 0) return undefined;
  return a.p50us / b.p50us;
}

export function computeRatios(rows: readonly Row[], sizes: readonly number[]): Ratios {
  const cedarOverWarden: Record<string, number> = {};
  const cedarPreparsedOverWarden: Record<string, number> = {};
  const casbinOverWarden: Record<string, number> = {};
  for (const size of sizes) {
    const warden = find(rows, size, 'warden', 'class');
    const pairs: [Record<string, number>, EngineName][] = [
      [cedarOverWarden, 'cedar'],
      [cedarPreparsedOverWarden, 'cedar-preparsed'],
      [casbinOverWarden, 'casbin'],
    ];
    for (const [into, engine] of pairs) {
      const value = ratio(find(rows, size, engine, 'class'), warden);
      if (value !== undefined) into[String(size)] = round(value, 1);
    }
  }
  const sorted = [...sizes].sort((a, b) => a - b);
  const small = sorted[0];
  const large = sorted[sorted.length - 1];
  let wardenFlatness: number | null = null;
  let wardenShellFlatness: number | null = null;
  let flatnessSizes: [number, number] | null = null;
  if (small !== undefined && large !== undefined && small !== large) {
    flatnessSizes = [large, small];
    const c = ratio(find(rows, large, 'warden', 'class'), find(rows, small, 'warden', 'class'));
    const s = ratio(find(rows, large, 'warden', 'shell'), find(rows, small, 'warden', 'shell'));
    wardenFlatness = c === undefined ? null : round(c, 2);
    wardenShellFlatness = s === undefined ? null : round(s, 2);
  }
  return {
    cedarOverWarden,
    cedarPreparsedOverWarden,
    casbinOverWarden,
    wardenFlatness,
    wardenShellFlatness,
    flatnessSizes,
  };
}

export function evaluateTargets(
  rows: readonly Row[],
  sizes: readonly number[],
  ratios: Ratios,
  compile: Compile | null,
): Target[] {
  const targets: Target[] = [];

  const at5k = sizes.includes(5_000);
  const cedar = ratios.cedarOverWarden['5000'];
  const casbin = ratios.casbinOverWarden['5000'];
  if (!at5k || cedar === undefined || casbin === undefined) {
    targets.push({
      name: 'p50 @5,000: >=100x lower than cedar and casbin',
      pass: null,
      detail: 'size 5,000 not run',
    });
  } else {
    const worst = Math.min(cedar, casbin);
    const pass = worst >= 100;
    const detail = `cedar ${fmtRatio(cedar)}, casbin ${fmtRatio(casbin)}${pass ? '' : `; short by ${fmtRatio(100 / worst)} (worst ${fmtRatio(worst)} vs 100x)`}`;
    targets.push({ name: 'p50 @5,000: >=100x lower than cedar and casbin', pass, detail });
  }

  if (ratios.wardenFlatness === null || !(sizes.includes(50) && sizes.includes(50_000))) {
    targets.push({
      name: 'p50 @50,000 within 2x of p50 @50',
      pass: null,
      detail: 'sizes 50 and 50,000 not both run',
    });
  } else {
    const f = ratios.wardenFlatness;
    targets.push({
      name: 'p50 @50,000 within 2x of p50 @50',
      pass: f <= 2,
      detail: `class ${f.toFixed(2)}x${ratios.wardenShellFlatness === null ? '' : `, shell ${ratios.wardenShellFlatness.toFixed(2)}x`}${f <= 2 ? '' : `; ${(f / 2).toFixed(2)}x over the limit`}`,
    });
  }

  const big = find(rows, 50_000, 'warden', 'class');
  if (big === undefined) {
    targets.push({
      name: 'class request p50 @50,000 < 5 µs',
      pass: null,
      detail: 'size 50,000 not run',
    });
  } else {
    const pass = big.p50us < 5;
    targets.push({
      name: 'class request p50 @50,000 < 5 µs',
      pass,
      detail: `${fmtUs(big.p50us)} µs${pass ? '' : `; ${(big.p50us / 5).toFixed(2)}x the limit`}`,
    });
  }

  const shells = rows.filter((r) => r.engine === 'warden' && r.kind === 'shell');
  if (shells.length === 0) {
    targets.push({
      name: 'shell request p50 < 30 µs (every size)',
      pass: null,
      detail: 'no shell rows',
    });
  } else {
    const worst = shells.reduce((a, b) => (b.p50us > a.p50us ? b : a));
    const pass = worst.p50us < 30;
    targets.push({
      name: 'shell request p50 < 30 µs (every size)',
      pass,
      detail: `worst ${fmtUs(worst.p50us)} µs @${worst.rules.toLocaleString('en-US')}${pass ? '' : `; ${(worst.p50us / 30).toFixed(2)}x the limit`}`,
    });
  }

  if (compile === null || compile.rules !== 50_000) {
    targets.push({
      name: 'compile 50,000 rules < 1 s',
      pass: null,
      detail:
        compile === null
          ? 'not measured'
          : `measured at ${compile.rules} rules: ${compile.compileMs.toFixed(1)} ms`,
    });
  } else {
    const pass = compile.compileMs < 1_000;
    targets.push({
      name: 'compile 50,000 rules < 1 s',
      pass,
      detail: `${compile.compileMs.toFixed(1)} ms (median of ${compile.runs})${pass ? '' : `; ${(compile.compileMs / 1000).toFixed(2)}x the limit`}`,
    });
  }
  return targets;
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function fmtUs(us: number): string {
  if (us < 10) return us.toFixed(2);
  if (us < 1_000) return us.toFixed(1);
  return Math.round(us).toLocaleString('en-US');
}

function fmtRatio(r: number): string {
  return r >= 100 ? `${Math.round(r).toLocaleString('en-US')}x` : `${r.toFixed(1)}x`;
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function pct(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${part}/${whole} (${((100 * part) / whole).toFixed(1)}%)`;
}

export function renderHuman(
  header: string,
  infos: readonly SizeInfo[],
  rows: readonly Row[],
  ratios: Ratios,
  targets: readonly Target[],
  compile: Compile | null,
): string {
  const out: string[] = [header, ''];
  for (const info of infos) {
    out.push(
      `== ${info.rules.toLocaleString('en-US')} rules (${info.agents.toLocaleString('en-US')} agents, ${info.spaces.toLocaleString('en-US')} spaces) ==`,
    );
    out.push(
      `   setup: warden compile ${info.wardenCompileMs.toFixed(1)} ms; cedar text ${info.cedarTextKb.toFixed(0)} kB, preparse ${info.cedarPreparseMs.toFixed(1)} ms; casbin load ${info.casbinLoadMs.toFixed(1)} ms`,
    );
    out.push(
      `   ${pad('engine', 16)}${pad('kind', 7)}${pad('p50 µs', 12, true)}${pad('p99 µs', 12, true)}${pad('ops/s', 13, true)}${pad('samples', 9, true)}`,
    );
    for (const r of rows.filter((row) => row.rules === info.rules)) {
      out.push(
        `   ${pad(r.engine, 16)}${pad(r.kind, 7)}${pad(fmtUs(r.p50us), 12, true)}${pad(fmtUs(r.p99us), 12, true)}${pad(Math.round(r.opsPerSec).toLocaleString('en-US'), 13, true)}${pad(String(r.samples), 9, true)}`,
      );
    }
    const a = info.agreement;
    out.push(
      `   agreement on ${a.checked} class requests (warden outcome, prompt = deny): casbin ${pct(a.casbinAgree, a.checked)}, cedar ${pct(a.cedarAgree, a.checked)}`,
    );
    out.push(
      `     decided by an allow/deny rule: ${a.ruleDecided}; casbin ${pct(a.ruleDecidedCasbinAgree, a.ruleDecided)}, cedar ${pct(a.ruleDecidedCedarAgree, a.ruleDecided)}`,
    );
    out.push(
      `     cedar disagreements where warden allows and cedar denies: ${a.cedarStricter}/${a.checked - a.cedarAgree}; cedar isAuthorized = preparsed: ${a.plainAgree}/${a.plainChecked}`,
    );
    out.push('');
  }

  out.push('== ratios (p50, class requests) ==');
  const sizes = infos.map((i) => String(i.rules));
  out.push(
    `   ${pad('rules', 24)}${sizes.map((s) => pad(Number(s).toLocaleString('en-US'), 12, true)).join('')}`,
  );
  const line = (label: string, values: Record<string, number>): string =>
    `   ${pad(label, 24)}${sizes.map((s) => pad(values[s] === undefined ? '-' : fmtRatio(values[s]), 12, true)).join('')}`;
  out.push(line('cedar / warden', ratios.cedarOverWarden));
  out.push(line('cedar-preparsed / warden', ratios.cedarPreparsedOverWarden));
  out.push(line('casbin / warden', ratios.casbinOverWarden));
  if (ratios.flatnessSizes !== null) {
    const [large, small] = ratios.flatnessSizes;
    out.push(
      `   flatness warden p50 @${large.toLocaleString('en-US')} / @${small.toLocaleString('en-US')}: class ${ratios.wardenFlatness?.toFixed(2) ?? '-'}x, shell ${ratios.wardenShellFlatness?.toFixed(2) ?? '-'}x`,
    );
  }
  if (compile !== null) {
    out.push(
      `   warden compile (validatePolicy + compilePolicy) @${compile.rules.toLocaleString('en-US')}: ${compile.compileMs.toFixed(1)} ms (median of ${compile.runs}; validatePolicy ${compile.validateMs.toFixed(1)} ms, compilePolicy ${compile.compileOnlyMs.toFixed(1)} ms)`,
    );
  }
  out.push('');
  out.push('== targets (informational) ==');
  for (const t of targets) {
    const mark = t.pass === null ? 'n/a ' : t.pass ? 'PASS' : 'FAIL';
    out.push(`   [${mark}] ${t.name}: ${t.detail}`);
  }
  return out.join('\n');
}

export function jsonLines(
  rows: readonly Row[],
  ratios: Ratios,
  targets: readonly Target[],
  compile: Compile | null,
): string[] {
  const lines = rows.map((r) =>
    JSON.stringify({
      rules: r.rules,
      engine: r.engine,
      kind: r.kind,
      p50us: round(r.p50us, 3),
      p99us: round(r.p99us, 3),
      opsPerSec: Math.round(r.opsPerSec),
    }),
  );
  if (compile !== null) {
    lines.push(
      JSON.stringify({
        rules: compile.rules,
        engine: 'warden',
        kind: 'compile',
        compileMs: round(compile.compileMs, 2),
      }),
    );
  }
  lines.push(
    JSON.stringify({
      ratios: {
        cedarOverWarden: ratios.cedarOverWarden,
        cedarPreparsedOverWarden: ratios.cedarPreparsedOverWarden,
        casbinOverWarden: ratios.casbinOverWarden,
        wardenFlatness: ratios.wardenFlatness,
        wardenShellFlatness: ratios.wardenShellFlatness,
        flatnessSizes: ratios.flatnessSizes,
      },
      targets: targets.map((t) => ({ name: t.name, pass: t.pass, detail: t.detail })),
    }),
  );
  return lines;
}
