// `warden runner serve|status|stop`: runs a data folder's resident runner
// (`runner/`), or asks the one that runs what it served, or to stop.

import { resolve } from 'node:path';
import { claimRunner, runnerLog, runnerStatus } from '../runner/lifecycle.js';
import { askRunner } from '../runner/protocol.js';
import { socketPath } from '../runner/place.js';
import type { RunnerServeOptions, RunnerStatusOptions } from './commands/runner.js';
import type { Io } from './io.js';
import { EXIT, printJson, usage } from './io.js';
import { DEFAULT_DATA } from '../store/open.js';

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
  const { startRunner } = await import('../runner/server.js');
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
