// The resident runner (`warden runner serve`): one process per user and data
// folder that does once what a hook or `warden exec` started per call would
// do every time — load the engine, open the store or connect to the server,
// start the sandbox's egress proxy, land a transactional run. The agent
// runtimes' hooks and the rewritten shell commands reach it through small
// shell clients (`bin/warden-hook`, `bin/warden-run`) on a Unix socket in the
// data folder, which only its owner may enter. It is started by the first
// client that finds it missing and exits when idle; a client that can reach
// no runner and cannot start one denies.
//
// What it answers is what the per-call paths answer, from the same code: a
// hook's call goes through `answerHook` (`hook/run.ts`), a granted run
// through `runExec` (`sandbox/exec.ts`), both on deciders kept open
// between calls (`decider/open.ts`). Every request names the data folder it
// belongs to; one for another folder is refused.
//
// Requests (`protocol.ts`, one per connection) are `hook` (fields: runtime,
// arg (repeated), cwd, token, env.NAME; the body is the runtime's input),
// `run/start` (grant, worktree, command, the source's flags, pid, runner,
// token), `run/end` (id, status), `status` and `stop`. A hook's answer is the
// runtime's JSON; a run's steps are bash assignments for the client to
// evaluate (`warden_state`, …), quoted here.

import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { chmodSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Decider, StartedRun } from '../decider/types.js';
import type { DeciderSpec, OpenDecider } from '../decider/open.js';
import { openForOneCall } from '../decider/open.js';
import type { ExecRequest } from '../sandbox/exec.js';
import { runExec } from '../sandbox/exec.js';
import { parseHookArgs } from '../hook/main.js';
import type { HookIo } from '../hook/run.js';
import { runHook } from '../hook/run.js';
import { loadRuntime } from '../hook/runtimes.js';
import { boundWorktree, dataFolder } from '../hook/worktree.js';
import { RunSession } from './sessions.js';
import type { Step } from './sessions.js';
import { SOCKET_NAME } from './place.js';
import type { RunnerRequest } from './protocol.js';
import { readRequest, writeAnswer } from './protocol.js';

/** The variables a client passes on from the runtime's environment. */
const PASSED_ENV = [
  'WARDEN_URL',
  'WARDEN_MANAGED_POLICY',
  'CLAUDE_PROJECT_DIR',
  'GEMINI_PROJECT_DIR',
] as const;

export interface RunnerOptions {
  /** The data folder this runner serves (real path); it listens on `runner.sock` in it. */
  readonly data: string;
  /** Exit after this long without a request and with no run open (default 15 minutes). */
  readonly idleMs?: number;
  /** Written to the runner's log. */
  readonly log: (line: string) => void;
}

export interface Runner {
  readonly server: Server;
  /** Calls answered and runs started since it started. */
  readonly counts: { hooks: number; runs: number };
  /** Ends when the runner stopped (idle, its socket gone, or `close`). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Quotes one word for bash. */
function q(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A step as the bash client evaluates it. */
function stepScript(session: RunSession, step: Step): string {
  const said = session.messages.splice(0).map(q).join(' ');
  const lines = [`warden_id=${q(session.id)}`, `warden_say=(${said})`];
  if (step.kind === 'launch') {
    lines.push(
      'warden_state=launch',
      `warden_log=${q(session.log)}`,
      `warden_launch=(${[step.file, ...step.args].map(q).join(' ')})`,
    );
  } else lines.push('warden_state=done', `warden_exit=${step.exitCode}`);
  return `${lines.join('\n')}\n`;
}

/** The token a client passed on from the runtime's environment, if any. */
function tokenOf(form: RunnerRequest): string | undefined {
  const token = form.get('token') ?? '';
  return token === '' ? undefined : token;
}

/** The environment a call is answered in: the runner's own, with the runtime's variables. */
function callEnv(form: RunnerRequest): NodeJS.ProcessEnv {
  const dropped = new Set<string>(['WARDEN_TOKEN', ...PASSED_ENV]);
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !dropped.has(name)),
  );
  for (const name of PASSED_ENV) {
    const value = form.get(`env.${name}`);
    if (value !== null) env[name] = value;
  }
  const token = tokenOf(form);
  if (token !== undefined) env.WARDEN_TOKEN = token;
  return env;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Starts the runner on `runner.sock` in the data folder. The caller has made
 * sure no other runner serves it (`lifecycle.ts`).
 */
export async function startRunner(options: RunnerOptions): Promise<Runner> {
  const data = options.data;
  const log = options.log;
  const idleMs = options.idleMs ?? 15 * 60 * 1000;
  const counts = { hooks: 0, runs: 0 };
  const sessions = new Map<string, RunSession>();
  const runsDir = join(data, 'runs');
  await mkdir(runsDir, { recursive: true, mode: 0o700 });

  // Deciders stay open between calls, one per policy file or server and token.
  const deciders = new Map<string, Promise<{ decider: Decider } | { problem: string }>>();
  const open: OpenDecider = async (spec: DeciderSpec, env) => {
    const key = JSON.stringify(spec);
    let made = deciders.get(key);
    if (made === undefined) {
      made = openResident(spec, env);
      deciders.set(key, made);
    }
    const got = await made;
    // A policy that cannot be used now may be fixed before the next call: it is opened again.
    if ('problem' in got) {
      deciders.delete(key);
      return got;
    }
    return { decider: got.decider, release: () => Promise.resolve() };
  };

  let last = Date.now();
  const touch = (): void => {
    last = Date.now();
  };

  const refuseOtherFolder = (implied: string): string | null =>
    realOr(implied) === data
      ? null
      : `this call belongs to the data folder \`${implied}\`, and the runner reached serves \`${data}\``;

  const hook = async (form: RunnerRequest): Promise<string> => {
    counts.hooks += 1;
    const name = form.get('runtime') ?? '';
    const runtime = await loadRuntime(name);
    if (runtime === null) throw new Error(`no hook for \`${name}\``);
    const args = form.getAll('arg');
    const env = callEnv(form);
    const cwd = form.get('cwd') ?? '/';
    const deny = (reason: string): string =>
      `${JSON.stringify(runtime.deny(`Warden: ${reason}: denied, fail-closed`))}\n`;
    const options = parseHookArgs(args);
    if (typeof options === 'string') return deny(`bad hook arguments: ${options}`);
    const bound = boundWorktree(options.worktree, runtime, env, () => cwd);
    if (!('problem' in bound)) {
      const other = refuseOtherFolder(dataFolder(options.data, bound.worktree));
      if (other !== null) return deny(other);
    }
    let out = '';
    const io: HookIo = {
      stdin: () => Promise.resolve(form.body),
      out: (text) => {
        out += text;
      },
      // A warning the answer cannot carry (a completion not recorded) goes to the runner's log.
      err: (text) => log(text.trimEnd()),
      env,
      cwd: () => cwd,
      open,
    };
    await runHook(io, options, runtime);
    return out;
  };

  const runStart = async (form: RunnerRequest): Promise<string> => {
    counts.runs += 1;
    const get = (name: string): string | undefined => form.get(name) ?? undefined;
    const worktree = get('worktree');
    const command = get('command');
    const grant = get('grant');
    if (worktree === undefined || command === undefined || grant === undefined)
      throw new Error('a run needs `grant`, `worktree` and `command`');
    const server = get('server');
    const policy = get('policy');
    const dataArg = get('data');
    const managed = get('managed');
    // The data folder the client addressed, and for a standalone run the one it decides in.
    for (const implied of [get('runner') ?? dataFolder(undefined, worktree), dataArg]) {
      if (implied === undefined) continue;
      const other = refuseOtherFolder(implied);
      if (other !== null) throw new Error(other);
    }
    const pid = Number(get('pid'));
    const id = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
    const dir = join(runsDir, id);
    await mkdir(dir, { mode: 0o700 });
    const session = new RunSession(id, dir, Number.isInteger(pid) && pid > 1 ? pid : null);
    sessions.set(id, session);
    const env = callEnv(form);
    const execOptions = {
      grant,
      worktree,
      ...(server === undefined ? {} : { server }),
      ...(policy === undefined ? {} : { policy }),
      ...(dataArg === undefined ? {} : { data: dataArg }),
      ...(managed === undefined ? {} : { managed }),
      sandbox: true,
    } satisfies ExecRequest;
    const io = {
      out: (text: string) => session.messages.push(text.replace(/\n$/, '')),
      err: (text: string) =>
        session.messages.push(
          ...text
            .replace(/\n$/, '')
            .split('\n')
            .filter((l) => l !== ''),
        ),
      stdin: () => '',
      env,
      now: () => Date.now(),
      color: false,
    };
    // A run whose grant was redeemed is written down in its folder, so a runner that starts after
    // this one died mid-run records how it ended (`sweep`).
    const sessionOpen: OpenDecider = async (spec, specEnv) => {
      const got = await open(spec, specEnv);
      if ('problem' in got) return got;
      const { decider } = got;
      return {
        release: got.release,
        decider: {
          ...decider,
          async startRun(grant, line, tree) {
            const started = await decider.startRun(grant, line, tree);
            if (started.ok && spec.kind === 'local')
              await writeFile(
                join(dir, 'run.json'),
                JSON.stringify({ spec, run: started.run, command: line }),
                { mode: 0o600 },
              );
            return started;
          },
        },
      };
    };
    void runExec(io, [command], execOptions, { spawn: session.spawn, open: sessionOpen })
      .catch((error: unknown) => {
        session.messages.push(
          `warden exec: the run failed inside the runner: ${error instanceof Error ? error.message : String(error)}`,
        );
        return 1;
      })
      .then((code) => {
        session.finish(code);
      });
    return answerStep(session);
  };

  const answerStep = async (session: RunSession): Promise<string> => {
    const step = await session.next();
    const script = stepScript(session, step);
    if (step.kind === 'done') {
      sessions.delete(session.id);
      await rm(session.dir, { recursive: true, force: true }).catch(() => undefined);
    }
    return script;
  };

  const runEnd = async (form: RunnerRequest): Promise<string> => {
    const session = sessions.get(form.get('id') ?? '');
    if (session === undefined)
      throw new Error('no such run: it ended, or this runner did not start it');
    const status = Number(form.get('status'));
    await session.report(Number.isInteger(status) && status >= 0 && status < 256 ? status : 1);
    return answerStep(session);
  };

  const trace = process.env.WARDEN_RUNNER_TRACE === '1';
  const handle = async (socket: Socket): Promise<void> => {
    touch();
    const began = performance.now();
    let op = '?';
    const send = (status: number, body: string): void => {
      writeAnswer(socket, status, body);
      if (trace) log(`${op} ${status} ${(performance.now() - began).toFixed(1)} ms`);
    };
    try {
      const form = await readRequest(socket);
      op = form.op;
      if (op === 'status')
        send(
          200,
          JSON.stringify({
            pid: process.pid,
            data,
            since: new Date(started).toISOString(),
            hooks: counts.hooks,
            runs: counts.runs,
            open: sessions.size,
          }),
        );
      else if (op === 'hook') send(200, await hook(form));
      else if (op === 'run/start') send(200, await runStart(form));
      else if (op === 'run/end') send(200, await runEnd(form));
      else if (op === 'stop') {
        send(200, 'stopping\n');
        void close();
      } else send(404, `no operation \`${op}\`\n`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`${op} failed: ${message}`);
      if (!socket.destroyed) send(500, `${message}\n`);
    } finally {
      touch();
    }
  };

  const started = Date.now();
  await sweep(runsDir, open, log);
  const connections = new Set<Socket>();
  // A client half-closes once it has sent its request; the answer still goes back.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => undefined);
    void handle(socket);
  });
  // Relative to the data folder (the process works there): no socket path length limit.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(SOCKET_NAME, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(SOCKET_NAME, 0o600);
  const socketIno = statSync(SOCKET_NAME).ino;

  let closing: Promise<void> | null = null;
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      clearInterval(ticker);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // A call still waiting (for a human, say) ends now: its client denies.
      for (const socket of connections) socket.destroy();
      await stopped;
      for (const session of sessions.values()) await session.report(null);
      for (const made of deciders.values()) {
        const got = await made.catch(() => null);
        if (got !== null && 'decider' in got) await got.decider.close().catch(() => undefined);
      }
      // The socket goes with the runner, unless another runner's has taken its place.
      try {
        if ((await stat(SOCKET_NAME)).ino === socketIno) await rm(SOCKET_NAME, { force: true });
      } catch {
        // gone already
      }
      resolveClosed();
    })());

  const ticker = setInterval(() => {
    // Its socket deleted or replaced: this runner can no longer be reached, and another may run.
    let ours = false;
    try {
      ours = statSync(SOCKET_NAME).ino === socketIno;
    } catch {
      ours = false;
    }
    if (!ours) {
      options.log('the socket is gone: stopping');
      void close();
      return;
    }
    const busy = [...sessions.values()].some((s) => !s.done);
    if (!busy && Date.now() - last > idleMs) {
      options.log(`idle for ${Math.round(idleMs / 1000)} s: stopping`);
      void close();
    }
  }, 1000);
  ticker.unref();

  return { server, counts, closed, close };
}

/** A decider kept open: Warden on the policy file with its writer, or the server on keep-alive. */
async function openResident(
  spec: DeciderSpec,
  env: NodeJS.ProcessEnv,
): Promise<{ decider: Decider } | { problem: string }> {
  if (spec.kind === 'remote') {
    const [{ remoteDecider }, { keepAliveTransport }] = await Promise.all([
      import('../decider/remote.js'),
      import('../decider/transport.js'),
    ]);
    return {
      decider: remoteDecider({
        server: spec.server,
        token: spec.token,
        transport: keepAliveTransport(),
      }),
    };
  }
  const opened = await openForOneCall(spec, env);
  if ('problem' in opened) return opened;
  return { decider: opened.decider };
}

/** Whether `path` is a folder (for a caller checking its data folder). */
export async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(await realpath(path))).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Runs an earlier runner left open (it died while their commands ran): each
 * one whose decision was made here is recorded as ended in an error, and its
 * folder removed. What such a command did in its layer never landed.
 */
async function sweep(
  runsDir: string,
  open: OpenDecider,
  log: (line: string) => void,
): Promise<void> {
  let left: string[];
  try {
    left = await readdir(runsDir);
  } catch {
    return;
  }
  for (const id of left) {
    const dir = join(runsDir, id);
    try {
      const text = await readFile(join(dir, 'run.json'), 'utf8').catch(() => null);
      if (text !== null) {
        const { spec, run, command } = JSON.parse(text) as {
          spec: DeciderSpec;
          run: StartedRun;
          command: string;
        };
        const opened = await open(spec, process.env);
        if (!('problem' in opened))
          await opened.decider.recordRun(run, {
            status: 'Error',
            durationMs: 0,
            error:
              "Warden's runner stopped while the command ran: how it ended is unknown, and what it did over its copy-on-write layer was not kept",
            arguments: { command },
          });
      }
    } catch (error) {
      log(`the run left in ${dir} could not be recorded: ${(error as Error).message}`);
    }
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
