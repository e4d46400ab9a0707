// The hook part of `npm run bench`: the wall time of one `warden hook
// claude-code` call, as Claude Code pays it for every tool call — a process
// started, one `PreToolUse` input read, one answer printed — beside Node's own
// start (`node -e 0`), connected to a `warden serve` on loopback (a process
// of its own) and
// standalone on a policy file (which opens the store to record the call).

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../packages/warden/bin/warden.js', import.meta.url));
const SERVER = fileURLToPath(new URL('./hook-server.mjs', import.meta.url));

/** `warden serve` in a process of its own (bench/hook-server.mjs): its URL, an agent's token, and how to stop it. */
async function serve(
  dir: string,
): Promise<{ url: string; token: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [SERVER, dir, JSON.stringify(POLICY)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`the bench server exited with ${String(code)}`)));
  });
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  return {
    url,
    token,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

export interface HookRow {
  readonly name: string;
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly runs: number;
}

export interface HookReport {
  readonly rows: readonly HookRow[];
  /** Each hook row's median over Node's. */
  readonly ratios: Readonly<Record<string, number>>;
}

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [{ id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } }],
};

/** One call, timed from spawn to exit; the server runs in this process, so the wait must not block it. */
function once(
  args: string[],
  input: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code, out, err }),
    );
    child.stdin.end(input);
  });
}

async function timed(
  name: string,
  runs: number,
  args: string[],
  input: string,
  env: NodeJS.ProcessEnv,
): Promise<HookRow> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const ran = await once(args, input, env);
    if (ran.code !== 0 || (args.length > 2 && !ran.out.includes('"permissionDecision":"deny"')))
      throw new Error(`${name}: exit ${String(ran.code)}: ${ran.err}${ran.out}`);
    if (args.length > 2 && !ran.out.includes('protect-main'))
      throw new Error(`${name}: not decided by the policy: ${ran.out}`);
    times.push(ran.ms);
  }
  times.sort((a, b) => a - b);
  return {
    name,
    medianMs: times[Math.floor(times.length / 2)] as number,
    p90Ms: times[Math.min(times.length - 1, Math.floor(times.length * 0.9))] as number,
    runs,
  };
}

export async function runHookBench(
  quick: boolean,
  log: (message: string) => void,
): Promise<HookReport> {
  const runs = quick ? 5 : 20;
  log(`hook: ${runs} calls each`);
  const dir = mkdtempSync(join(tmpdir(), 'warden-bench-hook-'));
  const policyFile = join(dir, 'policy.json');
  writeFileSync(policyFile, JSON.stringify(POLICY));
  const input = JSON.stringify({
    hook_event_name: 'PreToolUse',
    cwd: dir,
    tool_name: 'Bash',
    tool_input: { command: 'git push origin main' },
    tool_use_id: 'toolu_bench',
  });
  const running = await serve(dir);
  try {
    const base = { ...process.env, WARDEN_LOG_LEVEL: 'silent', WARDEN_URL: '', WARDEN_TOKEN: '' };
    const node = await timed('node -e 0 (Node’s own start)', runs, ['-e', '0'], '', base);
    const connected = await timed(
      'hook, connected (warden serve on loopback)',
      runs,
      [BIN, 'hook', 'claude-code'],
      input,
      { ...base, WARDEN_URL: running.url, WARDEN_TOKEN: running.token },
    );
    const standalone = await timed(
      'hook, standalone (policy file, audit on SQLite)',
      runs,
      [BIN, 'hook', 'claude-code', '--policy', policyFile, '--data', join(dir, 'local')],
      input,
      base,
    );
    const rows = [node, connected, standalone];
    for (const r of rows) log(`  ${r.name}: ${r.medianMs.toFixed(0)} ms`);
    return {
      rows,
      ratios: {
        connected: connected.medianMs / node.medianMs,
        standalone: standalone.medianMs / node.medianMs,
      },
    };
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderHook(report: HookReport): string {
  const lines = [
    '',
    'Claude Code hook: wall time per call (a process per tool call, as Claude Code runs it)',
    '',
    `  ${'call'.padEnd(50)} ${'median'.padStart(9)} ${'p90'.padStart(9)}`,
    ...report.rows.map(
      (r) =>
        `  ${r.name.padEnd(50)} ${`${r.medianMs.toFixed(0)} ms`.padStart(9)} ${`${r.p90Ms.toFixed(0)} ms`.padStart(9)}`,
    ),
    '',
    `  connected / Node: ${report.ratios.connected?.toFixed(2)}×   standalone / Node: ${report.ratios.standalone?.toFixed(2)}×`,
  ];
  return lines.join('\n');
}

export function hookJsonLines(report: HookReport): string[] {
  return [
    ...report.rows.map((r) => JSON.stringify({ kind: 'hook', ...r })),
    JSON.stringify({ kind: 'hook-ratios', ...report.ratios }),
  ];
}
