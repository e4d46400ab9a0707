// The shell reader and the command classifier (G14b, G14c, E21–E27, E32, E38).

import { describe, expect, it } from 'vitest';
import { DEFAULT_TABLE, analyzeCommand, extendClassifier } from '../src/index.js';
import type { CommandAnalysis } from '../src/index.js';

type Shape = [kind: string, name: string | null, classes: Record<string, unknown>];

function shape(analysis: CommandAnalysis): Shape[] {
  return analysis.units.map((unit) => [
    unit.kind === 'command' && unit.inner
      ? 'inner'
      : unit.kind === 'raw' && unit.inner
        ? 'inner-raw'
        : unit.kind,
    unit.kind === 'effects' ? null : unit.name,
    Object.fromEntries(unit.effects.map((e) => [e.cls, e.args])),
  ]);
}

function read(command: string, worktree: string | null = null): Shape[] {
  return shape(analyzeCommand(command, DEFAULT_TABLE, worktree));
}

const spawn = { processSpawn: {} };

describe('reading shell (G14b)', () => {
  it('splits at `&&`, `||`, `;`, `|`, `&` and newlines into simple commands', () => {
    expect(read('a && b || c; d | e & f\ng').map(([, name]) => name)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
    ]);
  });

  it("reads `git  push` and `'git' push` as the words of `git push`", () => {
    expect(read('git  push')[0]?.[1]).toBe('git push');
    expect(read("'git' push")[0]?.[1]).toBe('git push');
    expect(read('"git" "push"')[0]?.[1]).toBe('git push');
  });

  it('drops leading assignments (`FOO=1 git push`)', () => {
    expect(read('FOO=1 BAR=x git push')[0]?.[1]).toBe('git push');
  });

  it('counts the commands inside subshells and groups', () => {
    expect(read('(cd x; rm y) && { git push; }').map(([, name]) => name)).toEqual([
      'cd x',
      'rm y',
      'git push',
    ]);
  });

  it('counts the commands inside if, for, while, case and function bodies', () => {
    expect(read('if test -f x; then rm x; else git push; fi').map(([, n]) => n)).toEqual([
      'test -f x',
      'rm x',
      'git push',
    ]);
    expect(read('for f in a b; do rm "$f"; done').map(([, n]) => n)).toEqual(['rm $f']);
    expect(read('while true; do git push; done').map(([, n]) => n)).toEqual(['true', 'git push']);
    expect(read('case $x in a) git push;; *) rm y;; esac').map(([, n]) => n)).toEqual([
      'git push',
      'rm y',
    ]);
    expect(read('f() { git push; }').map(([, n]) => n)).toEqual(['git push']);
  });

  it('names a facet by its words, single-quoting those that need it (E25, E38)', () => {
    expect(read('git commit -m "fix the bug"')[0]?.[1]).toBe("git commit -m 'fix the bug'");
    expect(read('echo "it\'s"')[0]?.[1]).toBe("echo 'it'\\''s'");
    expect(read('rm *.log')[0]?.[1]).toBe("rm '*.log'");
    expect(read('echo $HOME')[0]?.[1]).toBe('echo $HOME');
    expect(read('echo "$HOME"')[0]?.[1]).toBe('echo $HOME');
    expect(read('echo ""')[0]?.[1]).toBe("echo ''");
    expect(read('/usr/bin/git push')[0]?.[1]).toBe('/usr/bin/git push');
  });

  it('drops redirections from the words and comments from the line', () => {
    expect(read('git push > log.txt 2>&1 # quietly')[0]?.[1]).toBe('git push');
  });

  it("decodes ANSI-C quoting, so `$'\\x67it' push` is `git push`", () => {
    expect(read("$'\\x67it' push origin main")[0]).toEqual([
      'command',
      'git push origin main',
      { gitPush: { refs: ['main'] }, ...spawn },
    ]);
  });

  it('makes a simple command with `$(…)` or backticks raw, and classifies what is inside (E24, E32)', () => {
    expect(read('echo $(git push origin main) && ls')).toEqual([
      ['raw', 'echo $(git push origin main)', spawn],
      ['inner', 'git push origin main', { gitPush: { refs: ['main'] }, ...spawn }],
      ['command', 'ls', spawn],
    ]);
    expect(read('git push `echo x` main')[0]).toEqual([
      'raw',
      'git push `echo x` main',
      { gitPush: { refs: null }, ...spawn },
    ]);
  });

  it('classifies an unparseable command by its confident leading words, arguments unknown (E24, E42)', () => {
    expect(read('git push $(x) main')[0]).toEqual([
      'raw',
      'git push $(x) main',
      { gitPush: { refs: null }, ...spawn },
    ]);
    // `a` is deleted whatever `$(ls)` adds: it stays certainly touched (E42).
    expect(read('rm -f a $(ls)')[0]).toEqual([
      'raw',
      'rm -f a $(ls)',
      { fileDelete: { paths: null, count: null, known: { paths: ['a'], count: 1 } }, ...spawn },
    ]);
  });

  it('reads the whole line as one raw command when the separators cannot be found (E24)', () => {
    expect(read("git push 'unbalanced && rm x")).toEqual([
      ['raw', "git push 'unbalanced && rm x", { gitPush: { refs: null }, ...spawn }],
    ]);
    expect(read('cat <<EOF\nrm -rf /\nEOF')).toEqual([['raw', 'cat <<EOF\nrm -rf /\nEOF', spawn]]);
  });

  it('treats `$VAR`, `eval` and computed command names as unparseable, `$VAR` in an argument as fine', () => {
    expect(read('$CMD push')[0]?.[0]).toBe('raw');
    expect(read('eval "git push"')[0]?.[0]).toBe('raw');
    expect(read('git push origin $BRANCH')[0]).toEqual([
      'command',
      'git push origin $BRANCH',
      { gitPush: { refs: null }, ...spawn },
    ]);
    expect(read('echo $((1 + 2))')[0]?.[0]).toBe('command');
  });
});

describe('the classifier (G14c)', () => {
  it('derives gitPush with refs through git global options', () => {
    expect(
      read('git -C d -c user.name=x --no-pager push --force origin +a:refs/heads/b')[0]?.[2],
    ).toEqual({ gitPush: { refs: ['b'] }, ...spawn });
    expect(read('git push origin :feature')[0]?.[2]).toEqual({
      gitPush: { refs: ['feature'] },
      ...spawn,
    });
    expect(read('git push origin refs/tags/v1')[0]?.[2]).toEqual({
      gitPush: { refs: ['refs/tags/v1'] },
      ...spawn,
    });
  });

  it('leaves refs unknown for pushes that do not name a branch (E26)', () => {
    for (const command of [
      'git push',
      'git push origin',
      'git push --all origin',
      'git push --mirror',
      'git push --tags origin',
      'git push origin HEAD',
      'git push origin @',
      'git push origin 1a2b3c4d',
    ]) {
      expect(read(command)[0]?.[2], command).toEqual({ gitPush: { refs: null }, ...spawn });
    }
  });

  it('refuses to read `git -c alias.*` (an alias can turn any word into push)', () => {
    expect(read('git -c alias.p=push p origin main')[0]?.[0]).toBe('raw');
  });

  it('derives fileDelete with paths and count from rm, unlink, git clean and find -delete', () => {
    expect(read('rm -f a b c')[0]?.[2]).toEqual({
      fileDelete: { paths: ['a', 'b', 'c'], count: 3 },
      ...spawn,
    });
    // At least the folder named: a lower bound beside the unknown count (E26, E42).
    expect(read('rm -r dir')[0]?.[2]).toEqual({
      fileDelete: { paths: ['dir'], count: null, known: { count: 1 } },
      ...spawn,
    });
    expect(read('rm *.log')[0]?.[2]).toEqual({
      fileDelete: { paths: null, count: null },
      ...spawn,
    });
    expect(read('unlink x')[0]?.[2]).toEqual({ fileDelete: { paths: ['x'], count: 1 }, ...spawn });
    expect(read('git clean -fd')[0]?.[2]).toEqual({
      fileDelete: { paths: null, count: null },
      ...spawn,
    });
    expect(read('find build -name "*.o" -delete')[0]?.[2]).toEqual({
      fileDelete: { paths: ['build'], count: null },
      ...spawn,
    });
  });

  it('follows `cd` for relative paths, and loses it on a non-literal target (E26)', () => {
    expect(read('cd sub && rm x')[1]?.[2]).toEqual({
      fileDelete: { paths: ['sub/x'], count: 1 },
      ...spawn,
    });
    expect(read('cd $DIR && rm x')[1]?.[2]).toEqual({
      fileDelete: { paths: null, count: null },
      ...spawn,
    });
    expect(read('(cd sub; rm x); rm y')[2]?.[2]).toEqual({
      fileDelete: { paths: ['y'], count: 1 },
      ...spawn,
    });
    expect(read('cd sub || exit 1; rm x')[2]?.[2]).toEqual({
      fileDelete: { paths: ['sub/x'], count: 1 },
      ...spawn,
    });
  });

  it('derives prCreate and prPublish from gh', () => {
    expect(read('gh pr create --fill')[0]?.[2]).toEqual({ prCreate: {}, ...spawn });
    // The branch it targets and the one it proposes, as the `create_pr` tool gives them.
    expect(read('gh pr create --base main --title x')[0]?.[2]).toEqual({
      prCreate: { refs: ['main'] },
      ...spawn,
    });
    expect(read('gh pr create -B release/2 -H feature/x -b "body" --draft')[0]?.[2]).toEqual({
      prCreate: { refs: ['release/2', 'feature/x'] },
      ...spawn,
    });
    expect(read('gh pr create --base=main')[0]?.[2]).toEqual({
      prCreate: { refs: ['main'] },
      ...spawn,
    });
    expect(read('gh pr create --base "$B"')[0]?.[2]).toEqual({
      prCreate: { refs: null },
      ...spawn,
    });
    expect(read('gh -R o/r pr merge 12 --squash')[0]?.[2]).toEqual({ prPublish: {}, ...spawn });
    expect(read('gh pr review 12 --approve')[0]?.[2]).toEqual({ prPublish: {}, ...spawn });
  });

  it('derives packageInstall from package managers', () => {
    for (const command of [
      'npm install left-pad',
      'npm i -D x',
      'pnpm add x',
      'yarn add x',
      'pip install requests',
      'brew install jq',
      'apt-get install -y curl',
    ]) {
      expect(read(command)[0]?.[2], command).toEqual({ packageInstall: {}, ...spawn });
    }
  });

  it('derives networkEgress with hosts from curl, wget and git clone/fetch', () => {
    expect(read('curl -H "X: y" https://api.example.com/x')[0]?.[2]).toEqual({
      networkEgress: { hosts: ['https://api.example.com/x'] },
      ...spawn,
    });
    expect(read('wget -O out http://a.test/f')[0]?.[2]).toEqual({
      networkEgress: { hosts: ['http://a.test/f'] },
      ...spawn,
    });
    expect(read('curl -s')[0]?.[2]).toEqual({ networkEgress: { hosts: null }, ...spawn });
    expect(read('git clone git@github.com:org/repo')[0]?.[2]).toEqual({
      networkEgress: { hosts: ['github.com'] },
      ...spawn,
    });
    expect(read('git fetch origin')[0]?.[2]).toEqual({ networkEgress: { hosts: null }, ...spawn });
    expect(read('git clone ./local copy')[0]?.[2]).toEqual(spawn);
  });

  it('classifies redirection targets outside the worktree as fileWriteOutsideWorktree', () => {
    expect(read('echo x > /tmp/out', '/srv/w')[0]?.[2]).toEqual({
      fileWriteOutsideWorktree: { paths: ['/tmp/out'] },
      ...spawn,
    });
    expect(read('echo x >> ../out', '/srv/w')[0]?.[2]).toEqual({
      fileWriteOutsideWorktree: { paths: ['../out'] },
      ...spawn,
    });
    expect(read('echo x > inside.txt', '/srv/w')[0]?.[2]).toEqual(spawn);
    expect(read('echo x > /srv/w/inside.txt', '/srv/w')[0]?.[2]).toEqual(spawn);
    expect(read('echo x > /dev/null 2>&1 >&2', '/srv/w')[0]?.[2]).toEqual(spawn);
    expect(read('echo x | tee -a /etc/hosts', '/srv/w')[1]?.[2]).toEqual({
      fileWriteOutsideWorktree: { paths: ['/etc/hosts'] },
      ...spawn,
    });
    expect(read('echo x > $OUT', '/srv/w')[0]?.[2]).toEqual({
      fileWriteOutsideWorktree: { paths: null },
      ...spawn,
    });
  });

  it('unwraps wrappers and names the command they run', () => {
    expect(read('sudo -u root timeout -s KILL 5 nice -n 3 env A=1 rm a')[0]).toEqual([
      'command',
      'rm a',
      { fileDelete: { paths: ['a'], count: 1 }, ...spawn },
    ]);
    expect(read("bash -lc 'cd x && git push origin main'")).toEqual([
      ['command', 'cd x', spawn],
      ['command', 'git push origin main', { gitPush: { refs: ['main'] }, ...spawn }],
    ]);
    expect(read("sh -c 'rm -rf build' && ls")[0]?.[1]).toBe('rm -rf build');
    expect(read('command git push')[0]?.[1]).toBe('git push');
    expect(read('nohup stdbuf -o0 git push &')[0]?.[1]).toBe('git push');
    expect(read('watch -n 5 git status')[0]?.[1]).toBe('git status');
    expect(read('flock /tmp/lock git push')[0]?.[1]).toBe('git push');
    expect(read("su -c 'git push' bob")[0]?.[1]).toBe('git push');
    expect(read('exec git push')[0]?.[1]).toBe('git push');
  });

  it('leaves paths and counts unknown under xargs and find -exec (E26, E27)', () => {
    expect(read('ls | xargs rm')[1]).toEqual([
      'command',
      'rm',
      { fileDelete: { paths: null, count: null }, ...spawn },
    ]);
    // At least one file per run is certain; which ones is not (E42).
    expect(read('find . -name "*.tmp" -exec rm {} \\;')[0]).toEqual([
      'command',
      "rm '{}'",
      { fileDelete: { paths: null, count: null, known: { count: 1 } }, ...spawn },
    ]);
  });

  it('makes a command unparseable for an unknown wrapper option, ssh with a command, or a computed script (E27)', () => {
    expect(read('sudo --frobnicate rm x')[0]?.[0]).toBe('raw');
    expect(read('ssh host rm -rf /')[0]?.[0]).toBe('raw');
    expect(read('bash -c "$SCRIPT"')[0]?.[0]).toBe('raw');
    expect(read("bash -c 'echo <<EOF'")[0]?.[0]).toBe('raw');
    expect(read('env -S "rm x"')[0]?.[0]).toBe('raw');
  });

  it('does not unwrap commands that run nothing (`command -v git`)', () => {
    expect(read('command -v git')[0]?.[1]).toBe('command -v git');
  });

  it('classifies a program given by path by its basename (G14c)', () => {
    expect(read('/tmp/git push origin main')[0]?.[2]).toEqual({
      gitPush: { refs: ['main'] },
      ...spawn,
    });
    expect(read('./rm x')[0]?.[2]).toEqual({ fileDelete: { paths: ['x'], count: 1 }, ...spawn });
  });

  it('orders the classes of one simple command as the class table does (E38)', () => {
    expect(Object.keys(read('rm x > /tmp/y')[0]?.[2] ?? {})).toEqual([
      'fileDelete',
      'fileWriteOutsideWorktree',
      'processSpawn',
    ]);
  });

  it('can be extended by configuration, and rejects an unknown class in it', () => {
    const extended = extendClassifier(DEFAULT_TABLE, {
      commands: [{ command: 'terraform apply', classes: ['workspaceMutation'] }],
    });
    expect(extended.ok).toBe(true);
    if (extended.ok) {
      expect(
        shape(analyzeCommand('terraform apply -auto-approve', extended.value, null))[0]?.[2],
      ).toEqual({ workspaceMutation: {}, ...spawn });
    }
    const bad = extendClassifier(DEFAULT_TABLE, {
      commands: [{ command: 'x', classes: ['gitPushh'] }],
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.issues[0]).toMatchObject({
        path: ['commands', 0, 'classes', 0],
        message: expect.stringContaining('gitPush'),
      });
  });
});
