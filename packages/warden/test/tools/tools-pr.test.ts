// `pr_create` and `pr_merge` (G1, G14c, G16, E26): pull requests go through
// the gate as `prCreate` (with the target and the proposed branch) and
// `prPublish`, described as the `gh` command lines they amount to; a denied
// call never starts `gh`, and an allowed one runs the real `gh` (when it is
// installed) with exactly what was gated.

import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useBuiltins } from '../support/tools-fixture.js';

const GIT = spawnSync('git', ['--version']).status === 0;
const GH = spawnSync('gh', ['--version']).status === 0;
const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GH_CONFIG_DIR: '/nonexistent/gh-config',
};

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'no-prs-to-main', action: 'prCreate', decision: 'deny', when: { refs: ['main'] } },
    { id: 'prs', action: 'prCreate', decision: 'allow' },
    { id: 'merges', action: 'prPublish', decision: 'allow', when: { refs: ['develop'] } },
  ],
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();
}

describe.skipIf(!GIT)(`pull request tools${GIT ? '' : ' (skipped: git is not installed)'}`, () => {
  const fx = useBuiltins('warden-pr-');
  const { decisionOf } = fx;

  beforeEach(() => {
    git(fx.worktree, 'init', '-q', '-b', 'feature/login');
    git(fx.worktree, 'config', 'user.name', 'Coder One');
    git(fx.worktree, 'config', 'user.email', 'coder-1@example.test');
    git(fx.worktree, 'config', 'commit.gpgsign', 'false');
    writeFileSync(join(fx.worktree, 'README.md'), 'hello\n');
    git(fx.worktree, 'add', 'README.md');
    git(fx.worktree, 'commit', '-q', '-m', 'initial');
  });

  it('G16: a PR into main is denied by the rule on its target, and gh never starts', async () => {
    // A `gh` that does not exist: had the call reached it, the status would be Error, not Denied.
    await fx.open(POLICY, { env: ENV, gh: join(fx.worktree, 'no-such-gh') });
    const result = await fx.tools.call(
      'pr_create',
      { base: 'main', title: 'Login' },
      { callId: 'c-pr' },
    );
    expect(result).toMatchObject({
      ok: false,
      status: 'Denied',
      decision: { rule: 'no-prs-to-main' },
    });
    expect(await decisionOf('c-pr')).toMatchObject({
      request: {
        actions: ['prCreate'],
        command: "gh pr create --base main --head feature/login --title Login --body ''",
        args: { refs: ['main', 'feature/login'] },
      },
    });
  });

  it('E26: pr_merge without its base leaves the refs unknown, so the rule on refs asks instead of allowing', async () => {
    await fx.open(POLICY, { env: ENV, gh: join(fx.worktree, 'no-such-gh') });
    const unknown = await fx.tools.call(
      'pr_merge',
      { pr: 42, method: 'squash' },
      { callId: 'c-merge' },
    );
    expect(unknown).toMatchObject({ status: 'Denied' });
    expect(await decisionOf('c-merge')).toMatchObject({
      request: { actions: ['prPublish'], command: 'gh pr merge 42 --squash' },
    });
  });

  it('an allowed call where gh is missing ends as an error that says so, and is recorded', async () => {
    await fx.open(POLICY, { env: ENV, gh: join(fx.worktree, 'no-such-gh') });
    const result = await fx.tools.call('pr_merge', { pr: 'feature/login', base: 'develop' });
    expect(result).toMatchObject({ ok: false, status: 'Error' });
    expect(JSON.stringify(result)).toContain('is not installed here');
  });

  it.skipIf(!GH)(
    `G1: an allowed PR runs the real gh with exactly what was gated${GH ? '' : ' (skipped: gh is not installed)'}`,
    async () => {
      await fx.open(POLICY, { env: ENV });
      const result = await fx.tools.call('pr_create', {
        base: 'develop',
        title: 'Login',
        body: 'Adds login',
      });
      // No GitHub remote here (and no network): gh itself refuses, and the call is an Error.
      expect(result).toMatchObject({ ok: false, status: 'Error', decision: { outcome: 'allow' } });
      expect(JSON.stringify(result)).toMatch(/`gh pr create` failed \(exit \d+\)/);
    },
  );

  it('refuses arguments that could smuggle an option into gh, before any decision', async () => {
    await fx.open(POLICY, { env: ENV });
    for (const args of [
      { base: '--repo=evil/x', title: 't' },
      { base: 'develop', head: '-R', title: 't' },
      { base: 'develop', title: '' },
    ]) {
      const result = await fx.tools.call('pr_create', args);
      expect(result, JSON.stringify(args)).toMatchObject({ ok: false, decision: null });
    }
  });
});
