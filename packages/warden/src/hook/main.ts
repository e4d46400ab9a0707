// The quick way into `warden hook <runtime>` (bin/warden.js takes it): an
// agent runtime starts the hook for every tool call, so it loads only what one
// answer needs — no command-line framework, no store unless standalone — and
// guards the process itself: an uncaught error or a missed deadline still
// ends in a deny (exit 2, the reason on standard error), never in a crash
// the runtime would read as "go ahead".

import { parseArgs } from 'node:util';
import { HOOK_FLAGS, flagName, hookOptions } from './flags.js';
import type { HookOptions } from './run.js';
import { readAll, runHook, timeoutSeconds } from './run.js';
import { RUNTIME_NAMES, loadRuntime } from './runtimes.js';

/** `parseArgs`'s spelling of the hook's flags: each takes one string. */
const OPTIONS = Object.fromEntries(
  Object.values(HOOK_FLAGS).map((flag) => [flagName(flag), { type: 'string' as const }]),
);

/**
 * Ends the process with a deny every runtime honours whatever it read on
 * standard output: exit 2 with the reason on standard error.
 */
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

/** `name`: the runtime (`claude-code`, …); `args`: what follows `hook <runtime>`. */
export async function mainHook(name: string, args: readonly string[]): Promise<void> {
  process.on('uncaughtException', (error) => denyAndExit(`internal error: ${error.message}`));
  process.on('unhandledRejection', (error) =>
    denyAndExit(`internal error: ${error instanceof Error ? error.message : String(error)}`),
  );
  const runtime = await loadRuntime(name);
  if (runtime === null)
    denyAndExit(`no hook for \`${name}\`: Warden has hooks for ${RUNTIME_NAMES.join(', ')}`);
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
      err: (text) => process.stderr.write(text),
      env: process.env,
    },
    options,
    runtime,
  );
  clearTimeout(watchdog);
  process.exitCode = code;
  // Nothing may hold the answer back once it is written.
  setTimeout(() => process.exit(code), 2000).unref();
}
