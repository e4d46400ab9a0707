// Reading git command lines (G14c, E11, E26, E42): every way to push (`push`,
// `send-pack`, `http-push`, `subtree push`, `svn dcommit`) with its refs,
// `commit`, deletions by `clean` and `rm`, network access by `clone`, `fetch`,
// `pull`, `ls-remote`, `remote add`, `submodule`, `archive --remote`. What lets
// git run other commands (settings and environment variables that name a
// program, `rebase -x`, `grep -O`, `--upload-pack`, …) cannot be read: it is
// unparseable, and what the command certainly does still counts (E42).

import { normalizeRef } from '../match/refs.js';
import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext, KeyValues, ListKey } from './effects.js';
import {
  blurArgs,
  changeDir,
  effect,
  harmlessProgramSetting,
  openArgs,
  pathsOf,
  writeEffects,
} from './effects.js';
import { proxyEffects, remoteHost } from './network.js';
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

/**
 * What a setting given on the command line (`-c k=v`, `--config k=v`) or an
 * environment variable does to what this reader extracts. Matched on the
 * lowercased key; the first matching entry counts.
 */
interface SettingEffect {
  /** The setting names a program git may run: the command is unparseable. */
  readonly runs?: boolean;
  /** Keys whose values the setting may change: no longer certain (E42). */
  readonly drops?: readonly ListKey[] | 'all';
  /** The setting names a proxy: its host is reached too. */
  readonly proxy?: boolean;
}

const RUNS: SettingEffect = { runs: true };
const HOSTS_ELSEWHERE: SettingEffect = { runs: true, drops: ['hosts'] };
const EVERYTHING: SettingEffect = { runs: true, drops: 'all' };

/** Settings, by key pattern (lowercased). Unlisted keys that are not harmless leave the values open. */
export const GIT_SETTINGS: readonly (readonly [RegExp, SettingEffect])[] = [
  // Configuration read from elsewhere can say anything.
  [/^(include|includeif)\./, EVERYTHING],
  // Programs git runs.
  [
    /^core\.(pager|editor|fsmonitor|hookspath|askpass|alternaterefscommand|attributesfile|worktree)$/,
    { runs: true, drops: ['paths'] },
  ],
  [/^core\.(sshcommand|gitproxy)$/, HOSTS_ELSEWHERE],
  [/^ssh\./, HOSTS_ELSEWHERE],
  [/^alias\./, RUNS],
  [/^sequence\.editor$/, RUNS],
  [
    /^(diff|difftool|mergetool|filter|credential|gpg|pager|sendemail|instaweb|web|browser|man|tar|interactive|uploadpack|receive|trace2)\./,
    RUNS,
  ],
  [/^merge\.[^.]+\.driver$/, RUNS],
  [/^init\.templatedir$/, RUNS],
  [/^submodule\./, EVERYTHING],
  // Hosts and refs named elsewhere.
  [/^protocol\.[^.]+\.allow$/, HOSTS_ELSEWHERE],
  [/^protocol\./, { drops: ['hosts'] }],
  [/^url\./, { drops: ['hosts'] }],
  [/^remote\.[^.]+\.(uploadpack|receivepack|vcs)$/, HOSTS_ELSEWHERE],
  [/^remote\.[^.]+\.proxy$/, { proxy: true }],
  [/^remote\./, { drops: ['hosts', 'refs'] }],
  [/^(https?\.(.+\.)?proxy)$/, { proxy: true }],
  [/^(push|branch)\./, { drops: ['refs'] }],
];

/** Settings that only shape output or identity: they change nothing this reader extracts. */
const SAFE_SETTING =
  /^(user\.[a-z]+|color\..+|advice\..+|core\.(quotepath|autocrlf|safecrlf|filemode|ignorecase)|commit\.gpgsign|tag\.gpgsign|init\.defaultbranch|pull\.(rebase|ff)|merge\.ff|fetch\.prune|safe\.directory|protocol\.version|http\.sslverify|log\..+|column\..+|i18n\..+)$/;

/** Environment variables git reads, with what they do (E42: the command's certain values stay). */
export const GIT_VARIABLES: Readonly<Record<string, SettingEffect>> = {
  GIT_SSH: HOSTS_ELSEWHERE,
  GIT_SSH_COMMAND: HOSTS_ELSEWHERE,
  GIT_SSH_VARIANT: { drops: ['hosts'] },
  GIT_PROXY_COMMAND: HOSTS_ELSEWHERE,
  GIT_ASKPASS: RUNS,
  SSH_ASKPASS: RUNS,
  GIT_EDITOR: RUNS,
  GIT_SEQUENCE_EDITOR: RUNS,
  GIT_PAGER: RUNS,
  GIT_EXTERNAL_DIFF: RUNS,
  GIT_EXEC_PATH: EVERYTHING,
  GIT_TEMPLATE_DIR: RUNS,
  GIT_CONFIG: EVERYTHING,
  GIT_CONFIG_GLOBAL: EVERYTHING,
  GIT_CONFIG_SYSTEM: EVERYTHING,
  GIT_CONFIG_PARAMETERS: EVERYTHING,
  GIT_CONFIG_COUNT: EVERYTHING,
  EDITOR: RUNS,
  VISUAL: RUNS,
  PAGER: RUNS,
  LESSOPEN: RUNS,
  LESSCLOSE: RUNS,
  HOME: EVERYTHING,
  XDG_CONFIG_HOME: EVERYTHING,
  GIT_DIR: { drops: ['paths'] },
  GIT_WORK_TREE: { drops: ['paths'] },
  GIT_NAMESPACE: { drops: ['refs'] },
};

/** `GIT_CONFIG_KEY_0`, `GIT_CONFIG_VALUE_0`, …: configuration from the environment. */
const GIT_CONFIG_VARIABLE = /^GIT_CONFIG_/;

function settingEffect(key: string): SettingEffect | 'safe' | 'open' {
  const lower = key.toLowerCase();
  if (SAFE_SETTING.test(lower)) return 'safe';
  for (const [pattern, found] of GIT_SETTINGS) if (pattern.test(lower)) return found;
  return 'open';
}

/** What git's settings and environment do to one command, gathered as it is read. */
class Settings {
  runs: string | null = null;
  all = false;
  open = false;
  readonly drops = new Set<ListKey>();
  readonly proxies: (string | null)[] = [];

  note(found: SettingEffect | 'safe' | 'open', what: string, value: string | null): void {
    if (found === 'safe') return;
    if (found === 'open') {
      this.open = true;
      return;
    }
    if (found.runs === true) this.runs ??= `${what} can make git run other commands`;
    if (found.drops === 'all') this.all = true;
    else for (const key of found.drops ?? []) this.drops.add(key);
    if (found.proxy === true) this.proxies.push(value);
  }

  /** A `key=value` setting; a word that is not literal could be any setting. */
  setting(word: Word | null, what: string): void {
    if (word === null || !word.literal) {
      this.note(EVERYTHING, what, null);
      return;
    }
    const eq = word.value.indexOf('=');
    const key = eq < 0 ? word.value : word.value.slice(0, eq);
    const value = eq < 0 ? 'true' : word.value.slice(eq + 1);
    if (harmlessProgramSetting(key, value)) return;
    this.note(settingEffect(key), `the git setting \`${key}\``, value);
  }

  /** What the extraction becomes under these settings. */
  apply(extraction: Extraction): Extraction {
    let effects = extraction.effects;
    if (this.all) effects = effects.map(blurArgs);
    else if (this.open || this.drops.size > 0 || this.runs !== null)
      effects = effects.map((item) => openArgs(item, [...this.drops]));
    // A push or fetch over http goes through the proxy a setting names.
    if (
      this.proxies.length > 0 &&
      effects.some((item) => item.cls === 'networkEgress' || item.cls === 'gitPush')
    )
      effects = [...effects, ...proxyEffects(this.proxies)];
    const reason = extraction.unparseable ?? this.runs;
    return reason === null
      ? { ...extraction, effects }
      : { ...extraction, effects, unparseable: reason };
  }
}

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

/**
 * The refs a push names. No refspec (or `--all`, `--mirror`, `--tags`) leaves
 * them unknown (E26); a refspec that is not literal or names a commit leaves
 * them open, and the refs the others name are still certainly pushed (E42).
 */
function pushRefs(operands: readonly Word[], everything: boolean): KeyValues {
  if (operands.length < 2) return { refs: null };
  const refs: string[] = [];
  let open = everything;
  const specs = operands.slice(1);
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as Word;
    if (!spec.literal) {
      open = true;
      continue;
    }
    if (spec.value === 'tag') {
      // `git push origin tag v1` pushes refs/tags/v1.
      const name = specs[++i];
      if (name === undefined || !name.literal) open = true;
      else refs.push(`refs/tags/${name.value}`);
      continue;
    }
    const ref = pushedRef(spec.value);
    if (ref === null) open = true;
    else refs.push(ref);
  }
  return open ? openArgs(effect('gitPush', { refs })).args : { refs };
}

/** The host a clone or fetch source names, `null` if unknown, `undefined` if it is local. */
function sourceHost(word: Word | undefined): string | null | undefined {
  if (word === undefined || !word.literal) return null;
  return remoteHost(word.value);
}

function unparseable(reason: string, effects: Effect[] = []): Extraction {
  return { effects, unparseable: reason };
}

const PROXY_VARIABLES = /^(https?_proxy|HTTPS?_PROXY|all_proxy|ALL_PROXY)$/;

/** `git …`, and `git-push …` and friends, which are the same commands. */
export function git(words: readonly Word[], ctx: ExtractContext): Extraction {
  const settings = new Settings();
  for (const name of ctx.assigned) {
    if (harmlessProgramSetting(name, ctx.environment?.get(name))) continue;
    const known = Object.hasOwn(GIT_VARIABLES, name) ? GIT_VARIABLES[name] : undefined;
    if (known !== undefined) settings.note(known, `\`${name}\``, null);
    else if (GIT_CONFIG_VARIABLE.test(name)) settings.note(EVERYTHING, `\`${name}\``, null);
    else if (PROXY_VARIABLES.test(name))
      settings.note({ proxy: true }, `\`${name}\``, ctx.environment?.get(name) ?? null);
  }
  let elsewhere = ctx.assigned.has('GIT_WORK_TREE') || ctx.assigned.has('GIT_DIR');
  const program = (words[0] as Word).value;
  const dashed = /(?:^|\/)git-([a-z-]+)$/.exec(program);
  if (dashed !== null)
    return settings.apply(subcommand(dashed[1] as string, words, ctx, elsewhere, settings));
  const global = scanOptions(words, 1, GLOBAL);
  if (global.unknown !== null) return unparseable(`unknown git option \`${global.unknown}\``);
  let gitCtx = ctx;
  for (const option of global.seen) {
    const value = option.value;
    switch (option.name) {
      case '-c':
        settings.setting(value, 'this git setting');
        break;
      case '--config-env':
        // The value comes from the environment: the key alone says what the setting does.
        settings.setting(value, '`--config-env`');
        break;
      case '--exec-path':
        if (value !== null) settings.note(EVERYTHING, '`--exec-path`', null);
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
  if (sub === undefined) return settings.apply(NONE);
  if (!sub.literal) return unparseable('the git command is not literal');
  return settings.apply(
    subcommand(sub.value, words.slice(global.next), gitCtx, elsewhere, settings),
  );
}

/** One git subcommand; `rest[0]` is the subcommand word. `elsewhere`: the work tree is not the working directory. */
function subcommand(
  name: string,
  rest: readonly Word[],
  ctx: ExtractContext,
  elsewhere: boolean,
  settings: Settings,
): Extraction {
  switch (name) {
    case 'push': {
      const { operands, seen } = operandsAndOptions(rest, 1, PUSH);
      const everything = seen.some((o) =>
        ['--all', '--branches', '--mirror', '--tags'].includes(o.name),
      );
      const repo = seen.find((o) => o.name === '--repo')?.value ?? operands[0];
      const effects = [effect('gitPush', pushRefs(operands, everything)), ...pushEgress(repo)];
      if (seen.some((o) => o.name === '--receive-pack' || o.name === '--exec'))
        return unparseable('`--receive-pack` names a program git runs', effects);
      if (repo !== undefined && repo !== null && isTransport(repo))
        return unparseable('a remote helper transport (`ext::`) runs a program', effects);
      return { effects };
    }
    case 'send-pack':
    case 'http-push': {
      // `git send-pack [options] [<host>:]<dir> <ref>…`: pushes like `git push <dest> <ref>…`.
      const { operands, seen } = operandsAndOptions(rest, 1, SEND_PACK);
      const everything = seen.some((o) => o.name === '--all' || o.name === '--mirror');
      const effects = [
        effect('gitPush', pushRefs(operands, everything)),
        ...pushEgress(operands[0]),
      ];
      if (seen.some((o) => o.name === '--receive-pack' || o.name === '--exec'))
        return unparseable('`--receive-pack` names a program git runs', effects);
      return { effects };
    }
    case 'subtree':
      return subtree(rest);
    case 'svn':
    case 'p4': {
      const verb = rest.slice(1).find((w) => !w.value.startsWith('-'));
      if (verb === undefined || !verb.literal)
        return unparseable(`the \`git ${name}\` command is not literal`);
      // `dcommit`, `submit` and the like write to the other system: a push with unknown refs.
      if (['dcommit', 'set-tree', 'submit', 'branch', 'tag', 'commit'].includes(verb.value))
        return {
          effects: [effect('gitPush', { refs: null }), effect('networkEgress', { hosts: null })],
        };
      return { effects: [effect('networkEgress', { hosts: null })] };
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
      return remote(name, rest, ctx, settings);
    case 'remote':
      return remoteCommand(rest);
    case 'submodule':
      return submodule(rest);
    case 'archive': {
      const { seen } = operandsAndOptions(rest, 1, ARCHIVE);
      const output = seen.find((o) => o.name === '-o' || o.name === '--output');
      const effects = output?.value ? writeEffects([output.value], ctx) : [];
      const from = seen.find((o) => o.name === '--remote');
      if (from !== undefined) effects.unshift(egress(from.value));
      if (seen.some((o) => o.name === '--exec'))
        return unparseable('`git archive --exec` names a program git runs', effects);
      return { effects };
    }
    case 'grep':
      // `-O<cmd>` / `--open-files-in-pager=<cmd>` opens the matches with a program.
      return rest.some(
        (w, i) => i > 0 && /^(-O|--open-files-in-pager|--open-files|--open)/.test(w.value),
      )
        ? unparseable('`git grep -O` opens the matches with a program')
        : NONE;
    case 'rebase':
      return rest.some((w) => /^(-x|--exec(=.*)?|-i|--interactive)$/.test(w.value))
        ? unparseable('`git rebase` can run commands of its own')
        : NONE;
    case 'bisect':
      return rest.some((w) => w.value === 'run')
        ? unparseable('`git bisect run` runs commands of its own')
        : NONE;
    case 'send-email':
    case 'imap-send':
    case 'request-pull':
      return { effects: [effect('networkEgress', { hosts: null })] };
    case 'filter-branch':
    case 'filter-repo':
    case 'difftool':
    case 'mergetool':
    case 'instaweb':
    case 'web--browse':
    case 'daemon':
    case 'credential':
    case 'upload-pack':
    case 'receive-pack':
    case 'remote-ext':
    case 'shell':
      return unparseable(`\`git ${name}\` runs commands of its own`);
    case 'config':
      // Reading settings changes nothing: `--get`, `--list`, `get`, `list`.
      if (
        rest.some(
          (w, i) =>
            i > 0 &&
            /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|get|list)$/.test(w.value),
        )
      )
        return NONE;
      return rest.some((w, i) => i > 0 && !w.literal)
        ? unparseable('the `git config` setting is not literal')
        : rest.some(
              (w, i) =>
                i > 0 &&
                settingEffect(w.value.split('=')[0] ?? '') !== 'safe' &&
                /\./.test(w.value) &&
                !w.value.startsWith('-'),
            )
          ? unparseable('`git config` can change what later git commands run or where they push')
          : NONE;
    case 'hook':
      // `git hook run NAME` runs the repository's hook of that name.
      return unparseable("`git hook` runs the repository's hooks");
    case 'stash':
      return stash(rest);
    case 'worktree':
      return worktree(rest, ctx, elsewhere);
    case 'bundle': {
      // `git bundle create FILE …` writes FILE.
      const { operands } = operandsAndOptions(rest, 1, BUNDLE);
      return operands[0]?.literal === true && operands[0].value === 'create' && operands[1]
        ? { effects: writeEffects([operands[1]], ctx) }
        : NONE;
    }
    default:
      if (OUTPUT_WRITERS.has(name)) return { effects: outputFiles(rest, ctx) };
      // Not a git command: an alias (which the repository's configuration may define) or a
      // `git-NAME` program, either of which can do anything.
      return GIT_COMMANDS.has(name)
        ? NONE
        : unparseable(
            `\`git ${name}\` is no git command: an alias or a \`git-${name}\` program, which may do anything`,
          );
  }
}

/** Git's own commands (git 2.39 to 2.51): any other word is an alias or a `git-NAME` program. */
const GIT_COMMANDS: ReadonlySet<string> = new Set(
  (
    'add am annotate apply archimport archive backfill bisect blame branch bugreport bundle ' +
    'cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout-index ' +
    'cherry cherry-pick citool clean clone column commit commit-graph commit-tree config ' +
    'count-objects credential credential-cache credential-store cvsexportcommit cvsimport ' +
    'cvsserver daemon describe diagnose diff diff-files diff-index diff-pairs diff-tree difftool ' +
    'fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref ' +
    'for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep ' +
    'gui hash-object help hook http-backend http-fetch http-push imap-send index-pack init ' +
    'init-db instaweb interpret-trailers last-modified log ls-files ls-remote ls-tree mailinfo ' +
    'mailsplit maintenance merge merge-base merge-file merge-index merge-octopus merge-one-file ' +
    'merge-ours merge-recursive merge-resolve merge-subtree merge-tree mergetool mktag mktree ' +
    'multi-pack-index mv name-rev notes p4 pack-objects pack-redundant pack-refs patch-id prune ' +
    'prune-packed pull push quiltimport range-diff read-tree rebase receive-pack reflog refs ' +
    'remote remote-ext remote-fd repack replace replay repo request-pull rerere reset restore ' +
    'rev-list rev-parse revert rm scalar send-email send-pack shell shortlog show show-branch ' +
    'show-index show-ref sparse-checkout stage stash status stripspace submodule subtree svn ' +
    'switch symbolic-ref tag unpack-file unpack-objects update-index update-ref ' +
    'update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag ' +
    'version whatchanged worktree write-tree'
  ).split(' '),
);

/** Commands whose diff options include `--output=FILE`, which writes the output to FILE. */
const OUTPUT_WRITERS: ReadonlySet<string> = new Set([
  'log',
  'show',
  'diff',
  'diff-tree',
  'diff-index',
  'diff-files',
  'diff-pairs',
  'format-patch',
  'range-diff',
  'whatchanged',
  'shortlog',
  'blame',
]);

/**
 * Files a command's own output options write: `--output=FILE` (the diff
 * options), and `format-patch -o DIR` (`--output-directory`). A value that is
 * not literal is a write to an unknown place.
 */
function outputFiles(rest: readonly Word[], ctx: ExtractContext): Effect[] {
  const targets: Word[] = [];
  const format = rest[0]?.value === 'format-patch';
  for (let i = 1; i < rest.length; i++) {
    const word = rest[i] as Word;
    if (word.value === '--') break;
    const eq = /^(--output|--output-directory|-o)=(.*)$/s.exec(word.value);
    const separate =
      word.value === '--output' ||
      (format && (word.value === '-o' || word.value === '--output-directory'));
    if (eq !== null && (eq[1] === '--output' || format))
      targets.push({ ...word, value: eq[2] as string, raw: word.raw });
    else if (separate && rest[i + 1] !== undefined) targets.push(rest[++i] as Word);
    else if (format && /^-o./.test(word.value) && word.literal)
      targets.push({ ...word, value: word.value.slice(2) });
  }
  return targets.length === 0 ? [] : writeEffects(targets, ctx);
}

const BUNDLE: OptionSpec = {
  flags: ['-q', '--quiet', '--progress', '--all-progress', '--all-progress-implied'],
  values: ['--version'],
};

/** `git stash -u|-a` (with or without `push`/`save`) deletes the untracked files it stashes. */
function stash(rest: readonly Word[]): Extraction {
  const words = rest.slice(1);
  const verb = words.find((w) => !w.value.startsWith('-'));
  if (verb !== undefined && !verb.literal)
    return unparseable('the `git stash` command is not literal');
  if (verb !== undefined && !['push', 'save'].includes(verb.value)) return NONE;
  const untracked = words.some(
    (w) =>
      w.literal && (/^--(include-untracked|all)$/.test(w.value) || /^-[a-zA-Z]*[ua]/.test(w.value)),
  );
  return untracked ? { effects: [effect('fileDelete', { paths: null, count: null })] } : NONE;
}

const WORKTREE: OptionSpec = {
  flags: ['-f', '--force', '-v', '--verbose', '-q', '--quiet', '-n', '--dry-run'],
  values: ['--expire', '--reason'],
};

/** `git worktree remove PATH` deletes that worktree, with all it holds. */
function worktree(rest: readonly Word[], ctx: ExtractContext, elsewhere: boolean): Extraction {
  const { operands } = operandsAndOptions(rest, 1, WORKTREE);
  const verb = operands[0];
  if (verb === undefined) return NONE;
  if (!verb.literal) return unparseable('the `git worktree` command is not literal');
  if (verb.value !== 'remove') return NONE;
  const target = operands[1];
  return {
    effects: [
      effect('fileDelete', {
        paths: target === undefined || elsewhere ? null : pathsOf([target], ctx),
        count: null,
      }),
    ],
  };
}

/** `ext::cmd`, `fd::…`, `hg::…`: a transport that runs a program (a remote helper). */
function isTransport(word: Word): boolean {
  return word.literal && /^[A-Za-z][A-Za-z0-9+.-]*::/.test(word.value);
}

/** networkEgress for a remote named by a word: its host when it is a URL, else unknown. */
function egress(word: Word | null | undefined): Effect {
  const host = sourceHost(word ?? undefined);
  return effect('networkEgress', { hosts: host === null || host === undefined ? null : [host] });
}

/**
 * A push reaches the host its destination names when that is a URL; a remote
 * name (`origin`) adds nothing here, as for every push (G14c).
 */
function pushEgress(word: Word | null | undefined): Effect[] {
  if (word === null || word === undefined) return [];
  const host = sourceHost(word);
  if (host === undefined) return [];
  if (host === null) return word.literal ? [] : [effect('networkEgress', { hosts: null })];
  return [effect('networkEgress', { hosts: [host] })];
}

function remote(
  name: string,
  rest: readonly Word[],
  ctx: ExtractContext,
  settings: Settings,
): Extraction {
  const { operands, seen } = operandsAndOptions(rest, 1, REMOTE);
  for (const option of seen)
    if (option.name === '-c' || option.name === '--config')
      settings.setting(option.value, 'this git setting');
  const effects: Effect[] = [];
  if (name === 'clone' && operands[1] !== undefined)
    effects.push(...writeEffects([operands[1]], ctx));
  const runs =
    seen.find((o) => ['-u', '--upload-pack', '--template'].includes(o.name)) ??
    (operands[0] !== undefined && isTransport(operands[0])
      ? { name: `${operands[0].value.split('::')[0] ?? ''}::`, value: null }
      : undefined);
  const done = (egressEffect: Effect): Extraction => {
    const all = [egressEffect, ...effects];
    return runs === undefined
      ? { effects: all }
      : unparseable(`\`${runs.name}\` names a program git runs`, all);
  };
  if (seen.some((o) => o.name === '--all' || o.name === '--multiple')) {
    return done(effect('networkEgress', { hosts: null }));
  }
  const source = operands[0];
  let host = sourceHost(source);
  if (host === undefined) {
    // A local source: a clone from it reaches no network; a fetch names a remote.
    if (name === 'clone' && source !== undefined)
      return runs === undefined ? { effects } : done(effect('networkEgress', { hosts: null }));
    host = null;
  }
  // Submodules come from URLs the repository names.
  const hosts = host === null ? null : [host];
  const recursive = seen.some((o) => o.name === '--recursive' || o.name === '--recurse-submodules');
  return done(
    recursive && hosts !== null
      ? openArgs(effect('networkEgress', { hosts }))
      : effect('networkEgress', { hosts }),
  );
}

/** `git remote add|set-url NAME URL` names a host later commands reach; `update`/`prune` fetch. */
function remoteCommand(rest: readonly Word[]): Extraction {
  const { operands } = operandsAndOptions(rest, 1, REMOTE_COMMAND);
  const verb = operands[0];
  if (verb === undefined) return NONE;
  if (!verb.literal) return unparseable('the `git remote` command is not literal');
  switch (verb.value) {
    case 'add':
      return { effects: [egress(operands[2])] };
    case 'set-url':
      return { effects: [egress(operands[operands.length - 1])] };
    case 'update':
    case 'prune':
    case 'show':
    case 'set-head':
      return { effects: [effect('networkEgress', { hosts: null })] };
    default:
      return NONE;
  }
}

/** `git submodule add URL`, `update` (hosts the repository names), `foreach` (a command). */
function submodule(rest: readonly Word[]): Extraction {
  const { operands, seen } = operandsAndOptions(rest, 1, SUBMODULE);
  const verb = operands[0];
  if (rest.some((w) => w.value === 'foreach'))
    return unparseable('`git submodule foreach` runs commands of its own');
  if (verb === undefined) return NONE;
  if (!verb.literal) return unparseable('the `git submodule` command is not literal');
  switch (verb.value) {
    case 'add':
      return { effects: [egress(operands[1])] };
    case 'update':
      return seen.some((o) => o.name === '-N' || o.name === '--no-fetch')
        ? NONE
        : { effects: [effect('networkEgress', { hosts: null })] };
    default:
      return NONE;
  }
}

/** `git subtree push|pull|add|merge|split`: push sends `<ref>` to `<repository>`. */
function subtree(rest: readonly Word[]): Extraction {
  const { operands } = operandsAndOptions(rest, 1, SUBTREE);
  const verb = operands[0];
  if (verb === undefined) return NONE;
  if (!verb.literal) return unparseable('the `git subtree` command is not literal');
  switch (verb.value) {
    case 'push': {
      const ref = operands[2];
      const pushed = ref !== undefined && ref.literal ? pushedRef(ref.value) : null;
      return {
        effects: [
          effect('gitPush', { refs: pushed === null ? null : [pushed] }),
          ...pushEgress(operands[1]),
        ],
      };
    }
    case 'pull':
    case 'add':
      return operands.length >= 3 ? { effects: [egress(operands[1])] } : NONE;
    default:
      return NONE;
  }
}

const SEND_PACK: OptionSpec = {
  flags: [
    '--all',
    '--mirror',
    '--dry-run',
    '--force',
    '-f',
    '--verbose',
    '-v',
    '--thin',
    '--atomic',
    '--stateless-rpc',
    '--stdin',
    '--helper-status',
    '--quiet',
    '-q',
    '--no-signed',
    '--progress',
  ],
  values: ['--receive-pack', '--exec', '--push-option', '-o'],
  optionalValues: ['--signed', '--force-with-lease'],
};

const SUBTREE: OptionSpec = {
  flags: [
    '-q',
    '--quiet',
    '-d',
    '--debug',
    '--squash',
    '--no-squash',
    '--rejoin',
    '--ignore-joins',
  ],
  values: ['-P', '--prefix', '-m', '--message', '-b', '--branch', '--onto', '--annotate'],
};

const ARCHIVE: OptionSpec = {
  flags: [
    '-l',
    '--list',
    '-v',
    '--verbose',
    '--worktree-attributes',
    '-0',
    '-1',
    '-2',
    '-3',
    '-4',
    '-5',
    '-6',
    '-7',
    '-8',
    '-9',
  ],
  values: [
    '--format',
    '--prefix',
    '-o',
    '--output',
    '--add-file',
    '--add-virtual-file',
    '--remote',
    '--exec',
    '--mtime',
  ],
};

const REMOTE_COMMAND: OptionSpec = {
  flags: [
    '-v',
    '--verbose',
    '-f',
    '--tags',
    '--no-tags',
    '--mirror',
    '--push',
    '--add',
    '--delete',
    '--all',
    '-n',
    '--dry-run',
    '-a',
    '--auto',
    '-d',
  ],
  values: ['-t', '-m'],
  optionalValues: ['--mirror'],
};

const SUBMODULE: OptionSpec = {
  flags: [
    '-q',
    '--quiet',
    '--init',
    '--remote',
    '-N',
    '--no-fetch',
    '--checkout',
    '--merge',
    '--rebase',
    '--recursive',
    '--force',
    '-f',
    '--cached',
    '--recommend-shallow',
    '--no-recommend-shallow',
    '--single-branch',
    '--no-single-branch',
    '--progress',
    '--filter',
  ],
  values: ['-b', '--branch', '--name', '--reference', '--depth', '-j', '--jobs'],
};

/** The option tables git's extractor reads: its global options, and those of each subcommand it reads. */
export const GIT_OPTIONS: Readonly<{
  global: OptionSpec;
  subcommands: Readonly<Record<string, OptionSpec>>;
}> = {
  global: GLOBAL,
  subcommands: {
    push: PUSH,
    'send-pack': SEND_PACK,
    'http-push': SEND_PACK,
    clean: CLEAN,
    rm: RM,
    clone: REMOTE,
    fetch: REMOTE,
    pull: REMOTE,
    'ls-remote': REMOTE,
    remote: REMOTE_COMMAND,
    submodule: SUBMODULE,
    subtree: SUBTREE,
    archive: ARCHIVE,
    bundle: BUNDLE,
    worktree: WORKTREE,
  },
};
