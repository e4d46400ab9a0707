// The agents row of `npm run bench`: what Warden adds to a tool call as a user
// feels it, in each real agent CLI (Claude Code, Codex, Gemini CLI), driven
// offline against a fake model API as `../shared/harness/` does. The time of
// one tool round trip — from the model's request that returned the tool call
// to the request that carried its result back, hooks and sandbox included —
// is taken from the fake API's request log (`toolcall-ms.js`'s measure), for
//   - an allowed `echo hi > a.txt`, run under Warden's sandbox (Codex with
//     `-s danger-full-access`, so that Warden's sandbox runs it), and
//   - a denied `git push origin main`,
// each with no Warden, with Warden standalone (a policy file) and connected
// (a `warden serve` on this machine), the hooks installed as `warden hook
// install` writes them (the resident runner's client, for the call and its
// completion). The ways alternate run by run; the row is the median of each.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateClaude, runClaude } from '../packages/warden/test/support/claude-cli.js';
import type { ClaudeRun } from '../packages/warden/test/support/claude-cli.js';
import { codexScratch, locateCodex, runCodex } from '../packages/warden/test/support/codex-cli.js';
import { locateGemini, runGemini } from '../packages/warden/test/support/gemini-cli.js';
import { serve } from '../packages/warden/test/support/processes.js';

const BIN = fileURLToPath(new URL('../packages/warden/bin/warden.js', import.meta.url));
const HOOK_CLIENT = fileURLToPath(new URL('../packages/warden/bin/warden-hook', import.meta.url));

type Runtime = 'claude-code' | 'codex' | 'gemini';
type Way = 'none' | 'standalone' | 'connected';
type Case = 'allowed' | 'denied';

export interface AgentRow {
  readonly runtime: Runtime;
  readonly version: string;
  readonly case: Case;
  readonly runs: number;
  /** Median tool round trip in ms, per way; null where it did not run. */
  readonly noneMs: number | null;
  readonly standaloneMs: number | null;
  readonly connectedMs: number | null;
}

export interface AgentsBench {
  readonly rows: readonly AgentRow[];
  readonly skipped: readonly string[];
}

const POLICY = `version: 1
workspace: acme
rules:
  - { id: spawn, action: processSpawn, decision: allow }
  - { id: protect-main, action: gitPush, decision: deny, when: { refs: [main] } }
`;

const COMMANDS: Readonly<Record<Case, string>> = {
  allowed: 'echo hi > a.txt',
  denied: 'git push origin main',
};

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

/** The round trip from the request answered with the tool call to the one that carried its result. */
function roundTrip(requests: readonly { reply: string; at: number }[]): number | null {
  const call = requests.findIndex((r) => /#1$/.test(r.reply));
  if (call < 0) return null;
  const back = requests.findIndex(
    (r, k) => k > call && (r.reply === 'final' || /#2$/.test(r.reply)),
  );
  if (back < 0) return null;
  return (requests[back]?.at ?? 0) - (requests[call]?.at ?? 0);
}

export async function runAgentsBench(
  quick: boolean,
  log: (message: string) => void,
): Promise<AgentsBench> {
  const runs = quick ? 3 : 10;
  const root = mkdtempSync(join(tmpdir(), 'warden-bench-agents-'));
  const skipped: string[] = [];
  const rows: AgentRow[] = [];
  const policy = join(root, 'policy.yaml');
  writeFileSync(policy, POLICY);
  // The connected server, with the same policy and an agent token.
  const serverData = join(root, 'server');
  mkdirSync(serverData);
  spawnSync(process.execPath, [BIN, 'policy', 'apply', policy, '--data', serverData]);
  const made = spawnSync(
    process.execPath,
    [
      BIN,
      'token',
      'create',
      '--json',
      '--data',
      serverData,
      '--role',
      'agent',
      '--name',
      'bench',
      '--workspace',
      'acme',
      '--agent',
      'bench',
    ],
    { encoding: 'utf8' },
  );
  const token = (JSON.parse(made.stdout) as { token: string }).token;
  const served = await serve(['--data', serverData], { WARDEN_LOG_LEVEL: 'silent' });
  const runnerData: string[] = [];
  try {
    const runtimes: { runtime: Runtime; located: ReturnType<typeof locateClaude> }[] = [
      { runtime: 'claude-code', located: locateClaude() },
      { runtime: 'codex', located: locateCodex() },
      { runtime: 'gemini', located: locateGemini() },
    ];
    for (const { runtime, located } of runtimes) {
      if ('missing' in located) {
        skipped.push(`${runtime}: ${located.missing}`);
        continue;
      }
      for (const kase of ['allowed', 'denied'] as const) {
        const times: Record<Way, number[]> = { none: [], standalone: [], connected: [] };
        // One warm-up of each way (the runner starts on the first call), then the measured runs.
        for (let i = -1; i < runs; i++) {
          for (const way of ['none', 'standalone', 'connected'] as const) {
            const cwd =
              runtime === 'codex'
                ? codexScratch('warden-bench-')
                : mkdtempSync(join(root, `${runtime}-`));
            // Each session its own worktree; the runner's data folder is shared per way.
            const data = join(root, `data-${runtime}-${way}`);
            if (!runnerData.includes(data)) runnerData.push(data);
            const hook =
              way === 'none'
                ? []
                : [
                    '/bin/sh',
                    HOOK_CLIENT,
                    process.execPath,
                    runtime,
                    ...(way === 'standalone'
                      ? ['--policy', policy, '--data', data]
                      : ['--server', served.url, '--data', data]),
                  ];
            const env = way === 'connected' ? { WARDEN_TOKEN: token } : {};
            const ms = await sessionMs(runtime, located.bin, cwd, hook, env, COMMANDS[kase]);
            if (runtime === 'codex') rmSync(cwd, { recursive: true, force: true });
            if (i < 0) continue;
            if (ms === null) log(`  agents ${runtime} ${kase} ${way}: no round trip measured`);
            else times[way].push(ms);
          }
        }
        const row: AgentRow = {
          runtime,
          version: located.version,
          case: kase,
          runs,
          noneMs: median(times.none),
          standaloneMs: median(times.standalone),
          connectedMs: median(times.connected),
        };
        rows.push(row);
        log(
          `  agents ${runtime} ${kase}: none ${fmt(row.noneMs)}, standalone ${fmt(row.standaloneMs)}, connected ${fmt(row.connectedMs)} (median of ${runs})`,
        );
      }
    }
  } finally {
    for (const data of runnerData)
      spawnSync(process.execPath, [BIN, 'runner', 'stop', '--data', data], { stdio: 'ignore' });
    await served.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
  return { rows, skipped };
}

async function sessionMs(
  runtime: Runtime,
  bin: string,
  cwd: string,
  hook: readonly string[],
  env: Record<string, string>,
  command: string,
): Promise<number | null> {
  const withHook = hook.length > 0;
  if (runtime === 'claude-code') {
    const run: ClaudeRun = await runClaude({
      bin,
      rawHook: true,
      calls: [{ name: 'Bash', input: { command, description: 'bench' } }],
      hook,
      cwd,
      env,
      completions: withHook,
    });
    return roundTrip(run.requests);
  }
  if (runtime === 'codex') {
    const run = await runCodex({
      bin,
      rawHook: true,
      calls: [{ name: 'exec_command', arguments: { cmd: command } }],
      hook: withHook ? hook : ['true'],
      cwd,
      env,
      sandbox: 'danger-full-access',
      completions: withHook,
      ...(withHook ? {} : { events: [] }),
    });
    return roundTrip(run.requests);
  }
  const run = await runGemini({
    bin,
    rawHook: true,
    calls: [{ name: 'run_shell_command', args: { command, description: 'bench' } }],
    hook: withHook ? hook : ['true'],
    cwd,
    env,
    completions: withHook,
    ...(withHook ? {} : { events: [] }),
  });
  return roundTrip(run.requests);
}

function fmt(ms: number | null): string {
  return ms === null ? '—' : `${ms} ms`;
}

function added(base: number | null, value: number | null): string {
  if (base === null || value === null) return '—';
  const d = value - base;
  return `${d >= 0 ? '+' : ''}${d} ms`;
}

export function renderAgents(bench: AgentsBench): string {
  const lines = [
    '',
    'Agent CLIs: one tool round trip as the user feels it (median), without Warden and with it',
    '',
    '  runtime              case      no Warden   standalone (added)     connected (added)',
    ...bench.rows.map(
      (r) =>
        `  ${`${r.runtime} ${r.version}`.padEnd(20)} ${r.case.padEnd(9)} ${fmt(r.noneMs).padStart(9)}   ${`${fmt(r.standaloneMs)} (${added(r.noneMs, r.standaloneMs)})`.padEnd(20)}   ${fmt(r.connectedMs)} (${added(r.noneMs, r.connectedMs)})`,
    ),
    ...bench.skipped.map((s) => `  skipped: ${s}`),
  ];
  return lines.join('\n');
}

export function agentsJsonLines(bench: AgentsBench): string[] {
  return [
    ...bench.rows.map((r) => JSON.stringify({ kind: 'agents', ...r })),
    ...bench.skipped.map((s) => JSON.stringify({ kind: 'agents', skipped: s })),
  ];
}
