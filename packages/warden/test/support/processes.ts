// Long-running `warden` processes for tests: `warden serve` and `warden
// approvals watch`, spawned from the real binary, with their output read as
// it comes and their input written line by line.

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { BIN, warden } from '../helpers.js';

export interface Spawned {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once standard output (or error) holds `text`; rejects after `timeoutMs`. */
  waitFor(
    text: string | RegExp,
    options?: { stream?: 'stdout' | 'stderr'; timeoutMs?: number },
  ): Promise<string>;
  write(line: string): void;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  readonly exited: Promise<number | null>;
}

function baseEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', WARDEN_LOG_LEVEL: 'warn' };
  delete env.WARDEN_MANAGED_POLICY;
  delete env.DATABASE_URL;
  delete env.WARDEN_DB_SCHEMA;
  delete env.WARDEN_URL;
  delete env.WARDEN_TOKEN;
  const set = Object.entries(extra).filter((e): e is [string, string] => e[1] !== undefined);
  const unset = new Set(Object.keys(extra).filter((key) => extra[key] === undefined));
  return Object.fromEntries([...Object.entries(env).filter(([key]) => !unset.has(key)), ...set]);
}

export function spawnWarden(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: baseEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const poke = () => {
    for (const w of [...waiters]) w();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    poke();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    poke();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      poke();
      resolve(code);
    }),
  );
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (text, options = {}) =>
      new Promise<string>((resolve, reject) => {
        const stream = options.stream ?? 'stdout';
        const read = () => (stream === 'stdout' ? out : err);
        const found = () => (typeof text === 'string' ? read().includes(text) : text.test(read()));
        const check = () => {
          if (found()) {
            cleanup();
            resolve(read());
          } else if (done) {
            cleanup();
            reject(
              new Error(
                `warden ${args.join(' ')} exited before printing ${String(text)}\nstdout: ${out}\nstderr: ${err}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `timed out waiting for ${String(text)} from warden ${args.join(' ')}\nstdout: ${out}\nstderr: ${err}`,
            ),
          );
        }, options.timeoutMs ?? 15_000);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    write: (line) => {
      child.stdin.write(`${line}\n`);
    },
    stop: async (signal = 'SIGTERM') => {
      if (!done) child.kill(signal);
      return exited;
    },
  };
}

/**
 * A connected approver: `warden approvals watch --json` on `url` with `token`,
 * resolved once its channel is ready. It joins `spawned` before it waits, so a
 * test's cleanup stops it even when it never gets ready.
 */
export async function approverWatching(
  url: string,
  token: string,
  spawned: Spawned[],
): Promise<Spawned> {
  const watcher = spawnWarden(['approvals', 'watch', '--json', '--server', url, '--token', token]);
  spawned.push(watcher);
  await watcher.waitFor('"event":"ready"');
  return watcher;
}

export interface Served extends Spawned {
  readonly url: string;
  readonly banner: Record<string, unknown>;
}

/** Stops every process in `list` with SIGKILL and empties it: a test's cleanup. */
export async function killAll(list: Spawned[]): Promise<void> {
  await Promise.all(list.splice(0).map((s) => s.stop('SIGKILL')));
}

/** `warden serve --port 0 --json`, resolved once it listens. */
export async function serve(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<Served> {
  const spawned = spawnWarden(['serve', '--port', '0', '--json', ...args], env);
  const text = await spawned.waitFor(/\n/);
  const banner = JSON.parse(text.split('\n')[0] as string) as Record<string, unknown>;
  return { ...spawned, url: banner.url as string, banner };
}

/** A JSON request to a served Warden with a bearer token. */
export async function api(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/**
 * Waits until a prompt on the server at `url` waits for an approver
 * (`expected` true) or is denied at once (false): it decides `ref`'s push
 * with `?wait=0` as `agent` and denies, as `admin`, every probe that opened
 * an approval, polling every `pollMs` for at most `timeoutMs`.
 */
export async function presence(
  url: string,
  tokens: { readonly agent: string; readonly admin: string },
  expected: boolean,
  options: { ref?: string; timeoutMs?: number; pollMs?: number } = {},
): Promise<void> {
  const { ref = 'probe', timeoutMs = 5000, pollMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const probe = await api(url, tokens.agent, 'POST', '/v1/decide?wait=0', {
      command: `git push origin ${ref}`,
    });
    const waiting = probe.body.outcome === 'ask';
    if (waiting)
      await api(
        url,
        tokens.admin,
        'POST',
        `/v1/approvals/${probe.body.approvalId as string}/answer`,
        {
          kind: 'deny',
          reason: 'probe',
        },
      );
    if (waiting === expected) return;
    if (Date.now() > deadline) throw new Error(`presence never became ${expected}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** `warden token create … --json` with the real binary: the new token's secret and id. */
export function cliToken(
  args: readonly string[],
  env: Record<string, string> = {},
): { readonly token: string; readonly id: string } {
  const made = warden(['token', 'create', '--json', ...args], { env });
  expect(made.code, made.stderr + made.stdout).toBe(0);
  const parsed = JSON.parse(made.stdout) as { token: string; record: { id: string } };
  return { token: parsed.token, id: parsed.record.id };
}

/** `warden token create --data <data> <args>` with the real binary: the new token's secret. */
export function dataToken(data: string, ...args: string[]): string {
  return cliToken(['--data', data, ...args]).token;
}

/** What `warden token create` is told for an `agent` token for `agent` in `workspace` (named after the agent unless told). */
export function agentTokenArgs(agent: string, workspace = 'acme', name = agent): string[] {
  return ['--role', 'agent', '--name', name, '--workspace', workspace, '--agent', agent];
}

/** An `agent` token for `agent` in `workspace`, made in the data folder (named after the agent unless told). */
export function agentToken(data: string, agent: string, workspace = 'acme', name = agent): string {
  return dataToken(data, ...agentTokenArgs(agent, workspace, name));
}

/** A port nothing listens on (it was free a moment ago). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A fresh data folder with `policy` (YAML) applied through the real `warden policy apply`, and what it said. */
export function dataWithPolicy(policy: string): { readonly data: string; readonly said: string } {
  const data = mkdtempSync(join(tmpdir(), 'warden-'));
  const file = join(data, 'policy.yaml');
  writeFileSync(file, policy);
  const applied = warden(['policy', 'apply', file, '--data', data]);
  expect(applied.code, applied.stderr).toBe(0);
  return { data, said: applied.stdout };
}
