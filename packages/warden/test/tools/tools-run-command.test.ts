// `run_command` with a real shell (G14b, G14c, E2, E26): the classifier reads
// the whole line before anything runs, command rules meet it word by word, and
// the process is capped, timed out as a group, and kept from Warden's secrets.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BuiltinOptions, RunCommandResult } from '../../src/tools/builtin/index.js';
import { useBuiltins } from '../support/tools-fixture.js';

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

const fx = useBuiltins();
const open = (options: BuiltinOptions = {}) => fx.open(POLICY, options);
const run = (args: object) => fx.value<RunCommandResult>('run_command', args);

describe('run_command', () => {
  it('denies `rm -rf build && git push origin main` before anything runs (G14c)', async () => {
    await open();
    mkdirSync(join(fx.worktree, 'build'));
    const result = await fx.tools.call(
      'run_command',
      { command: 'rm -rf build && git push origin main' },
      { callId: 'c-push' },
    );
    expect(result).toMatchObject({
      ok: false,
      status: 'Denied',
      decision: { outcome: 'deny', rule: 'protect-main' },
    });
    expect(existsSync(join(fx.worktree, 'build'))).toBe(true);
    const decision = await fx.decisionOf('c-push');
    expect(decision).toMatchObject({
      tool: 'run_command',
      request: { command: 'rm -rf build && git push origin main' },
    });
  });

  it('meets a command rule `npm publish → deny` word by word (G13, G14b)', async () => {
    await open();
    for (const command of ['npm publish', 'npm  publish --tag next', 'true && npm publish']) {
      const result = await fx.tools.call('run_command', { command });
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
    expect(existsSync(join(fx.worktree, 'late'))).toBe(false);
  });

  it('runs in a `cwd` the shared module accepts, and classifies relative paths from there (E26, I5)', async () => {
    await open();
    mkdirSync(join(fx.worktree, 'vendor'));
    writeFileSync(join(fx.worktree, 'vendor', 'lib.js'), 'x');
    expect(await run({ command: 'pwd', cwd: 'vendor' })).toMatchObject({
      stdout: `${join(fx.worktree, 'vendor')}\n`,
    });
    const denied = await fx.tools.call('run_command', { command: 'rm lib.js', cwd: 'vendor' });
    expect(denied).toMatchObject({ status: 'Denied', decision: { rule: 'keep-vendor' } });
    expect(existsSync(join(fx.worktree, 'vendor', 'lib.js'))).toBe(true);
    mkdirSync(join(fx.worktree, '.trash'));
    for (const cwd of ['..', '.trash', 'vendor/lib.js', '/tmp']) {
      const refused = await fx.tools.call('run_command', { command: 'pwd', cwd });
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
