// The CLI's connection to the outside: streams, environment, clock. Passing it
// in lets tests run commands in-process and read exactly what a user sees.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { InputIssue } from '../policy/load.js';

export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly stdin: () => string;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => number;
  /** Whether to use colour on standard output. */
  readonly color: boolean;
  /** Questions answered line by line on standard input (interactive commands). */
  readonly lines?: () => LineReader;
}

export interface LineReader {
  /** The next line typed after `prompt`; null once the input has ended; rejects when `signal` aborts. */
  ask(prompt: string, signal: AbortSignal): Promise<string | null>;
  /**
   * One of `keys`, typed after `prompt`: on a terminal a single key press
   * answers (no Enter); elsewhere a line, as `ask`.
   */
  choose(prompt: string, keys: readonly string[], signal: AbortSignal): Promise<string | null>;
  close(): void;
}

function stdinLines(): LineReader {
  const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal });
  let ended = false;
  const end = new Promise<null>((resolve) =>
    rl.once('close', () => {
      ended = true;
      resolve(null);
    }),
  );
  const ask = (prompt: string, signal: AbortSignal): Promise<string | null> =>
    ended ? Promise.resolve(null) : Promise.race([rl.question(prompt, { signal }), end]);
  return {
    ask,
    choose: async (prompt, keys, signal) => {
      if (!terminal) return ask(prompt, signal);
      // The key lands in the line being typed first (readline listens before this does); a
      // key that is a choice, typed on an empty line, then ends the line as Enter would.
      const onKey = (typed: string | undefined) => {
        if (typed !== undefined && rl.line === typed && keys.includes(typed.toLowerCase()))
          rl.write(null, { name: 'return' });
      };
      process.stdin.on('keypress', onKey);
      try {
        return await ask(prompt, signal);
      } finally {
        process.stdin.off('keypress', onKey);
      }
    },
    close: () => rl.close(),
  };
}

/** Resolves with the signal's name when the process is asked to stop (SIGINT, SIGTERM). */
export function untilSignalled(): { readonly signalled: Promise<string>; dispose(): void } {
  let on: (signal: NodeJS.Signals) => void = () => undefined;
  const signalled = new Promise<string>((resolve) => {
    on = (signal) => resolve(signal);
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
  return {
    signalled,
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}

/** Decodes bytes as UTF-8, refusing any that are not rather than reading them as U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Standard input, whole, as text: input that is not UTF-8 is refused at the edge. */
function readStdin(): string {
  const bytes = readFileSync(0);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw Object.assign(new Error('standard input is not UTF-8 text'), {
      code: 'ERR_ENCODING_INVALID_ENCODED_DATA',
    });
  }
}

export function processIo(): Io {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    stdin: readStdin,
    env: process.env,
    now: () => Date.now(),
    color:
      process.stdout.isTTY === true &&
      process.env.NO_COLOR === undefined &&
      process.env.TERM !== 'dumb',
    lines: stdinLines,
  };
}

/** Exit codes (contracts §4). */
export const EXIT = { ok: 0, usage: 1, deny: 3, ask: 4 } as const;

/** Thrown to stop a command with an exit code after its output was written. */
export class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
    this.name = 'Exit';
  }
}

export function printJson(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** What a command that lists things prints (see `printListing`). */
export interface Listing {
  /** What `--json` prints. */
  readonly value: unknown;
  /** Whether there is nothing to list. */
  readonly empty: boolean;
  /** What is said instead when there is nothing. */
  readonly none: string;
  /** The things listed, as text in the given style. */
  readonly text: (s: Style) => string;
}

/** Prints a listing: JSON with --json; else what it says when empty, or its text. Exit 0. */
export function printListing(io: Io, json: boolean, listing: Listing): number {
  if (json) printJson(io, listing.value);
  else if (listing.empty) io.out(listing.none);
  else io.out(listing.text(style(io.color)));
  return EXIT.ok;
}

/** Prints problems as `{ "errors": [...] }` (with --json) or one per line, then stops with exit 1. */
export function fail(io: Io, json: boolean, issues: readonly InputIssue[]): never {
  if (json) {
    printJson(io, {
      errors: issues.map((i) => ({
        ...(i.file !== undefined ? { file: i.file } : {}),
        path: i.path,
        message: i.message,
      })),
    });
  } else {
    for (const i of issues) {
      const where = [i.file, i.path].filter((part) => part !== undefined && part !== '').join(': ');
      io.err(`error: ${where === '' ? '' : `${where}: `}${i.message}\n`);
    }
  }
  throw new Exit(EXIT.usage);
}

export function usage(io: Io, json: boolean, path: string, message: string): never {
  return fail(io, json, [{ code: 'invalid_value', path, message }]);
}

export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
}

export function style(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
  };
}
