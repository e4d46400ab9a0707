// Warden installs like a tool: `npm run pack` makes one tarball with the
// engine inside, which installs globally into a fresh prefix and runs from
// any folder, without the checkout: `warden --version`, `warden policy lint`
// and `warden hook install claude-code`, whose hook command names the
// installed package. The install compiles the native SQLite binding, so this
// takes a minute or two.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/backends.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'packages', 'warden', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const ran = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

describe('the package', () => {
  it('packs with the engine inside, installs into a fresh prefix and runs from another folder', () => {
    const dir = tempDir('warden-package-');
    const packed = run(process.execPath, [join(ROOT, 'scripts', 'pack.mjs'), '--out', dir], ROOT);
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = packed.stdout.trim();
    expect(tarball).toBe(join(dir, `warden-${VERSION}.tgz`));
    const listed = run('tar', ['tzf', tarball], dir);
    expect(listed.stdout).toContain('package/dist/_engine/index.js');
    expect(listed.stdout).not.toMatch(/package\/(src|test)\//);

    const prefix = join(dir, 'prefix');
    const installed = run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        tarball,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      dir,
    );
    expect(installed.code, installed.stderr).toBe(0);
    const bin = join(prefix, 'bin', 'warden');
    expect(existsSync(bin)).toBe(true);

    // Another folder, with nothing of the checkout on the way.
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'policy.yaml'),
      'version: 1\nworkspace: acme\nrules:\n  - { id: protect-main, action: gitPush, decision: deny, when: { refs: [main] } }\n',
    );
    const version = run(bin, ['--version'], project);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);
    const lint = run(bin, ['policy', 'lint', 'policy.yaml'], project);
    expect(lint.code, lint.stderr).toBe(0);
    expect(lint.stdout).toContain('valid: policy.yaml');
    const hook = run(bin, ['hook', 'install', 'claude-code', '--policy', 'policy.yaml'], project);
    expect(hook.code, hook.stderr).toBe(0);
    const settings = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
    expect(settings).toContain(join(prefix, 'lib', 'node_modules', 'warden', 'bin', 'warden-hook'));
    expect(settings).not.toContain(ROOT);

    // The installed hook decides with the installed engine and store.
    const input = JSON.stringify({
      session_id: 's',
      hook_event_name: 'PreToolUse',
      cwd: project,
      tool_name: 'Bash',
      tool_input: { command: 'git push origin main' },
    });
    const decided = spawnSync(
      bin,
      ['hook', 'claude-code', '--policy', 'policy.yaml', '--worktree', project],
      { cwd: project, input, encoding: 'utf8' },
    );
    expect(decided.stdout).toContain('"permissionDecision":"deny"');
    expect(decided.stdout).toContain('protect-main');
  }, 400_000);
});
