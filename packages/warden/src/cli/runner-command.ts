// `warden runner serve|status|stop`: runs a data folder's resident runner
// (`runner/`), or asks the one that runs what it served, or to stop.

import { request } from 'node:http';
import { resolve } from 'node:path';
import { claimRunner, runnerLog } from '../runner/lifecycle.js';
import { socketPath, socketProblem } from '../runner/place.js';
import type { RunnerServeOptions, RunnerStatusOptions } from './commands/runner.js';
import type { Io } from './io.js';
import { EXIT, printJson, usage } from './io.js';

export async function runRunnerServe(io: Io, options: RunnerServeOptions): Promise<number> {
  const data = resolve(options.data ?? '.warden');
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

/** One request to the runner over its socket. */
function ask(
  path: string,
  method: 'GET' | 'POST',
  route: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolveAsk, reject) => {
    const req = request({ socketPath: path, method, path: route, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolveAsk({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

export async function runRunnerStatus(
  io: Io,
  options: RunnerStatusOptions,
  verb: 'status' | 'stop',
): Promise<number> {
  const json = options.json === true;
  const data = resolve(options.data ?? '.warden');
  const path = socketPath(data);
  const problem = socketProblem(path);
  const notRunning = (why: string): number => {
    if (json) printJson(io, { running: false, data, reason: why });
    else io.out(`no runner serves ${data}: ${why}\n`);
    return verb === 'stop' ? EXIT.ok : EXIT.usage;
  };
  if (problem !== null) return notRunning(problem);
  let answer: { status: number; text: string };
  try {
    answer = await ask(
      path,
      verb === 'stop' ? 'POST' : 'GET',
      verb === 'stop' ? '/stop' : '/status',
    );
  } catch (error) {
    return notRunning(`its socket does not answer (${(error as Error).message})`);
  }
  if (verb === 'stop') {
    if (json) printJson(io, { stopped: answer.status === 200, data });
    else
      io.out(
        answer.status === 200
          ? `the runner of ${data} stops\n`
          : `the runner answered HTTP ${answer.status}\n`,
      );
    return answer.status === 200 ? EXIT.ok : EXIT.usage;
  }
  let status: { pid?: number; since?: string; hooks?: number; runs?: number; open?: number };
  try {
    status = JSON.parse(answer.text) as typeof status;
  } catch {
    return notRunning(`it answered something that is not its status (HTTP ${answer.status})`);
  }
  if (json) printJson(io, { running: true, data, ...status });
  else
    io.out(
      `the runner of ${data} runs (pid ${status.pid ?? '?'}, since ${status.since ?? '?'}): ${status.hooks ?? 0} hook calls, ${status.runs ?? 0} runs, ${status.open ?? 0} open\n`,
    );
  return EXIT.ok;
}
