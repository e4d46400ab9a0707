// `warden hook claude-code`: reads one `PreToolUse` input on standard input
// and prints Claude Code's answer. Claude Code lets a call through when a hook
// crashes, times out or prints bad JSON (G37), so every way this can go wrong
// — bad input, no policy, an unreachable or silent server, an internal error,
// the deadline — ends as an explicit deny: the deny JSON with exit 0 here, and
// exit 2 with the reason on standard error where even that cannot be done
// (see `bin/warden.js`). Connected (`--server`/WARDEN_URL with a token) the
// server decides and humans answer prompts; standalone (`--policy FILE`) the
// file decides, prompts are denied (G22) and the audit goes to `--data`.
// `--gateway-config FILE` maps the MCP servers Claude Code reaches directly.

import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { hookAnswer, planCall, readPreToolUse } from './claude-code.js';
import type { HookPlan, PreToolUse } from './claude-code.js';
import type { RunnerSource } from './sandboxed.js';
import { planSandbox, runnerCommand } from './sandboxed.js';
import { illFormedProblem } from '../well-formed.js';

export interface HookOptions {
  readonly server?: string | undefined;
  readonly token?: string | undefined;
  readonly policy?: string | undefined;
  readonly managed?: string | undefined;
  readonly data?: string | undefined;
  readonly agent?: string | undefined;
  readonly space?: string | undefined;
  readonly mode?: string | undefined;
  /** The MCP server name Claude Code knows Warden's gateway by (default `warden`). */
  readonly gateway?: string | undefined;
  /**
   * A gateway configuration (contracts §7) whose `tools` map the `mcp__<server>__<tool>`
   * calls of servers Claude Code talks to directly, as the gateway would map them.
   */
  readonly gatewayConfig?: string | undefined;
  /** Seconds to answer in; stay under the hook's `timeout` in Claude Code's settings (60 s by default). */
  readonly timeout?: string | undefined;
  /**
   * How allowed `Bash` commands run: `auto` (default) under Warden's sandbox
   * where the host has a backend, `required` denied where it has none, `off`
   * as they are.
   */
  readonly sandbox?: string | undefined;
}

export interface HookIo {
  readonly stdin: () => Promise<string>;
  readonly out: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** Claude Code's own default hook timeout is 60 s; the hook answers a little before it. */
export const DEFAULT_TIMEOUT_SECONDS = 55;
/** Claude Code's input is small; a larger one is not from Claude Code. */
const MAX_INPUT_BYTES = 4 * 1024 * 1024;

const DENY = (reason: string) => hookAnswer('deny', `Warden: ${reason}`);

/** The seconds the hook has to answer, or a problem with `--timeout`. */
export function timeoutSeconds(options: HookOptions): number | string {
  if (options.timeout === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const seconds = Number(options.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600)
    return `\`--timeout ${options.timeout}\` is not a number of seconds between 0 and 3600`;
  return seconds;
}

/** Reads standard input whole; rejects past the size limit. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) throw new Error('the input is larger than 4 MiB');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type Answer = ReturnType<typeof hookAnswer>;

function parseInput(text: string): PreToolUse | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    return text.trim() === ''
      ? 'no input: the hook reads Claude Code’s `PreToolUse` JSON on standard input'
      : 'the input is not JSON: the hook reads Claude Code’s `PreToolUse` JSON on standard input';
  }
  const broken = illFormedProblem(raw, 'the input');
  if (broken !== null) return broken;
  const read = readPreToolUse(raw);
  if (Array.isArray(read)) return `the input is not a \`PreToolUse\` call: ${read.join('; ')}`;
  return read;
}

type GatePlan = Extract<HookPlan, { kind: 'gate' }>;

/**
 * The decision's outcome as Claude Code's answer: only `allow` lets the call
 * run. A shell command that is to run sandboxed is allowed only with a grant,
 * as the rewritten command that runs it under Warden's sandbox.
 */
function fromDecision(
  outcome: unknown,
  reason: unknown,
  sandboxed: { plan: GatePlan; grant: unknown; source: RunnerSource } | null = null,
): Answer {
  const why = typeof reason === 'string' && reason !== '' ? reason : 'no reason given';
  if (outcome === 'deny') return DENY(why);
  if (outcome !== 'allow')
    return DENY(`the decision was \`${String(outcome)}\`, not allow: ${why}`);
  const shell = sandboxed?.plan.shell;
  if (sandboxed === null || shell === undefined) return hookAnswer('allow', `Warden: ${why}`);
  if (typeof sandboxed.grant !== 'string' || sandboxed.grant === '')
    return DENY(
      `the decision allowed the command but came without a grant to run it sandboxed (is the server older than this hook?): ${why}`,
    );
  return hookAnswer('allow', `Warden: ${why} (runs under Warden's sandbox)`, {
    ...shell.input,
    command: runnerCommand(
      sandboxed.grant,
      sandboxed.plan.worktree,
      shell.command,
      sandboxed.source,
    ),
  });
}

/** A decision is a few KiB; an answer larger than this is not from a Warden server, and is a deny. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

class AnswerTooLarge extends Error {
  constructor() {
    super(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`);
    this.name = 'AnswerTooLarge';
  }
}

/**
 * POSTs JSON with node's own HTTP client: `fetch` loads its implementation on
 * first use, which would cost the hook more than its request does. The whole
 * exchange — connecting, sending, and reading the answer to its end — is
 * bounded by `signal`: a server that drips its answer slowly is cut off at
 * the deadline like one that never answers, and one that sends too much is
 * cut off at the size limit.
 */
async function postJson(
  url: string,
  token: string,
  body: string,
  signal: AbortSignal,
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const { request } = await (target.protocol === 'https:'
    ? import('node:https')
    : import('node:http'));
  let onAbort: () => void = () => undefined;
  return new Promise<{ status: number; text: string }>((resolvePost, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(error);
    };
    onAbort = () => fail(new Error('the deadline passed'));
    const req = request(
      target,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-warden-adapter': 'claude-code',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) fail(new AnswerTooLarge());
          else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          resolvePost({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', fail);
        res.on('close', () => fail(new Error('the connection closed before the answer ended')));
      },
    );
    req.on('error', fail);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    req.end(body);
  }).finally(() => signal.removeEventListener('abort', onAbort));
}

async function connected(
  server: string,
  token: string,
  plan: GatePlan,
  options: HookOptions,
  signal: AbortSignal,
  sandboxed: boolean,
): Promise<Answer> {
  const url = `${server.replace(/\/+$/, '')}/v1/decide`;
  const body = {
    ...plan.ask,
    worktree: plan.worktree,
    ...(sandboxed ? { grant: true } : {}),
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(options.space === undefined ? {} : { space: options.space }),
    ...(options.mode === undefined ? {} : { mode: options.mode }),
  };
  let response: { status: number; text: string };
  try {
    response = await postJson(url, token, JSON.stringify(body), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof AnswerTooLarge)
      return DENY(`the Warden server at ${server} sent ${error.message}: denied, fail-closed`);
    const code = (error as NodeJS.ErrnoException).code;
    return DENY(
      `cannot reach the Warden server at ${server} (${code ?? (error as Error).message}): denied, fail-closed`,
    );
  }
  const { text } = response;
  let answer: Record<string, unknown> | null = null;
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  // A decision the server could not record (503, or a `failure` without `auditId`) is a deny.
  if (
    answer !== null &&
    typeof answer === 'object' &&
    typeof answer.failure === 'string' &&
    (response.status === 503 || typeof answer.auditId !== 'string')
  )
    return DENY(
      `the Warden server could not record this decision, so it is denied: ${answer.failure}`,
    );
  if (response.status === 200 && answer !== null)
    return fromDecision(
      answer.outcome,
      answer.reason,
      sandboxed ? { plan, grant: answer.grant, source: { server } } : null,
    );
  const errors = (answer?.errors as { message?: string }[] | undefined)
    ?.map((e) => e.message)
    .filter((m): m is string => typeof m === 'string');
  const said = errors !== undefined && errors.length > 0 ? `: ${errors.join('; ')}` : '';
  return DENY(`the Warden server answered HTTP ${response.status}${said}: denied, fail-closed`);
}

async function standalone(
  file: string,
  plan: GatePlan,
  options: HookOptions,
  io: HookIo,
  signal: AbortSignal,
  sandboxed: boolean,
): Promise<Answer> {
  const [{ loadPolicyFile }, { openWarden }] = await Promise.all([
    import('../policy/load.js'),
    import('../warden.js'),
  ]);
  const loaded = loadPolicyFile(file, 'workspace', () => '');
  if (!loaded.ok)
    return DENY(
      `the policy \`${file}\` cannot be used: ${loaded.issues.map((i) => `${i.path === '' ? '' : `${i.path}: `}${i.message}`).join('; ')}`,
    );
  const workspace = loaded.value.policy.workspace;
  if (workspace === undefined) return DENY(`the policy \`${file}\` names no workspace`);
  const warden = await openWarden({
    data: options.data ?? '.warden',
    policyFile: file,
    managedPolicyFile: options.managed ?? io.env.WARDEN_MANAGED_POLICY ?? null,
    env: io.env,
    // One call, one record: starting a writer thread would cost more than writing it here.
    auditThread: false,
  });
  try {
    const decision = await warden.gate.decide(
      {
        workspace,
        agent: options.agent ?? 'claude-code',
        source: 'claude-code',
        worktree: plan.worktree,
        ...(options.space === undefined ? {} : { space: options.space }),
        ...(options.mode === undefined ? {} : { mode: options.mode }),
      },
      plan.ask,
      { signal },
    );
    // A decision that could not be recorded is a deny (contracts §8).
    if (decision.auditId === undefined)
      return DENY(
        `Warden could not record this decision, so it is denied: ${decision.failure ?? decision.reason}`,
      );
    if (!sandboxed || decision.outcome !== 'allow' || plan.ask.command === undefined)
      return fromDecision(decision.outcome, decision.reason);
    const { grantKey, issueGrant } = await import('../sandbox/grant.js');
    const grant = issueGrant(await grantKey(warden.store.secrets), {
      auditId: decision.auditId,
      command: plan.ask.command,
      worktree: plan.worktree,
      at: Date.now(),
    });
    const managed = options.managed ?? io.env.WARDEN_MANAGED_POLICY;
    return fromDecision(decision.outcome, decision.reason, {
      plan,
      grant,
      source: {
        policy: file,
        data: options.data ?? '.warden',
        ...(managed === undefined || managed === '' ? {} : { managed }),
      },
    });
  } finally {
    await warden.close();
  }
}

/** The arguments of Claude Code's file tools that name a path. */
const PATH_KEYS = ['file_path', 'notebook_path', 'path'] as const;

/** The path a file tool's call names inside the data folder, if it names one. */
function dataFolderTouched(input: PreToolUse, data: string): string | null {
  if (input.tool_name === 'Bash' || input.tool_name.startsWith('mcp__')) return null;
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const folder = real(resolve(data));
  for (const key of PATH_KEYS) {
    const value = input.tool_input[key];
    if (typeof value !== 'string' || value === '') continue;
    const target = resolve(input.cwd, value);
    // The real path of what exists of it: a link into the folder counts as the folder.
    let existing = target;
    while (existing !== dirname(existing) && !existsSync(existing)) existing = dirname(existing);
    const resolved = join(real(existing), relative(existing, target));
    const rel = relative(folder, resolved);
    if (rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)))
      return target;
  }
  return null;
}

/** The answer to one call. Never throws for bad input; the caller turns a throw into a deny. */
export async function answerHook(io: HookIo, options: HookOptions): Promise<Answer> {
  const seconds = timeoutSeconds(options);
  if (typeof seconds === 'string') return DENY(seconds);
  const signal = AbortSignal.timeout(seconds * 1000);
  const server = options.server ?? io.env.WARDEN_URL;
  const token = options.token ?? io.env.WARDEN_TOKEN;
  const hasServer = server !== undefined && server !== '';
  if (hasServer && options.policy !== undefined)
    return DENY('give either `--server` (connected) or `--policy` (standalone), not both');
  let text: string;
  try {
    text = await io.stdin();
  } catch (error) {
    return DENY(`cannot read the input: ${(error as Error).message}`);
  }
  const input = parseInput(text);
  if (typeof input === 'string') return DENY(input);
  // Standalone, the data folder holds the audit log and the key grants are signed with.
  if (!hasServer && options.policy !== undefined) {
    const touched = dataFolderTouched(input, options.data ?? '.warden');
    if (touched !== null)
      return DENY(
        `\`${input.tool_name}\` reaches \`${touched}\` in Warden's data folder, which no agent may read or change`,
      );
  }
  let plan = await planCall(input, options.gateway ?? 'warden', options.gatewayConfig);
  if (plan.kind === 'refuse') return DENY(plan.reason);
  if (plan.kind === 'ungated') return hookAnswer('allow', `Warden: ${plan.reason}`);
  let sandboxed = false;
  if (plan.shell !== undefined) {
    const chosen = planSandbox(options.sandbox, plan.worktree, io.env);
    if (chosen.kind === 'refuse') return DENY(chosen.reason);
    if (chosen.kind === 'rewrite') {
      plan = { ...plan, worktree: chosen.worktree };
      sandboxed = true;
    }
  }
  try {
    if (hasServer) {
      if (token === undefined || token === '')
        return DENY(
          `no token for ${server}: set WARDEN_TOKEN (an \`agent\` token) or give --token`,
        );
      return await connected(server, token, plan, options, signal, sandboxed);
    }
    if (options.policy !== undefined)
      return await standalone(options.policy, plan, options, io, signal, sandboxed);
  } catch (error) {
    if (signal.aborted)
      return DENY(
        `no decision within ${seconds} s (raise the hook's \`timeout\` and \`--timeout\` together): denied, fail-closed`,
      );
    throw error;
  }
  return DENY(
    'the hook has no policy: give `--server URL` with a token (or WARDEN_URL and WARDEN_TOKEN), or `--policy FILE`',
  );
}

/** Runs the hook: prints the answer, and exits 0 — a deny is an answer, not a failure. */
export async function runHook(io: HookIo, options: HookOptions): Promise<number> {
  let answer: Answer;
  try {
    answer = await answerHook(io, options);
  } catch (error) {
    answer = DENY(
      `internal error: ${error instanceof Error ? error.message : String(error)}: denied, fail-closed`,
    );
  }
  io.out(`${JSON.stringify(answer)}\n`);
  return 0;
}
