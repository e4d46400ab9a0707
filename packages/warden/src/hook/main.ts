// The quick way into `warden hook claude-code` (bin/warden.js takes it):
// Claude Code starts the hook for every tool call, so it loads only what one
// answer needs — no command-line framework, no store unless standalone — and
// guards the process itself: an uncaught error or a missed deadline still
// ends in a deny (exit 2, the reason on standard error), never in a crash
// Claude Code would read as "go ahead".

import { parseArgs } from 'node:util';
import { HOOK_FLAGS, flagName, hookOptions } from './flags.js';
import type { HookOptions } from './run.js';
import { readAll, runHook, timeoutSeconds } from './run.js';

/** `parseArgs`'s spelling of the hook's flags: each takes one string. */
const OPTIONS = Object.fromEntries(
  Object.values(HOOK_FLAGS).map((flag) => [flagName(flag), { type: 'string' as const }]),
);

/** Ends the process with a deny Claude Code honours whatever it read on standard output. */
export function denyAndExit(reason: string): never {
  process.stderr.write(`Warden: ${reason}: denied, fail-closed\n`);
  process.exit(2);
}

export function parseHookArgs(args: readonly string[]): HookOptions | string {
  try {
    const { values } = parseArgs({ args: [...args], options: OPTIONS, strict: true });
    return hookOptions((key) => values[flagName(HOOK_FLAGS[key])]);
  } catch (error) {
    return (error as Error).message;
  }
}

/** `args`: what follows `hook claude-code`. */
export async function mainHook(args: readonly string[]): Promise<void> {
  process.on('uncaughtException', (error) => denyAndExit(`internal error: ${error.message}`));
  process.on('unhandledRejection', (error) =>
    denyAndExit(`internal error: ${error instanceof Error ? error.message : String(error)}`),
  );
  const options = parseHookArgs(args);
  if (typeof options === 'string') denyAndExit(`bad hook arguments: ${options}`);
  const seconds = timeoutSeconds(options);
  // A second past the deadline the answer is due however far the work got.
  const watchdog = setTimeout(
    () => denyAndExit('no answer in time'),
    (typeof seconds === 'number' ? seconds : 5) * 1000 + 1000,
  );
  const code = await runHook(
    {
      stdin: () => readAll(process.stdin),
      out: (text) => process.stdout.write(text),
      env: process.env,
    },
    options,
  );
  clearTimeout(watchdog);
  process.exitCode = code;
  // Nothing may hold the answer back once it is written.
  setTimeout(() => process.exit(code), 2000).unref();
}
