// Warden's own runner and the sandbox's writable areas (G2, G14c). `warden
// exec … -- <command line>` is a wrapper like `env` or `bash -c`: an agent that
// types it is decided on the command line it wraps, so a grant it copied or
// made up adds nothing. The folders a sandboxed command may write beyond its
// worktree are those the policy's allow rules name, as far as nothing
// restrictive reaches into them.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { staticFolder, writableAreas } from '../src/index.js';
import { COMMANDS, policyArb } from './arbitraries.js';
import { classes, decideWith, isRaw, SHELL_OK, units } from './classify-support.js';
import { compiled, decideDocs } from './decide-docs.js';

const AT = Date.parse('2026-12-01T00:00:00Z');

describe('G14c: `warden exec` is unwrapped like any wrapper', () => {
  it('the command line after `--` is what is decided', () => {
    const typed =
      'warden exec --grant wg1.x.y.z --worktree /w --server http://h -- git push origin main';
    expect(classes(typed)).toEqual(classes('git push origin main'));
    const protect = { action: 'gitPush', decision: 'deny', when: { refs: ['main'] } };
    expect(decideWith([SHELL_OK, protect], typed).decision).toBe('deny');
    // The words after `--` are one command line, joined as the runner joins them.
    expect(classes('warden exec --policy p -- rm -rf build')).toContain('fileDelete');
    expect(classes("warden exec --json -- 'rm -rf build; curl https://x.example'")).toEqual(
      classes('rm -rf build; curl https://x.example'),
    );
  });

  it('a form that cannot be read prompts instead of passing', () => {
    for (const typed of [
      'warden exec rm -rf /',
      'warden exec --unknown-flag -- ls',
      'warden exec -- "$CMD"',
    ]) {
      expect(isRaw(typed), typed).toBe(true);
      expect(decideWith([SHELL_OK], typed).decision, typed).not.toBe('allow');
    }
  });

  it('a deny stays a deny when the wrapped script cannot be read: its leading words still decide (E24, G14c)', () => {
    const deny = { command: 'git push', decision: 'deny', enforcement: 'hard' };
    for (const typed of [
      "git push 'oops",
      `bash -c "git push 'oops"`,
      "warden exec --worktree /w -- 'git push '\\''oops'",
      `sh -c "git push origin main 'unterminated"`,
    ]) {
      expect(isRaw(typed), typed).toBe(true);
      expect(decideWith([SHELL_OK, deny], typed).decision, typed).toBe('deny');
      expect(classes(typed), typed).toContain('gitPush');
    }
  });

  it("Warden's other subcommands are ordinary programs", () => {
    expect(isRaw('warden audit verify --data .warden')).toBe(false);
    expect(units('warden audit verify').map((u) => u.kind)).toEqual(['command']);
  });

  it('property: wrapping a command line in `warden exec --` never changes its decision', () => {
    fc.assert(
      fc.property(policyArb, fc.constantFrom(...COMMANDS), (policy, command) => {
        const quoted = `'${command.replace(/'/g, `'\\''`)}'`;
        const plain = decideWith(policy.rules, command, {
          spaces: policy.spaces,
          modes: policy.modes,
        });
        const wrapped = decideWith(policy.rules, `warden exec --worktree /w -- ${quoted}`, {
          spaces: policy.spaces,
          modes: policy.modes,
        });
        expect(wrapped.decision).toBe(plain.decision);
      }),
      { numRuns: 200 },
    );
  });
});

function areas(rules: readonly unknown[], managed: readonly unknown[] | null = null): string[] {
  return writableAreas({
    policy: compiled({ version: 1, workspace: 'acme', rules }),
    managed: managed === null ? null : compiled({ version: 1, rules: managed }, 'managed'),
    workspace: 'acme',
    agent: 'a',
    at: AT,
  });
}

const allowOut = (paths: string[], extra: Record<string, unknown> = {}) => ({
  action: 'fileWriteOutsideWorktree',
  decision: 'allow',
  when: { paths },
  ...extra,
});

describe('G2: the folders a sandboxed command may write beyond its worktree', () => {
  it('a glob stays in the folder before its first glob character', () => {
    expect(staticFolder('/srv/out/**')).toBe('/srv/out');
    expect(staticFolder('/srv/out/*.log')).toBe('/srv/out');
    expect(staticFolder('/srv/ou*')).toBe('/srv');
    expect(staticFolder('**/*.key')).toBeNull();
    expect(staticFolder('/**')).toBeNull();
    expect(staticFolder('/srv/../etc/**')).toBeNull();
  });

  it('named by an allow rule of the agent, outermost only', () => {
    expect(areas([allowOut(['/srv/out/**', '/srv/out/logs/**', '/var/cache/app/**'])])).toEqual([
      '/srv/out',
      '/var/cache/app',
    ]);
    expect(areas([allowOut(['/srv/out/**'], { scope: 'agent:someone-else' })])).toEqual([]);
    expect(areas([allowOut(['/srv/out/**'], { expiresAt: '2026-11-01T00:00:00Z' })])).toEqual([]);
    expect(areas([allowOut(['src/**'])])).toEqual([]);
  });

  it('not granted when something restrictive reaches into it, here or in the managed layer', () => {
    const guarded = {
      action: 'fileWriteOutsideWorktree',
      decision: 'deny',
      when: { paths: ['/srv/out/keys/**'] },
    };
    expect(areas([allowOut(['/srv/out/**']), guarded])).toEqual([]);
    const anywhere = { action: 'fileDelete', decision: 'prompt', when: { paths: ['**/*.key'] } };
    expect(areas([allowOut(['/srv/out/**']), anywhere])).toEqual([]);
    const elsewhere = {
      action: 'fileWriteOutsideWorktree',
      decision: 'deny',
      when: { paths: ['/etc/**'] },
    };
    expect(areas([allowOut(['/srv/out/**']), elsewhere])).toEqual(['/srv/out']);
    expect(
      areas(
        [allowOut(['/srv/out/**'])],
        [{ action: 'fileWriteOutsideWorktree', decision: 'deny' }],
      ),
    ).toEqual([]);
  });

  it('property: a granted folder is one where a write decides allow', () => {
    fc.assert(
      fc.property(policyArb, (policy) => {
        const doc = {
          ...policy,
          rules: [...policy.rules, { id: 'out', ...allowOut(['/tmp/**']) }],
        };
        const granted = writableAreas({
          policy: compiled(doc),
          workspace: 'acme',
          agent: 'a1',
          at: AT,
        });
        for (const folder of granted) {
          const decided = decideDocs(doc, {
            workspace: 'acme',
            agent: 'a1',
            actions: ['fileWriteOutsideWorktree'],
            args: { paths: [`${folder}/x`] },
          });
          expect(decided.decision).toBe('allow');
        }
      }),
      { numRuns: 200 },
    );
  });
});
