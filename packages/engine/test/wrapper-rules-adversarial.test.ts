// E43, adversarially: an agent tries to run a command under a wrapper a
// restrictive rule (or a mode's net) names, and get anything but a deny. A
// prompt is only acceptable where the command cannot be read with confidence
// (G14b, E23, E24) and the result is never an allow (E17b, E17c). And the
// converse: an allow naming a wrapper allows nothing it wraps, where no rule
// names a wrapper wrapping changes no decision, and facet names are those of
// the wrapped command (E25).
//
// The bypasses this review found (a long option, an attached value, `-execdir`)
// are closed: the wrapper's table names each option's spellings.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import { policy, request, shq } from './wrapper-adversary.js';
import type { Rule } from './wrapper-adversary.js';

const ALLOWS: Rule[] = [
  { id: 'ls-ok', command: 'ls', decision: 'allow' },
  { id: 'rm-build-ok', command: 'rm -rf build', decision: 'allow' },
  { id: 'push-ok', command: 'git push origin main', decision: 'allow' },
  { id: 'cat-ok', command: 'cat notes.txt', decision: 'allow' },
  { id: 'make-ok', command: 'make test', decision: 'allow' },
];

const denyOn = (wrapper: string): Rule[] => [
  { id: 'no-w', command: wrapper, decision: 'deny' },
  ...ALLOWS,
];

const facetNames = (result: { facets: readonly { facet: string }[] }) =>
  result.facets.map((f) => f.facet);

/** Decided in the default space, in an actFreely space, and with an approver connected. */
function everyWay(doc: unknown, command: string, extra: Record<string, unknown> = {}) {
  return {
    plain: decideDocs(doc, request(command, extra)),
    free: decideDocs(doc, request(command, { ...extra, space: 's' })),
    asked: decideDocs(doc, request(command, extra), { approverConnected: true }),
  };
}

function expectDenied(doc: unknown, command: string, rule: string, extra = {}): void {
  const { plain, free, asked } = everyWay(doc, command, extra);
  expect([plain.decision, plain.outcome, plain.rule], command).toEqual(['deny', 'deny', rule]);
  expect([free.decision, free.rule], `${command} (actFreely, E17)`).toEqual(['deny', rule]);
  expect(asked.outcome, `${command} (approver connected)`).toBe('deny');
}

/** A prompt where the command cannot be read — but never an allow, and a deny under actFreely. */
function expectNeverAllowed(doc: unknown, command: string, extra = {}): void {
  const { plain, free } = everyWay(doc, command, extra);
  expect(['deny', 'prompt'], command).toContain(plain.decision);
  expect(plain.outcome, command).toBe('deny');
  expect(free.decision, `${command} (actFreely, E17b/E17c)`).not.toBe('allow');
}

describe('E43 adversarial: spellings of a denied `sudo`', () => {
  const doc = policy(denyOn('sudo'));

  it.each([
    // G14c / E27: a program by path counts by its basename for restrictive rules.
    '/usr/bin/sudo ls',
    './sudo ls',
    '/usr/bin/../bin/sudo ls',
    '//usr//bin/sudo ls',
    // G14b: quotes and escapes are read.
    "'sudo' ls",
    '"sudo" ls',
    's\\udo ls',
    '\\sudo ls',
    'sud""o ls',
    "$'sudo' ls",
    // sudo's own options: `--`, `=`, bundled, attached values.
    'sudo -- ls',
    'sudo -u root -- ls',
    'sudo -uroot ls',
    'sudo --user=root ls',
    'sudo -Eu root ls',
    'sudo -nE ls',
    'sudo -u "$U" ls',
    'sudo sudo sudo ls',
    // The wrapper itself, or with no command read.
    'sudo',
    'sudo -i',
    'sudo -s',
    'sudo -v',
    'sudo -e file',
    'sudo --bogus ls',
    'sudo $CMD',
    'sudo -- "$@"',
    'sudo $(which ls)',
    "'sudo' $(which ls)",
    's\\udo $(which ls)',
    // Assignments and redirections are dropped, not the wrapper.
    'A=1 sudo ls',
    'A=1 B=2 env C=3 sudo ls',
    '>log sudo ls',
    'sudo ls > /dev/null',
    'exec >log sudo ls',
    'exec 3>&1 sudo ls',
  ])('E43/G14b: `%s` is denied by `no-w`', (command) => {
    expectDenied(doc, command, 'no-w');
  });

  it.each([
    'ls; sudo ls',
    'ls && sudo ls',
    'ls || sudo ls',
    'ls | sudo ls',
    'ls & sudo ls',
    'sudo ls &',
    'sudo ls |& cat',
    'cat x | sudo tee y',
    '(sudo ls)',
    '{ sudo ls; }',
    '! sudo ls',
    '[[ 1 ]] && sudo ls',
    'if true; then sudo ls; fi',
    'for i in 1; do sudo ls; done',
    'while false; do sudo ls; done',
    'case x in x) sudo ls;; esac',
    'f() { sudo ls; }; f',
    'function f { sudo ls; }; f',
    'f() { sudo "$@"; }; f ls',
  ])(
    'E43/G14b/E26: `%s` — a wrapper inside a list, subshell, group or function is denied',
    (command) => {
      expectDenied(doc, command, 'no-w');
    },
  );

  it('E43/E25: `ls; sudo ls` is one facet `command:ls`, denied for the one under sudo', () => {
    const result = decideDocs(doc, request('ls; sudo ls'));
    expect(facetNames(result)).toEqual(['processSpawn', 'command:ls']);
    expect(result.facets.find((f) => f.facet === 'command:ls')?.decision).toBe('deny');
    // And the other order.
    const other = decideDocs(doc, request('sudo ls; ls'));
    expect([other.decision, other.rule]).toEqual(['deny', 'no-w']);
  });

  it.each([
    'nice -n 5 -- sudo ls',
    'timeout -- 5 sudo ls',
    'timeout -s KILL 5 sudo ls',
    'timeout --signal=KILL 5 sudo ls',
    'timeout -k 1 5 sudo ls',
    'env -i sudo ls',
    'env -u X sudo ls',
    'env -- sudo ls',
    'env -C /tmp sudo ls',
    'setsid -- sudo ls',
    'setsid -f sudo ls',
    'nice -5 sudo ls',
    'stdbuf -oL -eL sudo ls',
    'stdbuf --output=L sudo ls',
    'command sudo ls',
    'command -p sudo ls',
    'builtin sudo ls',
    'exec sudo ls',
    'exec -a foo sudo ls',
    'exec -c sudo ls',
    'watch sudo ls',
    'watch -n1 sudo ls',
    'watch --interval=1 sudo ls',
    'flock /tmp/l sudo ls',
    'flock -w 5 /tmp/l sudo ls',
    "flock /tmp/l -c 'sudo ls'",
    'nohup sudo ls',
    'time sudo ls',
    'time -p sudo ls',
    'ionice -c3 sudo ls',
    'doas sudo ls',
    "su -c 'sudo ls'",
    "su root -c 'sudo ls'",
    "su - root -c 'sudo ls'",
    'warden exec -- sudo ls',
    'xargs sudo ls',
    'echo x | xargs sudo',
    'echo x | xargs -I{} sudo ls {}',
    'xargs -I{} sudo {}',
    'find . -exec sudo ls {} \\;',
    'find . -exec sudo ls {} +',
    'find . -execdir sudo ls {} \\;',
    'find . -ok sudo ls {} \\;',
    'find . -okdir sudo ls {} \\;',
    'find . -exec sudo {} \\;',
    'bash -c "sudo ls"',
    'bash -lc "sudo ls"',
    'bash -c -- "sudo ls"',
    'bash --norc -c "sudo ls"',
    "bash -c 'sudo ls' --",
    'sh -ec "sudo ls"',
    `sh -c "bash -c 'sudo ls'"`,
    "timeout 5 bash -c 'nice sudo ls'",
    "sudo bash -c 'echo $(ls)'",
    "sudo bash -c 'eval ls'",
    'sudo eval ls',
  ])('E43/E27: `%s` — sudo under (or over) another wrapper is denied', (command) => {
    expectDenied(doc, command, 'no-w');
  });

  it('E43: sudo under eight nested `bash -c` scripts is denied', () => {
    let line = 'sudo ls';
    for (let i = 0; i < 8; i++) line = `bash -c ${shq(line)}`;
    expectDenied(doc, line, 'no-w');
  });

  it('E43/E24: sudo under 30 wrappers is denied; under the reader’s limit of wrappers it is never allowed', () => {
    for (const n of [10, 20, 30]) expectDenied(doc, `${'nice '.repeat(n)}sudo ls`, 'no-w');
    // Outermost, sudo is read before the limit: a certain deny.
    for (const n of [31, 32, 40, 100]) expectDenied(doc, `sudo ${'nice '.repeat(n)}ls`, 'no-w');
    // Innermost past the limit the command is unparseable ("too many wrappers"): E23
    // escalates `no-w` by its token; a prompt, never an allow, and a deny under actFreely.
    for (const n of [32, 33, 40, 100]) {
      const line = `${'nice '.repeat(n)}sudo ls`;
      expectNeverAllowed(doc, line);
      expect(decideDocs(doc, request(line, { space: 's' })).decision).toBe('deny');
    }
  });

  it.each([
    'echo $(sudo ls)',
    'echo `sudo ls`',
    'x=$(sudo ls)',
    'ls <(sudo ls)',
    'env -S "sudo ls"',
    "env --split-string='sudo ls'",
    'bash -c "$(echo sudo ls)"',
    "bash -c 'echo $(sudo ls)'",
    'eval sudo ls',
    "bash -c 'eval sudo ls'",
    'coproc sudo ls',
    'coproc x { sudo ls; }',
    'timeout --bogus 5 sudo ls',
    'alias s=sudo; s ls',
    // `time` after a pipe is not read (it is a keyword only at a pipeline's start).
    'echo x | time -p sudo ls',
  ])(
    'E23/E24/E17: `%s` cannot be read with confidence — a prompt at most, never an allow',
    (command) => {
      expectNeverAllowed(doc, command);
    },
  );
});

describe('E43 adversarial: each wrapper denied by name', () => {
  const cases: [string, string[]][] = [
    ['doas', ['doas ls', 'doas -u root ls', '/usr/bin/doas -- ls', 'timeout 5 doas ls']],
    [
      'su',
      [
        'su -c ls',
        'su root -c ls',
        'su -l root -c ls',
        'su --command=ls',
        "su -c 'ls' root",
        'su - root -c ls',
        'su',
      ],
    ],
    [
      'timeout',
      [
        'timeout 5 ls',
        'timeout -k 1 5 ls',
        'timeout --kill-after=1 5 ls',
        'timeout -sKILL 5 ls',
        '/usr/bin/timeout 5 ls',
        'sudo timeout 5 ls',
      ],
    ],
    [
      'env',
      [
        'env ls',
        'env -i ls',
        'env -u X ls',
        'env --unset=X ls',
        'env A=1 ls',
        'env -- ls',
        'env -C /tmp ls',
        '/usr/bin/env ls',
        "env -S 'ls'",
      ],
    ],
    [
      'xargs',
      [
        'xargs ls',
        'echo . | xargs -0 ls',
        'echo . | xargs -n1 ls',
        'echo . | xargs -I{} ls {}',
        'echo . | xargs --max-args=1 ls',
        'echo . | xargs',
      ],
    ],
    ['bash', ['bash -c ls', 'bash -lc ls', 'bash script.sh']],
    ['bash -c', ['bash -c ls', 'bash -c -- ls', "bash -c 'ls' x", '/bin/bash -c ls']],
    ['find', ['find . -exec ls {} \\;', 'find . -ok ls {} \\;']],
    ['find -exec', ['find -exec ls {} \\;']],
    [
      'watch',
      [
        'watch ls',
        'watch -n 1 ls',
        'watch -n1 ls',
        'watch --interval=1 ls',
        'watch -x ls',
        "watch 'ls'",
      ],
    ],
    [
      'flock',
      [
        'flock /tmp/l ls',
        'flock -n /tmp/l ls',
        'flock /tmp/l -c ls',
        "flock -x /tmp/l -c 'ls'",
        'flock -w 5 /tmp/l ls',
      ],
    ],
    ['setsid', ['setsid ls', 'setsid -f ls', 'setsid --fork ls', 'setsid -w ls']],
    [
      'nice',
      [
        'nice ls',
        'nice -n 5 ls',
        'nice -n5 ls',
        'nice -5 ls',
        'nice --adjustment=5 ls',
        'nice -- ls',
      ],
    ],
    ['stdbuf', ['stdbuf -oL ls', 'stdbuf -o L ls', 'stdbuf --output=L ls', 'stdbuf -oL -eL ls']],
    ['command', ['command ls', 'command -p ls', 'command -- ls', 'command -v ls']],
    ['builtin', ['builtin cd /tmp', 'builtin echo hi']],
    ['exec', ['exec ls', 'exec -a x ls', 'exec -c ls', 'exec -l ls', 'exec -- ls']],
    ['nohup', ['nohup ls']],
    ['ionice', ['ionice -c 3 ls', 'ionice -c3 ls', 'ionice --class=3 ls']],
    ['sudo -u root', ['sudo -u root ls']],
  ];
  for (const [wrapper, commands] of cases) {
    it.each(commands)(
      `E43: deny \`${wrapper}\` — \`%s\` is denied, by the rule and by a mode's net`,
      (command) => {
        expectDenied(policy(denyOn(wrapper)), command, 'no-w');
        const net = policy(ALLOWS, { m: { commandNet: [wrapper] } });
        expectDenied(net, command, 'modeNet:m', { mode: 'm' });
      },
    );
  }
});

describe('E43 adversarial: bypasses — a multi-word rule on a wrapper misses other spellings of it', () => {
  // E43 names `bash -c`, `su -c` and `find -exec` as wrappers a deny may name. The wrapper
  // stage was matched by word prefix (G13) only, so an option bundled with another (`-lc`),
  // an option before the named one (`-l -c`), or find's start path before `-exec` made the
  // rule miss — and then the allow on the wrapped command, or the default, decided. A
  // wrapper is now also read as the net reads an entry, its bundles split (E35, E43); a long
  // option standing for the short one named (`--command` for `-c`) still misses. Bare, these commands matched no wrapper rule before E43 either,
  // but E43 now promises the rule holds "for every command run under it", and a wrapper has
  // no action class to fall back on (G14): the rule is the only thing that names it.

  it.each(['bash -lc ls', 'bash -ec ls', 'bash -l -c ls', 'bash --login -c ls'])(
    'E43: deny `bash -c` — `%s` is denied (options bundled, or before the one named)',
    (command) => {
      expectDenied(policy(denyOn('bash -c')), command, 'no-w');
    },
  );

  it.each(['su root -c ls', 'su -l root -c ls', 'su -lc ls'])(
    'E43: deny `su -c` — `%s` is denied',
    (command) => {
      expectDenied(policy(denyOn('su -c')), command, 'no-w');
    },
  );

  // A long option is read as the short one it stands for: the table pairs them.
  it('E43: deny `su -c` — `su --command=ls` is denied', () => {
    expectDenied(policy(denyOn('su -c')), 'su --command=ls', 'no-w');
  });

  // The ordinary way to write find -exec has a start path before `-exec`: the rule as E43
  // spells it (`find -exec`) never matches it.
  it.each(['find . -exec ls {} \\;', 'find . -name x -exec ls {} +', 'find src -exec ls {} +'])(
    'E43: deny `find -exec` — `%s` is denied (its start path before `-exec`)',
    (command) => {
      expectDenied(policy(denyOn('find -exec')), command, 'no-w');
    },
  );

  // `-execdir`, `-ok` and `-okdir` run a command for each file as `-exec` does: the table
  // reads them as one, for the rule and the net.
  it('E43: deny `find -exec` — `find . -execdir ls {} \\;` is denied', () => {
    expectDenied(policy(denyOn('find -exec')), 'find . -execdir ls {} \\;', 'no-w');
  });

  it.each(['sudo -uroot ls', 'sudo --user=root ls'])(
    'E43: deny `sudo -u root` — `%s` is denied (the value attached)',
    (command) => {
      expectDenied(policy(denyOn('sudo -u root')), command, 'no-w');
    },
  );

  // The mode's net (E35: options anywhere) catches an option before the named one, bundled,
  // or in a `=` spelling.
  it.each([
    ['bash -c', 'bash -l -c ls'],
    ['bash -c', 'bash --login -c ls'],
    ['su -c', 'su root -c ls'],
    ['su -c', 'su -l root -c ls'],
    ['find -exec', 'find . -exec ls {} \\;'],
  ])('E43/E35: the net `%s` catches `%s`', (entry, command) => {
    expectDenied(policy(ALLOWS, { m: { commandNet: [entry] } }), command, 'modeNet:m', {
      mode: 'm',
    });
  });

  it.each([
    ['bash -c', 'bash -lc ls'],
    ['bash -c', 'bash -ec ls'],
    ['su -c', 'su -lc ls'],
  ])('E43/E35: the net `%s` catches `%s` (bundled options split)', (entry, command) => {
    expectDenied(policy(ALLOWS, { m: { commandNet: [entry] } }), command, 'modeNet:m', {
      mode: 'm',
    });
  });

  it.each([
    ['su -c', 'su --command=ls'],
    ['sudo -u root', 'sudo -uroot ls'],
    ['sudo -u root', 'sudo --user=root ls'],
  ])(
    'E43/E35: the net `%s` catches `%s` (the option spelled as its table reads it)',
    (entry, command) => {
      expectDenied(policy(ALLOWS, { m: { commandNet: [entry] } }), command, 'modeNet:m', {
        mode: 'm',
      });
    },
  );
});

describe('E43 adversarial: the mode net on a wrapper of a command that cannot be read', () => {
  // The net is a hard boundary (G14, G15). For a raw unit it once fell back to E14's token
  // scan of the raw text only, which neither unquotes nor takes a path's basename, so a
  // wrapper read with confidence before a computed command name escaped the net when spelled
  // with a path or an escape (a prompt an approver could grant, not the net's final deny).
  // The net now reads a raw unit's wrappers and leading words as well.
  const net = policy(ALLOWS, { m: { commandNet: ['sudo'] } });

  it.each(['sudo $(which ls)', "'sudo' $(which ls)", '"sudo" $(which ls)', 'echo $(s\\udo ls)'])(
    'E43/E14: the net `sudo` denies `%s`',
    (command) => {
      expectDenied(net, command, 'modeNet:m', { mode: 'm' });
    },
  );

  it.each([
    '/usr/bin/sudo $(which ls)',
    's\\udo $(which ls)',
    'su""do $(which ls)',
    'timeout 5 s\\udo $(which ls)',
    "bash -c 's\\udo $(which ls)'",
    // Found by the property below: sudo outermost, read with confidence.
    "s\\udo find . -exec watch -n1 'ls' {} \\;",
  ])('E43/E14: the net `sudo` denies `%s`, its wrapper read with confidence', (command) => {
    expectDenied(net, command, 'modeNet:m', { mode: 'm' });
  });

  it('E43/E23: the same commands are denied by a rule `no-w` on sudo (resolveFacet reads raw facets’ wrappers)', () => {
    const doc = policy(denyOn('sudo'));
    for (const command of [
      '/usr/bin/sudo $(which ls)',
      's\\udo $(which ls)',
      'timeout 5 s\\udo $(which ls)',
    ])
      expectDenied(doc, command, 'no-w');
  });
});

describe('E43 adversarial: scopes, layers, memory and modes', () => {
  it('E43/E41: a remembered allow on the wrapped command, or on the wrapper, lifts nothing', () => {
    const doc = policy([
      { id: 'no-w', command: 'sudo', decision: 'deny' },
      {
        id: 'r-1',
        command: 'ls',
        decision: 'allow',
        origin: 'remembered',
        expiresAt: '2026-12-01T08:00:00Z',
      },
      {
        id: 'r-2',
        command: 'sudo ls',
        decision: 'allow',
        origin: 'remembered',
        expiresAt: '2026-12-01T08:00:00Z',
      },
      {
        id: 'r-3',
        command: 'sudo',
        decision: 'allow',
        origin: 'remembered',
        expiresAt: '2026-12-01T08:00:00Z',
      },
    ]);
    expect(decideDocs(doc, request('ls')).decision).toBe('allow');
    for (const command of ['sudo ls', 'sudo', 'nice sudo ls', "bash -c 'sudo ls'"])
      expectDenied(doc, command, 'no-w');
  });

  it('E43/E28: a managed allow on the wrapped command or the wrapper does not lift a workspace deny on the wrapper', () => {
    const managed = {
      version: 1,
      rules: [
        { id: 'm-ls', command: 'ls', decision: 'allow' },
        { id: 'm-sudo', command: 'sudo', decision: 'allow' },
      ],
    };
    for (const command of ['sudo ls', 'timeout 5 sudo ls']) {
      const result = decideDocs(policy(denyOn('sudo')), request(command), { managed });
      expect([result.decision, result.rule], command).toEqual(['deny', 'no-w']);
    }
  });

  it('E43/E17a: a managed prompt on a wrapper is not pre-approved by actFreely', () => {
    const managed = {
      version: 1,
      rules: [{ id: 'ask-sudo', command: 'sudo', decision: 'prompt' }],
    };
    for (const command of ['sudo', 'sudo ls', 'timeout 5 sudo ls', "bash -c 'sudo ls'"]) {
      const result = decideDocs(policy(ALLOWS), request(command, { space: 's' }), { managed });
      expect([result.decision, result.rule, result.scope], command).toEqual([
        'prompt',
        'ask-sudo',
        'managed:workspace',
      ]);
    }
  });

  it('E43/E17b: a deny on a wrapper stays a deny under actFreely, wrapped any way', () => {
    const doc = policy(denyOn('sudo'));
    for (const command of ['sudo ls', 'timeout 5 sudo rm -rf build', 'find . -exec sudo ls {} +']) {
      const result = decideDocs(doc, request(command, { space: 's' }));
      expect([result.decision, result.rule], command).toEqual(['deny', 'no-w']);
    }
  });

  it('E43/G32: a prompt on a wrapper is pre-approved by actFreely, as any workspace prompt is', () => {
    const doc = policy([{ id: 'ask-timeout', command: 'timeout', decision: 'prompt' }, ...ALLOWS]);
    expect(decideDocs(doc, request('timeout 5 ls')).decision).toBe('prompt');
    expect(decideDocs(doc, request('timeout 5 ls', { space: 's' })).decision).toBe('allow');
  });

  it('E43/E35: the net on a wrapper denies hard however it is stacked, also under actFreely', () => {
    const doc = policy(ALLOWS, { m: { commandNet: ['sudo'] } });
    for (const command of [
      'timeout 5 sudo ls',
      "bash -c 'nice sudo ls'",
      'find . -exec sudo ls {} +',
      'echo x | xargs sudo',
      'f() { sudo ls; }; f',
      `${'nice '.repeat(40)}sudo ls`,
    ]) {
      for (const extra of [{ mode: 'm' }, { mode: 'm', space: 's' }]) {
        const result = decideDocs(doc, request(command, extra));
        expect([result.decision, result.rule, result.enforcement], command).toEqual([
          'deny',
          'modeNet:m',
          'hard',
        ]);
      }
    }
  });

  it('E43/E21: a deny’s `commands` constraint on a wrapper holds through stacks and scripts', () => {
    const doc = policy([
      {
        id: 'no-sudo-spawn',
        action: 'processSpawn',
        decision: 'deny',
        when: { commands: ['sudo'] },
      },
      { id: 'ls-spawn-ok', action: 'processSpawn', decision: 'allow', when: { commands: ['ls'] } },
    ]);
    for (const command of [
      'sudo ls',
      '/usr/bin/sudo ls',
      "bash -c 'timeout 5 sudo ls'",
      'find . -exec sudo ls {} +',
      'ls; sudo ls',
      'sudo $(which ls)',
    ]) {
      const result = decideDocs(doc, request(command));
      expect([result.decision, result.rule], command).toEqual(['deny', 'no-sudo-spawn']);
    }
    expect(decideDocs(doc, request('timeout 5 ls')).decision).toBe('allow');
  });
});

describe('E43 adversarial: the converse — nothing got looser', () => {
  const allowWrappers = policy([
    { id: 'sudo-ok', command: 'sudo', decision: 'allow' },
    { id: 'bash-ok', command: 'bash -c', decision: 'allow' },
    { id: 'timeout-ok', command: 'timeout', decision: 'allow' },
    { id: 'find-ok', command: 'find', decision: 'allow' },
    { id: 'xargs-ok', command: 'xargs', decision: 'allow' },
    { id: 'env-ok', command: 'env', decision: 'allow' },
    { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    { id: 'ask-make', command: 'make', decision: 'prompt' },
  ]);

  it.each([
    ['sudo rm -rf x', 'rm -rf x'],
    ["bash -c 'rm -rf x'", 'rm -rf x'],
    ['timeout 5 rm -rf x', 'rm -rf x'],
    ['find . -exec rm -rf {} \\;', 'rm -rf x'],
    ['echo x | xargs rm', 'rm x'],
    ['env A=1 rm -rf x', 'rm -rf x'],
    ['sudo git push origin main', 'git push origin main'],
    ['sudo make test', 'make test'],
    ['env -S "rm -rf x"', 'rm -rf x'],
  ])(
    'E43: an allow on a wrapper allows nothing it wraps — `%s` decides as `%s`',
    (wrapped, bare) => {
      const w = decideDocs(allowWrappers, request(wrapped));
      const b = decideDocs(allowWrappers, request(bare));
      expect(w.decision, wrapped).not.toBe('allow');
      expect(w.decision).toBe(b.decision);
    },
  );

  // `sudo -s`, `sudo -i`, `su` and `doas -s` start a shell that reads its commands from
  // standard input, as `bash` does, so they are unparseable (a prompt, G14b) like `bash`.
  // They were read as plain commands, so `allow sudo` (or no rule at all) allowed
  // `echo 'rm -rf x' | sudo -s`; the table now says which wrappers start such a shell.
  it('E43/G14b: `echo … | sudo bash` is a prompt (its shell reads stdin)', () => {
    expect(decideDocs(allowWrappers, request("echo 'rm -rf x' | sudo bash")).decision).toBe(
      'prompt',
    );
  });

  it.each([
    "echo 'rm -rf x' | sudo -s",
    "echo 'rm -rf x' | sudo -i",
    "echo 'rm -rf x' | doas -s",
    "echo 'rm -rf x' | su",
    "echo 'rm -rf x' | su -",
  ])(
    'E43/G14b: with `allow sudo|su|doas`, `%s` is not allowed: its shell reads stdin',
    (command) => {
      const doc = policy([
        { id: 'sudo-ok', command: 'sudo', decision: 'allow' },
        { id: 'su-ok', command: 'su', decision: 'allow' },
        { id: 'doas-ok', command: 'doas', decision: 'allow' },
      ]);
      expect(decideDocs(doc, request(command)).decision).not.toBe('allow');
    },
  );

  /** Wrappers with option spellings that neither blur arguments nor read stdin. */
  const CLEAN_WRAPPERS: ((inner: string) => string)[] = [
    (c) => `sudo ${c}`,
    (c) => `sudo -u bob -- ${c}`,
    (c) => `doas ${c}`,
    (c) => `doas -u root ${c}`,
    (c) => `timeout -k 1 5 ${c}`,
    (c) => `timeout --signal=KILL 5 ${c}`,
    (c) => `env -i ${c}`,
    (c) => `env -u X -- ${c}`,
    (c) => `nice -5 ${c}`,
    (c) => `nice --adjustment=5 ${c}`,
    (c) => `stdbuf -oL -eL ${c}`,
    (c) => `stdbuf --output=L ${c}`,
    (c) => `setsid -f ${c}`,
    (c) => `command ${c}`,
    (c) => `exec -a x ${c}`,
    (c) => `flock -w 5 /tmp/l ${c}`,
    (c) => `ionice -c3 ${c}`,
    (c) => `nohup ${c}`,
    (c) => `time -p ${c}`,
    (c) => `bash -c ${shq(c)}`,
    (c) => `sh -ec ${shq(c)}`,
    (c) => `su -c ${shq(c)}`,
    (c) => `su root -c ${shq(c)}`,
    (c) => `flock /tmp/l -c ${shq(c)}`,
    // Not `warden exec -- …`: it joins its words into a new command line (`bash -c`), so
    // the quotes of a script under it are rightly lost.
  ];
  const BARE = [
    'ls',
    'rm -rf build',
    'git push origin main',
    'git push origin dev',
    'cat notes.txt',
    'make test',
  ];

  it('property E43/E25: where no rule names a wrapper, any stack of wrappers changes no decision, facet name or entry', () => {
    const doc = policy([
      ...ALLOWS.filter((r) => r.id !== 'push-ok'),
      { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
      { id: 'ask-make', command: 'make', decision: 'prompt' },
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...CLEAN_WRAPPERS), { maxLength: 5 }),
        fc.constantFrom(...BARE),
        fc.boolean(),
        (stack, command, free) => {
          const line = stack.reduceRight((inner, wrap) => wrap(inner), command);
          const extra = free ? { space: 's' } : {};
          const bare = decideDocs(doc, request(command, extra));
          const wrapped = decideDocs(doc, request(line, extra));
          expect([wrapped.decision, wrapped.rule, wrapped.scope], line).toEqual([
            bare.decision,
            bare.rule,
            bare.scope,
          ]);
          // E25: the facets are named and decided as the bare command's.
          expect(
            wrapped.facets.map((f) => [f.facet, f.decision, f.rule]),
            line,
          ).toEqual(bare.facets.map((f) => [f.facet, f.decision, f.rule]));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('E43 adversarial: property over random stacks with `sudo` somewhere', () => {
  /** Each wrapper of the brief, in several option spellings. */
  const WRAPPERS: ((inner: string) => string)[] = [
    (c) => `doas ${c}`,
    (c) => `doas -u root ${c}`,
    (c) => `su -c ${shq(c)}`,
    (c) => `su root -c ${shq(c)}`,
    (c) => `su - root -c ${shq(c)}`,
    (c) => `timeout 5 ${c}`,
    (c) => `timeout -k 1 5 ${c}`,
    (c) => `timeout --signal=KILL 5 ${c}`,
    (c) => `timeout -sKILL -- 5 ${c}`,
    (c) => `env ${c}`,
    (c) => `env -i ${c}`,
    (c) => `env A=1 ${c}`,
    (c) => `env -u X -- ${c}`,
    (c) => `env -C /tmp ${c}`,
    (c) => `xargs ${c}`,
    (c) => `xargs -n1 ${c}`,
    (c) => `xargs -0 ${c}`,
    (c) => `bash -c ${shq(c)}`,
    (c) => `bash -lc ${shq(c)}`,
    (c) => `sh -c -- ${shq(c)}`,
    (c) => `bash --norc -c ${shq(c)}`,
    (c) => `find . -exec ${c} {} \\;`,
    (c) => `find . -name x -exec ${c} {} +`,
    (c) => `find . -execdir ${c} {} \\;`,
    // watch joins its words and runs them with `sh -c` (the engine reads it so): a script's
    // quotes under it are lost, so the command is given to it as one word — or with `-x`.
    (c) => `watch ${shq(c)}`,
    (c) => `watch -n1 ${shq(c)}`,
    (c) => `watch --interval=1 ${shq(c)}`,
    (c) => `watch -x ${c}`,
    (c) => `flock /tmp/l ${c}`,
    (c) => `flock -w 5 /tmp/l ${c}`,
    (c) => `flock /tmp/l -c ${shq(c)}`,
    (c) => `setsid ${c}`,
    (c) => `setsid -f ${c}`,
    (c) => `setsid --fork ${c}`,
    (c) => `nice ${c}`,
    (c) => `nice -n 5 ${c}`,
    (c) => `nice -5 ${c}`,
    (c) => `nice --adjustment=5 -- ${c}`,
    (c) => `stdbuf -oL ${c}`,
    (c) => `stdbuf -o L -eL ${c}`,
    (c) => `stdbuf --output=L ${c}`,
    (c) => `command ${c}`,
    (c) => `command -p ${c}`,
    (c) => `builtin ${c}`,
    (c) => `exec ${c}`,
    (c) => `exec -a x ${c}`,
    (c) => `exec -c ${c}`,
    (c) => `nohup ${c}`,
    // Not `time`: after a pipe it is not read (`echo x | time -p sudo ls` prompts, tested above).
    (c) => `ionice -c3 ${c}`,
  ];
  const SUDOS: ((inner: string) => string)[] = [
    (c) => `sudo ${c}`,
    (c) => `sudo -u bob ${c}`,
    (c) => `sudo -uroot ${c}`,
    (c) => `sudo --user=root ${c}`,
    (c) => `sudo -E -- ${c}`,
    (c) => `sudo -nE ${c}`,
    (c) => `/usr/bin/sudo ${c}`,
    (c) => `'sudo' ${c}`,
    (c) => `s\\udo ${c}`,
    (c) => `"su"do ${c}`,
  ];
  /** Where the whole line goes: a list, a pipeline, a subshell, a group, a function. */
  const CONTEXTS: ((inner: string) => string)[] = [
    (c) => c,
    (c) => `ls && ${c}`,
    (c) => `ls; ${c}`,
    (c) => `echo x | ${c}`,
    (c) => `( ${c} )`,
    (c) => `{ ${c}; }`,
    (c) => `f() { ${c}; }; f`,
    (c) => `if true; then ${c}; fi`,
  ];
  const COMMANDS = ['ls', 'rm -rf build', 'git push origin main', 'cat notes.txt', 'make test'];

  it('property E43: `sudo` anywhere in a random stack of the wrappers, in any context, is denied by `no-w` (also under actFreely, and by the net)', () => {
    const doc = policy(denyOn('sudo'));
    const net = policy(ALLOWS, { m: { commandNet: ['sudo'] } });
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...WRAPPERS), { maxLength: 6 }),
        fc.nat(6),
        fc.constantFrom(...SUDOS),
        fc.constantFrom(...COMMANDS),
        fc.constantFrom(...CONTEXTS),
        (chain, at, sudo, command, context) => {
          // Two `find -exec` nested share the placeholder `{}`: unreadable, a prompt (E24).
          fc.pre(chain.filter((w) => w('X').startsWith('find ')).length <= 1);
          const stack = [...chain.slice(0, at), sudo, ...chain.slice(at)];
          const line = context(stack.reduceRight((inner, wrap) => wrap(inner), command));
          const plain = decideDocs(doc, request(line));
          const free = decideDocs(doc, request(line, { space: 's' }));
          if (!line.includes('{}')) {
            expect([plain.decision, plain.rule], line).toEqual(['deny', 'no-w']);
            expect([free.decision, free.rule], `${line} (actFreely)`).toEqual(['deny', 'no-w']);
          } else {
            // Under `find -exec`, a script filled in at run time (`find . -exec watch
            // '/usr/bin/sudo ls' {} +`) is raw (E24): a prompt, never an allow (E17c). Note:
            // E23's token escalation then misses a path or quoted spelling of `sudo`, so the
            // prompt is `unparseable`, not `no-w`, and is no deny under actFreely.
            expect(['deny', 'prompt'], line).toContain(plain.decision);
            expect(plain.outcome, line).toBe('deny');
            expect(free.decision, `${line} (actFreely)`).not.toBe('allow');
          }
          // The net never allows; where the unit is raw it may only prompt (as in
          // E43/E14 above, e.g. `s\\udo find . -exec watch -n1 'ls' {} \\;`).
          const netted = decideDocs(net, request(line, { mode: 'm', space: 's' }));
          expect(netted.decision, `${line} (net)`).not.toBe('allow');
        },
      ),
      { numRuns: 400 },
    );
  });
});
