// E43: a deny or prompt that names a wrapper applies to every command run
// under it, however the wrappers are stacked; an allow on what is wrapped never
// lifts it; and where no rule names a wrapper, wrapping a command changes
// nothing a rule decides.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';

/** Wrappers as an agent could stack them, each as a prefix of the command it runs. */
const WRAPPERS = [
  'timeout 5',
  'nice -n 3',
  'nohup',
  'env A=1',
  'time',
  'stdbuf -oL',
  'command',
  'setsid',
  'ionice -c 3',
];
const COMMANDS = ['ls', 'rm -rf build', 'git push origin main', 'cat notes.txt', 'make test'];

const wrap = (chain: readonly string[], command: string): string =>
  chain.reduceRight((inner, wrapper) => `${wrapper} ${inner}`, command);

const ALLOWS = COMMANDS.map((c, i) => ({ id: `ok-${i}`, command: c, decision: 'allow' }));
const request = (command: string) => ({ workspace: 'acme', agent: 'coder-1', command });

describe('a restrictive rule on a wrapper (E43)', () => {
  it('property: `sudo` anywhere in a stack of wrappers is denied, whatever the allows on the command', () => {
    const policy = {
      version: 1,
      workspace: 'acme',
      rules: [{ id: 'no-sudo', command: 'sudo', decision: 'deny' }, ...ALLOWS],
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...WRAPPERS), { maxLength: 4 }),
        fc.nat(4),
        fc.constantFrom('sudo', 'sudo -u bob', 'sudo -E'),
        fc.constantFrom(...COMMANDS),
        fc.boolean(),
        (chain, at, sudo, command, shell) => {
          const stacked = [...chain.slice(0, at), sudo, ...chain.slice(at)];
          const line = shell ? `bash -c '${wrap(stacked, command)}'` : wrap(stacked, command);
          const result = decideDocs(policy, request(line));
          expect(result.decision, line).toBe('deny');
          expect(result.rule, line).toBe('no-sudo');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: where no rule names a wrapper, a wrapped command is decided as the bare one', () => {
    const policy = {
      version: 1,
      workspace: 'acme',
      rules: [
        ...ALLOWS,
        { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
        { id: 'ask-make', command: 'make', decision: 'prompt' },
      ],
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...WRAPPERS), { maxLength: 4 }),
        fc.constantFrom(...COMMANDS),
        (chain, command) => {
          const bare = decideDocs(policy, request(command));
          const wrapped = decideDocs(policy, request(wrap(chain, command)));
          expect([wrapped.decision, wrapped.rule], wrap(chain, command)).toEqual([
            bare.decision,
            bare.rule,
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a managed deny on a wrapper holds in every workspace', () => {
    const result = decideDocs(
      { version: 1, workspace: 'acme', rules: ALLOWS },
      request('timeout 5 sudo ls'),
      { managed: { version: 1, rules: [{ id: 'no-sudo', command: 'sudo', decision: 'deny' }] } },
    );
    expect([result.decision, result.rule, result.scope]).toEqual([
      'deny',
      'no-sudo',
      'managed:workspace',
    ]);
  });
});
