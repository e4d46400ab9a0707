// One shell command through the gate and the OS sandbox, as `warden exec`
// and the resident runner run it: asks whether it may run, and runs it
// (`bash -c`) under a profile made from the decision: it writes only in the
// worktree, cannot read the credential folders, and reaches only the hosts the
// allowed command line names, as the classifier read them for the gate.
// Connected (a server with a token) the server decides and a prompt waits for
// a human; standalone (a policy file) the file decides, a prompt is denied and
// the audit goes to the data folder. How the run ended (status, duration, what
// the sandbox refused) is recorded against the decision. Nothing runs unless
// the gate allowed it, and nothing runs without the sandbox unless the caller
// says so on a host that has none.

import { spawn } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_DATA } from '../data-folder.js';
import type { Decider } from '../decider/types.js';
import type { DeciderSpec, OpenDecider } from '../decider/open.js';
import { openForOneCall } from '../decider/open.js';
import { detectHost } from '../honesty/host.js';
import { childEnv } from '../tools/builtin/process.js';
import type { EffectCounts, EffectRequests } from './effects.js';
import { effectRequests, hasEffects } from './effects.js';
import type { Layer, Observed } from './layer.js';
import { discardLayer, landLayer, layerMounted, readLayer } from './layer.js';
import type { ExecProfile } from './profile.js';
import type { CommandSandbox, SandboxedLaunch, TransactionalMode } from './runtime.js';
import {
  closeSandbox,
  commandSandbox,
  DEFAULT_DENY_READ,
  SandboxUnavailable,
  TRANSACTIONAL_MODES,
  transactionalProblem,
} from './runtime.js';

/** What a run is asked with: `warden exec`'s flags, or what a runner's client sent. */
export interface ExecRequest {
  /** Connected: the Warden server (default WARDEN_URL). */
  readonly server?: string;
  /** Its token (default WARDEN_TOKEN). */
  readonly token?: string;
  /** Standalone: the policy file. */
  readonly policy?: string;
  /** Standalone: a managed policy file (default WARDEN_MANAGED_POLICY). */
  readonly managed?: string;
  /** Standalone: the data folder. */
  readonly data?: string;
  readonly agent?: string;
  /** The folder the command runs in: the only one it may write to. */
  readonly worktree?: string;
  /** Kill the command after this many seconds. */
  readonly timeout?: number;
  /** Run under the decision this grant holds instead of asking again. */
  readonly grant?: string;
  /** `auto`, `required` or `off`. */
  readonly transactional?: string;
  /** False: run without a sandbox on a host that has no backend. */
  readonly sandbox?: boolean;
  /** The messages as JSON lines. */
  readonly json?: true;
}

/** Where a run's messages go, and the environment it runs in. */
export interface ExecIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** The exit codes a run ends with when the command did not decide it (contracts §4). */
const EXIT = { usage: 1, deny: 3 } as const;

/** Prints a problem with the request as every `warden` command does; the exit code of a usage error. */
function usage(io: ExecIo, json: boolean, message: string): number {
  if (json) io.out(`${JSON.stringify({ errors: [{ path: '', message }] }, null, 2)}\n`);
  else io.err(`error: ${message}\n`);
  return EXIT.usage;
}

/** The tool name the gate and the audit log know these calls by. */
const TOOL = 'exec';
/** The shell the command line runs in. */
const SHELL = 'bash';
/** At most this many refusals are kept for the record. */
const MAX_VIOLATIONS = 50;
/** Exit code of a command killed at `--timeout` (as coreutils' `timeout`). */
const TIMED_OUT = 124;
/** What a write the sandbox refused looks like on the command's standard error. */
const REFUSED_WRITE = /Read-only file system/;
/**
 * What a failed read looks like on standard error: the sandbox replaces the
 * credential folders and Warden's data with empty, unreadable ones, so a
 * program that reports its failure names the path with one of these (one
 * that stays silent leaves nothing to record).
 */
const REFUSED_READ = /Permission denied|No such file or directory|Operation not permitted/;

/** A decision as this command needs it, from the gate or from the server. */
interface Decided {
  readonly outcome: string;
  readonly reason: string;
  /** The recorded decision to report the run against. */
  readonly auditId: string | null;
  readonly decision: unknown;
}

/** How a decided command runs: what the gate said, where to record the end, and its profile. */
interface Granted {
  readonly decided: Decided;
  readonly recorder: Recorder;
  /** Null when the command does not run (the decision was not allow, or no profile was granted). */
  readonly profile: ExecProfile | null;
}

/** Where a finished run is recorded, and what it did decided (E44). */
interface Recorder {
  record(outcome: {
    status: 'Ok' | 'Error';
    durationMs: number;
    error?: string;
    arguments: unknown;
  }): Promise<void>;
  /** Decides what a transactional run did; anything but a recorded allow is a deny. */
  decideEffects(requests: EffectRequests): Promise<EffectsAnswer>;
  close(): Promise<void>;
}

interface EffectsAnswer {
  readonly outcome: 'allow' | 'deny';
  readonly reason: string;
  readonly auditIds: readonly string[];
}

/** With no decision to report against, nothing is kept: a layer without one is discarded. */
const NO_EFFECTS_DECIDER = (): Promise<EffectsAnswer> =>
  Promise.resolve({
    outcome: 'deny',
    reason: 'no decision to report what the command did against',
    auditIds: [],
  });

/** Thrown for a reason to stop with exit 1 after saying why. */
class Refusal extends Error {
  override readonly name = 'Refusal';
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function worktreeOf(dir: string | undefined): Promise<string> {
  if (dir === undefined || dir === '')
    throw new Refusal('give `--worktree DIR`: the folder the command runs in and may write to');
  const real = await realpath(resolve(dir)).catch(() => null);
  if (real === null || !(await stat(real)).isDirectory())
    throw new Refusal(`the worktree \`${dir}\` is not a folder`);
  return real;
}

// ─── Deciding: the server or the policy file, through one decider ───────────

/** A deny the command itself concluded: nothing was decided, so nothing may run. */
function failedClosed(reason: string): Decided {
  return { outcome: 'deny', reason, auditId: null, decision: null };
}

const NO_RECORDER: Recorder = {
  record: () => Promise.resolve(),
  decideEffects: NO_EFFECTS_DECIDER,
  close: () => Promise.resolve(),
};

/**
 * The decider for this command: the server with the token, or Warden opened
 * on the policy file and the data folder (a grant is checked with the key in
 * the folder it was made in: none there, no grant).
 */
async function openDecider(
  server: string | null,
  token: string | undefined,
  options: ExecRequest,
  io: ExecIo,
  open: OpenDecider,
): Promise<{ decider: Decider; release(): Promise<void> } | Decided> {
  let spec: DeciderSpec;
  if (server !== null) spec = { kind: 'remote', server, token: token as string };
  else {
    const data = resolve(options.data ?? DEFAULT_DATA);
    if (options.grant !== undefined && !(await exists(data)))
      return failedClosed(
        `the grant was refused: there is no data folder \`${data}\` holding the key it was made with`,
      );
    const managed = options.managed ?? io.env['WARDEN_MANAGED_POLICY'];
    spec = {
      kind: 'local',
      policy: options.policy as string,
      managed: managed === undefined || managed === '' ? null : managed,
      data,
    };
  }
  const opened = await open(spec, io.env);
  if ('problem' in opened) throw new Refusal(opened.problem);
  return opened;
}

/**
 * Asks for the command (or redeems its grant) and, where it may run, claims
 * the run and gets the profile it runs under, with where its end is recorded.
 */
async function decideRun(
  decider: Decider,
  command: string,
  worktree: string,
  options: ExecRequest,
  transactional: boolean,
): Promise<Granted> {
  const start = async (grant: string, decided: Decided | null): Promise<Granted> => {
    const started = await decider.startRun(grant, command, worktree);
    if (!started.ok)
      return { decided: failedClosed(started.problem), recorder: NO_RECORDER, profile: null };
    const { run } = started;
    return {
      decided: decided ?? {
        outcome: 'allow',
        reason: `granted by decision \`${run.auditId}\``,
        auditId: run.auditId,
        decision: null,
      },
      recorder: {
        record: (outcome) => decider.recordRun(run, outcome),
        decideEffects: (requests) => decider.decideEffects(run, requests),
        close: () => Promise.resolve(),
      },
      profile: run.profile,
    };
  };
  if (options.grant !== undefined) return start(options.grant, null);
  const answer = await decider.decide({
    placement: {
      source: TOOL,
      ...(options.agent === undefined ? {} : { agent: options.agent }),
    },
    worktree,
    ask: {
      tool: TOOL,
      command,
      arguments: { command },
      ...(transactional ? { transactional: true } : {}),
    },
    grant: true,
  });
  const decided: Decided = {
    outcome: answer.allow ? 'allow' : 'deny',
    reason: answer.reason,
    auditId: answer.auditId,
    decision: answer.answer,
  };
  if (!answer.allow) return { decided, recorder: NO_RECORDER, profile: null };
  if (answer.grant === null)
    return {
      decided: failedClosed(
        `the Warden server allowed the command but granted no profile to run it under (is it older than this command?): ${answer.reason}`,
      ),
      recorder: NO_RECORDER,
      profile: null,
    };
  return start(answer.grant, decided);
}

// ─── Running the allowed command ────────────────────────────────────────────

export interface Ran {
  readonly exitCode: number;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** Lines of standard error that say a write was refused. */
  readonly refusedWrites: readonly string[];
  /** Lines of standard error that say a read was refused. */
  readonly hiddenReads: readonly string[];
}

const SIGNALS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * Notes the lines of a command's standard error that say the sandbox refused
 * a write, or a read of a path it hides, up to MAX_VIOLATIONS each.
 */
export function scanErrors(
  text: string,
  hidden: readonly string[],
  refusedWrites: string[],
  hiddenReads: string[],
): void {
  for (const line of text.split('\n'))
    if (REFUSED_WRITE.test(line) && refusedWrites.length < MAX_VIOLATIONS)
      refusedWrites.push(line.trim().slice(0, 500));
    else if (
      REFUSED_READ.test(line) &&
      hidden.some((path) => line.includes(path)) &&
      hiddenReads.length < MAX_VIOLATIONS
    )
      hiddenReads.push(line.trim().slice(0, 500));
}

/**
 * Starts the command with standard input and output passed through and
 * standard error copied through line by line (so refused writes can be
 * noted), in its own process group so a timeout or Ctrl-C ends all of it.
 */
function runCommand(
  file: string,
  args: readonly string[],
  worktree: string,
  env: NodeJS.ProcessEnv,
  timeoutS: number | null,
  /** Paths the sandbox hides: a failure naming one is a refused read. */
  hidden: readonly string[] = [],
): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolveRun, reject) => {
    const child = spawn(file, [...args], {
      cwd: worktree,
      env: childEnv(env),
      stdio: ['inherit', 'inherit', 'pipe'],
      detached: true,
    });
    const refusedWrites: string[] = [];
    const hiddenReads: string[] = [];
    let partial = '';
    const scan = (text: string): void => scanErrors(text, hidden, refusedWrites, hiddenReads);
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = (lines.pop() ?? '').slice(-4096);
      scan(lines.join('\n'));
    });
    let timedOut = false;
    const killGroup = (signal: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group is gone already
      }
    };
    const timer =
      timeoutS === null
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killGroup('SIGKILL');
          }, timeoutS * 1000);
    const forward = (signal: NodeJS.Signals): void => killGroup(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const done = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
    };
    child.on('error', (error) => {
      done();
      reject(error);
    });
    child.on('close', (code, signal) => {
      done();
      scan(partial);
      // What the command left running in its group ends with it.
      killGroup('SIGKILL');
      resolveRun({
        exitCode: timedOut
          ? TIMED_OUT
          : (code ?? 128 + (signal === null ? 1 : (SIGNALS[signal] ?? 1))),
        signal,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        refusedWrites,
        hiddenReads,
      });
    });
  });
}

function chooseSandbox(options: ExecRequest): CommandSandbox | null {
  try {
    // A grant is a promise to run sandboxed: without a backend it is not run at all.
    return commandSandbox(
      options.sandbox === false && options.grant === undefined ? 'auto' : 'required',
    );
  } catch (error) {
    if (error instanceof SandboxUnavailable)
      throw new Refusal(
        `${error.message}; the command was not run (give \`--no-sandbox\` to run it with the guard rules as the only boundary)`,
      );
    throw error;
  }
}

function transactionalMode(value: string | undefined): TransactionalMode {
  const mode = value ?? 'auto';
  if (!(TRANSACTIONAL_MODES as readonly string[]).includes(mode))
    throw new Refusal(
      `\`--transactional ${mode}\` is not one of ${TRANSACTIONAL_MODES.map((m) => `\`${m}\``).join(', ')}`,
    );
  return mode as TransactionalMode;
}

/** What became of a transactional run's layer. */
interface Landing {
  /** Whether what the command did now stands in the worktree. */
  readonly landed: boolean;
  /** Why it was discarded, when it was. */
  readonly discarded: string | null;
  readonly counts: EffectCounts | null;
  readonly decidedBy: readonly string[];
}

/**
 * Reads what a transactional run did, has it decided, and lands or discards
 * it (E44). A layer that cannot be read or landed whole is discarded.
 */
async function settleLayer(
  layer: Layer,
  worktree: string,
  controlPaths: readonly string[],
  recorder: Recorder,
  killed: boolean,
): Promise<Landing> {
  let observed: Observed;
  try {
    observed = await readLayer(layer);
  } catch (error) {
    await discardLayer(layer);
    return {
      landed: false,
      discarded: killed
        ? 'the command was killed before what it did could be read, so nothing of it was kept'
        : `what the command did could not be read whole, so nothing of it was kept: ${(error as Error).message}`,
      counts: null,
      decidedBy: [],
    };
  }
  const { requests, counts } = effectRequests(observed, worktree, controlPaths);
  let decidedBy: readonly string[] = [];
  if (hasEffects(requests)) {
    const answer = await recorder.decideEffects(requests);
    decidedBy = answer.auditIds;
    if (answer.outcome !== 'allow') {
      await discardLayer(layer);
      return {
        landed: false,
        discarded: `nothing the command did was kept: ${answer.reason}`,
        counts,
        decidedBy,
      };
    }
  }
  try {
    await landLayer(layer, observed);
  } catch (error) {
    return {
      landed: false,
      discarded: `what the command did could not be landed whole, so nothing of it was kept: ${(error as Error).message}`,
      counts,
      decidedBy,
    };
  }
  return { landed: true, discarded: null, counts, decidedBy };
}

/** Starts a launched command and reports how it ended: here, or by a client of the runner. */
export type Spawner = (
  file: string,
  args: readonly string[],
  worktree: string,
  env: NodeJS.ProcessEnv,
  timeoutS: number | null,
  hidden: readonly string[],
) => Promise<Ran>;

/** What a resident process gives `runExec` instead of making it anew each call. */
export interface ExecHooks {
  readonly spawn?: Spawner;
  readonly open?: OpenDecider;
}

/** Runs one command line; the exit code is the command's, or 3 for a deny, 1 for a usage error. */
export async function runExec(
  io: ExecIo,
  words: readonly string[],
  options: ExecRequest,
  hooks: ExecHooks = {},
): Promise<number> {
  const spawnRun: Spawner = hooks.spawn ?? runCommand;
  const json = options.json === true;
  const say = (text: string, value: Record<string, unknown>): void => {
    io.err(json ? `${JSON.stringify(value)}\n` : `warden exec: ${text}\n`);
  };
  try {
    const command = words.join(' ');
    if (command.trim() === '')
      throw new Refusal('give the command line after `--`: `warden exec … -- <command line>`');
    const server = options.server ?? io.env['WARDEN_URL'];
    const hasServer = server !== undefined && server !== '';
    if (hasServer && options.policy !== undefined)
      throw new Refusal('give either `--server` (connected) or `--policy` (standalone), not both');
    if (!hasServer && options.policy === undefined)
      throw new Refusal(
        'say who decides: `--server URL` with a token (or WARDEN_URL and WARDEN_TOKEN), or `--policy FILE`',
      );
    const token = options.token ?? io.env['WARDEN_TOKEN'];
    if (hasServer && (token === undefined || token === ''))
      throw new Refusal(
        `no token for ${server}: set WARDEN_TOKEN (an \`agent\` token) or give --token`,
      );
    const timeoutS = options.timeout ?? null;
    const wanted = transactionalMode(options.transactional);
    const worktree = await worktreeOf(options.worktree);
    // A host without a backend refuses before anything is asked or recorded.
    const sandbox = chooseSandbox(options);
    if (sandbox === null)
      say(
        'this host offers no sandbox backend: the command runs without one, and the guard rules are the only boundary',
        { warning: 'no sandbox backend', sandbox: null },
      );
    const host = detectHost({ env: io.env });
    const layerProblem =
      sandbox === null ? 'the command runs without a sandbox' : transactionalProblem(host, io.env);
    if (wanted === 'required' && layerProblem !== null)
      throw new Refusal(
        `the command must run transactionally, but ${layerProblem}: it was not run`,
      );
    // Asked as a transactional run only where it can be one: the decision may rest on it.
    const transactional = wanted !== 'off' && layerProblem === null;

    const opened = await openDecider(
      hasServer ? server : null,
      token,
      options,
      io,
      hooks.open ?? openForOneCall,
    );
    const { decided, recorder, profile } =
      'outcome' in opened
        ? { decided: opened, recorder: NO_RECORDER, profile: null }
        : await decideRun(opened.decider, command, worktree, options, transactional).catch(
            async (error: unknown) => {
              await opened.release();
              throw error;
            },
          );
    try {
      if (decided.outcome !== 'allow') {
        const reason =
          decided.outcome === 'deny'
            ? decided.reason
            : `the decision was \`${decided.outcome}\`, not allow: ${decided.reason}`;
        say(reason, { outcome: 'deny', reason, decision: decided.decision });
        return EXIT.deny;
      }
      if (profile?.transactional === true && (sandbox === null || wanted === 'off')) {
        const why =
          'the decision allowed this command only to run transactionally (it cannot be read whole), and it would not run so: it was not run';
        await recorder.record({
          status: 'Error',
          durationMs: 0,
          error: why,
          arguments: { command },
        });
        say(why, { outcome: 'deny', reason: why });
        return EXIT.deny;
      }

      // The profile made from the decision: the worktree and the folders the policy lets this
      // agent write in, the hosts the command line names, and no credential folder.
      const hosts = sandbox === null || profile === null ? [] : [...profile.hosts];
      const mode: TransactionalMode =
        sandbox === null ? 'off' : profile?.transactional === true ? 'required' : wanted;
      const start = async (layered: TransactionalMode): Promise<SandboxedLaunch | null> => {
        if (sandbox === null) return null;
        try {
          return await sandbox.launch(command, {
            worktree,
            write: profile?.write ?? [],
            hosts,
            denyRead: profile?.denyRead ?? DEFAULT_DENY_READ,
            shell: SHELL,
            transactional: layered,
          });
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          await recorder.record({
            status: 'Error',
            durationMs: 0,
            error: `the command was not run: ${why}`,
            arguments: { command, sandbox: { backend: sandbox.backend, hosts } },
          });
          throw new Refusal(`${why}; the command was not run`);
        }
      };
      let launch = await start(mode);
      let notTransactional = launch?.notTransactional ?? null;
      let ran: Ran;
      try {
        ran = await spawnRun(
          launch?.file ?? SHELL,
          launch?.args ?? ['-c', command],
          worktree,
          io.env,
          timeoutS,
          launch?.hidden ?? [],
        );
        // The layer could not be set up: nothing ran. A run that need not be transactional runs
        // again without one; one that must, does not run at all.
        if (launch?.layer != null && !(await layerMounted(launch.layer))) {
          await discardLayer(launch.layer);
          await launch.release();
          if (mode === 'required') {
            const why =
              'the copy-on-write layer could not be set up on this host, and this command may run only over one: it was not run';
            await recorder.record({
              status: 'Error',
              durationMs: 0,
              error: why,
              arguments: { command },
            });
            say(why, { outcome: 'deny', reason: why });
            return EXIT.deny;
          }
          notTransactional = 'the copy-on-write layer could not be set up on this host';
          launch = await start('off');
          ran = await spawnRun(
            launch?.file ?? SHELL,
            launch?.args ?? ['-c', command],
            worktree,
            io.env,
            timeoutS,
            launch?.hidden ?? [],
          );
        }
      } finally {
        await launch?.release();
      }
      const landing =
        launch?.layer == null
          ? null
          : await settleLayer(
              launch.layer,
              worktree,
              profile?.controlPaths ?? [],
              recorder,
              ran.timedOut || ran.signal !== null,
            );
      const violations =
        launch === null
          ? []
          : [
              ...launch.violations(),
              ...ran.refusedWrites.map((line) => `a write was refused: ${line}`),
              ...ran.hiddenReads.map((line) => `a read was refused: ${line}`),
            ].slice(0, MAX_VIOLATIONS);
      const problems: string[] = [];
      if (ran.timedOut) problems.push(`the command ran longer than ${timeoutS} s and was killed`);
      else if (ran.signal !== null) problems.push(`the command was ended by ${ran.signal}`);
      else if (ran.exitCode !== 0) problems.push(`the command exited with code ${ran.exitCode}`);
      if (violations.length > 0) {
        problems.push(`the sandbox refused what the command tried: ${violations.join('; ')}`);
        say(`the sandbox refused what the command tried: ${violations.join('; ')}`, {
          sandbox: { violations },
        });
      }
      if (landing?.discarded != null) {
        problems.push(landing.discarded);
        say(landing.discarded, {
          outcome: 'deny',
          reason: landing.discarded,
          effects: landing.counts,
        });
      }
      try {
        await recorder.record({
          status: problems.length === 0 ? 'Ok' : 'Error',
          durationMs: ran.durationMs,
          ...(problems.length === 0 ? {} : { error: problems.join('; ') }),
          arguments: {
            command,
            exitCode: ran.exitCode,
            sandbox:
              sandbox === null
                ? null
                : {
                    backend: sandbox.backend,
                    hosts,
                    write: profile?.write ?? [],
                    violations,
                    transactional: launch?.layer != null,
                    ...(notTransactional === null ? {} : { notTransactional }),
                  },
            ...(landing === null
              ? {}
              : {
                  effects: {
                    ...(landing.counts ?? {}),
                    landed: landing.landed,
                    decidedBy: [...landing.decidedBy],
                  },
                }),
          },
        });
      } catch (error) {
        say(
          `the run could not be recorded: ${error instanceof Error ? error.message : String(error)}`,
          { warning: 'the run could not be recorded' },
        );
        return ran.exitCode === 0 ? EXIT.usage : ran.exitCode;
      }
      if (ran.timedOut) say(problems[0] as string, { timedOut: true });
      // What the command did was discarded: to its caller, nothing happened (a command killed
      // at its timeout keeps its own exit code, 124).
      if (landing?.discarded != null && !ran.timedOut) return EXIT.deny;
      return ran.exitCode;
    } finally {
      await recorder.close();
      if (!('outcome' in opened)) await opened.release();
      await closeSandbox();
    }
  } catch (error) {
    if (error instanceof Refusal) return usage(io, json, error.message);
    throw error;
  }
}
