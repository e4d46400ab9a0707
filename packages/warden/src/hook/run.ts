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
// Every call is judged against the worktree the hook is bound to
// (`worktree.ts`: `--worktree`, the runtime's project folder, or the folder
// it started the hook in), never the `cwd` the input names, which the model
// may choose.

import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ClaudeCodeAnswer } from './claude-code.js';
import { claudeCode } from './claude-code.js';
import type { CallContext } from '../gate/types.js';
import type { JsonValue } from '../store/types.js';
import type { Warden } from '../warden.js';
import type { HookCompletion } from './completion.js';
import { endingOf } from './completion.js';
import type { GatePlan } from './plan.js';
import { recordable } from './plan.js';
import { BadAnswer, postJson } from './post.js';
import type { HookInput, HookRuntime } from './runtime.js';
import type { RunnerSource } from './sandboxed.js';
import { isRunnerCommand, planSandbox, runnerCommand } from './sandboxed.js';
import { illFormedProblem } from '../well-formed.js';
import { boundWorktree, dataFolder } from './worktree.js';

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
  /**
   * The worktree calls are bound to (absolute): judged against, the decision's
   * `worktree` and the sandbox's writable root. Default: the runtime's
   * project folder (`CLAUDE_PROJECT_DIR`, `GEMINI_PROJECT_DIR`), else the
   * folder the runtime started the hook in (`worktree.ts`).
   */
  readonly worktree?: string | undefined;
}

export interface HookIo {
  readonly stdin: () => Promise<string>;
  readonly out: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** Where a warning goes that the runtime's answer cannot carry (standard error). */
  readonly err?: (text: string) => void;
  /** The folder the runtime started the hook in (default: this process's working folder). */
  readonly cwd?: () => string;
}

/** Claude Code's own default hook timeout is 60 s; the hook answers a little before it. */
export const DEFAULT_TIMEOUT_SECONDS = 55;
/** Claude Code's input is small; a larger one is not from Claude Code. */
const MAX_INPUT_BYTES = 4 * 1024 * 1024;

/** A signal that aborts after `ms`, without holding the process open. */
function deadline(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error('the deadline passed')), ms).unref();
  return controller.signal;
}

/** The seconds the hook has to answer, or a problem with `--timeout`. */
export function timeoutSeconds(options: HookOptions): number | string {
  if (options.timeout === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const seconds = Number(options.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600)
    return `\`--timeout ${options.timeout}\` is not a number of seconds between 0 and 3600`;
  return seconds;
}

/** Reads standard input whole; rejects past the size limit. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) throw new Error('the input is larger than 4 MiB');
    chunks.push(buffer);
  }
  try {
    return STRICT_UTF8.decode(Buffer.concat(chunks));
  } catch {
    // A runtime writes its JSON as UTF-8: bytes that are not are refused, never read as U+FFFD.
    throw new Error('the input is not UTF-8 text');
  }
}

/** How one hook run answers: in its runtime's format, every reason said by Warden. */
interface Answering<A extends object> {
  readonly runtime: Pick<HookRuntime, 'name' | 'title' | 'event'>;
  allow(reason: string, updatedInput?: Readonly<Record<string, unknown>>): A;
  deny(reason: string): A;
}

function answering<A extends object>(
  runtime: Pick<HookRuntime<HookInput, A>, 'name' | 'title' | 'event' | 'allow' | 'deny'>,
): Answering<A> {
  return {
    runtime,
    allow: (reason, updatedInput) => runtime.allow(`Warden: ${reason}`, updatedInput),
    deny: (reason) => runtime.deny(`Warden: ${reason}`),
  };
}

function parseInput<I extends HookInput>(
  runtime: HookRuntime<I, object>,
  text: string,
): { call: I } | { completion: I & HookCompletion } | string {
  const expected = `${runtime.title}’s \`${runtime.event}\` JSON on standard input`;
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    return text.trim() === ''
      ? `no input: the hook reads ${expected}`
      : `the input is not JSON: the hook reads ${expected}`;
  }
  const broken = illFormedProblem(raw, 'the input');
  if (broken !== null) return broken;
  const event = (raw as { hook_event_name?: unknown } | null)?.hook_event_name;
  if (runtime.completionEvents.includes(event as string)) {
    const completion = runtime.readCompletion(raw);
    if (Array.isArray(completion))
      return `the input is not a \`${String(event)}\` call: ${completion.join('; ')}`;
    return { completion };
  }
  const read = runtime.read(raw);
  if (Array.isArray(read))
    return `the input is not a \`${runtime.event}\` call: ${read.join('; ')}`;
  return { call: read };
}

/**
 * The decision's outcome as Claude Code's answer: only `allow` lets the call
 * run. A shell command that is to run sandboxed is allowed only with a grant,
 * as the rewritten command that runs it under Warden's sandbox.
 */
function fromDecision<A extends object>(
  a: Answering<A>,
  outcome: unknown,
  reason: unknown,
  sandboxed: { plan: GatePlan; grant: unknown; source: RunnerSource } | null = null,
): A {
  const why = typeof reason === 'string' && reason !== '' ? reason : 'no reason given';
  if (outcome === 'deny') return a.deny(why);
  if (outcome !== 'allow')
    return a.deny(`the decision was \`${String(outcome)}\`, not allow: ${why}`);
  const shell = sandboxed?.plan.shell;
  if (sandboxed === null || shell === undefined) return a.allow(why);
  if (typeof sandboxed.grant !== 'string' || sandboxed.grant === '')
    return a.deny(
      `the decision allowed the command but came without a grant to run it sandboxed (is the server older than this hook?): ${why}`,
    );
  // In a folder outside the worktree it runs there, read-only: only the worktree is written.
  const where =
    shell.elsewhere === undefined
      ? ''
      : `, in \`${shell.elsewhere}\`, which it may read but not write: only the worktree \`${sandboxed.plan.worktree}\` is writable`;
  return a.allow(`${why} (runs under Warden's sandbox${where})`, {
    ...shell.input,
    command: runnerCommand(
      sandboxed.grant,
      sandboxed.plan.worktree,
      shell.command,
      sandboxed.source,
    ),
  });
}

async function connected<A extends object>(
  a: Answering<A>,
  server: string,
  token: string,
  plan: GatePlan,
  options: HookOptions,
  signal: AbortSignal,
  sandboxed: boolean,
): Promise<A> {
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
    response = await postJson(url, token, JSON.stringify(body), signal, a.runtime.name);
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof BadAnswer)
      return a.deny(`the Warden server at ${server} sent ${error.message}: denied, fail-closed`);
    const code = (error as NodeJS.ErrnoException).code;
    return a.deny(
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
    return a.deny(
      `the Warden server could not record this decision, so it is denied: ${answer.failure}`,
    );
  if (response.status === 200 && answer !== null)
    return fromDecision(
      a,
      answer.outcome,
      answer.reason,
      sandboxed ? { plan, grant: answer.grant, source: { server } } : null,
    );
  const errors = (answer?.errors as { message?: string }[] | undefined)
    ?.map((e) => e.message)
    .filter((m): m is string => typeof m === 'string');
  const said = errors !== undefined && errors.length > 0 ? `: ${errors.join('; ')}` : '';
  return a.deny(`the Warden server answered HTTP ${response.status}${said}: denied, fail-closed`);
}

/**
 * Standalone: the policy file's workspace, the call's context in it, and
 * Warden opened on the data folder (without a writer thread: one call, one
 * record, and starting a thread would cost more than writing it here); or why
 * the file cannot be used.
 */
async function openStandalone(
  file: string,
  data: string,
  options: HookOptions,
  io: HookIo,
  runtime: Pick<HookRuntime, 'name'>,
): Promise<
  { readonly warden: Warden; readonly context: CallContext } | { readonly problem: string }
> {
  const [{ loadPolicyFile }, { openWarden }] = await Promise.all([
    import('../policy/load.js'),
    import('../warden.js'),
  ]);
  const loaded = loadPolicyFile(file, 'workspace', () => '');
  if (!loaded.ok)
    return {
      problem: `the policy \`${file}\` cannot be used: ${loaded.issues.map((i) => `${i.path === '' ? '' : `${i.path}: `}${i.message}`).join('; ')}`,
    };
  const workspace = loaded.value.policy.workspace;
  if (workspace === undefined) return { problem: `the policy \`${file}\` names no workspace` };
  const warden = await openWarden({
    data,
    policyFile: file,
    managedPolicyFile: options.managed ?? io.env.WARDEN_MANAGED_POLICY ?? null,
    env: io.env,
    auditThread: false,
  });
  return {
    warden,
    context: {
      workspace,
      agent: options.agent ?? runtime.name,
      source: runtime.name,
      ...(options.space === undefined ? {} : { space: options.space }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
    },
  };
}

async function standalone<A extends object>(
  a: Answering<A>,
  file: string,
  data: string,
  plan: GatePlan,
  options: HookOptions,
  io: HookIo,
  signal: AbortSignal,
  sandboxed: boolean,
): Promise<A> {
  const opened = await openStandalone(file, data, options, io, a.runtime);
  if ('problem' in opened) return a.deny(opened.problem);
  const { warden, context } = opened;
  try {
    const decision = await warden.gate.decide({ ...context, worktree: plan.worktree }, plan.ask, {
      signal,
    });
    // A decision that could not be recorded is a deny (contracts §8).
    if (decision.auditId === undefined)
      return a.deny(
        `Warden could not record this decision, so it is denied: ${decision.failure ?? decision.reason}`,
      );
    if (!sandboxed || decision.outcome !== 'allow' || plan.ask.command === undefined)
      return fromDecision(a, decision.outcome, decision.reason);
    const { grantKey, issueGrant } = await import('../sandbox/grant.js');
    const grant = issueGrant(await grantKey(warden.store.secrets), {
      auditId: decision.auditId,
      command: plan.ask.command,
      worktree: plan.worktree,
      at: Date.now(),
    });
    const managed = options.managed ?? io.env.WARDEN_MANAGED_POLICY;
    return fromDecision(a, decision.outcome, decision.reason, {
      plan,
      grant,
      source: {
        policy: file,
        data,
        ...(managed === undefined || managed === '' ? {} : { managed }),
      },
    });
  } finally {
    await warden.close();
  }
}

/** A path the call names (or the folder it acts in) inside the data folder, if it names one. */
function dataFolderTouched(paths: readonly string[], data: string): string | null {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const folder = real(resolve(data));
  for (const target of paths) {
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
export function answerHook(io: HookIo, options: HookOptions): Promise<ClaudeCodeAnswer>;
export function answerHook<I extends HookInput, A extends object>(
  io: HookIo,
  options: HookOptions,
  runtime: HookRuntime<I, A>,
): Promise<A>;
export async function answerHook(
  io: HookIo,
  options: HookOptions,
  runtime: HookRuntime<HookInput, object> = claudeCode as unknown as HookRuntime<HookInput, object>,
): Promise<object> {
  const a = answering(runtime);
  const seconds = timeoutSeconds(options);
  if (typeof seconds === 'string') return a.deny(seconds);
  const signal = deadline(seconds * 1000);
  const server = options.server ?? io.env.WARDEN_URL;
  const token = options.token ?? io.env.WARDEN_TOKEN;
  const hasServer = server !== undefined && server !== '';
  if (hasServer && options.policy !== undefined)
    return a.deny('give either `--server` (connected) or `--policy` (standalone), not both');
  let text: string;
  try {
    text = await io.stdin();
  } catch (error) {
    return a.deny(`cannot read the input: ${(error as Error).message}`);
  }
  const parsed = parseInput(runtime, text);
  if (typeof parsed === 'string') return a.deny(parsed);
  if ('completion' in parsed)
    return answerCompletion(runtime, parsed.completion, options, io, signal, seconds);
  const input = parsed.call;
  const bound = boundWorktree(options.worktree, runtime, io.env, io.cwd ?? (() => process.cwd()));
  if ('problem' in bound) return a.deny(`${bound.problem}: every call is judged against it`);
  const { worktree } = bound;
  const data = dataFolder(options.data, worktree);
  // Standalone, the data folder holds the audit log and the key grants are signed with: no
  // call may name a file in it, nor act in it (a command run there reaches it by a relative path).
  if (!hasServer && options.policy !== undefined) {
    const touched = dataFolderTouched([input.cwd, ...runtime.namedPaths(input)], data);
    if (touched !== null)
      return a.deny(
        touched === input.cwd
          ? `\`${input.toolName}\` acts in \`${touched}\`, in Warden's data folder, which no agent may read or change`
          : `\`${input.toolName}\` reaches \`${touched}\` in Warden's data folder, which no agent may read or change`,
      );
  }
  let plan = await runtime.plan(input, {
    worktree,
    gateway: options.gateway ?? 'warden',
    gatewayConfig: options.gatewayConfig,
  });
  if (plan.kind === 'refuse') return a.deny(plan.reason);
  if (plan.kind === 'ungated') return a.allow(plan.reason);
  let sandboxed = false;
  const shell = plan.shell;
  if (shell !== undefined) {
    const chosen = planSandbox(options.sandbox, plan.worktree, io.env);
    if (chosen.kind === 'refuse') return a.deny(chosen.reason);
    const unavailable =
      chosen.kind === 'rewrite' ? (runtime.sandboxUnavailable?.(input) ?? null) : null;
    if (unavailable !== null && options.sandbox === 'required')
      return a.deny(
        `shell commands must run sandboxed (\`--sandbox required\`), but ${unavailable}`,
      );
    // Never silent: the record says the command ran under the runtime's sandbox alone.
    if (unavailable !== null)
      plan = {
        ...plan,
        ask: {
          ...plan.ask,
          arguments: {
            ...(typeof plan.ask.arguments === 'object' && plan.ask.arguments !== null
              ? plan.ask.arguments
              : {}),
            sandbox: `not Warden's: ${unavailable}; its sandbox alone does not hide the credential folders or Warden's data folder`,
          },
        },
      };
    if (chosen.kind === 'rewrite' && unavailable === null) {
      // Decided as it will run, by `warden exec` (`plan.ts`, `planShell`): in the worktree; in a
      // folder outside it, as `cd <folder> && …`, which is then the very line the grant names.
      // Where the runner will run it over a layer, its unreadable parts are decided on what it
      // does (E44), so the decision is asked as a transactional run.
      const layered = chosen.transactional ? { transactional: true } : {};
      plan =
        shell.elsewhere === undefined
          ? {
              ...plan,
              worktree: chosen.worktree,
              ask: { ...plan.ask, command: shell.command, ...layered },
            }
          : {
              ...plan,
              worktree: chosen.worktree,
              ask: { ...plan.ask, ...layered },
              shell: { ...shell, command: plan.ask.command ?? shell.command },
            };
      sandboxed = true;
    }
  }
  try {
    if (hasServer) {
      if (token === undefined || token === '')
        return a.deny(
          `no token for ${server}: set WARDEN_TOKEN (an \`agent\` token) or give --token`,
        );
      return await connected(a, server, token, plan, options, signal, sandboxed);
    }
    if (options.policy !== undefined)
      return await standalone(a, options.policy, data, plan, options, io, signal, sandboxed);
  } catch (error) {
    if (signal.aborted)
      return a.deny(
        `no decision within ${seconds} s (raise the hook's \`timeout\` and \`--timeout\` together): denied, fail-closed`,
      );
    throw error;
  }
  return a.deny(
    'the hook has no policy: give `--server URL` with a token (or WARDEN_URL and WARDEN_TOKEN), or `--policy FILE`',
  );
}

/**
 * Records how a call ended (`hook/completion.ts`, `gate/completion.ts`) and
 * answers the runtime that it may go on: the call has run, so nothing here
 * denies; a completion that cannot be recorded is said on standard error
 * (and to the user where the runtime shows a message). Not recorded here: a
 * shell command Warden rewrote, which `warden exec` recorded as it ran, and
 * a tool of Warden's MCP gateway, which the gateway records.
 */
async function answerCompletion<I extends HookInput, A extends object>(
  runtime: HookRuntime<I, A>,
  completion: I & HookCompletion,
  options: HookOptions,
  io: HookIo,
  signal: AbortSignal,
  seconds: number,
): Promise<A> {
  const warn = (why: string): A => {
    const warning = `Warden: how \`${completion.toolName}\` ended is not recorded: ${why}`;
    io.err?.(`${warning}\n`);
    return runtime.completed(warning);
  };
  const command = completion.toolInput.command;
  if (typeof command === 'string' && isRunnerCommand(command)) return runtime.completed();
  const bound = boundWorktree(options.worktree, runtime, io.env, io.cwd ?? (() => process.cwd()));
  if ('problem' in bound) return warn(bound.problem);
  const plan = await runtime.plan(completion, {
    worktree: bound.worktree,
    gateway: options.gateway ?? 'warden',
    gatewayConfig: options.gatewayConfig,
  });
  if (plan.kind === 'ungated' && plan.gateway === true) return runtime.completed();
  const ungated = plan.kind === 'ungated' ? plan.reason : undefined;
  const input = recordable(completion.toolInput);
  const server = options.server ?? io.env.WARDEN_URL;
  const token = options.token ?? io.env.WARDEN_TOKEN;
  try {
    if (server !== undefined && server !== '') {
      if (token === undefined || token === '')
        return warn(
          `no token for ${server}: set WARDEN_TOKEN (an \`agent\` token) or give --token`,
        );
      const body = {
        completes: completion.match,
        tool: completion.toolName,
        status: completion.status,
        ...(completion.durationMs === undefined ? {} : { durationMs: completion.durationMs }),
        ...(completion.error === undefined ? {} : { error: completion.error }),
        arguments: endingOf(completion),
        input,
        ...(ungated === undefined ? {} : { ungated }),
      };
      const url = `${server.replace(/\/+$/, '')}/v1/audit`;
      const response = await postJson(url, token, JSON.stringify(body), signal, runtime.name);
      // 409: recorded already (a runtime that sends the event twice).
      if (response.status === 201 || response.status === 409) return runtime.completed();
      return warn(`the Warden server answered HTTP ${response.status}${errorsIn(response.text)}`);
    }
    if (options.policy === undefined)
      return warn('the hook has no policy: give `--server URL` with a token, or `--policy FILE`');
    const [opened, { recordCompletion }] = await Promise.all([
      openStandalone(
        options.policy,
        dataFolder(options.data, bound.worktree),
        options,
        io,
        runtime,
      ),
      import('../gate/completion.js'),
    ]);
    if ('problem' in opened) return warn(opened.problem);
    const { warden, context } = opened;
    try {
      await recordCompletion(
        warden.gate,
        warden.store.audit,
        context,
        {
          match: completion.match,
          tool: completion.toolName,
          status: completion.status,
          ending: endingOf(completion),
          input: input as JsonValue,
          ...(completion.durationMs === undefined ? {} : { durationMs: completion.durationMs }),
          ...(completion.error === undefined ? {} : { error: completion.error }),
          ...(ungated === undefined ? {} : { ungated }),
        },
        Date.now(),
      );
      return runtime.completed();
    } finally {
      await warden.close();
    }
  } catch (error) {
    if (signal.aborted) return warn(`no answer within ${seconds} s`);
    return warn(error instanceof Error ? error.message : String(error));
  }
}

/** The messages of a problem answer, for a warning. */
function errorsIn(text: string): string {
  try {
    const errors = (JSON.parse(text) as { errors?: { message?: unknown }[] }).errors
      ?.map((e) => e.message)
      .filter((m): m is string => typeof m === 'string');
    return errors === undefined || errors.length === 0 ? '' : `: ${errors.join('; ')}`;
  } catch {
    return '';
  }
}

/** Runs the hook: prints the answer, and exits 0 — a deny is an answer, not a failure. */
export async function runHook<I extends HookInput, A extends object>(
  io: HookIo,
  options: HookOptions,
  runtime: HookRuntime<I, A>,
): Promise<number> {
  let answer: A;
  try {
    answer = await answerHook(io, options, runtime);
  } catch (error) {
    answer = answering(runtime).deny(
      `internal error: ${error instanceof Error ? error.message : String(error)}: denied, fail-closed`,
    );
  }
  io.out(`${JSON.stringify(answer)}\n`);
  return 0;
}
