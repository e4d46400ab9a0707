// How the built-ins start processes and describe them to the gate. A child runs
// in its own process group so a timeout kills everything it started, its output
// is cut at a cap (and the cut said), and Warden's own credentials are not in its
// environment. The command line a call amounts to is stated in POSIX quoting, so
// command rules meet a tool exactly as they meet the shell (G14c).

import { spawn } from 'node:child_process';

/** Warden's credentials and settings: never handed to a process an agent starts. */
export function childEnv(parent: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (key === 'DATABASE_URL' || key === 'WARDEN_TOKEN' || key.startsWith('WARDEN_')) continue;
    env[key] = value;
  }
  return env;
}

export interface SpawnRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
}

export interface Captured {
  /** At most the cap, decoded as UTF-8. */
  readonly text: string;
  /** How many bytes the process wrote in all. */
  readonly bytes: number;
  readonly truncated: boolean;
}

export interface Finished {
  /** `null` when a signal ended the process. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: Captured;
  readonly stderr: Captured;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly durationMs: number;
}

/** Keeps the first `cap` bytes of a stream (output, a response body) and counts the rest. */
export class Capture {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  private total = 0;
  constructor(private readonly cap: number) {}

  add(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.kept >= this.cap) return;
    const part = chunk.subarray(0, this.cap - this.kept);
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** Whether more came than the cap keeps. */
  get truncated(): boolean {
    return this.total > this.kept;
  }

  result(): Captured {
    const text = Buffer.concat(this.chunks, this.kept).toString('utf8');
    return { text, bytes: this.total, truncated: this.truncated };
  }
}

/** How long the pipes may stay open after the process ended (a background child holding them). */
const DRAIN_MS = 250;

/**
 * Starts `file` with `args` (never through a shell unless `file` is one) and
 * waits until it ends, the timeout passes or `signal` aborts: then the whole
 * process group is killed. Whatever the exit code, the result is returned;
 * only a process that cannot start throws.
 */
export function runProcess(request: SpawnRequest): Promise<Finished> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: request.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so the group can be killed as one
    });
    const stdout = new Capture(request.maxOutputBytes);
    const stderr = new Capture(request.maxOutputBytes);
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: string | null } | null = null;
    let drain: NodeJS.Timeout | undefined;
    let done = false;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, request.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted === true) onAbort();

    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (drain !== undefined) clearTimeout(drain);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        stdout: stdout.result(),
        stderr: stderr.result(),
        timedOut,
        aborted,
        durationMs: Math.round(performance.now() - started),
      });
    };
    child.on('error', (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // What the process left running in its group ends with it; a pipe still held open
      // (by a process that left the group) is closed after a short drain.
      killGroup();
      drain = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, DRAIN_MS);
    });
    child.on('close', () => {
      if (exit !== null) finish();
    });
  });
}

/** A short sentence about a cut stream, for results. */
export function cutNote(name: string, captured: Captured, cap: number): string | undefined {
  if (!captured.truncated) return undefined;
  return `${name} was cut at ${cap} bytes of ${captured.bytes}`;
}

// ─── Describing a call as a command line (never used to run one) ──────────

/** Characters that never need quoting in a shell word. */
const PLAIN = /^[A-Za-z0-9_./:=@%+,-]+$/;

/** One shell word: as is when plain, else in single quotes (a `'` as `'\''`). */
export function shellWord(word: string): string {
  if (word !== '' && PLAIN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line of words, each quoted as needed. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}

/**
 * `command` as the classifier must read it when it runs in `cwd`: after a
 * `cd` into it (E26 tracks `cd` for relative paths), grouped so that every
 * part of the command runs there.
 */
export function inFolder(cwd: string, command: string): string {
  if (cwd === '.') return command;
  return `cd ${shellWord(cwd)} && {\n${command}\n}`;
}
