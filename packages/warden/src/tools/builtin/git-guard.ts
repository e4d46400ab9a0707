// Warden's own git never runs what the worktree's configuration names. A
// sandboxed command may write `.git/hooks/*` and `.git/config` (they lie in
// the worktree), and the built-in git and gh tools then run git outside the
// sandbox. So every git Warden starts runs with hooks off, fsmonitor off, and
// every setting of the repository's own configuration (and the files it
// includes) that names a program, a filter, a pager, an editor, a credential
// helper, an ssh command or a transport replaced: by the operator's own value
// from the global or system configuration where there is one, else by a value
// that runs nothing. The replacements are given as command-scope settings
// (`GIT_CONFIG_COUNT`), which outrank every file and reach the git processes
// git and gh start in turn. Aliases never apply: the tools run git's own
// commands, which no alias can shadow.

import type { Settings } from './options.js';
import { childEnv, runProcess } from './process.js';

/** A setting family that makes git run something, and the value that makes it run nothing. */
interface Knob {
  /** Matches the lowercased key. */
  readonly key: RegExp;
  /** What the knob does, for the reference and the tests. */
  readonly what: string;
  /** The value that runs nothing; `''` unsets a program where git reads an empty one as none. */
  readonly neutral: string;
  /** Whether the operator's own value (global or system) is used instead of the neutral one. */
  readonly operator: boolean;
}

/**
 * Every setting of a repository's configuration that makes git run a program
 * or code, with what replaces it. Keys are matched lowercased.
 */
export const GIT_KNOBS: readonly Knob[] = [
  { key: /^core\.hookspath$/, what: 'hooks', neutral: '/dev/null', operator: false },
  { key: /^core\.fsmonitor$/, what: 'the file-system monitor', neutral: 'false', operator: false },
  { key: /^core\.sshcommand$/, what: 'the ssh command', neutral: 'ssh', operator: true },
  { key: /^core\.gitproxy$/, what: 'the git:// proxy command', neutral: '', operator: true },
  { key: /^core\.askpass$/, what: 'the password prompt', neutral: '', operator: true },
  { key: /^core\.pager$/, what: 'the pager', neutral: 'cat', operator: false },
  { key: /^pager\..+$/, what: 'a command’s pager', neutral: 'cat', operator: false },
  { key: /^core\.editor$/, what: 'the editor', neutral: ':', operator: false },
  { key: /^sequence\.editor$/, what: 'the rebase editor', neutral: ':', operator: false },
  { key: /^core\.worktree$/, what: 'the work tree', neutral: '', operator: false },
  {
    key: /^core\.alternaterefscommand$/,
    what: 'the alternate refs command',
    neutral: '',
    operator: false,
  },
  { key: /^diff\.external$/, what: 'the external diff', neutral: '', operator: false },
  { key: /^diff\..+\.(command|textconv)$/, what: 'a diff driver', neutral: '', operator: false },
  { key: /^merge\..+\.driver$/, what: 'a merge driver', neutral: '', operator: false },
  { key: /^filter\..+\.(clean|smudge|process)$/, what: 'a filter', neutral: '', operator: true },
  { key: /^filter\..+\.required$/, what: 'a required filter', neutral: 'false', operator: true },
  { key: /^credential\.(.+\.)?helper$/, what: 'a credential helper', neutral: '', operator: true },
  { key: /^gpg\.program$/, what: 'the signing program', neutral: 'gpg', operator: true },
  {
    key: /^gpg\.(openpgp|x509|ssh)\.program$/,
    what: 'a signing program',
    neutral: '',
    operator: true,
  },
  {
    key: /^gpg\.ssh\.defaultkeycommand$/,
    what: 'the ssh key command',
    neutral: '',
    operator: true,
  },
  { key: /^(commit|tag|push)\.gpgsign$/, what: 'signing', neutral: 'false', operator: true },
  // The first of these git reads wins, so a setting cannot replace the repository's: the push
  // names its program itself (`PUSH_PROGRAM`), and a fetch is never run.
  {
    key: /^remote\..+\.receivepack$/,
    what: 'the remote receive-pack',
    neutral: 'git-receive-pack',
    operator: false,
  },
  {
    key: /^remote\..+\.uploadpack$/,
    what: 'the remote upload-pack',
    neutral: 'git-upload-pack',
    operator: false,
  },
  { key: /^remote\..+\.proxy$/, what: 'a remote’s proxy', neutral: '', operator: true },
  {
    key: /^protocol\.(ext|fd)\.allow$/,
    what: 'a transport that runs a program',
    neutral: 'never',
    operator: false,
  },
  { key: /^protocol\.allow$/, what: 'which transports run', neutral: 'user', operator: false },
  { key: /^trailer\..+\.(command|cmd)$/, what: 'a trailer command', neutral: '', operator: false },
  {
    key: /^(push|fetch|submodule)\.recursesubmodules$|^submodule\.recurse$/,
    what: 'commands in submodules',
    neutral: 'false',
    operator: false,
  },
  {
    key: /^submodule\..+\.update$/,
    what: 'a submodule update command',
    neutral: '',
    operator: false,
  },
  {
    key: /^uploadpack\.packobjectshook$/,
    what: 'the pack-objects hook',
    neutral: '',
    operator: false,
  },
];

/**
 * What `git push` is told to run on the other side, on the command line: a
 * repository's `remote.<name>.receivepack` is read before any setting that
 * could replace it, and for a remote on this machine it runs here.
 */
export const PUSH_PROGRAM = '--receive-pack=git-receive-pack';

/** Set whatever the repository says: the knobs that must never be the repository's to choose. */
const ALWAYS: readonly (readonly [string, string])[] = [
  ['core.hooksPath', '/dev/null'],
  ['core.fsmonitor', 'false'],
  ['protocol.ext.allow', 'never'],
  ['submodule.recurse', 'false'],
  ['push.recurseSubmodules', 'no'],
];

/** The knob a key belongs to, if it makes git run something. */
export function knobOf(key: string): Knob | null {
  const lower = key.toLowerCase();
  return GIT_KNOBS.find((k) => k.key.test(lower)) ?? null;
}

/** `key\nvalue\0…` (`git config -z --list`) as pairs. */
function pairs(text: string): [string, string][] {
  return text
    .split('\0')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const cut = entry.indexOf('\n');
      return cut < 0 ? [entry, 'true'] : [entry.slice(0, cut), entry.slice(cut + 1)];
    });
}

/** The environment a configuration read runs in: nothing of the repository runs while it reads. */
function readingEnv(s: Settings): NodeJS.ProcessEnv {
  return settingsEnv({ ...childEnv(s.env), GIT_TERMINAL_PROMPT: '0' }, ALWAYS);
}

async function configList(s: Settings, cwd: string, scope: string[]): Promise<[string, string][]> {
  const done = await runProcess({
    file: s.git,
    args: ['config', ...scope, '--includes', '--list', '-z'],
    cwd,
    env: readingEnv(s),
    timeoutMs: s.gitTimeoutMs,
    maxOutputBytes: 1024 * 1024,
  });
  // No repository, or no such file: nothing to read there.
  return done.exitCode === 0 ? pairs(done.stdout.text) : [];
}

/** Appends command-scope settings to an environment (after any the operator gave). */
function settingsEnv(
  env: NodeJS.ProcessEnv,
  settings: readonly (readonly [string, string])[],
): NodeJS.ProcessEnv {
  const start = Number(env.GIT_CONFIG_COUNT ?? '0');
  const base = Number.isInteger(start) && start >= 0 ? start : 0;
  const out: NodeJS.ProcessEnv = { ...env, GIT_CONFIG_COUNT: String(base + settings.length) };
  settings.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${base + i}`] = key;
    out[`GIT_CONFIG_VALUE_${base + i}`] = value;
  });
  return out;
}

/**
 * The command-scope settings that take every program out of the
 * repository's hands in `cwd`: ALWAYS, then each knob the repository's own
 * configuration (or a file it includes) sets, given the operator's value or
 * the neutral one. A multi-valued knob (credential helpers) is reset with an
 * empty value, then given the operator's values again.
 */
export async function guardSettings(
  s: Settings,
  cwd: string,
): Promise<readonly (readonly [string, string])[]> {
  const [local, operator] = await Promise.all([
    configList(s, cwd, ['--local']),
    Promise.all([configList(s, cwd, ['--system']), configList(s, cwd, ['--global'])]).then((all) =>
      all.flat(),
    ),
  ]);
  const settings: [string, string][] = ALWAYS.map(([k, v]) => [k, v]);
  const done = new Set(ALWAYS.map(([k]) => k.toLowerCase()));
  for (const [key] of local) {
    const lower = key.toLowerCase();
    if (done.has(lower)) continue;
    const knob = knobOf(lower);
    if (knob === null) continue;
    done.add(lower);
    const theirs = knob.operator
      ? operator.filter(([k]) => k.toLowerCase() === lower).map(([, v]) => v)
      : [];
    if (/^credential\.(.+\.)?helper$/.test(lower)) {
      // An empty helper clears the list the files built; the operator's come back after it.
      settings.push([key, '']);
      for (const value of theirs) settings.push([key, value]);
      continue;
    }
    settings.push([key, theirs.at(-1) ?? knob.neutral]);
  }
  return settings;
}

/**
 * The environment Warden's own git (and gh) runs in, in the worktree `cwd`:
 * no prompt, no pager, no editor, and every program the repository names
 * replaced (`guardSettings`). The ssh command is the operator's or `ssh`.
 */
export async function guardedGitEnv(s: Settings, cwd: string): Promise<NodeJS.ProcessEnv> {
  // Variables that would point git elsewhere than the worktree it was asked about are left out.
  const elsewhere = new Set(['GIT_DIR', 'GIT_WORK_TREE', 'GIT_EXTERNAL_DIFF', 'GIT_EXEC_PATH']);
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(childEnv(s.env)).filter(([k]) => !elsewhere.has(k))),
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: ':',
  };
  return settingsEnv(env, await guardSettings(s, cwd));
}
