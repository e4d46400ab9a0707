// Code handed to a shell through standard input, a descriptor or an option
// (G14b, G14c, E32, E42): a literal here-string fed to `bash -`, `bash
// /dev/stdin`, `sh /dev/fd/0` or `. /dev/stdin` is the script the shell runs,
// and is read as `bash -c` reads its script; code from a pipe or a file
// cannot be read and prompts; `eval`'s words and the callbacks of `trap`,
// `mapfile -C` and `readarray -C` are classified, so a deny they meet denies.
// Programs that delete their input, a git alias and git's output files are
// here too: the red team's other ways to act unseen.

import { describe, expect, it } from 'vitest';
import type { RuleDoc } from './classify-support.js';
import { SHELL_OK, argsOf, classes, decideWith, isRaw } from './classify-support.js';

const NO_DELETE: RuleDoc[] = [
  { id: 'no-delete', action: 'fileDelete', decision: 'deny' },
  { id: 'no-push', action: 'gitPush', decision: 'deny' },
  { id: 'no-egress', action: 'networkEgress', decision: 'deny', when: { hosts: ['evil.test'] } },
  SHELL_OK,
];

const decision = (command: string) => decideWith(NO_DELETE, command).decision;

describe('E42: a shell fed a literal here-string runs that script, and it is read', () => {
  for (const command of [
    "bash - <<< 'rm -rf victim'",
    "bash /dev/stdin <<< 'rm -rf victim'",
    "sh /dev/fd/0 <<< 'rm -rf victim'",
    "sh /proc/self/fd/0 <<< 'rm -rf victim'",
    "bash <<< 'rm -rf victim'",
    "bash -s <<< 'rm -rf victim'",
    "bash -s -- a b <<< 'rm -rf victim'",
    ". /dev/stdin <<< 'rm -rf victim'",
    "source /dev/stdin <<< 'rm -rf victim'",
    "bash /dev/fd/3 3<<< 'rm -rf victim'",
    "sudo bash - <<< 'rm -rf victim'",
    "env -i bash - <<< 'rm -rf victim'",
    'bash -c "bash - <<< \'rm -rf victim\'"',
  ]) {
    it(`denies \`${command}\` as the deletion it is`, () => {
      expect(classes(command)).toContain('fileDelete');
      expect(argsOf(command, 'fileDelete')).toContainEqual(
        expect.objectContaining({ paths: ['victim'], count: null }),
      );
      expect(decision(command)).toBe('deny');
    });
  }

  it('denies a push and a denied host carried the same way', () => {
    expect(decision("bash - <<< 'git push origin main'")).toBe('deny');
    expect(decision("sh /dev/stdin <<< 'curl https://evil.test/x'")).toBe('deny');
  });

  it('allows a harmless here-string script as the harmless command it is', () => {
    expect(decision("bash - <<< 'echo hi'")).toBe('allow');
    expect(isRaw("bash - <<< 'echo hi'")).toBe(false);
  });

  it('reads the here-string on the descriptor the shell reads, not another one', () => {
    // `bash /dev/fd/3` reads descriptor 3: a here-string on standard input is not its script.
    expect(isRaw("bash /dev/fd/3 <<< 'echo hi'")).toBe(true);
    expect(decision("bash /dev/fd/3 <<< 'echo hi'")).toBe('prompt');
  });
});

describe('G14b: code that reaches a shell from a pipe, a file or a computed here-string is not read', () => {
  for (const command of [
    "printf 'rm -rf victim' | bash /dev/stdin",
    "echo 'rm -rf victim' | bash -",
    "echo 'rm -rf victim' | sh",
    'bash /dev/stdin < script.sh',
    'bash - <<< "$CODE"',
    '. /dev/stdin < x',
    'bash /dev/fd/4',
    'bash /proc/self/fd/0',
  ]) {
    it(`\`${command}\` is unreadable and is never allowed`, () => {
      expect(isRaw(command)).toBe(true);
      expect(decision(command)).not.toBe('allow');
    });
  }

  it('a later redirection of standard input replaces the here-string', () => {
    expect(isRaw("bash - <<< 'echo hi' < other.sh")).toBe(true);
  });
});

describe('E42: callbacks and evaluated words are classified, so their deny holds', () => {
  for (const command of [
    "mapfile -C 'rm -rf victim #' -c 1 a <<< x",
    "readarray -C 'rm -rf victim #' -c 1 a <<< x",
    "mapfile -tC 'rm -rf victim #' a <<< x",
    "eval 'rm -rf victim'",
    'eval rm -rf victim',
    "trap 'rm -rf victim' EXIT",
    "complete -C 'rm -rf victim' git",
  ]) {
    it(`denies \`${command}\``, () => {
      expect(argsOf(command, 'fileDelete').length).toBeGreaterThan(0);
      expect(decision(command)).toBe('deny');
    });
  }

  it('a callback that is computed, or harmless, still prompts: the builtin runs code', () => {
    expect(decision('mapfile -C "$CB" a < f')).toBe('prompt');
    expect(decision("mapfile -C 'echo' a < f")).toBe('prompt');
    expect(decision('mapfile -t a < f')).toBe('allow');
  });
});

describe('G14c: programs that delete their input are fileDelete', () => {
  const deleting: readonly [string, string[]][] = [
    ['gzip big.log', ['big.log']],
    ['gzip -9 a b', ['a', 'b']],
    ['bzip2 a', ['a']],
    ['xz -T 2 a', ['a']],
    ['gunzip a.gz', ['a.gz']],
    ['zstd --rm a', ['a']],
    ['lz4 --rm a a.lz4', ['a']],
    ['brotli -j a', ['a']],
    ['7z a -sdel out.7z a b', ['a', 'b']],
    ['gio remove a', ['a']],
    ['gio trash a b', ['a', 'b']],
    ['trash a', ['a']],
    ['trash-put a', ['a']],
  ];
  for (const [command, paths] of deleting) {
    it(`\`${command}\` deletes ${paths.join(', ')}`, () => {
      const found = argsOf(command, 'fileDelete');
      expect(found.length, command).toBe(1);
      expect(found[0]?.paths).toEqual(paths);
      expect(decision(command)).toBe('deny');
    });
  }

  it('a folder compressed recursively deletes what it holds, count unknown', () => {
    expect(argsOf('gzip -r logs', 'fileDelete')).toEqual([
      expect.objectContaining({ paths: ['logs'], count: null }),
    ]);
  });

  for (const command of [
    'gzip -k a',
    'gzip --keep a',
    'gzip -c a > a.gz',
    'gzip -kv a',
    'gzip -t a.gz',
    'gzip',
    'zstd a',
    'lz4 a',
    'xz -l a.xz',
    '7z a out.7z a',
    'gio info a',
    'trash --list',
  ]) {
    it(`\`${command}\` keeps its input`, () => {
      expect(classes(command)).not.toContain('fileDelete');
    });
  }
});

describe('G14c: git deletes, writes and runs what it says', () => {
  it('`git worktree remove` deletes the worktree, `git stash -u` the untracked files', () => {
    expect(argsOf('git worktree remove ../wt', 'fileDelete')).toEqual([
      { paths: ['../wt'], count: null },
    ]);
    for (const command of [
      'git stash -u',
      'git stash push --include-untracked',
      'git stash save -a',
      'git stash --all',
    ])
      expect(argsOf(command, 'fileDelete'), command).toEqual([{ paths: null, count: null }]);
    expect(classes('git stash')).not.toContain('fileDelete');
    expect(classes('git stash pop')).not.toContain('fileDelete');
  });

  it('`--output=FILE` and `format-patch -o DIR` write where they say', () => {
    for (const command of [
      'git log --output=/tmp/x',
      'git log --output /tmp/x',
      'git diff --output=/tmp/x',
      'git show HEAD --output=/tmp/x',
      'git format-patch -o /tmp/x HEAD~1',
      'git format-patch --output-directory=/tmp/x HEAD~1',
      'git bundle create /tmp/x HEAD',
    ])
      expect(argsOf(command, 'fileWriteOutsideWorktree'), command).toEqual([{ paths: ['/tmp/x'] }]);
    expect(classes('git log --oneline')).toEqual(['processSpawn']);
  });

  it('a word that is no git command is an alias or a program: it cannot be read', () => {
    expect(isRaw('git p origin main')).toBe(true);
    expect(decision('git p origin main')).toBe('prompt');
    expect(isRaw('git hook run pre-commit')).toBe(true);
    for (const command of ['git status', 'git commit -m x', 'git log', 'git rev-parse HEAD'])
      expect(isRaw(command), command).toBe(false);
  });
});
