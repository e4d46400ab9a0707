// The command classifier's table (G14c, E27), as data: which programs wrap
// other commands and with which options, which programs have an argument
// extractor, and which command prefixes declare which classes. It is shown by
// `warden classifier` and can be extended by configuration.

import type { ActionClass } from '../model/classes.js';

export interface OptionSpec {
  /** Options without a value. */
  readonly flags?: readonly string[];
  /** Options that take a value: `-u x`, `-ux`, `--user x`, `--user=x`. */
  readonly values?: readonly string[];
  /** Options whose value is only ever attached: `-i`, `-iR`, `--replace=R`. */
  readonly optionalValues?: readonly string[];
}

export type WrapperKind = 'exec' | 'shell' | 'xargs' | 'find' | 'watch' | 'flock' | 'su' | 'remote';

export interface WrapperEntry extends OptionSpec {
  readonly kind: WrapperKind;
  /** Positional arguments before the wrapped command (timeout's duration). */
  readonly positionals?: number;
  /** Options after which nothing is executed (`command -v`). */
  readonly lookup?: readonly string[];
  /** Options whose value (or, for shells, the first operand) is a shell script. */
  readonly script?: readonly string[];
  /** Options whose value becomes the working directory. */
  readonly chdir?: readonly string[];
  /** Options that make the command unreadable (`env -S`). */
  readonly unsupported?: readonly string[];
  /** `nice -10`: a dash followed by digits is a flag. */
  readonly numericFlags?: boolean;
  readonly describe: string;
}

export const EXTRACTORS = [
  'git',
  'rm',
  'unlink',
  'rmdir',
  'tee',
  'curl',
  'wget',
  'gh',
  'copy',
  'touch',
  'cd',
  'popd',
] as const;
export type ExtractorName = (typeof EXTRACTORS)[number];

export interface PrefixEntry {
  /**
   * The program, then words that must follow it in order among its plain
   * words (options and their values may stand between); option words of the
   * entry must occur anywhere.
   */
  readonly command: string;
  readonly classes: readonly ActionClass[];
}

export interface ClassifierTable {
  /** Folders whose programs inherit an allow written for the bare name (E27). */
  readonly systemPaths: readonly string[];
  /** Builtins that run text as code (`eval`, `trap`, `alias`…): a command using one is unparseable. */
  readonly evaluators: readonly string[];
  /** Variables whose value the shell later runs or uses to find commands: assigning one is unparseable. */
  readonly dangerousVariables: readonly string[];
  /**
   * Builtins that evaluate arithmetic in their arguments, where an array
   * subscript can run `$(…)`: a quoted `$(` or backtick in their arguments is unparseable.
   */
  readonly arithmeticBuiltins: readonly string[];
  readonly wrappers: Readonly<Record<string, WrapperEntry>>;
  /** Program basename → the extractor that reads its arguments. */
  readonly programs: Readonly<Record<string, ExtractorName>>;
  readonly commands: readonly PrefixEntry[];
}

const SHELL: WrapperEntry = {
  kind: 'shell',
  flags: [
    '-a',
    '-b',
    '-e',
    '-f',
    '-h',
    '-i',
    '-k',
    '-l',
    '-m',
    '-n',
    '-p',
    '-r',
    '-t',
    '-u',
    '-v',
    '-x',
    '-B',
    '-C',
    '-E',
    '-H',
    '-P',
    '-T',
    '-c',
    '-s',
    '--login',
    '--noprofile',
    '--norc',
    '--posix',
    '--restricted',
    '--verbose',
    '--noediting',
  ],
  values: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'],
  script: ['-c'],
  describe: 'runs the script given with `-c`',
};

export const DEFAULT_TABLE: ClassifierTable = {
  systemPaths: ['/bin', '/usr/bin', '/sbin', '/usr/sbin', '/usr/local/bin'],
  evaluators: [
    'eval',
    'alias',
    'trap',
    'hash',
    'enable',
    'bind',
    'complete',
    'compgen',
    'fc',
    'coproc',
  ],
  dangerousVariables: [
    'BASH_CMDS',
    'BASH_ALIASES',
    'BASH_ENV',
    'ENV',
    'PROMPT_COMMAND',
    'PS4',
    'SHELLOPTS',
    'BASHOPTS',
    'BASH_XTRACEFD',
  ],
  arithmeticBuiltins: [
    'let',
    'declare',
    'typeset',
    'local',
    'export',
    'readonly',
    'printf',
    'read',
    'test',
    '[',
    '[[',
    'shift',
    'return',
    'exit',
    'ulimit',
    'wait',
  ],
  wrappers: {
    timeout: {
      kind: 'exec',
      flags: ['--preserve-status', '--foreground', '-v', '--verbose'],
      values: ['-s', '--signal', '-k', '--kill-after'],
      positionals: 1,
      describe: 'runs a command with a time limit',
    },
    time: {
      kind: 'exec',
      flags: ['-p', '-v', '--verbose', '--portability', '-a', '--append', '-q', '--quiet'],
      values: ['-f', '--format', '-o', '--output'],
      describe: 'times a command',
    },
    nice: {
      kind: 'exec',
      values: ['-n', '--adjustment'],
      numericFlags: true,
      describe: 'runs a command at another priority',
    },
    nohup: { kind: 'exec', describe: 'runs a command immune to hangups' },
    stdbuf: {
      kind: 'exec',
      values: ['-i', '-o', '-e', '--input', '--output', '--error'],
      describe: 'runs a command with other stream buffering',
    },
    command: {
      kind: 'exec',
      flags: ['-p'],
      lookup: ['-v', '-V'],
      describe: 'runs a command, bypassing shell functions',
    },
    builtin: { kind: 'exec', describe: 'runs a shell builtin' },
    exec: {
      kind: 'exec',
      flags: ['-c', '-l'],
      values: ['-a'],
      describe: 'replaces the shell with a command',
    },
    env: {
      kind: 'exec',
      flags: ['-', '-i', '--ignore-environment', '-0', '--null', '-v', '--debug'],
      values: [
        '-u',
        '--unset',
        '-C',
        '--chdir',
        '--default-signal',
        '--ignore-signal',
        '--block-signal',
      ],
      chdir: ['-C', '--chdir'],
      unsupported: ['-S', '--split-string'],
      describe: 'runs a command in a changed environment',
    },
    sudo: {
      kind: 'exec',
      flags: [
        '-A',
        '-b',
        '-E',
        '-H',
        '-n',
        '-P',
        '-S',
        '-k',
        '-K',
        '-i',
        '-s',
        '--askpass',
        '--background',
        '--preserve-env',
        '--set-home',
        '--non-interactive',
        '--stdin',
        '--login',
        '--shell',
        '--reset-timestamp',
        '--remove-timestamp',
      ],
      values: [
        '-u',
        '--user',
        '-g',
        '--group',
        '-C',
        '--close-from',
        '-D',
        '--chdir',
        '-h',
        '--host',
        '-p',
        '--prompt',
        '-r',
        '--role',
        '-t',
        '--type',
        '-T',
        '--command-timeout',
        '-U',
        '--other-user',
      ],
      optionalValues: ['--preserve-env'],
      chdir: ['-D', '--chdir'],
      lookup: ['-l', '--list', '-v', '--validate', '-V', '--version'],
      unsupported: ['-e', '--edit'],
      describe: 'runs a command as another user',
    },
    doas: {
      kind: 'exec',
      flags: ['-n', '-s'],
      values: ['-u', '-a'],
      lookup: ['-C', '-L'],
      describe: 'runs a command as another user',
    },
    setsid: {
      kind: 'exec',
      flags: ['-c', '--ctty', '-f', '--fork', '-w', '--wait'],
      describe: 'runs a command in a new session',
    },
    ionice: {
      kind: 'exec',
      flags: ['-t', '--ignore'],
      values: ['-c', '--class', '-n', '--classdata'],
      lookup: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'],
      describe: 'runs a command at another IO priority',
    },
    xargs: {
      kind: 'xargs',
      flags: [
        '-0',
        '--null',
        '-r',
        '--no-run-if-empty',
        '-t',
        '--verbose',
        '-p',
        '--interactive',
        '-x',
        '--exit',
        '-o',
        '--open-tty',
      ],
      values: [
        '-a',
        '--arg-file',
        '-d',
        '--delimiter',
        '-E',
        '-I',
        '-L',
        '-n',
        '--max-args',
        '-P',
        '--max-procs',
        '-s',
        '--max-chars',
        '--process-slot-var',
      ],
      optionalValues: ['-e', '-i', '-l', '--eof', '--replace', '--max-lines'],
      describe: 'runs a command with arguments read from input (paths and counts unknown)',
    },
    find: {
      kind: 'find',
      describe:
        'runs the command of `-exec`, `-execdir`, `-ok` and `-okdir` (paths unknown); `-delete` deletes',
    },
    watch: {
      kind: 'watch',
      flags: [
        '-b',
        '--beep',
        '-c',
        '--color',
        '-C',
        '--no-color',
        '-e',
        '--errexit',
        '-g',
        '--chgexit',
        '-t',
        '--no-title',
        '-w',
        '--no-wrap',
        '-x',
        '--exec',
        '-p',
        '--precise',
        '-r',
        '--no-rerun',
        '-f',
        '--follow',
        '--differences',
      ],
      values: ['-n', '--interval', '-q', '--equexit'],
      optionalValues: ['-d'],
      describe: 'runs a command repeatedly (through `sh -c` unless `-x`)',
    },
    flock: {
      kind: 'flock',
      flags: [
        '-s',
        '--shared',
        '-x',
        '-e',
        '--exclusive',
        '-u',
        '--unlock',
        '-n',
        '--nb',
        '--nonblock',
        '-o',
        '--close',
        '-F',
        '--no-fork',
        '--verbose',
      ],
      values: ['-w', '--wait', '--timeout', '-E', '--conflict-exit-code', '-c', '--command'],
      script: ['-c', '--command'],
      positionals: 1,
      describe: 'runs a command holding a lock',
    },
    su: {
      kind: 'su',
      flags: ['-', '-l', '--login', '-m', '-p', '--preserve-environment', '-P', '--pty', '-f'],
      values: [
        '-s',
        '--shell',
        '-g',
        '--group',
        '-G',
        '--supp-group',
        '-w',
        '--whitelist-environment',
        '-c',
        '--command',
        '--session-command',
      ],
      script: ['-c', '--command', '--session-command'],
      describe: 'runs the script given with `-c` as another user',
    },
    ssh: {
      kind: 'remote',
      flags: [
        '-4',
        '-6',
        '-A',
        '-a',
        '-C',
        '-f',
        '-G',
        '-g',
        '-K',
        '-k',
        '-M',
        '-N',
        '-n',
        '-q',
        '-s',
        '-T',
        '-t',
        '-V',
        '-v',
        '-X',
        '-x',
        '-Y',
        '-y',
      ],
      values: [
        '-B',
        '-b',
        '-c',
        '-D',
        '-E',
        '-e',
        '-F',
        '-I',
        '-i',
        '-J',
        '-L',
        '-l',
        '-m',
        '-O',
        '-o',
        '-p',
        '-Q',
        '-R',
        '-S',
        '-W',
        '-w',
      ],
      describe: 'a command run on another host cannot be read: unparseable',
    },
    bash: SHELL,
    sh: SHELL,
    ash: SHELL,
    busybox: { kind: 'exec', describe: 'runs one of its built-in programs' },
    chroot: {
      kind: 'exec',
      flags: ['--skip-chdir'],
      values: ['--userspec', '--groups'],
      positionals: 1,
      describe: 'runs a command under another root folder',
    },
    script: {
      kind: 'su',
      flags: ['-a', '--append', '-e', '--return', '-f', '--flush', '-q', '--quiet', '-E', '--echo'],
      values: [
        '-c',
        '--command',
        '-t',
        '--timing',
        '-T',
        '--log-timing',
        '-I',
        '--log-in',
        '-O',
        '--log-out',
        '-B',
        '--log-io',
        '-m',
        '--logging-format',
        '-o',
        '--output-limit',
      ],
      script: ['-c', '--command'],
      describe: 'runs the script given with `-c` in a recorded terminal',
    },
    zsh: SHELL,
    dash: SHELL,
    ksh: SHELL,
  },
  programs: {
    git: 'git',
    ...Object.fromEntries(
      [
        'push',
        'commit',
        'clean',
        'rm',
        'clone',
        'fetch',
        'pull',
        'ls-remote',
        'rebase',
        'submodule',
        'bisect',
        'config',
        'filter-branch',
      ].map((sub) => [`git-${sub}`, 'git' as const]),
    ),
    rm: 'rm',
    unlink: 'unlink',
    rmdir: 'rmdir',
    tee: 'tee',
    curl: 'curl',
    wget: 'wget',
    gh: 'gh',
    cp: 'copy',
    mv: 'copy',
    install: 'copy',
    touch: 'touch',
    mkdir: 'touch',
    cd: 'cd',
    pushd: 'cd',
    popd: 'popd',
  },
  commands: [
    // npm's own spellings of install, as its command table has them.
    ...[
      'install',
      'i',
      'in',
      'ins',
      'inst',
      'insta',
      'instal',
      'isnt',
      'isnta',
      'isntal',
      'isntall',
      'add',
      'ci',
      'install-test',
      'it',
      'install-ci-test',
      'cit',
    ]
      .map((verb) => `npm ${verb}`)
      .map(packageInstall),
    ...['pnpm install', 'pnpm i', 'pnpm add'].map(packageInstall),
    ...['yarn install', 'yarn add', 'bun install', 'bun add', 'bun i'].map(packageInstall),
    ...[
      'pip install',
      'pip3 install',
      'python -m pip install',
      'python3 -m pip install',
      'python -mpip install',
      'python3 -mpip install',
      'uv pip install',
      'uv add',
      'pipx install',
      'poetry add',
    ].map(packageInstall),
    ...['gem install', 'cargo install', 'cargo add', 'go install', 'go get'].map(packageInstall),
    ...['brew install', 'apt-get install', 'apt install'].map(packageInstall),
  ],
};

function packageInstall(command: string): PrefixEntry {
  return { command, classes: ['packageInstall'] };
}
