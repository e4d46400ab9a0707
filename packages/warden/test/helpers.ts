// Running the real `warden` binary, and the CLI in-process, for tests.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../src/cli/main.js';
import type { Io } from '../src/cli/io.js';

export const BIN = join(import.meta.dirname, '..', 'bin', 'warden.js');
/** The resident runner's client for a granted run, and for a hook (`bin/warden-run`, `bin/warden-hook`). */
export const RUN_CLIENT = join(import.meta.dirname, '..', 'bin', 'warden-run');
export const HOOK_CLIENT = join(import.meta.dirname, '..', 'bin', 'warden-hook');
/** The words a hook's rewritten command starts with: the runner's client, run by bash. */
export const GRANTED_PREFIX: readonly string[] = ['/bin/bash', RUN_CLIENT, process.execPath];
/** A rewritten command: the runner's client with a grant. */
export const GRANTED_RUN = /\/warden-run \S+ --grant \S+ /;
export const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples');
export const FIXTURES = join(import.meta.dirname, 'fixtures');

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the installed binary as a user would. */
export function warden(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Ran {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
  if (options.env?.WARDEN_MANAGED_POLICY === undefined) delete env.WARDEN_MANAGED_POLICY;
  const result = spawnSync(process.execPath, [BIN, ...args], {
    input: options.input ?? '',
    env,
    encoding: 'utf8',
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs a program without blocking this process (a test's own server must
 * answer meanwhile) and collects what it wrote; `code` is -1 when a signal ended it.
 */
export function runAsync(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The standalone audit log of `data`, read back with `warden audit export`, one object per entry. */
export function exportedAudit<T = Record<string, unknown>>(
  data: string,
  env: Record<string, string> = {},
): T[] {
  const exported = warden(['audit', 'export', '--data', data], { env });
  if (exported.code !== 0) throw new Error(`warden audit export failed: ${exported.stderr}`);
  return exported.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Runs the CLI in this process with captured streams. */
export async function wardenInProcess(
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; now?: number } = {},
): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    stdin: () => options.input ?? '',
    env: options.env ?? {},
    now: () => options.now ?? Date.parse('2026-11-30T12:00:00Z'),
    color: false,
  };
  const code = await run(args, io);
  return { code, stdout, stderr };
}

/** Writes files into a fresh temporary folder and returns their paths. */
export function files(contents: Record<string, string | object>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-test-'));
  const paths: Record<string, string> = {};
  for (const [name, content] of Object.entries(contents)) {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    paths[name] = path;
  }
  return paths;
}
