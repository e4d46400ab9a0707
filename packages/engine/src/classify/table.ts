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
  /** Words as in the mode's net (E35): plain words a prefix, options anywhere. */
  readonly command: string;
  readonly classes: readonly ActionClass[];
}

export interface ClassifierTable {
  /** Folders whose programs inherit an allow written for the bare name (E27). */
  readonly systemPaths: readonly string[];
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
    zsh: SHELL,
    dash: SHELL,
    ksh: SHELL,
  },
  programs: {
    git: 'git',
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
    ...['npm install', 'npm i', 'npm add', 'npm ci'].map(packageInstall),
    ...['pnpm install', 'pnpm i', 'pnpm add'].map(packageInstall),
    ...['yarn install', 'yarn add'].map(packageInstall),
    ...['pip install', 'pip3 install', 'python -m pip install', 'python3 -m pip install'].map(
      packageInstall,
    ),
    ...['brew install', 'apt-get install', 'apt install'].map(packageInstall),
  ],
};

function packageInstall(command: string): PrefixEntry {
  return { command, classes: ['packageInstall'] };
}
