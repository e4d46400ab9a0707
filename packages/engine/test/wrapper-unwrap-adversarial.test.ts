// E43, an adversarial review of how wrappers are unwrapped after `sudo VAR=x cmd`, `bash +c`
// and the computed-word checks (timeout's positionals, find's actions): an allow for a command
// a deny rule, a mode's net or a `commands` constraint should catch is a bypass (E17b); a
// prompt where the command cannot be read is the safe side (G14b).
//
// Passing tests say what holds, the bypasses this review found among them, now closed. The
// regressions at the end assert today's decision: a prompt, the safe side.

import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import {
  ALLOWS,
  decisions,
  expectDeniedEverywhere,
  expectNeverAllowed,
  policy,
  request,
} from './wrapper-adversary.js';

describe('E43: sudo assignments are read as env assignments are', () => {
  // A hazardous variable (the loader's, an interpreter's) given through sudo makes the command
  // unreadable, as it does bare and under env.
  it.each([
    ['rm', 'sudo LD_PRELOAD=/tmp/x.so ls'],
    ['rm', 'sudo -u root LD_PRELOAD=/tmp/x.so ls'],
    ['rm', 'sudo LD_LIBRARY_PATH=/tmp ls'],
    ['rm', 'sudo NODE_OPTIONS=--require=/tmp/x.js node -e 1'],
    ['rm', 'sudo LD_PRELOAD=/tmp/x.so find . -name x'],
    ['rm', 'env LD_PRELOAD=/tmp/x.so ls'],
    ['rm', 'sudo VAR=$(rm -rf x) ls'],
    ['rm', 'sudo SHELLOPTS=xtrace PS4="$(rm -rf x)" bash -c ls'],
    ['rm', 'sudo GIT_SSH_COMMAND="rm -rf x" git push'],
  ])('E43/G14b: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  it('E43: deny `git push` — `sudo GIT_SSH_COMMAND=… git push` is denied, as under env', () => {
    expectDeniedEverywhere('git push', 'sudo GIT_SSH_COMMAND="rm -rf x" git push');
    expectDeniedEverywhere('git push', 'env GIT_SSH_COMMAND="rm -rf x" git push');
  });

  it('E43: the hazard reads the same bare, under env and under sudo', () => {
    const doc = policy(ALLOWS);
    for (const command of [
      'LD_PRELOAD=/tmp/x.so ls',
      'env LD_PRELOAD=/tmp/x.so ls',
      'sudo LD_PRELOAD=/tmp/x.so ls',
    ]) {
      const got = decideDocs(doc, request(command, { space: 's' }));
      expect([got.decision, got.rule], command).toEqual(['prompt', 'unparseable']);
    }
  });

  // The hazard of a wrapper's assignment (`BASH_ENV=/tmp/x`, a file bash runs before its
  // script, or a preloaded library) holds whatever the wrapped command is — a plain program,
  // a shell's script (bash -c, flock -c) or find's -exec: the line asks (E42).
  it.each([
    ['rm', 'sudo BASH_ENV=/tmp/x bash -c ls'],
    ['rm', 'sudo ENV=/tmp/x sh -c ls'],
    ['rm', 'sudo LD_PRELOAD=/tmp/x.so bash -c ls'],
    ['rm', 'sudo BASH_ENV=/tmp/x timeout 5 bash -c ls'],
    ['rm', 'sudo BASH_ENV=/tmp/x flock /tmp/l -c ls'],
    ['rm', 'sudo BASH_ENV=/tmp/x find . -exec bash -c ls \\;'],
    ['rm', 'env BASH_ENV=/tmp/x bash -c ls'],
    ['rm', 'env LD_PRELOAD=/tmp/x.so bash -c ls'],
    ['rm', 'env PS4=x bash -c ls'],
  ])(
    'E43/E42: deny `%s` — `%s` is never allowed (the assignment makes it unreadable)',
    (rule, command) => {
      expectNeverAllowed(rule, command);
    },
  );

  it('E43 (contrast): bare `BASH_ENV=/tmp/x bash -c ls` asks', () => {
    expectNeverAllowed('rm', 'BASH_ENV=/tmp/x bash -c ls');
  });
});

describe('E43: shells read `+c` as `-c`', () => {
  it.each([
    ['rm', 'bash +c "rm x"'],
    ['rm', 'bash +o posix +c "rm x"'],
    ['rm', 'bash +O extglob +c "rm x"'],
    ['rm', 'bash +O extglob -c "rm x"'],
    ['rm', 'bash +x +e -c "rm x"'],
    ['rm', 'bash +xc "rm x"'],
    ['rm', 'bash +cx "rm x"'],
    ['rm', 'bash +o $O +c "rm x"'],
    ['rm', 'bash -c "rm x" +c ls'],
    ['rm', 'sh +c "rm x" -c ls'],
    ['rm', 'dash +c "rm x"'],
    ['rm', 'zsh +c "rm x"'],
    ['bash -c', 'bash +c ls'],
    ['bash -c', 'bash +xc ls'],
    ['rm', 'bash -x+c ls'],
  ])('E43/G14c: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // A computed word where a shell still reads options may be `-c` or a flag (`O=-x`: bash
  // then takes `+c`), and bash runs `rm x` (bash 5: `O=-x; bash $O +c "echo RAN"` prints RAN):
  // the line cannot be read, and asks.
  it.each([
    ['rm', 'bash $O +c "rm x"'],
    ['rm', 'bash $O -c "rm x"'],
    ['rm', 'bash "$O" -c "rm x"'],
    ['rm', 'bash $O "rm x"'],
  ])('E43/G14b: deny `%s` — `%s` is never allowed (a computed shell option)', (rule, command) => {
    expectNeverAllowed(rule, command);
  });
});

describe('E43: a computed word where a wrapper or find may read an option', () => {
  it.each([
    ['rm', 'find . -name x -o $E rm {} \\;'],
    ['rm', 'find . -name x -o "$E" rm x \\;'],
    ['rm', 'find . -fprintf $F $E rm x \\;'],
    ['rm', 'find . -printf $F $E rm x \\;'],
    ['rm', 'find . -name x -exec ls {} \\; $E rm x \\;'],
    ['rm', 'find . -name x -exec ls ";" \\; -exec rm {} \\;'],
    ['rm', 'find . -exec ls {} x + rm {} \\;'],
    ['rm', 'find . -name "$P" -exec rm {} \\;'],
    ['rm', 'find . -newer $F -exec rm {} \\;'],
    ['rm', 'find . -regex $R -exec rm {} +'],
    ['rm', 'find . -exec ls $E {} \\; -exec rm {} +'],
    ['rm', 'find . -fprintf /tmp/x "%p" -exec rm {} \\;'],
    ['find -exec rm', 'find "$D" -exec rm {} +'],
    ['rm', 'sudo "$O" rm x'],
    ['rm', 'env "$O" rm x'],
    ['rm', 'timeout "$T" rm x'],
    ['rm', 'flock "$L" rm x'],
  ])('E43/G14b: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // A rule naming find's action and its command (`deny find -exec rm`) reads the program the
  // action runs as the action's value, wherever the action stands in the expression.
  it.each([
    ['find -exec rm', 'find . -name x -exec rm {} \\;'],
    ['find -exec rm', 'find . -type f -exec rm {} +'],
  ])('E43: deny `%s` — `%s` is denied, also under actFreely', (r, c) => {
    expectNeverAllowed(r, c);
  });

  it('E43: deny `find -exec` — `find . -name x -exec rm {} \\;` is denied', () => {
    expectDeniedEverywhere('find -exec', 'find . -name x -exec rm {} \\;');
  });
});

describe('E43 regressions: common commands that now ask (the safe side)', () => {
  const now = (command: string) => {
    const got = decideDocs(policy(ALLOWS), request(command, { space: 's' }));
    return [got.decision, got.rule];
  };

  // A computed duration, lock file or start path is ordinary in scripts; each now asks.
  it.each([
    'timeout "$T" npm test',
    'timeout $T npm test',
    'flock "$LOCK" npm test',
    'find "$DIR" -name "*.ts"',
    'find $DIR -type f',
  ])('E43 (regression): `%s` asks as unparseable', (command) => {
    expect(now(command)).toEqual(['prompt', 'unparseable']);
  });

  // A computed test argument stays readable.
  it.each(['find . -name "*.ts" -newer "$F"', 'find . -type f -name "$P" -print'])(
    'E43: `%s` is still allowed',
    (command) => {
      expect(now(command)).toEqual(['allow', 'default:processSpawn']);
    },
  );

  it('E43: `find . -name "$P" -delete` is the class decision, not unparseable', () => {
    const d = decisions('rm', 'find . -name "$P" -delete');
    expect([d.rule.decision, d.rule.rule]).toEqual(['prompt', 'default:fileDelete']);
  });
});
