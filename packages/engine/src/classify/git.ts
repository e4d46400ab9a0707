// Reading git command lines (G14c, E11, E26): `push` with its refs, `commit`,
// deletions by `clean` and `rm`, network access by `clone`, `fetch`, `pull`.
// What lets git run other commands (configuration given on the command line,
// `rebase -x`, `submodule foreach`, …) cannot be read: it is unparseable.

import { normalizeRef } from '../match/refs.js';
import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext } from './effects.js';
import { blurArgs, changeDir, effect, pathsOf, writeEffects } from './effects.js';
import { operandsAndOptions, scanOptions } from './options.js';
import type { Extraction } from './programs.js';
import type { OptionSpec } from './table.js';

const NONE: Extraction = { effects: [] };

const GLOBAL: OptionSpec = {
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

/** Settings that make git run a command, or rename commands, hosts or hooks: unparseable. */
const RUNNING_CONFIG =
  /^(alias\.|core\.(fsmonitor|sshcommand|pager|editor|hookspath|askpass|gitproxy|alternaterefscommand)=|sequence\.editor=|diff\.|difftool\.|merge\.[^.=]+\.driver=|mergetool\.|filter\.|credential\.|gpg\.|pager\.|https?\.([^=]*\.)?proxy|remote\.[^=]+\.(proxy|uploadpack|receivepack|vcs)=|uploadpack\.|receive\.|include\.|includeif\.|url\.|submodule\.|instaweb\.|sendemail\.|web\.|browser\.|man\.|protocol\.)/i;

/** Settings that only shape output or identity: they change nothing this reader extracts. */
const SAFE_CONFIG =
  /^(user\.[a-z]+|color\..+|advice\..+|core\.(quotepath|autocrlf|safecrlf|filemode|ignorecase)|commit\.gpgsign|tag\.gpgsign|init\.defaultbranch|pull\.(rebase|ff)|merge\.ff|fetch\.prune|safe\.directory|protocol\.version|http\.sslverify|log\..+|column\..+|i18n\..+)=/i;

/** Environment variables that make git run a command, or read configuration it is given. */
const RUNS_COMMANDS =
  /^(GIT_CONFIG.*|GIT_SSH|GIT_SSH_COMMAND|GIT_ASKPASS|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_PAGER|GIT_EXTERNAL_DIFF|GIT_PROXY_COMMAND|GIT_EXEC_PATH|GIT_TEMPLATE_DIR)$/;

const PUSH: OptionSpec = {
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

const CLEAN: OptionSpec = {
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

const RM: OptionSpec = {
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

const REMOTE: OptionSpec = {
  flags: [
    '--all',
    '--multiple',
    '-q',
    '--quiet',
    '-v',
    '--verbose',
    '--bare',
    '--mirror',
    '--recursive',
    '--recurse-submodules',
  ],
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

/** A ref name that names a commit, or several refs, rather than one branch: refs unknown (E26). */
function isIndirectRef(ref: string): boolean {
  return ref === 'HEAD' || ref === '@' || /^[0-9a-f]{7,40}$/i.test(ref) || /[~^*?[]|@\{/.test(ref);
}

/** The ref a push destination names, as git completes it (`heads/x` is `x`, `tags/v1` is `refs/tags/v1`). */
function pushedRef(spec: string): string | null {
  const ref = normalizeRef(spec);
  if (ref === null || isIndirectRef(ref)) return null;
  if (ref.startsWith('heads/')) return ref.slice('heads/'.length) || null;
  if (ref.startsWith('tags/')) return `refs/${ref}`;
  return ref;
}

function pushRefs(operands: readonly Word[], everything: boolean): string[] | null {
  if (everything || operands.length < 2) return null;
  const refs: string[] = [];
  const specs = operands.slice(1);
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as Word;
    if (!spec.literal) return null;
    if (spec.value === 'tag') {
      // `git push origin tag v1` pushes refs/tags/v1.
      const name = specs[++i];
      if (name === undefined || !name.literal) return null;
      refs.push(`refs/tags/${name.value}`);
      continue;
    }
    const ref = pushedRef(spec.value);
    if (ref === null) return null;
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

function unparseable(reason: string): Extraction {
  return { effects: [], unparseable: reason };
}

/** `git …`, and `git-push …` and friends, which are the same commands. */
export function git(words: readonly Word[], ctx: ExtractContext): Extraction {
  for (const name of ctx.assigned) {
    if (RUNS_COMMANDS.test(name)) return unparseable(`\`${name}\` can make git run other commands`);
  }
  const program = (words[0] as Word).value;
  const dashed = /(?:^|\/)git-([a-z-]+)$/.exec(program);
  if (dashed !== null) return subcommand(dashed[1] as string, words, ctx, false);
  const global = scanOptions(words, 1, GLOBAL);
  if (global.unknown !== null) return unparseable(`unknown git option \`${global.unknown}\``);
  let elsewhere = ctx.assigned.has('GIT_WORK_TREE') || ctx.assigned.has('GIT_DIR');
  // A setting outside the safe ones may change which refs, paths or hosts the command touches.
  let configured = false;
  let gitCtx = ctx;
  for (const option of global.seen) {
    const value = option.value;
    switch (option.name) {
      case '-c':
        if (value === null || !value.literal || RUNNING_CONFIG.test(value.value)) {
          return unparseable('this git setting can make git run other commands');
        }
        if (!SAFE_CONFIG.test(value.value)) configured = true;
        break;
      case '--config-env':
        return unparseable('`--config-env` configures git from the environment');
      case '--exec-path':
        if (value !== null) return unparseable('`--exec-path` changes which programs git runs');
        break;
      case '--work-tree':
      case '--git-dir':
        elsewhere = true;
        break;
      case '-C':
        gitCtx = { ...gitCtx, cwd: changeDir(gitCtx.cwd, value) };
        break;
      default:
        break;
    }
  }
  const sub = words[global.next];
  if (sub === undefined) return NONE;
  if (!sub.literal) return unparseable('the git command is not literal');
  const extraction = subcommand(sub.value, words.slice(global.next), gitCtx, elsewhere);
  return configured ? { ...extraction, effects: extraction.effects.map(blurArgs) } : extraction;
}

/** One git subcommand; `rest[0]` is the subcommand word. `elsewhere`: the work tree is not the working directory. */
function subcommand(
  name: string,
  rest: readonly Word[],
  ctx: ExtractContext,
  elsewhere: boolean,
): Extraction {
  switch (name) {
    case 'push': {
      const { operands, seen } = operandsAndOptions(rest, 1, PUSH);
      const everything = seen.some((o) =>
        ['--all', '--branches', '--mirror', '--tags'].includes(o.name),
      );
      return { effects: [effect('gitPush', { refs: pushRefs(operands, everything) })] };
    }
    case 'commit':
      return { effects: [effect('gitCommit')] };
    case 'clean': {
      const { operands, seen } = operandsAndOptions(rest, 1, CLEAN);
      if (seen.some((o) => o.name === '-n' || o.name === '--dry-run')) return NONE;
      const paths = operands.length === 0 || elsewhere ? null : pathsOf(operands, ctx);
      return { effects: [effect('fileDelete', { paths, count: null })] };
    }
    case 'rm': {
      const { operands, seen } = operandsAndOptions(rest, 1, RM);
      if (seen.some((o) => ['--cached', '-n', '--dry-run'].includes(o.name))) return NONE;
      const unknowable =
        elsewhere ||
        operands.some((o) => /[*?[]/.test(o.value)) ||
        seen.some((o) => o.name === '--pathspec-from-file');
      const paths = unknowable ? null : pathsOf(operands, ctx);
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
    case 'ls-remote':
      return remote(name, rest, ctx);
    case 'rebase':
      return rest.some((w) => /^(-x|--exec(=.*)?|-i|--interactive)$/.test(w.value))
        ? unparseable('`git rebase` can run commands of its own')
        : NONE;
    case 'submodule':
      return rest.some((w) => w.value === 'foreach')
        ? unparseable('`git submodule foreach` runs commands of its own')
        : NONE;
    case 'bisect':
      return rest.some((w) => w.value === 'run')
        ? unparseable('`git bisect run` runs commands of its own')
        : NONE;
    case 'filter-branch':
    case 'filter-repo':
    case 'difftool':
    case 'mergetool':
      return unparseable(`\`git ${name}\` runs commands of its own`);
    case 'config':
      return rest.some((w, i) => i > 0 && /^(alias|core|include|includeif)\./i.test(w.value))
        ? unparseable('`git config` can redefine what git commands run')
        : NONE;
    default:
      return NONE;
  }
}

function remote(name: string, rest: readonly Word[], ctx: ExtractContext): Extraction {
  const { operands, seen } = operandsAndOptions(rest, 1, REMOTE);
  const effects: Effect[] = [];
  if (name === 'clone' && operands[1] !== undefined)
    effects.push(...writeEffects([operands[1]], ctx));
  if (seen.some((o) => o.name === '--all' || o.name === '--multiple')) {
    return { effects: [effect('networkEgress', { hosts: null }), ...effects] };
  }
  const source = operands[0];
  let host = sourceHost(source);
  if (host === undefined) {
    // A local source: a clone from it reaches no network; a fetch names a remote.
    if (name === 'clone' && source !== undefined) return { effects };
    host = null;
  }
  return {
    effects: [effect('networkEgress', { hosts: host === null ? null : [host] }), ...effects],
  };
}
