// A git configuration a command leaves behind is a control path only when it
// names a program (E44): `git init`, `git clone` and identity settings run
// nothing, a hook folder, an fsmonitor, a filter, a pager, an ssh command or
// an include does. What the reader cannot read with certainty counts as one.

import { describe, expect, it } from 'vitest';
import { gitConfigRunsPrograms } from '../../src/sandbox/effects.js';

describe('E44: a git configuration that runs nothing is no control change', () => {
  it('what `git init`, `git clone` and `git config user.*` write runs nothing', () => {
    const init =
      '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n';
    const clone = `${init}[remote "origin"]\n\turl = https://example.test/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n`;
    for (const text of [
      init,
      clone,
      `${init}[user]\n\temail = a@b.test\n\tname = A\n`,
      '',
      '# only a comment\n',
    ])
      expect(gitConfigRunsPrograms(text), text).toBe(false);
  });

  it('each setting that names a program, in every spelling git reads, runs one', () => {
    for (const text of [
      '[core]\n\thooksPath = .hooks\n',
      '[CORE]\n\tFSMonitor = ./x\n',
      '[core]\n\tsshCommand = ssh -o ProxyCommand=evil\n',
      '[filter "lfs"]\n\tclean = evil %f\n',
      '[filter.lfs]\n\tsmudge = evil\n',
      '[diff "x"]\n\ttextconv = evil\n',
      '[credential]\n\thelper = !evil\n',
      '[pager]\n\tlog = evil\n',
      '[include]\n\tpath = ../other\n',
      '[includeIf "gitdir:/"]\n\tpath = ../other\n',
      '[remote "origin"]\n\treceivepack = evil\n',
    ])
      expect(gitConfigRunsPrograms(text), text).toBe(true);
  });

  it('a line it cannot read with certainty counts as one that runs a program', () => {
    for (const text of [
      '[core] hooksPath = x\n',
      '[core]\n\tpager = \\\n\tevil\n',
      'hooksPath = x\n',
      '[core\n\tfsmonitor = x\n',
      '[core]\n\t= x\n',
    ])
      expect(gitConfigRunsPrograms(text), JSON.stringify(text)).toBe(true);
  });
});
