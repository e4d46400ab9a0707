// How a call ended, as each runtime's completion event tells it (Claude
// Code's `PostToolUse` and `PostToolUseFailure`, Codex's `PostToolUse`,
// Gemini CLI's `AfterTool`), read into one shape: the call (to find its
// decision), its status, its duration when the runtime measured one, the
// size of its output and its exit code when the runtime says it. Only sizes
// and codes are kept of the output: the audit log records what ran and how it
// ended, not what it printed.

import type { CallMatch } from '../gate/completion.js';
import type { HookInput } from './runtime.js';

export interface HookCompletion extends HookInput {
  /** The runtime's event: `PostToolUse`, `PostToolUseFailure`, `AfterTool`. */
  readonly event: string;
  /** How the decision of this call is found. */
  readonly match: CallMatch;
  readonly status: 'Ok' | 'Error';
  /** The runtime's own measure of the call, when it sends one. */
  readonly durationMs?: number;
  /** Bytes of what the call returned to the model (or of its error). */
  readonly outputBytes: number;
  readonly exitCode?: number;
  /** Why it failed, in short. */
  readonly error?: string;
}

/** Longest error text recorded: the first line or so of what the runtime said. */
const ERROR_TEXT = 300;

/**
 * Bytes of a string, or of anything else as JSON, counted without recursion:
 * a response nested thousands deep is measured like any other.
 */
export function sizeOf(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string') return Buffer.byteLength(value);
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null) total += 4;
    else if (typeof item === 'string') total += Buffer.byteLength(JSON.stringify(item));
    else if (typeof item === 'number' || typeof item === 'boolean')
      total += String(JSON.stringify(item)).length;
    else if (Array.isArray(item)) {
      total += 2 + Math.max(0, item.length - 1);
      for (const element of item) stack.push(element ?? null);
    } else if (typeof item === 'object') {
      const entries = Object.entries(item).filter(([, v]) => v !== undefined);
      total += 2 + Math.max(0, entries.length - 1);
      for (const [key, v] of entries) {
        total += Buffer.byteLength(JSON.stringify(key)) + 1;
        stack.push(v);
      }
    }
  }
  return total;
}

/** A runtime's error text cut to its start: it may carry the call's output. */
export function shortError(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ERROR_TEXT ? `${flat.slice(0, ERROR_TEXT)}…` : flat;
}

/** A whole number of milliseconds from a runtime's field, or undefined. */
export function milliseconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.round(value)
    : undefined;
}

/** The first exit code a tool's text states (`Exit code: 3`, `Process exited with code 3`), if any. */
export function statedExitCode(text: string): number | undefined {
  const found = /(?:^|\n)(?:Exit [Cc]ode:? |Process exited with code )(-?\d{1,4})\b/.exec(text);
  return found === null ? undefined : Number(found[1]);
}

/** What the audit entry keeps of how the call ended. */
export function endingOf(completion: HookCompletion): Record<string, string | number> {
  return {
    event: completion.event,
    outputBytes: completion.outputBytes,
    ...(completion.exitCode === undefined ? {} : { exitCode: completion.exitCode }),
  };
}

/** Status and error from an exit code: anything but 0 is an `Error`. */
export function byExitCode(
  exitCode: number | undefined,
): Pick<HookCompletion, 'status'> & { error?: string } {
  return exitCode === undefined || exitCode === 0
    ? { status: 'Ok' }
    : { status: 'Error', error: `exited with code ${exitCode}` };
}
