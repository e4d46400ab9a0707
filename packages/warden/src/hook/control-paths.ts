// The shipped paths that change what later commands run (E44), read without
// the engine: the hook checks every file tool's write inside the worktree
// against them, and loading the engine for each of those would cost more than
// the rest of an ungated call. The engine's glob list (`DEFAULT_CONTROL_PATHS`)
// is the definition; a test keeps the two the same. A policy's own
// `controlPaths` reach what commands do (observed in their layer), not the
// file tools' writes, which the hook answers without reading the policy.

const START_FILES = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  'pip.conf',
  '.pypirc',
  '.mcp.json',
]);
const TOOL_FOLDERS = new Set(['.claude', '.codex', '.gemini', '.devcontainer']);

/**
 * Whether a path relative to the worktree root (no `.` or `..`, `/`
 * separated) is one of the shipped control paths.
 */
export function isControlPath(rel: string): boolean {
  const segments = rel.split('/').filter((s) => s !== '');
  const last = segments.at(-1);
  if (last === undefined) return false;
  const before = segments.at(-2);
  // git's own samples never run: taken out of every other entry too.
  const n = segments.length;
  if (n >= 3 && segments[n - 3] === '.git' && before === 'hooks' && last.endsWith('.sample'))
    return false;
  for (let i = 0; i < segments.length - 1; i++) {
    if (segments[i] !== '.git') continue;
    const next = segments[i + 1];
    // Hooks (the folder too, not git's own samples), the configuration, the attributes that
    // select filters.
    if (next === 'hooks') return true;
    if (next === 'config' && i + 2 === segments.length) return true;
    if (next === 'info' && segments[i + 2] === 'attributes' && i + 3 === segments.length)
      return true;
  }
  // A folder named by `folder/**` is within it too.
  if (segments[0] === '.githooks' || segments[0] === '.husky') return true;
  if (START_FILES.has(last)) return true;
  if (segments.some((s) => TOOL_FOLDERS.has(s))) return true;
  if (before === '.cargo' && (last === 'config' || last === 'config.toml')) return true;
  if (before === '.vscode' && (last === 'tasks.json' || last === 'settings.json')) return true;
  return false;
}
