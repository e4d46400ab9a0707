// A file tool's write inside the worktree to a path that changes what later
// commands run is `workspaceMutation` (E44): Claude Code's `Write` of a git
// hook, Codex's patch of a shell start file, Gemini CLI's `write_file` of an
// agent's settings. The hook reads the shipped list without the engine; the
// engine's glob list is the definition, and this keeps the two the same.

import fc from 'fast-check';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/backends.js';
import {
  DEFAULT_CONTROL_PATHS,
  Globs,
  compilePathPatterns,
  normalizePath,
  pathInSet,
} from '@warden/engine';
import { isControlPath } from '../../src/hook/control-paths.js';
import { planCall as planClaude } from '../../src/hook/claude-code.js';
import { planCodexCall } from '../../src/hook/codex.js';

const defaults = compilePathPatterns(DEFAULT_CONTROL_PATHS, new Globs());
const byEngine = (rel: string): boolean => pathInSet(normalizePath(rel, '/srv/w'), defaults, true);

const segment = fc.constantFrom(
  '.git',
  'hooks',
  'config',
  'info',
  'attributes',
  'pre-commit',
  'pre-commit.sample',
  '.githooks',
  '.husky',
  '.bashrc',
  '.profile',
  '.envrc',
  '.npmrc',
  '.yarnrc.yml',
  'pip.conf',
  '.claude',
  'settings.json',
  '.codex',
  '.gemini',
  '.mcp.json',
  '.vscode',
  'tasks.json',
  '.cargo',
  'config.toml',
  '.devcontainer',
  'src',
  'main.ts',
  'package.json',
  'README.md',
);

describe('E44: the hook reads the shipped control paths as the engine does', () => {
  it('for any path the two agree', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const rel = segments.join('/');
        expect(isControlPath(rel), rel).toBe(byEngine(rel));
      }),
      { numRuns: 20_000 },
    );
  });

  it('Claude Code’s `Write` of a git hook asks the gate as a workspace mutation; of a source file it is not gated', async () => {
    const w = realpathSync(tempDir('warden-control-'));
    mkdirSync(join(w, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(w, 'src'));
    const write = (file: string) =>
      planClaude(
        {
          hook_event_name: 'PreToolUse',
          cwd: w,
          tool_name: 'Write',
          tool_input: { file_path: file, content: 'x' },
        } as never,
        w,
      );
    expect(await write(join(w, '.git/hooks/pre-commit'))).toMatchObject({
      kind: 'gate',
      ask: { actions: ['workspaceMutation'], args: { paths: [join(w, '.git/hooks/pre-commit')] } },
    });
    expect(await write(join(w, 'src/main.ts'))).toMatchObject({ kind: 'ungated' });
  });

  it('Codex’s patch that adds a shell start file asks the gate as a workspace mutation', async () => {
    const w = realpathSync(tempDir('warden-control-'));
    const plan = await planCodexCall(
      {
        hook_event_name: 'PreToolUse',
        cwd: w,
        tool_name: 'apply_patch',
        tool_input: {
          command: '*** Begin Patch\n*** Add File: .envrc\n+export PATH=.:$PATH\n*** End Patch\n',
        },
      } as never,
      w,
    );
    expect(plan).toMatchObject({
      kind: 'gate',
      ask: { actions: ['workspaceMutation'], args: { paths: [join(w, '.envrc')] } },
    });
  });
});
