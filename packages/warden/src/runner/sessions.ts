// A granted run driven from outside the runner: the runner redeems the grant,
// prepares the sandbox (its egress proxy, its layer) and records the run,
// exactly as `warden exec` does (`runExec`, the same code), but the command
// itself is started by the client that asked — a small shell script in the
// agent runtime's own process tree, so its standard streams and its exit
// code are the runtime's as they would be for the plain command. The runner
// hands the client the prepared command line and waits for its report of how
// it ended; what the command did is then decided and landed (E44) here.
//
// A client that dies without reporting (killed with the runtime's call) is
// noticed: its run ends as killed, its layer is discarded, and the end is
// recorded as an error.

import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ran } from '../sandbox/exec.js';
import { scanErrors } from '../sandbox/exec.js';

/** What the client is told next: run this, or the run is over with this exit code. */
export type Step =
  | { readonly kind: 'launch'; readonly file: string; readonly args: readonly string[] }
  | { readonly kind: 'done'; readonly exitCode: number };

/** How often a waiting run looks whether its client still lives. */
const WATCH_MS = 250;
/** The most of the command's standard error read for what the sandbox refused. */
const MAX_LOG_BYTES = 4 * 1024 * 1024;

const SIGNAL_NAMES: Readonly<Record<number, string>> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  9: 'SIGKILL',
  15: 'SIGTERM',
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class RunSession {
  /** Warden's own messages for the client to print on its standard error. */
  readonly messages: string[] = [];
  /** Where the client copies the command's standard error, for what the sandbox refused. */
  readonly log: string;
  private readonly steps: Step[] = [];
  private wake: (() => void) | null = null;
  private ended: ((ran: Ran) => void) | null = null;
  private hidden: readonly string[] = [];
  private launchedAt = 0;
  private watch: NodeJS.Timeout | null = null;
  private finished = false;

  constructor(
    readonly id: string,
    readonly dir: string,
    /** The client's process: a run whose client is gone ended, killed. */
    private readonly clientPid: number | null,
  ) {
    this.log = join(dir, 'stderr');
  }

  /** The spawner `runExec` uses: hands the command line to the client, waits for its report. */
  readonly spawn = (
    file: string,
    args: readonly string[],
    _worktree: string,
    _env: NodeJS.ProcessEnv,
    _timeoutS: number | null,
    hidden: readonly string[],
  ): Promise<Ran> => {
    this.hidden = hidden;
    this.launchedAt = performance.now();
    const report = new Promise<Ran>((resolve) => {
      this.ended = resolve;
    });
    this.push({ kind: 'launch', file, args });
    if (this.clientPid !== null) {
      const pid = this.clientPid;
      this.watch = setInterval(() => {
        if (!alive(pid)) void this.report(null);
      }, WATCH_MS);
      this.watch.unref();
    }
    return report;
  };

  /** The run is over: `runExec` returned this exit code. */
  finish(exitCode: number): void {
    this.finished = true;
    this.push({ kind: 'done', exitCode });
  }

  get done(): boolean {
    return this.finished;
  }

  /** Whether the command is out with the client, not yet reported. */
  get running(): boolean {
    return this.ended !== null;
  }

  /** The next thing to tell the client. */
  async next(): Promise<Step> {
    while (this.steps.length === 0)
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    return this.steps.shift() as Step;
  }

  /**
   * The client's report of how the command ended: its exit status as the
   * shell saw it (128 + n for signal n), or null when the client is gone.
   */
  async report(status: number | null): Promise<void> {
    const ended = this.ended;
    if (ended === null) return;
    this.ended = null;
    if (this.watch !== null) clearInterval(this.watch);
    this.watch = null;
    const refusedWrites: string[] = [];
    const hiddenReads: string[] = [];
    try {
      const text = await readFile(this.log, 'utf8');
      scanErrors(text.slice(-MAX_LOG_BYTES), this.hidden, refusedWrites, hiddenReads);
    } catch {
      // No standard error written: nothing was refused that the command said.
    }
    await rm(this.log, { force: true }).catch(() => undefined);
    const killed = status === null;
    const code = killed ? 137 : status;
    const signal = killed ? 'SIGKILL' : code > 128 ? (SIGNAL_NAMES[code - 128] ?? null) : null;
    ended({
      exitCode: code,
      signal,
      timedOut: false,
      durationMs: Math.round(performance.now() - this.launchedAt),
      refusedWrites,
      hiddenReads,
    });
  }

  private push(step: Step): void {
    this.steps.push(step);
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
