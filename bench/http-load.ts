// The HTTP bench's load process: autocannon over loopback against POST
// /v1/decide, first of `warden serve` (SQLite, every decision durable before
// it is answered), then of a bare Hono endpoint answering a constant with the
// same requests and an answer of the same size. Prints one JSON result on
// stdout (http.ts reads it).
//
// Three processes, not one: this one (autocannon and nothing else), and the
// server under test in a process of its own (http-server.ts), one server at a
// time. On 2 cores a load generator in the server's process would take its
// turns on the server's one event loop: both would run at half speed, and the
// bare endpoint, which costs about as much to serve as to load, would lose
// more than Warden, flattering the ratio. Apart, the OS gives each its own
// core (Warden's audit writer thread shares them); autocannon still takes
// CPU the server could have used, equally for both servers, so the ratio is
// the fairer figure than either rate. Nothing else of the bench runs meanwhile.
//
// A measured run is a fixed amount of requests (the warm-up's rate times the
// duration, so it lasts about that long), not a duration: at the end of a
// timed run autocannon drops its connections with up to 50 requests in
// flight, which Warden still decides and records, so the audit log could not
// be matched to the 2xx count. Rates are answers over the time from the start
// to the last answer; latencies are autocannon's per-answer times (its own
// histogram keeps whole milliseconds only).

import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { ServerCommand, ServerKind, ServerMessage } from './http-server.js';

export const CONNECTIONS = 50;
export const PIPELINING = 1;

export interface HttpRun {
  readonly server: ServerKind;
  /** Answers in the measured run (2xx and not). */
  readonly answers: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly ms: number;
  readonly perSec: number;
  readonly p50ms: number;
  readonly p99ms: number;
  readonly maxMs: number;
  readonly warmupPerSec: number;
  /** Status codes other than 2xx, with their counts. */
  readonly statuses: Readonly<Record<string, number>>;
}

export interface MixItem {
  readonly label: string;
  readonly outcome: string;
  readonly decision: string;
  readonly rule: string;
  readonly bytes: number;
}

export interface HttpResult {
  readonly connections: number;
  readonly pipelining: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly agents: number;
  readonly requestBytes: number;
  readonly answerBytes: number;
  readonly mix: readonly MixItem[];
  readonly runs: readonly HttpRun[];
  readonly audit: {
    /** `decision` entries written during the measured run, and the 2xx answers it got. */
    readonly decisions: number;
    readonly ok: number;
    /** `call` entries with status Denied written then, and the denies the mix predicts. */
    readonly denied: number;
    readonly expectedDenied: number;
    readonly entries: number;
  };
}

/** A realistic mix: allows and denies, classes and command lines, four agents. */
export const MIX: readonly { readonly label: string; readonly body: Record<string, unknown> }[] = [
  {
    label: 'git push feature/login',
    body: {
      tool: 'git_push',
      actions: ['gitPush'],
      args: { refs: ['feature/login'] },
      arguments: { remote: 'origin', ref: 'feature/login' },
    },
  },
  {
    label: 'git push main',
    body: {
      tool: 'git_push',
      actions: ['gitPush'],
      args: { refs: ['main'] },
      arguments: { remote: 'origin', ref: 'main' },
    },
  },
  {
    label: 'git commit',
    body: {
      tool: 'git_commit',
      actions: ['gitCommit'],
      arguments: { message: 'Fix the login form validation' },
    },
  },
  {
    label: 'fetch api.github.com',
    body: {
      tool: 'web_fetch',
      actions: ['networkEgress'],
      args: { hosts: ['api.github.com'] },
      arguments: { url: 'https://api.github.com/repos/acme/api/pulls?state=open' },
    },
  },
  {
    label: 'run `npm test`',
    body: {
      tool: 'run_command',
      command: 'npm test -- --reporter=dot',
      worktree: '/srv/agents/api',
      arguments: { command: 'npm test -- --reporter=dot' },
    },
  },
  {
    label: 'fetch billing.prod.internal',
    body: {
      tool: 'web_fetch',
      actions: ['networkEgress'],
      args: { hosts: ['billing.prod.internal'] },
      arguments: { url: 'https://billing.prod.internal/v1/invoices' },
    },
  },
  {
    label: 'run `git status && git diff --stat`',
    body: {
      tool: 'run_command',
      command: 'git status && git diff --stat',
      worktree: '/srv/agents/api',
      arguments: { command: 'git status && git diff --stat' },
    },
  },
  {
    label: 'delete repos/api/dist/index.js',
    body: {
      tool: 'delete_file',
      actions: ['fileDelete'],
      args: { paths: ['repos/api/dist/index.js'] },
      arguments: { path: 'repos/api/dist/index.js' },
    },
  },
  {
    label: 'run `rm -rf node_modules && npm ci`',
    body: {
      tool: 'run_command',
      command: 'rm -rf node_modules && npm ci',
      worktree: '/srv/agents/api',
      arguments: { command: 'rm -rf node_modules && npm ci' },
    },
  },
  {
    label: 'git push release/2.4 (command)',
    body: {
      tool: 'run_command',
      actions: ['gitPush'],
      command: 'git push origin release/2.4',
      args: { refs: ['release/2.4'] },
      worktree: '/srv/agents/api',
      arguments: { command: 'git push origin release/2.4' },
    },
  },
  {
    label: 'run `npm install zod@4`',
    body: {
      tool: 'run_command',
      command: 'npm install zod@4',
      worktree: '/srv/agents/api',
      arguments: { command: 'npm install zod@4' },
    },
  },
  {
    label: 'create a PR (prompt, no approver)',
    body: {
      tool: 'create_pr',
      actions: ['prCreate'],
      arguments: { title: 'Fix the login form validation', base: 'main' },
    },
  },
];

const SERVER = fileURLToPath(new URL('./http-server.ts', import.meta.url));

export class ServerProcess {
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;

  constructor(kind: ServerKind, constant?: string) {
    // BENCH_HTTP_CPU_PROF=<dir>: a V8 CPU profile of each server, in <dir>/<kind>.
    const prof = process.env.BENCH_HTTP_CPU_PROF;
    this.child = fork(SERVER, constant === undefined ? [kind] : [kind, constant], {
      execArgv: [
        ...process.execArgv,
        ...(prof === undefined || prof === ''
          ? []
          : ['--cpu-prof', `--cpu-prof-dir=${join(prof, kind)}`]),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** The next message, or an error if the process ends first. */
  next<T extends ServerMessage['type']>(type: T): Promise<Extract<ServerMessage, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`the server under test ended (exit ${String(code)}) before \`${type}\``));
      this.child.once('exit', onExit);
      this.child.once('message', (message: ServerMessage) => {
        this.child.off('exit', onExit);
        if (message.type !== type)
          reject(new Error(`expected \`${type}\` from the server, got \`${message.type}\``));
        else resolve(message as Extract<ServerMessage, { type: T }>);
      });
    });
  }

  send(command: ServerCommand): void {
    this.child.send(command);
  }

  async count(): Promise<Extract<ServerMessage, { type: 'count' }>> {
    const answer = this.next('count');
    this.send({ type: 'count' });
    return answer;
  }

  async stop(): Promise<void> {
    this.send({ type: 'stop' });
    const code = await this.exited;
    if (code !== 0) throw new Error(`the server under test stopped with exit ${String(code)}`);
  }
}

export interface Load {
  readonly result: autocannon.Result;
  readonly answers: number;
  readonly ms: number;
  /** Answers per second over the second half of the run (the warm-up's steady rate). */
  readonly lateRate: number;
  readonly latencies: Float64Array;
}

/** One autocannon run: `amount` requests, or `seconds` of them. */
export function load(
  url: string,
  requests: autocannon.Request[],
  until: { readonly amount: number } | { readonly seconds: number },
  connections = CONNECTIONS,
): Promise<Load> {
  return new Promise((resolve, reject) => {
    const size = 'amount' in until ? until.amount : 0;
    const latencies = new Float64Array(size);
    let answers = 0;
    let last = 0;
    const started = performance.now();
    const half = 'seconds' in until ? started + (until.seconds * 1000) / 2 : Infinity;
    let atHalf: { answers: number; at: number } | null = null;
    const instance = autocannon(
      {
        url,
        connections,
        pipelining: PIPELINING,
        requests,
        ...('amount' in until ? { amount: until.amount } : { duration: until.seconds }),
      },
      (error: unknown, result: autocannon.Result) => {
        if (error !== null && error !== undefined) reject(error as Error);
        else
          resolve({
            result,
            answers,
            ms: last - started,
            lateRate:
              atHalf === null ? 0 : ((answers - atHalf.answers) / (last - atHalf.at)) * 1000,
            latencies: latencies.subarray(0, Math.min(answers, size)),
          });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      if (answers < size) latencies[answers] = responseTime;
      answers++;
      last = performance.now();
      if (atHalf === null && last >= half) atHalf = { answers, at: last };
    });
  });
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

/** Waits until the server has written what it was sent (a timed warm-up leaves requests in flight). */
export async function settle(server: ServerProcess): Promise<void> {
  let before = (await server.count()).entries;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const now = (await server.count()).entries;
    if (now === before) return;
    before = now;
  }
}

/** Warms up, then measures about `seconds` of requests. */
async function measure(
  kind: ServerKind,
  server: ServerProcess,
  url: string,
  requests: autocannon.Request[],
  seconds: number,
  warmupSeconds: number,
  log: (message: string) => void,
): Promise<{
  run: HttpRun;
  before: ServerCountMessage;
  after: ServerCountMessage;
  amount: number;
}> {
  log(`http: ${kind}: warm-up ${warmupSeconds} s`);
  const warm = await load(url, requests, { seconds: warmupSeconds });
  // The first second runs cold (the JIT, first queries): its second half sets the amount.
  const warmupPerSec = warm.lateRate > 0 ? warm.lateRate : (warm.answers / warm.ms) * 1000;
  await settle(server);
  const amount = Math.max(CONNECTIONS * 20, Math.round(warmupPerSec * seconds));
  log(
    `http: ${kind}: ${amount.toLocaleString('en-US')} requests (warm-up ran at ${Math.round(warmupPerSec).toLocaleString('en-US')}/s)`,
  );
  const before = await server.count();
  const run = await load(url, requests, { amount });
  const after = await server.count();
  const sorted = Float64Array.from(run.latencies).sort();
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(run.result.statusCodeStats ?? {}))
    if (!code.startsWith('2')) statuses[code] = stat.count ?? 0;
  return {
    amount,
    before,
    after,
    run: {
      server: kind,
      answers: run.answers,
      ok: run.result['2xx'],
      non2xx: run.result.non2xx,
      errors: run.result.errors,
      timeouts: run.result.timeouts,
      ms: run.ms,
      perSec: (run.answers / run.ms) * 1000,
      p50ms: percentile(sorted, 0.5),
      p99ms: percentile(sorted, 0.99),
      maxMs: sorted[sorted.length - 1] ?? 0,
      warmupPerSec,
      statuses,
    },
  };
}

type ServerCountMessage = Extract<ServerMessage, { type: 'count' }>;

/** The denies `amount` requests get: autocannon splits them over the connections, each going through the mix in order. */
function expectedDenies(amount: number, denies: readonly boolean[]): number {
  let total = 0;
  for (let i = 0; i < CONNECTIONS; i++) {
    const n = Math.floor(amount / CONNECTIONS) + (i + 1 <= amount % CONNECTIONS ? 1 : 0);
    const rounds = Math.floor(n / denies.length);
    total += rounds * denies.filter(Boolean).length;
    for (let k = 0; k < n % denies.length; k++) if (denies[k] === true) total++;
  }
  return total;
}

async function main(): Promise<void> {
  const quick = process.argv[2] === 'quick';
  const seconds = quick ? 3 : 10;
  const warmupSeconds = quick ? 1 : 3;
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

  const warden = new ServerProcess('warden');
  const ready = await warden.next('ready');
  const requests: autocannon.Request[] = MIX.map((item, i) => ({
    method: 'POST',
    path: '/v1/decide',
    headers: {
      authorization: `Bearer ${ready.tokens[i % ready.tokens.length] ?? ''}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(item.body),
  }));

  // Each request of the mix once: what it decides, and a real answer for the bare endpoint.
  const mix: MixItem[] = [];
  const answers: string[] = [];
  for (const [i, request] of requests.entries()) {
    const response = await fetch(`${ready.url}/v1/decide`, {
      method: 'POST',
      headers: request.headers as Record<string, string>,
      body: request.body as string,
    });
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(`\`${MIX[i]?.label ?? ''}\` got ${response.status}: ${text}`);
    const decision = JSON.parse(text) as { outcome: string; decision: string; rule: string };
    mix.push({
      label: MIX[i]?.label ?? '',
      outcome: decision.outcome,
      decision: decision.decision,
      rule: decision.rule,
      bytes: Buffer.byteLength(text),
    });
    answers.push(text);
  }
  const asks = mix.filter((m) => m.outcome === 'ask');
  if (asks.length > 0)
    throw new Error(`the mix should not wait for a human: ${asks.map((m) => m.label).join(', ')}`);
  const meanBytes = mix.reduce((sum, m) => sum + m.bytes, 0) / mix.length;
  // The bare endpoint answers the real answer whose size is nearest the mean.
  const constant = answers.reduce((best, a) =>
    Math.abs(Buffer.byteLength(a) - meanBytes) < Math.abs(Buffer.byteLength(best) - meanBytes)
      ? a
      : best,
  );

  const runs: HttpRun[] = [];
  const measured = await measure(
    'warden',
    warden,
    ready.url,
    requests,
    seconds,
    warmupSeconds,
    log,
  );
  runs.push(measured.run);
  await warden.stop();

  const bare = new ServerProcess('bare', constant);
  const bareReady = await bare.next('ready');
  runs.push(
    (await measure('bare', bare, bareReady.url, requests, seconds, warmupSeconds, log)).run,
  );
  await bare.stop();

  const result: HttpResult = {
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    seconds,
    warmupSeconds,
    agents: ready.tokens.length,
    requestBytes:
      requests.reduce((sum, r) => sum + Buffer.byteLength(r.body as string), 0) / requests.length,
    answerBytes: Buffer.byteLength(constant),
    mix,
    runs,
    audit: {
      decisions: measured.after.decisions - measured.before.decisions,
      ok: measured.run.ok,
      denied: measured.after.denied - measured.before.denied,
      expectedDenied: expectedDenies(
        measured.amount,
        mix.map((m) => m.outcome === 'deny'),
      ),
      entries: measured.after.entries - measured.before.entries,
    },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
