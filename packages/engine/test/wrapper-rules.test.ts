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

/** An option of a wrapper, its names, the value it takes (if any), and how the wrapper is run around `ls`. */
interface Spelled {
  readonly names: readonly string[];
  readonly value?: string;
  readonly around: (option: string) => string;
}

const SPELLED: readonly Spelled[] = [
  { names: ['-u', '--user'], value: 'root', around: (o) => `sudo ${o} ls` },
  { names: ['-g', '--group'], value: 'wheel', around: (o) => `sudo ${o} ls` },
  { names: ['-E', '--preserve-env'], around: (o) => `sudo ${o} ls` },
  { names: ['-n', '--non-interactive'], around: (o) => `sudo ${o} ls` },
  { names: ['-u', '--unset'], value: 'HOME', around: (o) => `env ${o} ls` },
  { names: ['-n', '--adjustment'], value: '5', around: (o) => `nice ${o} ls` },
  { names: ['-s', '--signal'], value: 'KILL', around: (o) => `timeout ${o} 5 ls` },
  { names: ['-c', '--command', '--session-command'], value: 'ls', around: (o) => `su ${o}` },
  { names: ['-n', '--max-args'], value: '1', around: (o) => `xargs ${o} ls` },
  { names: ['-w', '--wait', '--timeout'], value: '1', around: (o) => `flock ${o} /tmp/l ls` },
  { names: ['-exec', '-execdir', '-ok', '-okdir'], around: (o) => `find . ${o} ls {} ;` },
];

/** The ways a command line may spell `name` with `value`: apart, attached, or with `=`. */
function spellings(name: string, value: string | undefined): string[] {
  if (value === undefined) return [name];
  if (name.startsWith('--')) return [`${name} ${value}`, `${name}=${value}`];
  return name.length === 2 ? [`${name} ${value}`, `${name}${value}`] : [`${name} ${value}`];
}

describe('a restrictive rule on a wrapper option, spelled any way (E43)', () => {
  it('property: a deny naming an option by one name holds for the command written with any other', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SPELLED),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (option, ruleAt, commandAt, ruleEquals) => {
          const named = option.names[ruleAt % option.names.length] as string;
          const written = option.names[commandAt % option.names.length] as string;
          const program = option.around('').trim().split(' ')[0] as string;
          const ruleOption =
            option.value === undefined
              ? named
              : ruleEquals && named.startsWith('--')
                ? `${named}=${option.value}`
                : `${named} ${option.value}`;
          const policy = {
            version: 1,
            workspace: 'acme',
            rules: [
              { id: 'no-w', command: `${program} ${ruleOption}`, decision: 'deny' },
              ...ALLOWS,
            ],
          };
          for (const spelling of spellings(written, option.value)) {
            const line = option.around(spelling);
            const result = decideDocs(policy, request(line));
            expect(
              [result.decision, result.rule],
              `${line} under deny \`${program} ${ruleOption}\``,
            ).toEqual(['deny', 'no-w']);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: the same option with another value is not what the rule names', () => {
    const options = SPELLED.filter((o) => o.value !== undefined && !o.around('').startsWith('su'));
    fc.assert(
      fc.property(fc.constantFrom(...options), fc.nat(), (option, at) => {
        const program = option.around('').trim().split(' ')[0] as string;
        const policy = {
          version: 1,
          workspace: 'acme',
          rules: [
            {
              id: 'no-w',
              command: `${program} ${option.names[0] as string} other`,
              decision: 'deny',
            },
            ...ALLOWS,
          ],
        };
        const written = option.names[at % option.names.length] as string;
        for (const spelling of spellings(written, option.value)) {
          const line = option.around(spelling);
          expect(decideDocs(policy, request(line)).rule, line).not.toBe('no-w');
        }
      }),
      { numRuns: 200 },
    );
  });
});
