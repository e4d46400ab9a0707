// The templates about files: no deleting outside the worktrees, and reading
// through a shell without being asked.

import { unique } from './git.js';
import type { TemplateDefinition } from './types.js';

/**
 * `!root` and `!root/**` for a worktree folder (a glob ending in `/**` needs
 * only itself). The root itself counts as inside: deleting it is left to the
 * other rules, as deletions inside it are.
 */
export function worktreeNegations(root: string): string[] {
  const trimmed = root.replace(/\/+$/, '');
  return trimmed.endsWith('/**') ? [`!${trimmed}`] : [`!${trimmed}`, `!${trimmed}/**`];
}

function worktreeProblem(value: string): string | null {
  if (value.startsWith('!'))
    return 'list the worktree folders without `!`: the template excludes them itself';
  if (!value.startsWith('/'))
    return `\`${value}\` is not absolute: name the worktree folders by absolute path, such as \`/srv/agents/*\``;
  const trimmed = value.replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '/**')
    return `\`${value}\` holds every path: the rule would deny nothing`;
  return null;
}

export const NEVER_DELETE_OUTSIDE_WORKTREE: TemplateDefinition = {
  name: 'never-delete-outside-worktree',
  title: 'Never delete outside the worktree',
  description:
    'Denies deleting anything outside the given worktree folders. That is an absolute path ' +
    '(`rm /etc/passwd`, a tool deleting `/home/u/.ssh`), and a relative path that climbs out ' +
    '(`../x`), which is placed with the `worktree` of the request and judged as the absolute path it ' +
    'names, or, when the request names no worktree, denied outright. Deletions inside a ' +
    'worktree, and the worktree root itself, are left to the other rules (the built-in default ' +
    'prompts). The worktree folders are a parameter because a request that names its worktree ' +
    'also meets absolute patterns with the paths inside it: a bare `/**` would deny every ' +
    'deletion. With a glob such as `/srv/agents/*`, a path that climbs into a sibling worktree ' +
    '(`../other/x`) counts as inside; name each worktree exactly to prevent that. A deletion ' +
    'whose paths are not known (a tool that does not report them, `rm -rf ~`, `rm *.log`) is ' +
    'escalated to a prompt, which `actFreely` does not pre-approve. It governs the ' +
    '`fileDelete` class, which tools declare and the classifier reads from `rm`, `unlink`, ' +
    '`mv` (its sources), `shred`, `find … -delete`, `git clean`, `tar --remove-files`, ' +
    '`zip -m` and `rsync --delete`; inline code (`python -c`) cannot be read and asks a human, ' +
    'and a program that deletes in a way the classifier does not know (a script) is only ' +
    '`processSpawn`: the OS sandbox is the boundary there.',
  params: [
    {
      name: 'worktrees',
      description:
        'the absolute folders that are the worktrees of agents, or globs over them (`/srv/agents/*`); each root and everything under it counts as inside',
      required: true,
      kind: 'list',
      example: ['/srv/agents/*'],
      probe: (value) => ({
        action: 'fileDelete',
        decision: 'deny',
        when: { paths: ['/**', ...worktreeNegations(value)] },
      }),
      check: worktreeProblem,
    },
  ],
  rules: (params) => [
    {
      action: 'fileDelete',
      decision: 'deny',
      when: { paths: unique(['/**', ...(params.worktrees ?? []).flatMap(worktreeNegations)]) },
    },
  ],
};

/** Programs and git subcommands that read and change nothing in their ordinary use. */
export const READ_COMMANDS = [
  'cat',
  'ls',
  'head',
  'tail',
  'wc',
  'grep',
  'rg',
  'find',
  'pwd',
  'stat',
  'du',
  'git status',
  'git log',
  'git diff',
  'git show',
  'git blame',
  'git ls-files',
] as const;

export const READS_ALWAYS_ALLOWED: TemplateDefinition = {
  name: 'reads-always-allowed',
  title: 'Reads always allowed',
  description:
    'Allows the common read-only shell commands. Tools that only read (the built-in `read_file` and `list_files`) declare no action class ' +
    'and are never gated: they need no rule. This template is for reading through a shell: ' +
    `it allows the command facets of common read-only commands (${READ_COMMANDS.map((c) => `\`${c}\``).join(', ')}, ` +
    'and any given), so a stricter command rule in the same scope, such as a prompt on `git`, ' +
    'does not prompt for them: the longer prefix wins. It lifts no class: the classes a ' +
    'command reveals still resolve on their own, so `find . -delete` still meets the ' +
    '`fileDelete` rules, `cat a > /etc/x` the `fileWriteOutsideWorktree` rules, `find … -exec` ' +
    'is judged as the command it runs, and a `processSpawn` rule (a mode that prompts for every ' +
    'process) still applies. An allow covers only the bare program name or a standard system ' +
    'path, never a look-alike binary (`./cat`), and never an unparseable command; a rule ' +
    'in a narrower scope decides first. Command rules shape behaviour, they are not a ' +
    'boundary: some of these programs have options that write files or run other programs ' +
    '(`rg --pre`, `find -fprint`, `git diff --output`), and the allow covers those spellings too.',
  params: [
    {
      name: 'commands',
      description: 'more read-only command prefixes to allow, matched at a word boundary',
      required: false,
      kind: 'list',
      example: ['jq', 'git branch --list'],
      probe: (value) => ({ command: value, decision: 'allow' }),
    },
  ],
  rules: (params) =>
    unique([...READ_COMMANDS, ...(params.commands ?? [])]).map((command) => ({
      command,
      decision: 'allow',
    })),
};
