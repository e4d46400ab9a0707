// Argument extractors for the programs the classifier knows (G14c, E26). Each
// reads a simple command's words and returns its classes with what it could
// tell of their arguments.

import { normalizeRef } from '../match/refs.js';
import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext } from './effects.js';
import { effect, joinPath, wordPath, writeEffects } from './effects.js';
import { operandsAndOptions, scanOptions } from './options.js';
import type { ExtractorName, OptionSpec } from './table.js';

export interface Extraction {
  readonly effects: Effect[];
  /** For `cd` and friends: the new working directory (null: unknown); undefined: unchanged. */
  readonly cwd?: string | null;
  /** Set when the command cannot be read with confidence. */
  readonly unparseable?: string;
}

type Extractor = (words: readonly Word[], ctx: ExtractContext) => Extraction;

const NONE: Extraction = { effects: [] };

function pathsOf(operands: readonly Word[], ctx: ExtractContext): string[] | null {
  const paths: string[] = [];
  for (const operand of operands) {
    const path = wordPath(operand, ctx);
    if (path === null) return null;
    paths.push(path);
  }
  return paths;
}

const rm: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, RM_OPTIONS);
  const recursive = seen.some((o) => ['-r', '-R', '--recursive'].includes(o.name));
  const paths = pathsOf(operands, ctx);
  const count = paths === null || recursive ? null : paths.length;
  return { effects: [effect('fileDelete', { paths, count })] };
};

const unlink: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, NO_OPTIONS);
  const paths = pathsOf(operands, ctx);
  return {
    effects: [effect('fileDelete', { paths, count: paths === null ? null : paths.length })],
  };
};

const rmdir: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, RMDIR_OPTIONS);
  const paths = pathsOf(operands, ctx);
  const parents = seen.some((o) => o.name === '-p' || o.name === '--parents');
  return {
    effects: [
      effect('fileDelete', { paths, count: paths === null || parents ? null : paths.length }),
    ],
  };
};

const tee: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, TEE_OPTIONS);
  return { effects: writeEffects(operands, ctx) };
};

/** `cp`, `mv`, `install`: the destination may lie outside the worktree. */
const copy: Extractor = (words, ctx) => {
  const { operands, seen } = operandsAndOptions(words, 1, COPY_OPTIONS);
  const target = seen.find((o) => o.name === '-t' || o.name === '--target-directory');
  if (target !== undefined)
    return { effects: target.value === null ? [] : writeEffects([target.value], ctx) };
  const last = operands[operands.length - 1];
  return { effects: operands.length < 2 || last === undefined ? [] : writeEffects([last], ctx) };
};

/** `touch`, `mkdir`: every operand is written. */
const touch: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, TOUCH_OPTIONS);
  return { effects: writeEffects(operands, ctx) };
};

/** The working directory after changing into `dir` (null: unknown). */
export function changeDir(cwd: string | null, dir: Word | null | undefined): string | null {
  if (dir === null || dir === undefined || !dir.literal) return null;
  const text = dir.value;
  if (text === '' || text === '-' || /^[+-]\d+$/.test(text)) return null;
  if (text.startsWith('/')) return text;
  return cwd === null ? null : joinPath(cwd, text);
}

const cd: Extractor = (words, ctx) => {
  const { operands } = operandsAndOptions(words, 1, CD_OPTIONS);
  return { effects: [], cwd: operands.length === 1 ? changeDir(ctx.cwd, operands[0]) : null };
};

const popd: Extractor = () => ({ effects: [], cwd: null });

const GIT_GLOBAL = {
  flags: [
    '--no-pager',
    '-p',
    '--paginate',
    '-P',
    '--bare',
    '--no-replace-objects',
    '--literal-pathspecs',
    '--glob-pathspecs',
    '--noglob-pathspecs',
    '--icase-pathspecs',
    '--no-optional-locks',
    '--no-lazy-fetch',
    '--no-advice',
    '--html-path',
    '--man-path',
    '--info-path',
    '--version',
    '--help',
    '-h',
  ],
  values: [
    '-C',
    '-c',
    '--git-dir',
    '--work-tree',
    '--namespace',
    '--super-prefix',
    '--config-env',
    '--list-cmds',
  ],
  optionalValues: ['--exec-path'],
};

const PUSH_OPTIONS = {
  flags: [
    '-f',
    '--force',
    '-u',
    '--set-upstream',
    '-n',
    '--dry-run',
    '-q',
    '--quiet',
    '-v',
    '--verbose',
    '--all',
    '--branches',
    '--mirror',
    '--tags',
    '--follow-tags',
    '--no-follow-tags',
    '--delete',
    '-d',
    '--prune',
    '--atomic',
    '--no-atomic',
    '--thin',
    '--no-thin',
    '--porcelain',
    '--progress',
    '--no-progress',
    '--no-verify',
    '--verify',
    '-4',
    '--ipv4',
    '-6',
    '--ipv6',
    '--force-if-includes',
    '--no-force-if-includes',
    '--no-force-with-lease',
    '--no-signed',
    '--no-recurse-submodules',
  ],
  values: ['-o', '--push-option', '--repo', '--receive-pack', '--exec'],
  optionalValues: ['--force-with-lease', '--signed', '--recurse-submodules'],
};

/** A ref name that names a commit rather than a branch: refs unknown (E26). */
function isIndirectRef(ref: string): boolean {
  return ref === 'HEAD' || ref === '@' || /^[0-9a-f]{7,40}$/i.test(ref) || /[~^]|@\{/.test(ref);
}

function pushRefs(operands: readonly Word[], everything: boolean): string[] | null {
  if (everything || operands.length < 2) return null;
  const refs: string[] = [];
  for (const spec of operands.slice(1)) {
    if (!spec.literal) return null;
    const ref = normalizeRef(spec.value);
    if (ref === null || isIndirectRef(ref)) return null;
    refs.push(ref);
  }
  return refs;
}

/** The host a clone or fetch source names, `null` if unknown, `undefined` if it is local. */
function sourceHost(word: Word | undefined): string | null | undefined {
  if (word === undefined || !word.literal) return null;
  const text = word.value;
  const url = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(text);
  if (url !== null) {
    if ((url[1] ?? '').toLowerCase() === 'file') return undefined;
    return url[2] ?? null;
  }
  const scp = /^(?:[^@/]+@)?(\[[^\]]+\]|[^:/]+):/.exec(text);
  if (scp !== null && !text.startsWith('/') && !text.startsWith('.')) return scp[1] ?? null;
  return undefined;
}

const git: Extractor = (words, ctx) => {
  const global = scanOptions(words, 1, GIT_GLOBAL);
  if (global.unknown !== null)
    return { effects: [], unparseable: `unknown git option \`${global.unknown}\`` };
  for (const option of global.seen) {
    if (
      option.name === '-c' &&
      (option.value === null || !option.value.literal || /^alias\./i.test(option.value.value))
    ) {
      return {
        effects: [],
        unparseable: 'git configuration given on the command line can redefine commands',
      };
    }
  }
  let gitCtx = ctx;
  for (const option of global.seen) {
    if (option.name === '-C') gitCtx = { ...gitCtx, cwd: changeDir(gitCtx.cwd, option.value) };
  }
  const sub = words[global.next];
  if (sub === undefined) return NONE;
  if (!sub.literal) return { effects: [], unparseable: 'the git command is not literal' };
  const rest = words.slice(global.next);
  switch (sub.value) {
    case 'push': {
      const { operands, seen } = operandsAndOptions(rest, 1, PUSH_OPTIONS);
      const everything = seen.some((o) =>
        ['--all', '--branches', '--mirror', '--tags'].includes(o.name),
      );
      return { effects: [effect('gitPush', { refs: pushRefs(operands, everything) })] };
    }
    case 'commit':
      return { effects: [effect('gitCommit')] };
    case 'clean': {
      const { operands, seen } = operandsAndOptions(rest, 1, GIT_CLEAN_OPTIONS);
      if (seen.some((o) => o.name === '-n' || o.name === '--dry-run')) return NONE;
      const paths = operands.length === 0 ? null : pathsOf(operands, gitCtx);
      return { effects: [effect('fileDelete', { paths, count: null })] };
    }
    case 'rm': {
      const { operands, seen } = operandsAndOptions(rest, 1, GIT_RM_OPTIONS);
      if (seen.some((o) => ['--cached', '-n', '--dry-run'].includes(o.name))) return NONE;
      const globbed = operands.some((o) => /[*?[]/.test(o.value));
      const paths =
        globbed || seen.some((o) => o.name === '--pathspec-from-file')
          ? null
          : pathsOf(operands, gitCtx);
      const recursive = seen.some((o) => o.name === '-r');
      return {
        effects: [
          effect('fileDelete', { paths, count: paths === null || recursive ? null : paths.length }),
        ],
      };
    }
    case 'clone':
    case 'fetch':
    case 'pull':
    case 'ls-remote': {
      const { operands, seen } = operandsAndOptions(rest, 1, GIT_REMOTE_OPTIONS);
      if (seen.some((o) => o.name === '--all' || o.name === '--multiple')) {
        return { effects: [effect('networkEgress', { hosts: null })] };
      }
      const source = operands[0];
      let host = sourceHost(source);
      if (host === undefined) {
        // A local source: a clone from it reaches no network; a fetch names a remote.
        if (sub.value === 'clone' && source !== undefined) return NONE;
        host = null;
      }
      return { effects: [effect('networkEgress', { hosts: host === null ? null : [host] })] };
    }
    default:
      return NONE;
  }
};

const gh: Extractor = (words) => {
  const { operands } = operandsAndOptions(words, 1, GH_OPTIONS);
  const [group, action] = operands;
  if (group === undefined || !group.literal) return NONE;
  if (group.value !== 'pr') return NONE;
  if (action === undefined) return NONE;
  if (!action.literal) return { effects: [], unparseable: 'the gh command is not literal' };
  if (action.value === 'create' || action.value === 'new') return { effects: [effect('prCreate')] };
  if (action.value === 'merge' || action.value === 'review')
    return { effects: [effect('prPublish')] };
  return NONE;
};

const CURL_VALUES = [
  '-A',
  '--user-agent',
  '-b',
  '--cookie',
  '-c',
  '--cookie-jar',
  '-C',
  '--continue-at',
  '-d',
  '--data',
  '--data-ascii',
  '--data-binary',
  '--data-raw',
  '--data-urlencode',
  '-D',
  '--dump-header',
  '-e',
  '--referer',
  '-E',
  '--cert',
  '--cert-type',
  '--key',
  '--key-type',
  '--pass',
  '--cacert',
  '--capath',
  '-F',
  '--form',
  '--form-string',
  '-H',
  '--header',
  '-m',
  '--max-time',
  '--connect-timeout',
  '-o',
  '--output',
  '-r',
  '--range',
  '-T',
  '--upload-file',
  '-u',
  '--user',
  '-U',
  '--proxy-user',
  '-w',
  '--write-out',
  '-X',
  '--request',
  '-Y',
  '--speed-limit',
  '-y',
  '--speed-time',
  '-z',
  '--time-cond',
  '--retry',
  '--retry-delay',
  '--retry-max-time',
  '--resolve',
  '--connect-to',
  '--interface',
  '--limit-rate',
  '--max-filesize',
  '--max-redirs',
  '--output-dir',
  '--oauth2-bearer',
  '--trace',
  '--trace-ascii',
  '--unix-socket',
  '--aws-sigv4',
  '-Q',
  '--quote',
  '--json',
  '--variable',
  '--expand-url',
];

const curl: Extractor = (words) => {
  const { operands, seen } = operandsAndOptions(words, 1, CURL_OPTIONS);
  if (seen.some((o) => o.name === '-K' || o.name === '--config')) {
    return { effects: [effect('networkEgress', { hosts: null })] };
  }
  const sources = [
    ...operands,
    ...seen
      .filter((o) => ['--url', '-x', '--proxy', '--expand-url'].includes(o.name))
      .map((o) => o.value),
  ];
  return { effects: [effect('networkEgress', { hosts: hostsOf(sources) })] };
};

const wget: Extractor = (words) => {
  const { operands, seen } = operandsAndOptions(words, 1, WGET_OPTIONS);
  if (seen.some((o) => ['-i', '--input-file', '-e', '--execute'].includes(o.name))) {
    return { effects: [effect('networkEgress', { hosts: null })] };
  }
  return { effects: [effect('networkEgress', { hosts: hostsOf(operands) })] };
};

/** Hosts named by URL operands; any word that is not literal, or a URL pattern, makes them unknown. */
function hostsOf(sources: readonly (Word | null)[]): string[] | null {
  if (sources.length === 0) return null;
  const hosts: string[] = [];
  for (const source of sources) {
    if (source === null || !source.literal || /[{}[\]]/.test(source.value)) return null;
    hosts.push(source.value);
  }
  return hosts;
}

// Option tables, one per program (kept as constants so their lookups are built once).
const RM_OPTIONS: OptionSpec = {
  flags: [
    '-f',
    '-i',
    '-I',
    '-r',
    '-R',
    '-d',
    '-v',
    '--force',
    '--recursive',
    '--dir',
    '--verbose',
    '--one-file-system',
    '--no-preserve-root',
    '--preserve-root',
    '--interactive',
  ],
  optionalValues: ['--interactive', '--preserve-root'],
};
const NO_OPTIONS: OptionSpec = {};
const RMDIR_OPTIONS: OptionSpec = {
  flags: ['-p', '--parents', '-v', '--verbose', '--ignore-fail-on-non-empty'],
};
const TEE_OPTIONS: OptionSpec = {
  flags: ['-a', '--append', '-i', '--ignore-interrupts', '-p'],
  optionalValues: ['--output-error'],
};
const COPY_OPTIONS: OptionSpec = {
  values: [
    '-t',
    '--target-directory',
    '-S',
    '--suffix',
    '-m',
    '--mode',
    '-o',
    '--owner',
    '-g',
    '--group',
  ],
  optionalValues: ['--backup', '--preserve', '--no-preserve', '--reflink', '--sparse', '--update'],
};
const TOUCH_OPTIONS: OptionSpec = {
  values: ['-d', '--date', '-r', '--reference', '-t', '-m', '--mode', '--context'],
  optionalValues: ['--time'],
};
const CD_OPTIONS: OptionSpec = { flags: ['-L', '-P', '-e', '-@'] };
const GIT_CLEAN_OPTIONS: OptionSpec = {
  flags: [
    '-d',
    '-f',
    '--force',
    '-i',
    '--interactive',
    '-n',
    '--dry-run',
    '-q',
    '--quiet',
    '-x',
    '-X',
  ],
  values: ['-e', '--exclude'],
};
const GIT_RM_OPTIONS: OptionSpec = {
  flags: [
    '-f',
    '--force',
    '-n',
    '--dry-run',
    '-r',
    '--cached',
    '--ignore-unmatch',
    '-q',
    '--quiet',
    '--sparse',
  ],
  values: ['--pathspec-from-file'],
  optionalValues: ['--pathspec-file-nul'],
};
const GIT_REMOTE_OPTIONS: OptionSpec = {
  values: [
    '-b',
    '--branch',
    '-o',
    '--origin',
    '-u',
    '--upload-pack',
    '--reference',
    '--reference-if-able',
    '--separate-git-dir',
    '--depth',
    '--shallow-since',
    '--shallow-exclude',
    '-c',
    '--config',
    '--server-option',
    '-j',
    '--jobs',
    '--filter',
    '--template',
    '--bundle-uri',
    '--ref-format',
    '--deepen',
    '--negotiation-tip',
    '--refmap',
    '-X',
    '--strategy-option',
    '-s',
    '--strategy',
  ],
};
const GH_OPTIONS: OptionSpec = {
  values: ['-R', '--repo', '--hostname'],
};
const CURL_OPTIONS: OptionSpec = {
  values: [...CURL_VALUES, '-x', '--proxy', '--url', '-K', '--config'],
};
const WGET_OPTIONS: OptionSpec = {
  values: [
    '-O',
    '--output-document',
    '-o',
    '--output-file',
    '-a',
    '--append-output',
    '-P',
    '--directory-prefix',
    '-t',
    '--tries',
    '-T',
    '--timeout',
    '-U',
    '--user-agent',
    '--header',
    '--post-data',
    '--post-file',
    '--user',
    '--password',
    '-e',
    '--execute',
    '-l',
    '--level',
    '-w',
    '--wait',
    '-Q',
    '--quota',
    '--limit-rate',
    '-A',
    '--accept',
    '-R',
    '--reject',
    '-D',
    '--domains',
    '-B',
    '--base',
    '--method',
    '--body-data',
    '--body-file',
  ],
  optionalValues: [],
};

export const EXTRACTOR_FUNCTIONS: Readonly<Record<ExtractorName, Extractor>> = {
  git,
  rm,
  unlink,
  rmdir,
  tee,
  curl,
  wget,
  gh,
  copy,
  touch,
  cd,
  popd,
};

/** What each extractor reads, for the table the product shows. */
export const EXTRACTOR_DESCRIPTIONS: Readonly<Record<ExtractorName, string>> = {
  git: '`push` → gitPush with refs; `commit` → gitCommit; `clean`, `rm` → fileDelete with paths; `clone`, `fetch`, `pull`, `ls-remote` → networkEgress with hosts',
  rm: 'fileDelete with paths and count (count unknown when recursive)',
  unlink: 'fileDelete with paths and count',
  rmdir: 'fileDelete with paths and count',
  tee: 'fileWriteOutsideWorktree for files outside the worktree',
  curl: 'networkEgress with hosts of its URLs and proxy',
  wget: 'networkEgress with hosts of its URLs',
  gh: '`pr create` → prCreate; `pr merge`, `pr review` → prPublish',
  copy: 'fileWriteOutsideWorktree when the destination lies outside the worktree',
  touch: 'fileWriteOutsideWorktree for operands outside the worktree',
  cd: 'changes the working directory that later relative paths start from',
  popd: 'makes the working directory unknown',
};
