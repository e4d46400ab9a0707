// `run_command` with a real shell (G14b, G14c, E2, E26): the classifier reads
// the whole line before anything runs, command rules meet it word by word, and
// the process is capped, timed out as a group, and kept from Warden's secrets.

import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltinOptions, RunCommandResult } from '../src/tools/builtin/index.js';
import { registerBuiltins } from '../src/tools/builtin/index.js';
import type { ToolRegistry } from '../src/tools/registry.js';
import { auditLog, openTestWarden } from './support/warden.js';
import type { TestWarden } from './support/warden.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    { id: 'no-publish', command: 'npm publish', decision: 'deny' },
    { id: 'keep-vendor', action: 'fileDelete', decision: 'deny', when: { paths: ['vendor/**'] } },
    { id: 'deletes', action: 'fileDelete', decision: 'allow' },
  ],
};

let t: TestWarden;
let worktree: string;
let tools: ToolRegistry;

async function open(options: BuiltinOptions = {}): Promise<void> {
  t = await openTestWarden(POLICY);
  tools = registerBuiltins(
    t.warden.tools({ workspace: 'acme', agent: 'coder-1', source: 'builtin', worktree }),
    options,
  );
}

async function run(args: object): Promise<RunCommandResult> {
  const result = await tools.call<RunCommandResult>('run_command', args);
  if (!result.ok) throw new Error(`run_command failed: ${result.error}`);
  return result.value;
}

beforeEach(() => {
  worktree = realpathSync(mkdtempSync(join(tmpdir(), 'warden-wt-')));
});
afterEach(async () => {
  await t.cleanup();
  rmSync(worktree, { recursive: true, force: true });
});

describe('run_command', () => {
  it('denies `rm -rf build && git push origin main` before anything runs (G14c)', async () => {
    await open();
    mkdirSync(join(worktree, 'build'));
    const result = await tools.call(
      'run_command',
      { command: 'rm -rf build && git push origin main' },
      { callId: 'c-push' },
    );
    expect(result).toMatchObject({
      ok: false,
      status: 'Denied',
      decision: { outcome: 'deny', rule: 'protect-main' },
    });
    expect(existsSync(join(worktree, 'build'))).toBe(true);
    const decision = (await auditLog(t.warden.store)).find(
      (e) => e.kind === 'decision' && e.callId === 'c-push',
    );
    expect(decision).toMatchObject({
      tool: 'run_command',
      request: { command: 'rm -rf build && git push origin main' },
    });
  });

  it('meets a command rule `npm publish → deny` word by word (G13, G14b)', async () => {
    await open();
    for (const command of ['npm publish', 'npm  publish --tag next', 'true && npm publish']) {
      const result = await tools.call('run_command', { command });
      expect(result, command).toMatchObject({ status: 'Denied', decision: { rule: 'no-publish' } });
    }
  });

  it('returns a non-zero exit as a result, with stdout and stderr (E2)', async () => {
    await open();
    const value = await run({ command: 'echo out; echo err >&2; exit 3' });
    expect(value).toMatchObject({
      exitCode: 3,
      stdout: 'out\n',
      stderr: 'err\n',
      timedOut: false,
      stdoutTruncated: false,
    });
  });

  it('cuts each stream at 64 KiB and says so', async () => {
    await open();
    const value = await run({ command: "head -c 100000 /dev/zero | tr '\\0' a" });
    expect(value.stdout.length).toBe(64 * 1024);
    expect(value.stdoutTruncated).toBe(true);
    expect(value.notes.join(' ')).toContain('stdout was cut at 65536 bytes of 100000');
  });

  it('kills the whole process group when the timeout passes', async () => {
    await open();
    const started = Date.now();
    const value = await run({ command: '(sleep 1; touch late) & sleep 10', timeoutMs: 300 });
    expect(value).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(join(worktree, 'late'))).toBe(false);
  });

  it('runs in a `cwd` the shared module accepts, and classifies relative paths from there (E26, I5)', async () => {
    await open();
    mkdirSync(join(worktree, 'vendor'));
    writeFileSync(join(worktree, 'vendor', 'lib.js'), 'x');
    expect(await run({ command: 'pwd', cwd: 'vendor' })).toMatchObject({
      stdout: `${join(worktree, 'vendor')}\n`,
    });
    const denied = await tools.call('run_command', { command: 'rm lib.js', cwd: 'vendor' });
    expect(denied).toMatchObject({ status: 'Denied', decision: { rule: 'keep-vendor' } });
    expect(existsSync(join(worktree, 'vendor', 'lib.js'))).toBe(true);
    mkdirSync(join(worktree, '.trash'));
    for (const cwd of ['..', '.trash', 'vendor/lib.js', '/tmp']) {
      const refused = await tools.call('run_command', { command: 'pwd', cwd });
      expect(refused, cwd).toMatchObject({ ok: false, status: 'Denied', decision: null });
    }
  });

  it("starts the child without Warden's credentials in its environment", async () => {
    await open({
      env: {
        PATH: process.env.PATH,
        KEEP_ME: 'yes',
        WARDEN_TOKEN: 'wtok-secret',
        WARDEN_DB_SCHEMA: 'warden',
        DATABASE_URL: 'postgres://u:p@db/warden',
      },
    });
    const value = await run({ command: 'env' });
    expect(value.stdout).toContain('KEEP_ME=yes');
    expect(value.stdout).not.toContain('WARDEN_');
    expect(value.stdout).not.toContain('DATABASE_URL');
  });
});
