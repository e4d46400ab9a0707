// `warden runner serve|status|stop`: runs a data folder's resident runner
// (`runner/`), or asks the one that runs what it served, or to stop. The
// runner loads only when one of them runs.

import { resolve } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { DEFAULT_DATA } from '../../data-folder.js';
import { DATA_FLAG, dataOptions } from '../flags.js';
import type { Io } from '../io.js';
import { EXIT, printJson, usage } from '../io.js';
import type { Cli, OptionsOf } from '../registration.js';
import { handler } from '../registration.js';

function serve(group: CommandUnknownOpts) {
  return group
    .command('serve')
    .description(
      "run the data folder's resident runner in the foreground (the hooks' clients start it when they find none); it exits when idle",
    )
    .option(DATA_FLAG.usage, DATA_FLAG.description)
    .option(
      '--idle <seconds>',
      'exit after this long without a call (default: WARDEN_RUNNER_IDLE, else 900)',
    );
}

/** What asking the running runner does: `status` and `stop` take the same flags. */
const ASKS = {
  status: "whether the data folder's runner is running, since when, and what it served",
  stop: "stop the data folder's runner (the next call starts it again)",
} as const;

function ask(group: CommandUnknownOpts, verb: keyof typeof ASKS) {
  return dataOptions(group.command(verb).description(ASKS[verb]));
}

export type RunnerServeOptions = OptionsOf<typeof serve>;
export type RunnerStatusOptions = OptionsOf<typeof ask>;

export function registerRunner(program: CommandUnknownOpts, cli: Cli): void {
  const group = program
    .command('runner')
    .description(
      'the resident runner that answers the hooks and runs granted commands, one per user and data folder',
    );
  serve(group).action(handler(cli, runRunnerServe));
  for (const verb of ['status', 'stop'] as const)
    ask(group, verb).action(async (options) =>
      cli.exit(await runRunnerStatus(cli.io, options, verb)),
    );
}

export async function runRunnerServe(io: Io, options: RunnerServeOptions): Promise<number> {
  const data = resolve(options.data ?? DEFAULT_DATA);
  const idle = options.idle === undefined ? 900 : Number(options.idle);
  if (!Number.isFinite(idle) || idle <= 0)
    return usage(
      io,
      false,
      '--idle',
      `\`--idle ${options.idle}\` is not a number of seconds above 0`,
    );
  const { claimRunner, runnerLog } = await import('../../runner/lifecycle.js');
  const claimed = await claimRunner(data);
  if (typeof claimed === 'string') return usage(io, false, '--data', claimed);
  if (claimed === null) {
    io.err(`warden runner: a runner serves ${data} already\n`);
    return EXIT.ok;
  }
  const log = runnerLog(data);
  // Its socket is reached relative to the data folder: the runner works there.
  process.chdir(data);
  const { realpathSync } = await import('node:fs');
  const { startRunner } = await import('../../runner/server.js');
  let runner;
  try {
    runner = await startRunner({ data: realpathSync(data), idleMs: idle * 1000, log });
  } catch (error) {
    claimed.release();
    return usage(
      io,
      false,
      '--data',
      `the runner cannot listen in ${data}: ${(error as Error).message}`,
    );
  }
  log(`serving ${data}`);
  const stop = (): void => void runner.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await runner.closed;
  claimed.release();
  log(`stopped after ${runner.counts.hooks} hook calls and ${runner.counts.runs} runs`);
  return EXIT.ok;
}

export async function runRunnerStatus(
  io: Io,
  options: RunnerStatusOptions,
  verb: 'status' | 'stop',
): Promise<number> {
  const json = options.json === true;
  const data = resolve(options.data ?? DEFAULT_DATA);
  const [{ runnerStatus }, { askRunner }, { socketPath }] = await Promise.all([
    import('../../runner/lifecycle.js'),
    import('../../runner/protocol.js'),
    import('../../runner/place.js'),
  ]);
  const status = await runnerStatus(data);
  if (!status.running) {
    if (json) printJson(io, { running: false, data, reason: status.reason });
    else io.out(`no runner serves ${data}: ${status.reason}\n`);
    return verb === 'stop' ? EXIT.ok : EXIT.usage;
  }
  if (verb === 'stop') {
    let stopped = false;
    try {
      stopped = (await askRunner(socketPath(data), 'stop')).status === 200;
    } catch {
      stopped = false;
    }
    if (json) printJson(io, { stopped, data });
    else io.out(stopped ? `the runner of ${data} stops\n` : `the runner of ${data} did not stop\n`);
    return stopped ? EXIT.ok : EXIT.usage;
  }
  if (json) printJson(io, { data, ...status });
  else
    io.out(
      `the runner of ${data} runs (pid ${status.pid}, since ${status.since}): ${status.hooks} hook calls, ${status.runs} runs, ${status.open} open\n`,
    );
  return EXIT.ok;
}
