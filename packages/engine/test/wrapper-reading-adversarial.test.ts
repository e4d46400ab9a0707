// E43 and E35, a second adversarial review of how restrictive rules read a wrapper's words.
// A deny rule, a mode's net and a deny's `commands` constraint that name a wrapper
// (`sudo -u root`, `timeout 5`, `env FOO=1`, `xargs rm`, `flock /tmp/l`, `find -exec`,
// `bash -c`, `su root`) must hold for whatever runs under it, however the agent writes the
// wrapper — and however the policy author wrote the rule (`--`, operands, attached values,
// long names and their prefixes). A prompt is acceptable only where the command cannot be
// read with confidence (G14b, E23); an allow is always a bypass (E17b). And the converse: an
// allow naming a wrapper still allows nothing it wraps.
//
// Passing tests say what holds, the bypasses this review found among them, now closed. Each
// `it.fails` left expects the stricter result, and a comment says why it is not given.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import {
  decisions,
  expectDeniedEverywhere,
  expectNeverAllowed,
  policy,
  request,
  shq,
} from './wrapper-adversary.js';

describe('E43/E35: a rule whose own words hold `--`, operands or other spellings', () => {
  // The rule's words are read by the wrapper's entry just as the command's are: `--` ends
  // the options, an operand is compared in order (timeout's duration, flock's file, env's
  // assignments, the wrapped program), and an option is found by any of its names.
  it.each([
    ['timeout 5', 'timeout -k 1 5 ls'],
    ['timeout 5', 'timeout -- 5 ls'],
    ['timeout -- 5', 'timeout -k 1 5 ls'],
    ['timeout -k 1 5', 'timeout -k1 5 ls'],
    ['timeout --kill=1', 'timeout -k1 5 ls'],
    ['timeout -k1', 'timeout --kill-after 1 5 ls'],
    ['flock /tmp/l', 'flock -n /tmp/l ls'],
    ['flock /tmp/l', 'flock -w 1 /tmp/l -c ls'],
    ['flock -c', 'flock -- /tmp/l -c ls'],
    ['env FOO=1', 'env -i FOO=1 ls'],
    ['env FOO=1', 'env -u X FOO=1 ls'],
    ['env FOO=1', 'env -- FOO=1 ls'],
    ['env --chdir=/tmp', 'env -C/tmp ls'],
    ['env --ch /tmp', 'env -C /tmp ls'],
    ['env -C /tmp ls', 'env --chdir=/tmp ls'],
    ['xargs rm', 'xargs -0 rm'],
    ['xargs rm', 'xargs -n1 rm'],
    ['xargs rm', 'xargs -I{} rm {}'],
    ['xargs rm', 'xargs -i rm {}'],
    ['xargs rm', 'xargs -e rm'],
    ['xargs rm', 'xargs --eof rm'],
    ['xargs rm', 'xargs -l rm'],
    ['xargs rm', 'xargs -- rm'],
    ['xargs --max-args=1', 'xargs -n1 ls'],
    ['sudo -- ls', 'sudo ls'],
    ['sudo -- ls', 'sudo -u root -- ls -l'],
    ['sudo ls', 'sudo -- ls'],
    ['sudo -u root -- ls', 'sudo --user=root ls'],
    ['sudo -u root -- ls', 'sudo -uroot -- ls -la'],
    ['sudo -H -u root', 'sudo -uroot -H ls'],
    ['sudo -Dtmp', 'sudo --chdir tmp ls'],
    ['sudo --preserve-env', 'sudo --preserve-env=PATH ls'],
    ['sudo -E', 'sudo --preserve-env=PATH ls'],
    ['sudo --preserve-env=PATH', 'sudo --preserve-env=PATH ls'],
    ['sudo -u root', 'sudo --preserve-env=PATH -u root ls'],
    ['nice -n 5', 'nice -n5 ls'],
    ['nice -n 5', 'nice --adj 5 ls'],
    ['nice -n -5', 'nice -n-5 ls'],
    ['nice -n -5', 'nice --adjustment=-5 ls'],
    ['nice -5', 'nice -n 5 ls'],
    ['nice --adj=5', 'nice -5 ls'],
    ['nice -n5', 'nice --adjustment 5 ls'],
  ])('E43/E35: deny `%s` — `%s` is denied', (rule, command) => {
    expectDeniedEverywhere(rule, command);
  });

  // GNU nice reads `--5` as an adjustment of -5; the table does not: the command is not read
  // with confidence, and a rule on `nice -n …` asks (G14b) — never an allow.
  it.each([
    ['nice -n 5', 'nice --5 ls'],
    ['nice -n -5', 'nice --5 ls'],
    ['xargs -n 1', 'xargs --max=1 ls'],
    ['sudo -u root', 'sudo --user=root --bogus ls'],
  ])(
    'E43/G14b: deny `%s` — `%s` (an option the entry cannot read) is never allowed',
    (rule, cmd) => {
      expectNeverAllowed(rule, cmd);
    },
  );

  // Not bypasses: the wrapper reads these words the way the program does, and the program
  // runs nothing the rule names. `sudo --preserve-env PATH` runs `PATH` (the optional value
  // needs `=`); `xargs -E rm` sets the end-of-file string to `rm` and runs `echo`;
  // `timeout 5 -k 1 ls` runs a program called `-k` (timeout stops at its duration).
  it.each([
    ['sudo -u root', 'sudo --preserve-env PATH -u root ls'],
    ['xargs rm', 'xargs -E rm'],
    ['timeout -k 1 5', 'timeout 5 -k 1 ls'],
  ])('E43: deny `%s` — `%s` is not read as what the rule names', (rule, command) => {
    expect(decisions(rule, command).rule.rule, command).not.toBe('no-w');
  });
});

describe('E43: find expressions, shells and su/runuser read as their unwrapping reads them', () => {
  it.each([
    ['find -exec', 'find . -e\\xec ls {} \\;'],
    ['find -exec', 'find . "-exec" ls {} \\;'],
    ['find -exec', 'find -L . -exec ls {} \\;'],
    ['find -exec', 'find -H . ! -name x -exec ls {} \\;'],
    ['find -exec', 'find . \\( -name x -o -ok ls {} \\; \\)'],
    ['find -exec', 'find -D tree . -exec ls {} \\;'],
    ['find . -exec', 'find . -name x -exec ls {} \\;'],
    ['find -exec rm', 'find -exec rm {} +'],
    ['bash -c', 'bash -o posix -c ls'],
    ['bash -c', 'bash +O extglob -c ls'],
    ['bash -c', 'bash -ce ls'],
    ['bash -c', 'bash --pos -c ls'],
    ['bash -c', 'bash --rcfile x -c ls'],
    ['bash -c', 'bash -il -c ls'],
    ['bash -c ls', 'bash -ec ls'],
    ['sh -c', 'sh -c -- ls'],
    ['sh -c', 'sh +o errexit -c ls'],
    ['sh -c', 'sh -oerrexit -c ls'],
    ['zsh -c', 'zsh -fc ls'],
    ['fish -c', 'fish --comm ls'],
    ['fish -c', 'fish -cls'],
    ['fish -c', 'fish -ic ls'],
    ['su -c', 'su root -- -c ls'],
    ['su -c', 'su -c ls -s /bin/sh'],
    ['su -c', 'su -lc ls'],
    ['su -c', 'su --session-command ls'],
    ['su -', 'su --log root -c ls'],
    ['su root', 'su -s /bin/sh root -c ls'],
    ['su root', 'su -c ls -- root'],
    ['su root', 'su -- root -c ls'],
    ['runuser -u root', 'runuser ls -u root'],
    ['runuser -u root', 'runuser -l -u root ls'],
  ])('E43: deny `%s` — `%s` is denied', (rule, command) => {
    expectDeniedEverywhere(rule, command);
  });

  // Stacked and nested: each wrapper of the stack is read by its own entry.
  it.each([
    ['sudo -u root', 'env X=1 sudo -u root ls'],
    ['sudo -u root', 'sudo sudo -u root ls'],
    ['sudo -u root', 'sudo -u bob sudo -u root ls'],
    ['sudo -u root', "bash -c 'FOO=1 sudo -u root ls'"],
    ['sudo -u root', "timeout 5 bash -c 'nice sudo --user=root ls'"],
    ['sudo -u root', 'find . -exec sudo -u root ls {} \\;'],
    ['sudo -u root', 'xargs sudo -uroot ls'],
    ['sudo -u root', "su -c 'sudo -u root ls'"],
    ['timeout 5', `bash -c ${shq('env -i timeout -- 5 ls')}`],
    ['env FOO=1', `sudo -u bob env -i FOO=1 ls`],
  ])('E43: deny `%s` — `%s` (stacked) is denied', (rule, command) => {
    expectDeniedEverywhere(rule, command);
  });

  // bash after `--` reads `-c` as the name of a script file: `bash -x -- -c ls` runs a file
  // `-c`, not the script `ls`. The rule does not take it for `-c`; the net, reading loosely
  // (options anywhere, E35), over-matches — safe, and noted.
  it('E43/E35: deny `bash -c` — `bash -x -- -c ls` is not `-c` to the rule; the net over-matches', () => {
    const d = decisions('bash -c', 'bash -x -- -c ls');
    expect(d.rule.rule).not.toBe('no-w');
    expect([d.net.decision, d.net.rule]).toEqual(['deny', 'modeNet:m']);
  });
});

describe('E43/E23/G14b: the `maybe` path — a computed value where the rule names one', () => {
  it.each([
    ['sudo -u root', 'sudo -u $(id -un) ls'],
    ['sudo -u root', 'sudo -u `id -un` ls'],
    ['sudo -u root', 'sudo -u ${U:-root} ls'],
    ['sudo -u root', 'sudo -u "$U$V" ls'],
    ['sudo -u root', 'sudo -u"$U" ls'],
    ['sudo -u root', 'sudo -E"u$U" ls'],
    ['sudo ls', 'sudo "$P" -l'],
    ['sudo ls', 'sudo $(echo ls)'],
    ['timeout 5', 'timeout "$T" ls'],
    ['timeout 5', 'timeout $T ls'],
    ['env -C /tmp', 'env -C "$D" ls'],
    ['env -C /tmp', 'env --chdir="$D" ls'],
    ['env -C /tmp', 'env -C"$D" ls'],
    ['flock /tmp/l', 'flock "$L" ls'],
    ['cat', 'sudo {cat,x}'],
    ['sudo -u root', 'sudo {-u,root} ls'],
    ['cat', 'sudo ca? notes.txt'],
  ])('E43/G14b: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });
});

describe('E43: the rule and the wrapper read the wrapped program alike', () => {
  // G14c: a program given by path counts by its basename for restrictive rules, as the
  // wrapper's operand too.
  it.each([
    ['sudo ls', 'sudo /bin/ls'],
    ['sudo ls', 'sudo -- /bin/ls'],
    ['sudo -u root ls', 'sudo -u root /usr/bin/ls'],
    ['timeout 5 ls', 'timeout 5 /bin/ls'],
  ])('E43/G14c: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // env sets its assignments all, in any order: each is a setting of its own.
  it.each([
    ['env FOO=1', 'env BAR=2 FOO=1 ls'],
    ['env ls', 'env FOO=1 ls'],
  ])('E43: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // find's start paths are its own: a rule that names none meets find with any.
  it.each([
    ['find -exec ls', 'find . -exec ls {} \\;'],
    ['find -name x', 'find . -name x -exec ls {} \\;'],
  ])('E43: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // A find that runs no command is no wrapper: `deny find -fprint` is a command rule read as
  // written (G13), which `find . -fprint /tmp/x` does not start with; its write is the class's.
  it.fails('E43 (not a wrapper): deny `find -fprint` — `find . -fprint /tmp/x` is allowed', () => {
    expectNeverAllowed('find -fprint', 'find . -fprint /tmp/x');
  });

  // Likewise `deny find -delete` does not name `find . -delete`: the deletion falls to the default
  // for fileDelete — a prompt, which actFreely pre-approves (`allow`, autonomy:actFreely).
  // The rule's deny is lost; the net, reading options anywhere (E35), still denies.
  it.fails('E43 (bypass): deny `find -delete` — `find . -delete` is not denied by the rule', () => {
    const d = decisions('find -delete', 'find . -delete');
    expect([d.rule.decision, d.rule.rule]).toEqual(['deny', 'no-w']);
    expect(d.free.decision).toBe('deny');
  });

  // flock reads `-c` after its file (`flock FILE -c CMD`), with its value.
  it('E43: deny `flock -c ls` — `flock /tmp/l -c ls` is never allowed', () => {
    expectNeverAllowed('flock -c ls', 'flock /tmp/l -c ls');
  });

  // xargs `-i`, `--replace` and `-l` take an optional value with a default (`{}`, `1`).
  it.each([
    ['xargs -I {}', 'xargs -i ls {}'],
    ['xargs -I {}', 'xargs --replace ls {}'],
    ['xargs -L 1', 'xargs -l ls'],
  ])('E43: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // runuser names its user as an operand (`runuser root -c …`) or with `-u` (`runuser -u
  // root cmd`): a rule on one spelling of the user misses the other.
  it.fails('E43 (bypass): deny `runuser root` — `runuser -u root ls` is allowed', () => {
    expectNeverAllowed('runuser root', 'runuser -u root ls');
  });

  // A glob in a value may expand to `root` once a file `root` exists (the agent can make
  // one): the rule cannot tell, and asks (G14b), as for `"$U"`.
  it('E43/G14b: deny `sudo -u root` — `sudo -u r[o]ot ls` is never allowed', () => {
    expectNeverAllowed('sudo -u root', 'sudo -u r[o]ot ls');
  });

  // The same value spelled another way, as `-u '#0'` is (documented elsewhere): timeout reads
  // `5s` as `5`, nice reads `05` and `+5` as `5`, env -C `/tmp/` is `/tmp`. Rules compare words.
  it.fails.each([
    ['timeout 5', 'timeout 5s ls'],
    ['nice -n 5', 'nice -n 05 ls'],
    ['nice -n 5', 'nice -n +5 ls'],
    ['env -C /tmp', 'env -C /tmp/ ls'],
  ])('E43 (bypass, a value spelled another way): deny `%s` — `%s` is allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });
});

describe('E43/G14c: the unwrapping agrees with the program about its words', () => {
  // sudo(8) sets `VAR=value` operands in the command's environment and runs what follows
  // (SETENV is implied for `ALL`): the table says so (`assignments`), as for env.
  it.each([
    ['cat', 'sudo LC_ALL=C cat x'],
    ['cat', 'sudo -u root FOO=1 cat x'],
    ['rm', 'sudo X=1 rm -rf /'],
    ['sudo ls', 'sudo FOO=1 ls'],
  ])('E43/G14c: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // Plain sudo runs as root too, but a rule naming `-u root` names that option: words, not users.
  it.fails('E43 (not named): deny `sudo -u root` — `sudo FOO=1 ls` is allowed', () => {
    expectNeverAllowed('sudo -u root', 'sudo FOO=1 ls');
  });

  // bash and dash read `+c` as `-c` (bash's parse_shell_options sets the pending command
  // whatever the sign; dash's `minusc` likewise): the shell's table knows `+c`.
  it.each([
    ['cat', "bash +c 'cat x'"],
    ['cat', "bash -x +c 'cat x'"],
    ['cat', "bash +xc 'cat x'"],
    ['cat', "sh +c 'cat x'"],
    ['bash -c', 'bash +c ls'],
  ])('E43/G14c: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // A computed word in find's expression may be `-exec` (`E=-exec`): where it could be an
  // action, find's command cannot be read, and asks (G14b).
  it.each([
    ['cat', 'find . "$E" cat x \\;'],
    ['cat', 'find . $E cat x \\;'],
    ['find -exec', 'find . $E ls {} \\;'],
  ])('E43/G14b: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // A wrapper with a positional before its command (timeout's duration, flock's file,
  // chrt's priority, taskset's mask): a computed word where options may still stand could be
  // one, so the words after it cannot be told apart, and the command asks (G14b).
  it.each([
    ['cat', 'timeout "$O" 5 cat x'],
    ['cat', 'timeout --kill-after="$V" 5 cat x'],
    ['cat', 'timeout -k"$V" 5 cat x'],
    ['cat', 'flock "$O" /tmp/l cat x'],
    ['cat', 'chrt "$O" 1 cat x'],
    ['cat', 'taskset "$O" 1 cat x'],
    ['cat', 'faketime "$O" 2020 cat x'],
    ['timeout -k 1', 'timeout --kill-after="$V" 5 ls'],
  ])('E43/G14b: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });

  // faketime(1): `-f` is a flag (advanced timestamp format) and `--date-prog` takes a value.
  it.each([
    ['cat', 'faketime -f x cat x'],
    ['cat', 'faketime --date-prog /bin/date 2020-01-01 cat x'],
  ])('E43/G14c: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });
});

describe('E43 converse: an allow naming a wrapper allows nothing it wraps', () => {
  const bare = (command: string) => decideDocs(policy([]), request(command));
  const wrapped: readonly (readonly [string, string])[] = [
    ['sudo', 'sudo rm -rf build'],
    ['sudo -u root', 'sudo --user=root rm -rf build'],
    ['sudo -u root', 'sudo -uroot rm -rf build'],
    ['sudo rm', 'sudo rm -rf build'],
    ['sudo rm -rf build', 'sudo rm -rf build'],
    ['xargs rm', 'xargs rm -rf'],
    ['find -exec', 'find . -exec rm -rf {} +'],
    ['find', 'find . -delete'],
    ['bash -c', "bash -c 'rm -rf build'"],
    ['env FOO=1', 'env FOO=1 rm -rf build'],
    ['timeout 5', 'timeout 5 rm -rf build'],
    ['su -c', "su -c 'rm -rf build'"],
    ['flock /tmp/l', 'flock /tmp/l rm -rf build'],
    ['runuser -u root', 'runuser -u root -- rm -rf build'],
  ];

  it.each(wrapped)('E43/G14c: allow `%s` — `%s` is decided as the bare command', (rule, cmd) => {
    const doc = policy([{ id: 'ok-w', command: rule, decision: 'allow' }]);
    const got = decideDocs(doc, request(cmd));
    expect(got.decision, cmd).not.toBe('allow');
    expect(got.decision, cmd).toBe(bare(cmd).decision);
    expect(got.rule, cmd).not.toBe('ok-w');
  });

  it('property E43/G14c: an allow on any wrapper spelling never lifts the prompt on what it wraps', () => {
    const wrapper = fc.constantFrom(
      'sudo',
      'sudo -u root',
      'sudo --user=root',
      'sudo -E',
      'timeout 5',
      'timeout -k 1 5',
      'env -i',
      'env FOO=1',
      'nice -n 5',
      'nice -5',
      'xargs',
      'xargs -0',
      'stdbuf -oL',
      'setsid',
    );
    const inner = fc.constantFrom('rm -rf build', 'rm -r tmp', 'rm x');
    fc.assert(
      fc.property(wrapper, wrapper, inner, fc.boolean(), (ruleW, cmdW, what, script) => {
        const line = `${cmdW} ${what}`;
        const command = script ? `bash -c ${shq(line)}` : line;
        const doc = policy([{ id: 'ok-w', command: ruleW, decision: 'allow' }]);
        const got = decideDocs(doc, request(command));
        expect(got.decision, `${ruleW} ⟂ ${command}`).not.toBe('allow');
        expect(got.rule, `${ruleW} ⟂ ${command}`).not.toBe('ok-w');
      }),
      { numRuns: 120 },
    );
  });
});

describe('E43/E35: property — the rule and the command each spelled any way', () => {
  // Each option below, spelled any of the ways its entry names it, in the rule and in the
  // command alike: every pair is denied by rule, net and constraint, under any stack.
  const options: Record<string, readonly string[]> = {
    timeout: ['-k 1', '-k1', '--kill-after=1', '--kill-after 1', '--kill=1', '--ki 1'],
    env: ['-C /tmp', '-C/tmp', '--chdir=/tmp', '--chdir /tmp', '--ch=/tmp'],
    nice: ['-n 5', '-n5', '-5', '--adjustment=5', '--adjustment 5', '--adj=5'],
    xargs: ['-n 1', '-n1', '--max-args=1', '--max-args 1', '--max-a=1'],
    sudo: ['-u root', '-uroot', '--user=root', '--user root', '--us=root', '--use root'],
  };
  const tail: Record<string, string> = {
    timeout: ' 5 ls',
    env: ' ls',
    nice: ' ls',
    xargs: ' ls',
    sudo: ' ls',
  };
  const pick = fc
    .constantFrom(...Object.keys(options))
    .chain((program) =>
      fc.tuple(
        fc.constant(program),
        fc.constantFrom(...(options[program] as string[])),
        fc.constantFrom(...(options[program] as string[])),
      ),
    );
  const stack = fc.array(fc.constantFrom('nohup', 'setsid', 'env -i', 'timeout 9', 'nice'), {
    maxLength: 2,
  });

  it('property E43/E35: deny `<wrapper> <spelling>` holds for `<wrapper> <any spelling> …` under any stack', () => {
    fc.assert(
      fc.property(
        pick,
        stack,
        fc.boolean(),
        ([program, ruleSpelling, cmdSpelling], outer, script) => {
          const rule = `${program} ${ruleSpelling}`;
          const line = [...outer, `${program} ${cmdSpelling}${tail[program] as string}`].join(' ');
          const command = script ? `bash -c ${shq(line)}` : line;
          const d = decisions(rule, command);
          const label = `${rule} ⟂ ${command}`;
          expect([d.rule.decision, d.rule.rule], label).toEqual(['deny', 'no-w']);
          expect([d.free.decision, d.free.rule], label).toEqual(['deny', 'no-w']);
          expect([d.net.decision, d.net.rule], label).toEqual(['deny', 'modeNet:m']);
          expect([d.constraint.decision, d.constraint.rule], label).toEqual(['deny', 'no-w']);
        },
      ),
      { numRuns: 150 },
    );
  });

  // timeout is left out here: a computed word before its duration is a bypass (below).
  it('property E43/E23: a computed value where the rule names one is never an allow', () => {
    const computed = fc.constantFrom('"$V"', '$V', '${V:-x}', '"$(id -un)"', '"$A$B"', 'x$V');
    fc.assert(
      fc.property(pick, computed, stack, ([program, ruleSpelling, cmdSpelling], value, outer) => {
        if (program === 'timeout') return;
        const rule = `${program} ${ruleSpelling}`;
        // Replace the option's value (the last token of the spelling) by a computed one.
        const spelled = cmdSpelling.replace(/(root|\/tmp|1|5)$/, value);
        const command = [...outer, `${program} ${spelled}${tail[program] as string}`].join(' ');
        const d = decisions(rule, command);
        const label = `${rule} ⟂ ${command}`;
        expect(d.rule.decision, label).not.toBe('allow');
        expect(d.free.decision, label).not.toBe('allow');
        expect(d.net.decision, label).not.toBe('allow');
        expect(d.constraint.decision, label).not.toBe('allow');
      }),
      { numRuns: 150 },
    );
  });
});
