// Warden's own git never runs what the worktree's configuration or hooks name
// (the guard of tools/builtin/git-guard.ts). A sandboxed command may write
// `.git/hooks/*`, `.git/config` and files `.git/config` includes, because they
// lie in the worktree; the built-in `git_commit` and `git_push` then run git
// outside the sandbox. Each knob below is planted with a program that leaves a
// marker outside the worktree; plain git is shown to run it (so the test can
// fail), and Warden's tool, or git in the guarded environment, is shown not to.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  GIT_KNOBS,
  guardSettings,
  guardedGitEnv,
  knobOf,
} from '../../src/tools/builtin/git-guard.js';
import { settings } from '../../src/tools/builtin/options.js';
import { useBuiltins } from '../support/tools-fixture.js';

const SKIP = spawnSync('git', ['--version']).status === 0 ? null : 'git is not installed';

/** No user or system git configuration leaks into the tests. */
const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'commits', action: 'gitCommit', decision: 'allow' },
    { id: 'pushes', action: 'gitPush', decision: 'allow' },
  ],
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();
}

/** A plain `git` run that may fail: whatever it ran before failing is what counts. */
function gitTry(cwd: string, args: readonly string[], input?: string, tty = false): void {
  const [file, argv] = gitArgv(args, tty);
  spawnSync(file, argv, {
    cwd,
    env: ENV,
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
  });
}

interface Knob {
  readonly name: string;
  /** Plants the knob in the worktree; `mark` is the file its program would create. */
  plant(worktree: string, mark: string, remote: string): void;
  /** What Warden runs: the commit tool, the push tool, or git itself in the guarded environment. */
  readonly by: 'commit' | 'push' | readonly string[];
  readonly input?: string;
  /** Run on a terminal (`script`): git pages only there. */
  readonly tty?: true;
}

/** `git ARGS`, on a terminal when asked (git starts a pager only there). */
function gitArgv(args: readonly string[], tty: boolean): [string, string[]] {
  if (!tty) return ['git', [...args]];
  return ['script', ['-qec', ['git', ...args].join(' '), '/dev/null']];
}

/** A script that leaves `mark` when something runs it. */
function script(dir: string, name: string, mark: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ntouch '${mark}'\nexit 0\n`);
  chmodSync(path, 0o755);
  return path;
}

const hook = (name: string, by: 'commit' | 'push'): Knob => ({
  name: `a planted \`.git/hooks/${name}\``,
  plant: (w, mark) => script(join(w, '.git', 'hooks'), name, mark),
  by,
});

const KNOBS: readonly Knob[] = [
  hook('pre-commit', 'commit'),
  hook('prepare-commit-msg', 'commit'),
  hook('commit-msg', 'commit'),
  hook('post-commit', 'commit'),
  hook('reference-transaction', 'commit'),
  hook('pre-push', 'push'),
  {
    name: '`core.hooksPath` naming a folder of hooks',
    plant: (w, mark) => {
      script(join(w, 'tools', 'hooks'), 'pre-commit', mark);
      git(w, 'config', 'core.hooksPath', 'tools/hooks');
    },
    by: 'commit',
  },
  {
    name: '`core.fsmonitor` naming a program',
    plant: (w, mark) => git(w, 'config', 'core.fsmonitor', script(join(w, 'tools'), 'fsm', mark)),
    by: 'commit',
  },
  {
    name: 'a clean filter the attributes select',
    plant: (w, mark) => {
      writeFileSync(join(w, '.gitattributes'), '*.txt filter=evil\n');
      git(w, 'config', 'filter.evil.clean', `${script(join(w, 'tools'), 'clean', mark)}; cat`);
    },
    by: 'commit',
  },
  {
    name: 'a filter process the attributes select',
    plant: (w, mark) => {
      writeFileSync(join(w, '.gitattributes'), '*.txt filter=evil\n');
      git(w, 'config', 'filter.evil.process', script(join(w, 'tools'), 'process', mark));
    },
    by: 'commit',
  },
  {
    name: '`gpg.program` with signing on',
    plant: (w, mark) => {
      git(w, 'config', 'commit.gpgSign', 'true');
      git(w, 'config', 'gpg.program', script(join(w, 'tools'), 'gpg', mark));
    },
    by: 'commit',
  },
  {
    name: 'an included file that sets `core.hooksPath`',
    plant: (w, mark) => {
      script(join(w, 'tools', 'inc-hooks'), 'pre-commit', mark);
      writeFileSync(
        join(w, '.git', 'extra.cfg'),
        `[core]\n\thooksPath = ${join(w, 'tools', 'inc-hooks')}\n`,
      );
      git(w, 'config', 'include.path', 'extra.cfg');
    },
    by: 'commit',
  },
  {
    name: '`remote.origin.receivepack` naming a program',
    plant: (w, mark) =>
      git(w, 'config', 'remote.origin.receivepack', script(join(w, 'tools'), 'rp', mark)),
    by: 'push',
  },
  {
    name: '`core.sshCommand` for an ssh remote',
    plant: (w, mark) => {
      git(w, 'remote', 'set-url', 'origin', 'git@example.invalid:team/repo.git');
      git(w, 'config', 'core.sshCommand', script(join(w, 'tools'), 'ssh', mark));
    },
    by: 'push',
  },
  {
    name: 'an `ext::` transport allowed by `protocol.ext.allow`',
    plant: (w, mark) => {
      git(w, 'config', 'protocol.ext.allow', 'always');
      git(w, 'remote', 'set-url', 'origin', `ext::sh -c touch% ${mark}`);
    },
    by: 'push',
  },
  {
    name: 'a credential helper',
    plant: (w, mark) =>
      git(w, 'config', 'credential.helper', `!${script(join(w, 'tools'), 'cred', mark)}`),
    by: ['credential', 'fill'],
    input: 'protocol=https\nhost=example.test\n\n',
  },
  {
    name: 'a url-scoped credential helper',
    plant: (w, mark) =>
      git(
        w,
        'config',
        'credential.https://example.test.helper',
        `!${script(join(w, 'tools'), 'cred2', mark)}`,
      ),
    by: ['credential', 'fill'],
    input: 'protocol=https\nhost=example.test\n\n',
  },
  {
    name: '`core.pager`',
    plant: (w, mark) => git(w, 'config', 'core.pager', script(join(w, 'tools'), 'pager', mark)),
    by: ['-p', 'log', '-1'],
    tty: true,
  },
  {
    name: 'a command’s own pager (`pager.log`)',
    plant: (w, mark) => git(w, 'config', 'pager.log', script(join(w, 'tools'), 'plog', mark)),
    by: ['log', '-1'],
    tty: true,
  },
  {
    name: '`diff.external`',
    plant: (w, mark) => {
      git(w, 'config', 'diff.external', script(join(w, 'tools'), 'ext', mark));
      writeFileSync(join(w, 'README.md'), 'changed\n');
    },
    by: ['diff'],
  },
  {
    name: 'a diff driver’s textconv',
    plant: (w, mark) => {
      writeFileSync(join(w, '.gitattributes'), '*.md diff=evil\n');
      git(w, 'config', 'diff.evil.textconv', script(join(w, 'tools'), 'tc', mark));
      writeFileSync(join(w, 'README.md'), 'changed\n');
    },
    by: ['diff'],
  },
];

describe.skipIf(SKIP !== null)(
  `Warden's own git runs nothing the worktree names${SKIP === null ? '' : ` (skipped: ${SKIP})`}`,
  () => {
    const fx = useBuiltins('warden-guard-');
    let remote: string;
    let marks: string;

    beforeEach(() => {
      remote = fx.folder('warden-guard-remote-');
      marks = fx.folder('warden-guard-marks-');
      git(remote, 'init', '-q', '--bare');
      git(fx.worktree, 'init', '-q', '-b', 'main');
      git(fx.worktree, 'config', 'user.name', 'Coder One');
      git(fx.worktree, 'config', 'user.email', 'coder-1@example.test');
      git(fx.worktree, 'remote', 'add', 'origin', remote);
      writeFileSync(join(fx.worktree, 'README.md'), 'hello\n');
      git(fx.worktree, 'add', 'README.md');
      git(fx.worktree, 'commit', '-q', '-m', 'initial');
    });

    /** What Warden does for `knob.by`, in the worktree. */
    async function byWarden(knob: Knob): Promise<void> {
      if (knob.by === 'commit') {
        writeFileSync(join(fx.worktree, 'a.txt'), 'a\n');
        await fx.tools.call('git_commit', { message: 'work', paths: ['a.txt'] }, { callId: 'c' });
      } else if (knob.by === 'push') {
        await fx.tools.call('git_push', { ref: 'main' }, { callId: 'p' });
      } else {
        const env = await guardedGitEnv(settings({ env: ENV }), fx.worktree);
        const [file, argv] = gitArgv(knob.by, knob.tty === true);
        spawnSync(file, argv, {
          cwd: fx.worktree,
          env,
          ...(knob.input === undefined ? {} : { input: knob.input }),
        });
      }
    }

    /** The same with plain git, to show the knob is live. */
    function byPlainGit(knob: Knob, worktree: string): void {
      if (knob.by === 'commit') {
        writeFileSync(join(worktree, 'a.txt'), 'a\n');
        gitTry(worktree, ['add', 'a.txt']);
        gitTry(worktree, ['commit', '-m', 'work']);
      } else if (knob.by === 'push') gitTry(worktree, ['push', 'origin', 'main']);
      else gitTry(worktree, knob.by, knob.input, knob.tty === true);
    }

    for (const knob of KNOBS) {
      it(`${knob.name} runs under plain git, and never under Warden's`, async () => {
        // The control: a copy of the repository where plain git runs the knob.
        const control = fx.folder('warden-guard-control-');
        git(control, 'clone', '-q', fx.worktree, '.');
        git(control, 'config', 'user.name', 'Coder One');
        git(control, 'config', 'user.email', 'coder-1@example.test');
        git(control, 'remote', 'set-url', 'origin', remote);
        const live = join(marks, 'live');
        knob.plant(control, live, remote);
        byPlainGit(knob, control);
        expect(existsSync(live), `plain git did not run ${knob.name}`).toBe(true);

        await fx.open(POLICY, { env: ENV });
        const mark = join(marks, 'warden');
        knob.plant(fx.worktree, mark, remote);
        await byWarden(knob);
        expect(existsSync(mark), `Warden's git ran ${knob.name}`).toBe(false);
      });
    }

    it('with hooks planted, Warden still commits and pushes: only the planted code is left out', async () => {
      await fx.open(POLICY, { env: ENV });
      script(join(fx.worktree, '.git', 'hooks'), 'pre-commit', join(marks, 'x'));
      script(join(fx.worktree, '.git', 'hooks'), 'pre-push', join(marks, 'y'));
      writeFileSync(join(fx.worktree, 'b.txt'), 'b\n');
      const commit = await fx.tools.call(
        'git_commit',
        { message: 'b', paths: ['b.txt'] },
        { callId: 'c2' },
      );
      expect(commit, JSON.stringify(commit)).toMatchObject({ ok: true });
      const push = await fx.tools.call('git_push', { ref: 'main' }, { callId: 'p2' });
      expect(push, JSON.stringify(push)).toMatchObject({ ok: true });
      expect(git(remote, 'rev-parse', 'main')).toBe(git(fx.worktree, 'rev-parse', 'HEAD'));
      expect(existsSync(join(marks, 'x')) || existsSync(join(marks, 'y'))).toBe(false);
    });

    it("an operator's own credential helper and ssh command stay; the repository's are replaced", async () => {
      const home = fx.folder('warden-guard-home-');
      writeFileSync(
        join(home, '.gitconfig'),
        '[credential]\n\thelper = store\n[core]\n\tsshCommand = ssh -o BatchMode=yes\n',
      );
      git(fx.worktree, 'config', 'credential.helper', '!evil');
      git(fx.worktree, 'config', 'core.sshCommand', 'evil-ssh');
      const env = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
      delete (env as Record<string, string | undefined>).GIT_CONFIG_GLOBAL;
      const got = await guardSettings(settings({ env }), fx.worktree);
      expect(got).toContainEqual(['credential.helper', '']);
      expect(got).toContainEqual(['credential.helper', 'store']);
      expect(got).toContainEqual(['core.sshcommand', 'ssh -o BatchMode=yes']);
      expect(got.some(([, v]) => v.includes('evil'))).toBe(false);
    });

    it('every knob of the table is read in any spelling of its key', () => {
      expect(knobOf('core.hooksPath')?.what).toBe('hooks');
      expect(knobOf('CORE.FSMONITOR')?.what).toBe('the file-system monitor');
      expect(knobOf('filter.lfs.clean')?.what).toBe('a filter');
      expect(knobOf('user.name')).toBeNull();
      expect(GIT_KNOBS.length).toBeGreaterThan(20);
    });
  },
);
