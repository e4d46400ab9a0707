// E43 and E35, adversarially, for the spellings of a wrapper's options: a deny rule, a mode's
// net and a deny's `commands` constraint that name a wrapper with an option (`sudo -u root`,
// `su -c`, `find -exec`, `timeout -k 1`) must hold however the agent spells that option —
// attached (`-uroot`), long (`--user=root`, `--user root`), a GNU prefix (`--us=root`), in a
// cluster (`-Eu root`), quoted or escaped, after `--`, stacked under other wrappers or inside
// `bash -c`. A prompt is acceptable only where the command cannot be read with confidence
// (G14b, E23); an allow is always a bypass (E17b). And the converse: a rule on one value
// (`sudo -u root`) must not catch another (`sudo -u bob`).
//
// The bypasses this review found are closed: a wrapper's words, and the rule's own, are read
// by the wrapper's table entry (options by name, anywhere its unwrapping reads them; operands
// in order). The `it.fails` tests left say what still differs, and why.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decisions,
  expectDeniedEverywhere,
  expectNeverAllowed,
  expectNotCaught,
  shq,
} from './wrapper-adversary.js';

describe('E43/E35: `sudo -u root` holds however the option is spelled', () => {
  it.each([
    'sudo -u root ls',
    'sudo -uroot ls',
    'sudo --user=root ls',
    'sudo --user root ls',
    // GNU prefixes of `--user`.
    'sudo --us=root ls',
    'sudo --us root ls',
    'sudo --use=root ls',
    // Clusters.
    'sudo -Eu root ls',
    'sudo -Euroot ls',
    'sudo -HEu root ls',
    // Quoting and escapes of the option word and the value.
    "sudo '-u' root ls",
    'sudo "--user=root" ls',
    "sudo -u'root' ls",
    'sudo -\\u root ls',
    "sudo -u 'root' ls",
    "sudo -u r'oo't ls",
    'sudo "-u" "root" ls',
    // `--` placement, flags and options after the one named, the same value twice.
    'sudo -u root -- ls',
    'sudo --user root -- ls',
    'sudo -u root -g wheel ls',
    'sudo --user=root -D /tmp ls',
    'sudo -u root -u root ls',
    'sudo --preserve-env=PATH -u root ls',
    'sudo -E -H -n -u root ls',
    // The wrapper with no command after it.
    'sudo -u root',
  ])('E43: deny `sudo -u root` — `%s` is denied (rule, net, constraint)', (command) => {
    expectDeniedEverywhere('sudo -u root', command);
  });

  it.each([
    'nice -n 1 sudo --user=root ls',
    'timeout 5 sudo -uroot ls',
    'env -i sudo --us=root ls',
    "bash -c 'sudo --user=root ls'",
    "bash -lc 'nice sudo -Eu root ls'",
    'sudo -g wheel sudo -u root ls',
    'sudo -u bob sudo -u root ls',
    'echo x | xargs sudo --user=root ls',
    'find . -exec sudo -uroot ls {} +',
    'ls; sudo --user root ls',
  ])('E43: deny `sudo -u root` — stacked or in a script, `%s` is denied', (command) => {
    expectDeniedEverywhere('sudo -u root', command);
  });

  it.each(['sudo --user=root', 'sudo --user root', 'sudo -u root'])(
    'E43: the rule written `%s` denies `sudo -uroot ls` and `sudo --user=root ls`',
    (rule) => {
      expectDeniedEverywhere(rule, 'sudo -uroot ls');
      expectDeniedEverywhere(rule, 'sudo --user=root ls');
      expectDeniedEverywhere(rule, 'sudo -u root ls');
    },
  );
});

describe('E43/E35: each wrapper with a `same` list, spelled another way', () => {
  it.each([
    ['su -c', 'su --command=ls'],
    ['su -c', 'su --comm=ls'],
    ['su -c', 'su -mc ls'],
    ['su -c', 'su root -mc ls'],
    ['su -c', 'su root --command ls'],
    ['su -c', 'su root --session-command ls'],
    ['su -c', 'su --session-command=ls root'],
    ['su -c', 'su root -- -c ls'],
    ['su -l', 'su - root -c ls'],
    ['su -l', 'su root - -c ls'],
    ['su -s /bin/sh', 'su --shell=/bin/sh root -c ls'],
    ['runuser -u root', 'runuser --user=root -- ls'],
    ['runuser -u root', 'runuser -uroot -- ls'],
    ['env -u PATH', 'env --unset=PATH ls'],
    ['env -u PATH', 'env -uPATH ls'],
    ['env -i', 'env - ls'],
    ['env -i', 'env --ignore-env ls'],
    ['timeout -s KILL', 'timeout --signal=KILL 5 ls'],
    ['timeout -s KILL', 'timeout --sig KILL 5 ls'],
    ['timeout -s KILL', 'timeout -sKILL 5 ls'],
    ['nice -n 19', 'nice --adj=19 ls'],
    ['nice -n -5', 'nice -n-5 ls'],
    ['xargs -I', 'xargs --replace=X ls'],
    ['xargs -I', 'xargs -i ls'],
    ['xargs -I', 'xargs -IX ls X'],
    ['xargs -a', 'xargs --arg-file=f ls'],
    ['xargs -P 4', 'xargs --max-procs=4 ls'],
    ['xargs -P 4', 'xargs -P4 ls'],
    ['flock -x', 'flock --exclusive /tmp/l ls'],
    ['flock -c', 'flock /tmp/l --command ls'],
    ['flock -c', 'flock --comm=ls /tmp/l'],
    ['watch -n 1', 'watch --interval=1 ls'],
    ['watch -n 1', 'watch -n1 ls'],
    ['watch -n 1', 'watch -d -n 1 ls'],
    ['setsid -f', 'setsid --fork ls'],
    ['ionice -c 3', 'ionice --class=3 ls'],
    ['ionice -c 3', 'ionice -c3 ls'],
    ['script -c', 'script --command=ls /dev/null'],
    ['script -c', 'script /dev/null -c ls'],
    ['nsenter -t 1', 'nsenter --target=1 ls'],
    ['nsenter -t 1', 'nsenter -t1 ls'],
    ['nsenter -t 1', 'nsenter -m -t 1 ls'],
    ['unshare -r', 'unshare --map-root-user ls'],
    ['unshare -r', 'unshare --map-root ls'],
    ['chrt -f', 'chrt --fifo 1 ls'],
    ['numactl -C 0', 'numactl --physcpubind=0 ls'],
    ['taskset -c', 'taskset --cpu-list 0 ls'],
    ['xvfb-run -a', 'xvfb-run --auto-servernum ls'],
    ['bash -c', 'bash --norc -c ls'],
    ['bash -c', 'bash -o errexit -c ls'],
    ['bash -c', 'bash +o posix -c ls'],
    ['bash -c', 'bash -xec ls'],
    ['bash -c', 'bash -c -- ls'],
    ['bash -l', 'bash --log -c ls'],
    ['bash --login', 'bash -lc ls'],
    ['fish -c', 'fish --command=ls'],
    ['fish -c', 'fish --comm=ls'],
    ['find -exec', 'find . -okdir ls {} ;'],
    ['find -exec', 'find . -ok ls {} ;'],
    ['find -execdir', 'find . -exec ls {} ;'],
    ['find -ok', 'find . -exec ls {} ;'],
    ['find -exec', "find . '-exec' ls {} ;"],
    ['find -exec', 'find . -ex\\ec ls {} ;'],
    ['sudo -E', 'sudo --preserve-env=PATH ls'],
    ['sudo --preserve-env', 'sudo -E ls'],
  ])('E43/E35: deny `%s` — `%s` is denied (rule, net, constraint)', (rule, command) => {
    expectDeniedEverywhere(rule, command);
  });

  // G14b: what cannot be read is a prompt — never an allow.
  it.each([
    ['nice -n -5', 'nice --5 ls'],
    ['systemd-run -p', 'systemd-run --property=X=1 ls'],
    ['chrt -p', 'chrt --pid 1 ls'],
  ])('E43/G14b: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });
});

describe('E43: a valued option before the one the rule names', () => {
  // The value of an earlier option (`-g wheel`, `-D /tmp`, `-s KILL`) is that option's, as
  // the wrapper's table reads it: it never stands where the rule's `root` is read.
  it.each([
    ['sudo -u root', 'sudo -g wheel -u root ls'],
    ['sudo -u root', 'sudo -p "" -u root ls'],
    ['sudo -u root', 'sudo -D /tmp -u root ls'],
    ['sudo -u root', 'sudo -C 3 -u root ls'],
    ['sudo -u root', 'sudo --chdir=/tmp --user=root ls'],
    ['sudo -u root', 'env -u X sudo -g wheel -u root ls'],
    ['sudo -u root', "bash -c 'sudo -g wheel -u root ls'"],
    ['runuser -u root', 'runuser -g wheel -u root -- ls'],
    ['timeout -k 1', 'timeout -s KILL -k 1 5 ls'],
    ['env -C /tmp', 'env -u X -C /tmp ls'],
    ['ionice -c 3', 'ionice -n 7 -c 3 ls'],
    ['nsenter -t 1', 'nsenter -S 0 -t 1 ls'],
  ])('E43/E35: deny `%s` — `%s` is denied', (rule, command) => {
    expectDeniedEverywhere(rule, command);
  });
});

describe('E43: a repeated option, the last one winning', () => {
  // sudo, runuser and timeout keep the last value of a repeated option, so
  // `sudo -u bob -u root` runs as root: any of the values the rule names is enough.
  it.each([
    ['sudo -u root', 'sudo -u bob -u root ls'],
    ['sudo -u root', 'sudo -u bob --user=root ls'],
    ['runuser -u root', 'runuser -u bob -u root -- ls'],
    ['timeout -k 1', 'timeout -k 2 -k 1 5 ls'],
  ])('E43: deny `%s` — `%s` is denied', (rule, command) => {
    expectDeniedEverywhere(rule, command);
  });
});

describe('E43: options after an operand (su, runuser, script permute their arguments)', () => {
  // su, runuser and script read options anywhere (GNU permutation), and so do the rules
  // that name them: `su root --command=ls` runs `ls`, and `deny su -c` holds for it.
  it.each([
    ['su -c', 'su root --command=ls'],
    ['su -c', 'su -l root --command=ls'],
    ['su -c', 'su root --comm=ls'],
    ['su -c', 'su root --comm ls'],
    ['su -c', "su root -c'ls -l'"],
    ['su -s /bin/sh', 'su root -s /bin/sh -c ls'],
    ['runuser -c', 'runuser root --command=ls'],
    ['script -c', 'script /dev/null --command=ls'],
    ['script -c', 'script /dev/null --comm ls'],
  ])('E43: deny `%s` — `%s` is denied', (rule, command) => {
    expectDeniedEverywhere(rule, command);
  });
});

describe('E43: other spellings', () => {
  // `nice -19` is `nice -n 19` (the table's numericFlags).
  it('E43: deny `nice -n 19` — `nice -19 ls` is denied', () => {
    expectDeniedEverywhere('nice -n 19', 'nice -19 ls');
  });

  // The rule's own words are read as the table reads the wrapper's: a rule written with an
  // attached value or a long-option prefix meets the plainest spelling of what it names.
  it.each([
    ['sudo -uroot', 'sudo -u root ls'],
    ['sudo --us=root', 'sudo -u root ls'],
    ['sudo --us root', 'sudo --user root ls'],
  ])('E43: a rule written `%s` — `%s` is denied', (rule, command) => {
    expectDeniedEverywhere(rule, command);
  });

  // A value that is not literal (`root$E`, `"$U"`) may well be `root`: the rule cannot tell,
  // and asks (G14b, E23) — never an allow.
  it.each(['sudo -u root$E ls', 'sudo -u "$U" ls'])(
    'E43/G14b: deny `sudo -u root` — `%s` is never allowed',
    (command) => {
      expectNeverAllowed('sudo -u root', command);
    },
  );

  // An option word that is not literal stops the option scan: the command is not read (G14b).
  it.each(['sudo --user="$U" ls', 'sudo "$O" root ls'])(
    'E43/G14b: deny `sudo -u root` — `%s` is never allowed',
    (command) => {
      expectNeverAllowed('sudo -u root', command);
    },
  );

  // sudo reads `#0` as the uid 0, root (sudoers(5), sudo(8)): the same user spelled another
  // way. Rules compare words, not the users they name; a rule on `-u '#0'` names this one.
  it.fails('E43 (not held): deny `sudo -u root` — `sudo -u "#0" ls` is allowed', () => {
    expectDeniedEverywhere('sudo -u root', 'sudo -u "#0" ls');
  });

  // bash and sh take `+x`, `+e`, … as options (turn a setting off) before `-c`: the shell's
  // table knows them, so `-c` and its script are read.
  it.each([
    ['sudo', "bash +x -c 'sudo ls'"],
    ['sudo', "sh +e -c 'sudo ls'"],
    ['bash -c', 'bash +x -c ls'],
  ])('E43/G14b: deny `%s` — `%s` is never allowed', (rule, command) => {
    expectNeverAllowed(rule, command);
  });
});

describe('E43 converse: a rule on one value does not catch another', () => {
  it.each([
    'sudo -u bob ls',
    'sudo -ubob ls',
    'sudo --user=bob ls',
    'sudo --us bob ls',
    'sudo -u rooter ls',
    'sudo -u roo ls',
    "sudo -u '' ls",
    'sudo --user= ls',
    'sudo -u -u ls',
    'sudo -u --user ls',
    'sudo -u bob -g root ls',
    'sudo -u bob root',
    'sudo -E ls',
  ])('E43: deny `sudo -u root` — `%s` is not caught', (command) => {
    const d = decisions('sudo -u root', command);
    expect(d.rule.rule, command).not.toBe('no-w');
    expect(d.net.rule, command).not.toBe('modeNet:m');
    expect(d.constraint.rule, command).not.toBe('no-w');
  });

  it('E43: deny `sudo -u root` — `sudo -u bob ls` is allowed (`ls` is)', () => {
    expectNotCaught('sudo -u root', 'sudo -u bob ls');
    expectNotCaught('sudo -u root', 'sudo --user=bob ls');
  });

  // The value of another option is that option's: `sudo -g root -u bob` runs as bob.
  it('E43: deny `sudo -u root` — `sudo -g root -u bob ls` is not caught', () => {
    expectNotCaught('sudo -u root', 'sudo -g root -u bob ls');
  });

  // Over-matching, kept on purpose: of a repeated option any value the rule names counts,
  // though sudo keeps the last — `--user=root --user=bob` runs as bob and is denied.
  it.fails(
    'E43 (over-match): deny `sudo -u root` — `sudo --user=root --user=bob ls` is denied',
    () => {
      expectNotCaught('sudo -u root', 'sudo --user=root --user=bob ls');
    },
  );

  it.each([
    ['su -c', 'su root'],
    ['find -exec', 'find . -name x -print'],
    ['bash -c', 'bash script.sh'],
    ['timeout -s KILL', 'timeout 5 ls'],
    ['xargs -I', 'xargs ls'],
  ])('E43: deny `%s` — `%s` is not caught by it', (rule, command) => {
    const d = decisions(rule, command);
    expect(d.rule.rule, command).not.toBe('no-w');
    expect(d.net.rule, command).not.toBe('modeNet:m');
  });
});

describe('E43/E35: property — any spelling of `-u root`, any stack', () => {
  const spelling = fc.constantFrom(
    '-u root',
    '-uroot',
    '--user=root',
    '--user root',
    '--us=root',
    '--use root',
    "'-u' root",
    '"--user=root"',
    "-u'root'",
    '-\\u root',
    '-u "root"',
    '-Eu root',
    '-HEuroot',
  );
  const flags = fc.array(
    fc.constantFrom('-E', '-H', '-n', '-k', '--preserve-env', '--set-home', '--non-interactive'),
    { maxLength: 3 },
  );
  const stack = fc.array(
    fc.constantFrom('nice -n 1', 'timeout 5', 'env -i', 'setsid', 'nohup', 'stdbuf -oL'),
    { maxLength: 2 },
  );
  const end = fc.constantFrom('', ' --');
  const script = fc.boolean();

  it('property E43/E35: `sudo [flags] <spelling of -u root> [--] ls` under any stack is denied by rule, net and constraint', () => {
    fc.assert(
      fc.property(
        stack,
        flags,
        spelling,
        end,
        script,
        (outer, before, option, dashes, inScript) => {
          const sudo = ['sudo', ...before, option].join(' ') + `${dashes} ls`;
          const line = [...outer, sudo].join(' ');
          const command = inScript ? `bash -c ${shq(line)}` : line;
          const d = decisions('sudo -u root', command);
          expect([d.rule.decision, d.rule.rule], command).toEqual(['deny', 'no-w']);
          expect([d.free.decision, d.free.rule], command).toEqual(['deny', 'no-w']);
          expect([d.net.decision, d.net.rule], command).toEqual(['deny', 'modeNet:m']);
          expect([d.constraint.decision, d.constraint.rule], command).toEqual(['deny', 'no-w']);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('property E43: the same spellings with another user are not caught, and `ls` is allowed', () => {
    const user = fc.constantFrom('bob', 'alice', 'roots', 'ro', 'www-data');
    fc.assert(
      fc.property(stack, flags, spelling, user, (outer, before, option, who) => {
        const command = [...outer, 'sudo', ...before, option.replace('root', who), 'ls'].join(' ');
        expectNotCaught('sudo -u root', command);
      }),
      { numRuns: 100 },
    );
  });
});
