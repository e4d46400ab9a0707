// The paths that change what later commands run (E44): the shipped list, a
// policy's additions and removals, and the documents that cannot say them.

import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONTROL_PATHS,
  compilePolicy,
  formatPath,
  decide,
  validatePolicy,
} from '../src/index.js';

const AT = Date.parse('2026-12-01T00:00:00Z');

function mutation(paths: string[], doc: Record<string, unknown> = {}, managed?: unknown) {
  const policy = validatePolicy({ version: 1, workspace: 'acme', rules: [], ...doc }, 'workspace');
  if (!policy.ok) throw new Error(JSON.stringify(policy.issues));
  const layer = managed === undefined ? null : validatePolicy(managed, 'managed');
  if (layer !== null && !layer.ok) throw new Error(JSON.stringify(layer.issues));
  return decide({
    policy: compilePolicy(policy.value),
    managed: layer === null ? null : compilePolicy(layer.value),
    request: {
      workspace: 'acme',
      agent: 'a',
      actions: ['workspaceMutation'],
      worktree: '/srv/w',
      args: { paths },
    },
    at: AT,
    approverConnected: false,
  }).decision;
}

describe('E44: control paths', () => {
  it('the shipped list asks for git hooks and config, shell start files and agent settings, at any depth', () => {
    for (const path of [
      '.git/hooks/pre-commit',
      'vendor/lib/.git/config',
      '.bashrc',
      'sub/.envrc',
      '.npmrc',
      '.claude/settings.json',
      '.codex/config.toml',
      '.gemini/settings.json',
      '.mcp.json',
      '.husky/pre-push',
    ])
      expect(mutation([path]), path).toBe('prompt');
    for (const path of [
      'src/main.ts',
      'package.json',
      'README.md',
      '.git/COMMIT_EDITMSG',
      // git's own samples never run.
      '.git/hooks/pre-commit.sample',
    ])
      expect(mutation([path]), path).toBe('allow');
    expect(DEFAULT_CONTROL_PATHS).toContain('**/.git/hooks/**');
  });

  it('a path outside the worktree is matched too, without its leading slash (E10)', () => {
    expect(mutation(['/home/u/.bashrc'])).toBe('prompt');
  });

  it("a workspace policy adds paths and takes shipped ones out; a managed policy's additions hold for every workspace", () => {
    expect(mutation(['Makefile'], { controlPaths: ['Makefile'] })).toBe('prompt');
    expect(mutation(['.npmrc'], { controlPaths: ['!**/.npmrc'] })).toBe('allow');
    expect(mutation(['Makefile'], {}, { version: 1, rules: [], controlPaths: ['Makefile'] })).toBe(
      'prompt',
    );
    // The workspace cannot take out what the managed layer added.
    expect(
      mutation(
        ['Makefile'],
        { controlPaths: ['!Makefile'] },
        { version: 1, rules: [], controlPaths: ['Makefile'] },
      ),
    ).toBe('prompt');
  });

  it('refuses a pattern that cannot be read, and a managed policy that takes a path out (E4)', () => {
    const bad = validatePolicy(
      { version: 1, workspace: 'acme', controlPaths: ['*(a|b)', '../x', 7] },
      'workspace',
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      const paths = bad.issues.map((i) => formatPath(i.path));
      expect(paths).toContain('controlPaths[0]');
      expect(paths).toContain('controlPaths[1]');
      expect(paths).toContain('controlPaths[2]');
    }
    const managed = validatePolicy({ version: 1, controlPaths: ['!**/.npmrc'] }, 'managed');
    expect(managed.ok).toBe(false);
    if (!managed.ok) expect(managed.issues[0]?.message).toMatch(/only adds/);
  });
});
