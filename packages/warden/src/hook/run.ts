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
import type { JsonValue } from '../store/types.js';
import type { HookCompletion } from './completion.js';
import { endingOf } from './completion.js';
import type { GatePlan } from './plan.js';
import { recordable } from './plan.js';
import type { Decider } from '../decider/types.js';
import type { DeciderSpec, OpenDecider } from '../decider/open.js';
import { openForOneCall } from '../decider/open.js';
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
  /** Where deciders come from (default: made for this one call, and closed after it). */
  readonly open?: OpenDecider;
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

/** Who decides, from the hook's options: a server with a token, or a policy file. */
function deciderSpec(
  options: HookOptions,
  io: HookIo,
  data: string,
): DeciderSpec | { readonly problem: string } {
  const server = options.server ?? io.env.WARDEN_URL;
  const token = options.token ?? io.env.WARDEN_TOKEN;
  if (server !== undefined && server !== '') {
    if (options.policy !== undefined)
      return { problem: 'give either `--server` (connected) or `--policy` (standalone), not both' };
    if (token === undefined || token === '')
      return {
        problem: `no token for ${server}: set WARDEN_TOKEN (an \`agent\` token) or give --token`,
      };
    return { kind: 'remote', server, token };
  }
  if (options.policy !== undefined) {
    const managed = options.managed ?? io.env.WARDEN_MANAGED_POLICY;
    return {
      kind: 'local',
      policy: options.policy,
      managed: managed === undefined || managed === '' ? null : managed,
      data,
    };
  }
  return {
    problem:
      'the hook has no policy: give `--server URL` with a token (or WARDEN_URL and WARDEN_TOKEN), or `--policy FILE`',
  };
}

/** Where the runner command of a sandboxed call asks: the same server, or file and data folder. */
function runnerSource(spec: DeciderSpec, data: string): RunnerSource {
  return spec.kind === 'remote'
    ? { server: spec.server, data }
    : {
        policy: spec.policy,
        data: spec.data,
        ...(spec.managed === null ? {} : { managed: spec.managed }),
      };
}

/** Asks the decider about one planned call, and answers the runtime with what it said. */
async function decideCall<A extends object>(
  a: Answering<A>,
  decider: Decider,
  spec: DeciderSpec,
  data: string,
  plan: GatePlan,
  options: HookOptions,
  signal: AbortSignal,
  sandboxed: boolean,
  deadlineAt?: number,
): Promise<A> {
  const decided = await decider.decide(
    {
      placement: {
        source: a.runtime.name,
        ...(options.agent === undefined ? {} : { agent: options.agent }),
        ...(options.space === undefined ? {} : { space: options.space }),
        ...(options.mode === undefined ? {} : { mode: options.mode }),
      },
      worktree: plan.worktree,
      ask: plan.ask,
      ...(sandboxed ? { grant: true } : {}),
    },
    // The runtime gives up at the deadline: a prompt ends before, so its answer arrives.
    { signal, ...(deadlineAt === undefined ? {} : { deadlineAt }) },
  );
  if (!decided.allow) return a.deny(decided.reason);
  if (!sandboxed || plan.ask.command === undefined) return a.allow(decided.reason);
  return fromDecision(a, 'allow', decided.reason, {
    plan,
    grant: decided.grant,
    source: runnerSource(spec, data),
  });
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
  const deadlineAt = Date.now() + seconds * 1000;
  const signal = deadline(seconds * 1000);
  const open = io.open ?? openForOneCall;
  const server = options.server ?? io.env.WARDEN_URL;
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
    return answerCompletion(runtime, parsed.completion, options, io, open, signal, seconds);
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
  const spec = deciderSpec(options, io, data);
  if ('problem' in spec) return a.deny(spec.problem);
  try {
    const opened = await open(spec, io.env);
    if ('problem' in opened) return a.deny(opened.problem);
    try {
      return await decideCall(
        a,
        opened.decider,
        spec,
        data,
        plan,
        options,
        signal,
        sandboxed,
        deadlineAt,
      );
    } finally {
      await opened.release();
    }
  } catch (error) {
    if (signal.aborted)
      return a.deny(
        `no decision within ${seconds} s (raise the hook's \`timeout\` and \`--timeout\` together): denied, fail-closed`,
      );
    throw error;
  }
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
  open: OpenDecider,
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
  const spec = deciderSpec(options, io, dataFolder(options.data, bound.worktree));
  if ('problem' in spec) return warn(spec.problem);
  const work = async (): Promise<A> => {
    const opened = await open(spec, io.env);
    if ('problem' in opened) return warn(opened.problem);
    try {
      await opened.decider.completeHook(
        {
          source: runtime.name,
          ...(options.agent === undefined ? {} : { agent: options.agent }),
          ...(options.space === undefined ? {} : { space: options.space }),
          ...(options.mode === undefined ? {} : { mode: options.mode }),
        },
        {
          match: completion.match,
          tool: completion.toolName,
          status: completion.status,
          ending: endingOf(completion),
          input: recordable(completion.toolInput) as JsonValue,
          ...(completion.durationMs === undefined ? {} : { durationMs: completion.durationMs }),
          ...(completion.error === undefined ? {} : { error: completion.error }),
          ...(ungated === undefined ? {} : { ungated }),
        },
      );
      return runtime.completed();
    } finally {
      await opened.release();
    }
  };
  try {
    // Bounded like a decision: a completion never holds the runtime past the deadline.
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(new Error('the deadline passed'));
        signal.addEventListener('abort', () => reject(new Error('the deadline passed')), {
          once: true,
        });
      }),
    ]);
  } catch (error) {
    if (signal.aborted) return warn(`no answer within ${seconds} s`);
    return warn(error instanceof Error ? error.message : String(error));
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
