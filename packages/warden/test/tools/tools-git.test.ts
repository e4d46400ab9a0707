// `git_commit` and `git_push` against a real repository and a bare remote
// (G14c, G16, G18, E26): each is gated with what it does and the command line
// it amounts to, and what runs is exactly what was gated.

import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GitCommitResult } from '../../src/tools/builtin/index.js';
import { useBuiltins } from '../support/tools-fixture.js';

const SKIP = spawnSync('git', ['--version']).status === 0 ? null : 'git is not installed';

/** No user or system git configuration leaks into the tests. */
const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    { id: 'feature-pushes', action: 'gitPush', decision: 'allow', when: { refs: ['feature/**'] } },
  ],
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();
}

describe.skipIf(SKIP !== null)(`git tools${SKIP === null ? '' : ` (skipped: ${SKIP})`}`, () => {
  const fx = useBuiltins('warden-repo-');
  const { decisionOf } = fx;
  const open = (policy: object) => fx.open(policy, { env: ENV });
  let remote: string;

  /** The commit the bare remote holds for a branch, or null. */
  function remoteHead(branch: string): string | null {
    const found = spawnSync('git', ['rev-parse', '--verify', '-q', `refs/heads/${branch}`], {
      cwd: remote,
      env: ENV,
      encoding: 'utf8',
    });
    return found.status === 0 ? found.stdout.trim() : null;
  }

  beforeEach(() => {
    remote = fx.folder('warden-remote-');
    git(remote, 'init', '-q', '--bare');
    git(fx.worktree, 'init', '-q', '-b', 'main');
    git(fx.worktree, 'config', 'user.name', 'Coder One');
    git(fx.worktree, 'config', 'user.email', 'coder-1@example.test');
    git(fx.worktree, 'config', 'commit.gpgsign', 'false');
    git(fx.worktree, 'remote', 'add', 'origin', remote);
    writeFileSync(join(fx.worktree, 'README.md'), 'hello\n');
    git(fx.worktree, 'add', 'README.md');
    git(fx.worktree, 'commit', '-q', '-m', 'initial');
  });

  it('git_commit stages the given paths and is gated as the command line it amounts to (G14c)', async () => {
    await open(POLICY);
    writeFileSync(join(fx.worktree, 'a.txt'), 'a');
    writeFileSync(join(fx.worktree, 'b.txt'), 'b');
    const result = await fx.tools.call<GitCommitResult>(
      'git_commit',
      { message: "it's done", paths: ['a.txt'] },
      { callId: 'c-commit' },
    );
    expect(result).toMatchObject({ ok: true, decision: { outcome: 'allow' } });
    expect(result.ok && result.value.commit).toBe(git(fx.worktree, 'rev-parse', 'HEAD'));
    expect(git(fx.worktree, 'show', '--name-only', '--format=%s', 'HEAD')).toBe(
      "it's done\n\na.txt",
    );
    expect(await decisionOf('c-commit')).toMatchObject({
      request: {
        actions: ['gitCommit'],
        command: "git add -- ':(literal)a.txt' ':(exclude).trash' && git commit -m 'it'\\''s done'",
        args: { paths: ['a.txt'] },
      },
    });
  });

  it('git_commit of `.` leaves `.trash` out, so a deleted file is not committed (I6)', async () => {
    await open({ ...POLICY, rules: [{ action: 'fileDelete', decision: 'allow' }] });
    writeFileSync(join(fx.worktree, '.env'), 'TOKEN=secret\n');
    writeFileSync(join(fx.worktree, 'kept.txt'), 'kept\n');
    expect(await fx.tools.call('delete_file', { path: '.env' })).toMatchObject({ ok: true });
    expect(await fx.tools.call('git_commit', { message: 'all', paths: ['.'] })).toMatchObject({
      ok: true,
    });
    expect(git(fx.worktree, 'ls-tree', '-r', '--name-only', 'HEAD')).toBe('README.md\nkept.txt');
  });

  it('a command rule on `git commit` meets git_commit as it meets the shell (G13, G14c)', async () => {
    await open({
      ...POLICY,
      rules: [{ id: 'no-commits', command: 'git commit', decision: 'deny' }],
    });
    const before = git(fx.worktree, 'rev-parse', 'HEAD');
    writeFileSync(join(fx.worktree, 'README.md'), 'changed\n');
    const result = await fx.tools.call('git_commit', { message: 'sneak', all: true });
    expect(result).toMatchObject({ status: 'Denied', decision: { rule: 'no-commits' } });
    expect(git(fx.worktree, 'rev-parse', 'HEAD')).toBe(before);
  });

  it('git_commit refuses paths the shared module refuses, before any decision (I5)', async () => {
    await open(POLICY);
    for (const path of ['../outside.txt', '.trash/x', '/etc/passwd']) {
      const result = await fx.tools.call('git_commit', { message: 'm', paths: [path] });
      expect(result, path).toMatchObject({ ok: false, status: 'Denied', decision: null });
    }
  });

  it('git_push pushes the current branch when a rule allows its ref, and it arrives (G16)', async () => {
    await open(POLICY);
    git(fx.worktree, 'checkout', '-q', '-b', 'feature/login');
    writeFileSync(join(fx.worktree, 'login.ts'), 'export {};\n');
    expect(
      await fx.tools.call('git_commit', { message: 'login', paths: ['login.ts'] }),
    ).toMatchObject({
      ok: true,
    });
    const result = await fx.tools.call('git_push', {}, { callId: 'c-push' });
    expect(result).toMatchObject({
      ok: true,
      decision: { outcome: 'allow', rule: 'feature-pushes' },
    });
    expect(remoteHead('feature/login')).toBe(git(fx.worktree, 'rev-parse', 'HEAD'));
    expect(await decisionOf('c-push')).toMatchObject({
      request: {
        actions: ['gitPush'],
        command: 'git push origin refs/heads/feature/login:refs/heads/feature/login',
        args: { refs: ['feature/login'] },
      },
    });
  });

  it('a push to `main` is denied by a `refs: [main]` rule, however the refspec names it (G16, E26)', async () => {
    await open(POLICY);
    git(fx.worktree, 'checkout', '-q', '-b', 'feature/x');
    for (const args of [
      { ref: 'main' },
      { ref: 'feature/x:main' },
      { ref: 'feature/x:refs/heads/main' },
    ]) {
      const result = await fx.tools.call('git_push', args);
      expect(result, args.ref).toMatchObject({
        status: 'Denied',
        decision: { rule: 'protect-main' },
      });
    }
    git(fx.worktree, 'checkout', '-q', 'main');
    expect(await fx.tools.call('git_push', {})).toMatchObject({
      decision: { rule: 'protect-main' },
    });
    expect(remoteHead('main')).toBeNull();
  });

  it('a push from a detached HEAD leaves the ref unknown, so the rules on refs escalate (E26, G18)', async () => {
    await open({
      ...POLICY,
      rules: [...POLICY.rules, { id: 'pushes', action: 'gitPush', decision: 'allow' }],
    });
    git(fx.worktree, 'checkout', '-q', '--detach');
    const result = await fx.tools.call('git_push', {}, { callId: 'c-detached' });
    // Without the escalation, the unconstrained allow would let it through.
    expect(result).toMatchObject({
      ok: false,
      status: 'Denied',
      decision: { decision: 'prompt', outcome: 'deny' },
    });
    const decision = await decisionOf('c-detached');
    expect(decision).toMatchObject({ request: { command: 'git push origin' } });
    expect(decision?.request).not.toHaveProperty('args');
    expect(result.decision?.facets).toContainEqual(
      expect.objectContaining({
        facet: 'gitPush',
        decision: 'prompt',
        because: expect.stringContaining('refs unknown') as unknown,
      }),
    );
  });

  it('git_push takes only a remote name and a plain refspec, so a URL or an option cannot widen what was gated (G16)', async () => {
    await open(POLICY);
    for (const args of [
      { remote: 'https://evil.example/x.git' },
      { remote: '--mirror' },
      { ref: '+main' },
    ]) {
      const result = await fx.tools.call('git_push', args);
      expect(result, JSON.stringify(args)).toMatchObject({
        ok: false,
        status: 'Error',
        decision: null,
      });
    }
  });
});
