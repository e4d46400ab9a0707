// Paths whose content changes what later commands run (E44): git's hooks and
// configuration, shell start files, package-manager and agent-tool settings.
// A write to one of them, seen in what a command really did, is
// `workspaceMutation` with that path, whose built-in default there is
// `prompt`. A policy adds to the list with `controlPaths` and takes a default
// entry out with `!pattern`. Patterns are path globs relative to the worktree
// root (E10); `**/` finds them in nested repositories and folders too.

export const DEFAULT_CONTROL_PATHS: readonly string[] = [
  // git: hooks run on commit and push; the configuration names programs (pager, filters, ssh).
  '**/.git/hooks/**',
  // git's own samples never run: `git init` and `git clone` write them.
  '!**/.git/hooks/*.sample',
  '**/.git/config',
  '**/.git/info/attributes',
  '.githooks/**',
  '.husky/**',
  // Shell start files, read by every new shell.
  '**/.bashrc',
  '**/.bash_profile',
  '**/.bash_login',
  '**/.bash_logout',
  '**/.profile',
  '**/.zshrc',
  '**/.zshenv',
  '**/.zprofile',
  '**/.zlogin',
  '**/.envrc',
  // Package managers: registries, scripts and code they load.
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.yml',
  '**/.pnpmfile.cjs',
  '**/pip.conf',
  '**/.pypirc',
  '**/.cargo/config',
  '**/.cargo/config.toml',
  // Agent runtimes and editors: hooks, permissions, tasks and servers they start.
  '**/.claude/**',
  '**/.codex/**',
  '**/.gemini/**',
  '**/.mcp.json',
  '**/.vscode/tasks.json',
  '**/.vscode/settings.json',
  '**/.devcontainer/**',
];
