// The gateway part of `npm run bench`: what `warden gateway` adds to an MCP
// tool call. The real MCP SDK client calls the real memory server twice over,
// directly and through a standalone gateway on stdio (a policy file, the audit
// log on SQLite), with the same calls both ways: `create_entities`, which the
// gateway decides and records before forwarding, and `search_nodes`, a
// read-only tool it forwards and records. The calls alternate between the two
// ways, so both memory files grow alike and a slow moment hits both. The
// issue's goal: the gateway adds at most 1 ms p50 over calling the server directly.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StdioClientTransport,
  getDefaultEnvironment,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { round } from './report.js';

const BIN = fileURLToPath(new URL('../packages/warden/bin/warden.js', import.meta.url));
const MEMORY_SERVER = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url),
);
/** The issue's goal: at most this much more p50 through the gateway than directly. */
export const GATEWAY_GOAL_MS = 1;
const GOAL = `overhead ≤ ${GATEWAY_GOAL_MS} ms p50 over calling the server directly`;

const POLICY = `version: 1
workspace: acme
rules:
  - id: memory-writes
    action: workspaceMutation
    decision: allow
`;

export type Way = 'direct' | 'gateway';
export type CallName = 'create_entities' | 'search_nodes';

export interface WayStats {
  readonly p50ms: number;
  readonly p99ms: number;
  readonly samples: number;
}

export interface GatewayRow {
  readonly call: CallName;
  /** Decided and recorded before it is forwarded (a mapped tool), or only recorded (read-only). */
  readonly gated: boolean;
  readonly direct: WayStats;
  readonly gateway: WayStats;
  /** Gateway p50 − direct p50. */
  readonly overheadMs: number;
  /** Gateway p50 / direct p50. */
  readonly ratio: number;
  readonly met: boolean;
}

export interface GatewayReport {
  readonly rows: readonly GatewayRow[];
  readonly warmup: number;
  /** The OS sandbox the gateway started the server under (`bwrap`), or null when none. */
  readonly sandbox: string | null;
  /** What must hold for the figures to count: every call answered alike both ways, every call audited. */
  readonly checks: readonly { readonly name: string; readonly pass: boolean }[];
}

/** This process's environment without the developer's Warden settings. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('WARDEN_') && key !== 'DATABASE_URL')
      env[key] = value;
  return { ...env, WARDEN_LOG_LEVEL: 'warn' };
}

async function connect(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command, args: [...args], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'bench-agent', version: '1' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** Per tool, the allow decisions and the calls that ended `Ok` in the audit log of `data`. */
function audited(
  data: string,
  env: Record<string, string>,
): { decisions: Record<string, number>; ok: Record<string, number> } {
  const exported = spawnSync(process.execPath, [BIN, 'audit', 'export', '--data', data], {
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (exported.status !== 0) throw new Error(`warden audit export failed: ${exported.stderr}`);
  const decisions: Record<string, number> = {};
  const ok: Record<string, number> = {};
  for (const line of exported.stdout.split('\n')) {
    if (line.trim() === '') continue;
    const e = JSON.parse(line) as {
      kind?: string;
      tool?: string;
      outcome?: string;
      status?: string;
    };
    const tool = e.tool ?? '';
    if (e.kind === 'decision') {
      if (e.outcome === 'allow') decisions[tool] = (decisions[tool] ?? 0) + 1;
    } else if (e.status === 'Ok') ok[tool] = (ok[tool] ?? 0) + 1;
  }
  return { decisions, ok };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

function stats(times: readonly number[]): WayStats {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50ms: percentile(sorted, 50), p99ms: percentile(sorted, 99), samples: sorted.length };
}

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** The i-th call of each kind: names of one width, so a search matches one entity. */
function argsFor(call: CallName, i: number): Record<string, unknown> {
  const name = `bench-${String(i).padStart(6, '0')}`;
  return call === 'create_entities'
    ? { entities: [{ name, entityType: 'thing', observations: [`observed ${i}`] }] }
    : { query: name };
}

export async function runGatewayBench(
  quick: boolean,
  log: (message: string) => void,
): Promise<GatewayReport> {
  const samples = quick ? 40 : 1_000;
  const warmup = quick ? 20 : 200;
  log(`gateway: ${warmup} warm-up and ${samples} timed calls of each kind, each way`);
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-gateway-'));
  const data = join(dir, 'data');
  const memory = join(dir, 'memory');
  mkdirSync(memory);
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, POLICY);
  const config = join(dir, 'gateway.json');
  writeFileSync(
    config,
    JSON.stringify({
      agent: 'bench-agent',
      workspace: 'acme',
      servers: {
        mem: {
          command: process.execPath,
          args: [MEMORY_SERVER],
          env: { MEMORY_FILE_PATH: join(memory, 'through-gateway.jsonl') },
          sandbox: { write: [memory] },
        },
      },
      tools: {
        mem__create_entities: { actions: ['workspaceMutation'] },
        'mem__{read_graph,search_nodes,open_nodes}': { readOnly: true },
        // The rest of the memory server's tools, mapped so the ratchet lets the gateway start.
        'mem__*': { actions: ['workspaceMutation'] },
      },
    }),
  );
  const env = cleanEnv();
  const open: Client[] = [];
  try {
    const direct = await connect(process.execPath, [MEMORY_SERVER], {
      ...getDefaultEnvironment(),
      MEMORY_FILE_PATH: join(memory, 'direct.jsonl'),
    });
    open.push(direct.client);
    const gateway = await connect(
      process.execPath,
      [BIN, 'gateway', '--config', config, '--policy', policy, '--data', data],
      env,
    );
    open.push(gateway.client);

    const clients: Record<Way, Client> = { direct: direct.client, gateway: gateway.client };
    const tool = (way: Way, call: CallName) => (way === 'direct' ? call : `mem__${call}`);
    const times: Record<CallName, Record<Way, number[]>> = {
      create_entities: { direct: [], gateway: [] },
      search_nodes: { direct: [], gateway: [] },
    };
    let alike = true;
    let failed = '';
    const once = async (way: Way, call: CallName, i: number): Promise<[number, string]> => {
      const started = process.hrtime.bigint();
      const result = (await clients[way].callTool({
        name: tool(way, call),
        arguments: argsFor(call, i),
      })) as CallToolResult;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.isError === true) failed ||= `${way} ${call}: ${text(result)}`;
      return [ms, text(result)];
    };
    const total = warmup + samples;
    for (let i = 0; i < total; i++) {
      for (const call of ['create_entities', 'search_nodes'] as const) {
        // Which way goes first alternates, so neither always follows the other.
        const order: Way[] = i % 2 === 0 ? ['direct', 'gateway'] : ['gateway', 'direct'];
        const answers: Partial<Record<Way, string>> = {};
        for (const way of order) {
          const [ms, answer] = await once(way, call, i);
          answers[way] = answer;
          if (i >= warmup) times[call][way].push(ms);
        }
        if (answers.direct !== answers.gateway) alike = false;
      }
      if (failed !== '') throw new Error(`gateway bench: ${failed}\n${gateway.stderr()}`);
    }
    await Promise.all(open.splice(0).map((c) => c.close()));
    const sandbox = /starts under the OS sandbox \(([^)]+)\)/.exec(gateway.stderr())?.[1] ?? null;

    const recorded = audited(data, env);
    const rows: GatewayRow[] = (['create_entities', 'search_nodes'] as const).map((call) => {
      const d = stats(times[call].direct);
      const g = stats(times[call].gateway);
      const overheadMs = g.p50ms - d.p50ms;
      return {
        call,
        gated: call === 'create_entities',
        direct: d,
        gateway: g,
        overheadMs,
        ratio: g.p50ms / d.p50ms,
        met: overheadMs <= GATEWAY_GOAL_MS,
      };
    });
    for (const r of rows)
      log(
        `  ${r.call}: direct p50 ${r.direct.p50ms.toFixed(2)} ms, gateway p50 ${r.gateway.p50ms.toFixed(2)} ms, overhead ${r.overheadMs.toFixed(2)} ms`,
      );
    return {
      rows,
      warmup,
      sandbox,
      checks: [
        { name: 'every call answered the same directly and through the gateway', pass: alike },
        {
          name: `every create_entities decided and recorded (${total} allow decisions, ${total} Ok calls)`,
          pass:
            recorded.decisions.mem__create_entities === total &&
            recorded.ok.mem__create_entities === total,
        },
        {
          name: `every search_nodes recorded without a decision (${total} Ok calls)`,
          pass:
            recorded.ok.mem__search_nodes === total &&
            (recorded.decisions.mem__search_nodes ?? 0) === 0,
        },
      ],
    };
  } finally {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

export function renderGateway(report: GatewayReport): string {
  const lines = [
    '',
    `MCP gateway: wall time per tool call on the MCP SDK client, the memory server directly and through \`warden gateway\` (stdio, standalone, audit on SQLite, the server ${report.sandbox === null ? 'without the OS sandbox' : `under ${report.sandbox}`})`,
    `${report.warmup} warm-up calls each way first; the two ways alternate call by call`,
    '',
    `  ${'call'.padEnd(28)}${'direct p50'.padStart(12)}${'p99'.padStart(10)}${'gateway p50'.padStart(13)}${'p99'.padStart(10)}${'overhead'.padStart(11)}${'ratio'.padStart(8)}${'samples'.padStart(9)}`,
    ...report.rows.map(
      (r) =>
        `  ${`${r.call} (${r.gated ? 'gated' : 'read-only'})`.padEnd(28)}${ms(r.direct.p50ms).padStart(12)}${ms(r.direct.p99ms).padStart(10)}${ms(r.gateway.p50ms).padStart(13)}${ms(r.gateway.p99ms).padStart(10)}${ms(r.overheadMs).padStart(11)}${`${r.ratio.toFixed(2)}×`.padStart(8)}${String(r.gateway.samples).padStart(9)}`,
    ),
    '',
    ...report.rows.map(
      (r) =>
        `  [${r.met ? 'PASS' : 'FAIL'}] ${r.call}: ${GOAL}: ${ms(r.overheadMs)}${r.met ? '' : `; ${ms(r.overheadMs - GATEWAY_GOAL_MS)} over`}`,
    ),
    ...report.checks.map((c) => `  [${c.pass ? 'ok' : 'FAILED'}] ${c.name}`),
  ];
  return lines.join('\n');
}

export function gatewayJsonLines(report: GatewayReport): string[] {
  const met = report.rows.every((r) => r.met);
  return [
    ...report.rows.map((r) =>
      JSON.stringify({
        type: 'gateway',
        name: r.call,
        gated: r.gated,
        samples: r.gateway.samples,
        directP50ms: round(r.direct.p50ms, 3),
        directP99ms: round(r.direct.p99ms, 3),
        p50ms: round(r.gateway.p50ms, 3),
        p99ms: round(r.gateway.p99ms, 3),
        overheadMs: round(r.overheadMs, 3),
        ratio: round(r.ratio, 2),
        goal: GOAL,
        met: r.met,
      }),
    ),
    JSON.stringify({
      type: 'target',
      name: `gateway: ${GOAL}`,
      pass: met,
      detail: report.rows.map((r) => `${r.call} ${ms(r.overheadMs)}`).join(', '),
    }),
    JSON.stringify({ type: 'gateway-checks', checks: report.checks }),
  ];
}
