// Hard limits on reading a command (length, nesting, words, simple commands):
// past any of them the command is one unparseable unit that prompts, with the
// limit as its reason (G14b) — never an exception, never a stack overflow —
// and what its confident leading words say still applies (E24, E42).

import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import {
  DEFAULT_TABLE,
  MAX_COMMANDS,
  MAX_COMMAND_LENGTH,
  MAX_NESTING,
  MAX_WORDS,
  analyzeCommand,
} from '../src/index.js';

type Unit = ReturnType<typeof analyzeCommand>['units'][number];

function units(command: string): readonly Unit[] {
  return analyzeCommand(command, DEFAULT_TABLE, null).units;
}

function rawReason(command: string): string | null {
  const all = units(command);
  const only = all.length === 1 ? all[0] : undefined;
  return only?.kind === 'raw' && !only.inner ? only.reason : null;
}

const NO_RM = [
  { id: 'no-rm', command: 'rm', decision: 'deny', enforcement: 'hard' },
  { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
  { id: 'delete-ok', action: 'fileDelete', decision: 'allow' },
];

function decide(command: string, rules: unknown[] = NO_RM) {
  return decideDocs(
    { version: 1, workspace: 'acme', rules },
    { workspace: 'acme', agent: 'a', command },
  );
}

describe('the limits are named, and each reads back as a sentence', () => {
  it('are the documented values', () => {
    expect([MAX_COMMAND_LENGTH, MAX_NESTING, MAX_WORDS, MAX_COMMANDS]).toEqual([
      65_536, 64, 4_096, 256,
    ]);
  });
});

describe(`length: ${MAX_COMMAND_LENGTH} characters`, () => {
  const pad = (total: number, head: string) => `${head} ${'a'.repeat(total - head.length - 1)}`;

  it('a command of exactly the limit is read', () => {
    const command = pad(MAX_COMMAND_LENGTH, 'echo');
    expect(command).toHaveLength(MAX_COMMAND_LENGTH);
    expect(units(command).map((u) => u.kind)).toEqual(['command']);
  });

  it('one character more is unparseable, and says why', () => {
    const command = pad(MAX_COMMAND_LENGTH + 1, 'echo');
    expect(rawReason(command)).toBe('the command is longer than 65,536 characters');
    const result = decide(command);
    expect(result.decision).toBe('prompt');
    expect(result.rule).toBe('unparseable');
  });

  it('the leading words of an overlong command still apply as written (E24, E42)', () => {
    const command = `rm -rf /etc ${'x'.repeat(200_000)}`;
    expect(decide(command).decision).toBe('deny');
    expect(decide(command).rule).toBe('no-rm');
  });

  it('the mode’s net and restrictive command rules still see every token of an overlong command (E14, E23)', () => {
    const command = `echo ${'a '.repeat(MAX_COMMAND_LENGTH)}; git push --force origin main`;
    const netted = decideDocs(
      {
        version: 1,
        workspace: 'acme',
        rules: [{ id: 'shell-ok', action: 'processSpawn', decision: 'allow' }],
        modes: { review: { commandNet: ['git push --force'] } },
      },
      { workspace: 'acme', agent: 'a', mode: 'review', command },
    );
    expect(netted.decision).toBe('deny');
    expect(netted.rule).toBe('modeNet:review');
    const escalated = decide(command, [
      { id: 'no-push', command: 'git push', decision: 'deny' },
      { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
    ]);
    expect(escalated.decision).toBe('prompt');
    expect(escalated.rule).toBe('no-push');
  });

  it('a word cut at the limit is not taken as a leading word', () => {
    const command = `echo ${'a'.repeat(MAX_COMMAND_LENGTH * 2)}`;
    const only = units(command)[0];
    expect(only?.kind === 'raw' && only.leading?.values).toEqual(['echo']);
  });
});

describe(`nesting: ${MAX_NESTING} levels`, () => {
  const shapes: Record<string, (n: number) => string> = {
    subshells: (n) => `${'( '.repeat(n)}rm a${' )'.repeat(n)}`,
    groups: (n) => `${'{ '.repeat(n)}rm a${'; }'.repeat(n)}`,
    'if blocks': (n) => `${'if true; then '.repeat(n)}rm a${'; fi'.repeat(n)}`,
    substitutions: (n) => `echo ${'$('.repeat(n)}rm a${')'.repeat(n)}`,
    'process substitutions': (n) => `cat ${'<(cat '.repeat(n)}x${')'.repeat(n)}`,
    'parameter expansions': (n) => `echo ${'${a:-'.repeat(n)}x${'}'.repeat(n)}`,
    arithmetic: (n) => `echo ${'$(( '.repeat(n)}1${' ))'.repeat(n)}`,
  };

  it.each(Object.keys(shapes))('%s: the limit is read, one more is unparseable', (shape) => {
    const make = shapes[shape] as (n: number) => string;
    expect(rawReason(make(MAX_NESTING))).not.toBe('the command nests deeper than 64 levels');
    expect(units(make(MAX_NESTING)).length).toBeGreaterThan(0);
    expect(rawReason(make(MAX_NESTING + 1))).toBe('the command nests deeper than 64 levels');
    expect(decide(make(MAX_NESTING + 1)).decision).not.toBe('allow');
  });

  it('`bash -c` scripts nested in subshells count toward the same limit', () => {
    const inner = `${'( '.repeat(40)}rm a${' )'.repeat(40)}`;
    const command = `${'( '.repeat(40)}bash -c '${inner}'${' )'.repeat(40)}`;
    expect(rawReason(command)).toBe('the command nests deeper than 64 levels');
    const shallow = `${'( '.repeat(20)}bash -c '${'( '.repeat(20)}rm a${' )'.repeat(20)}'${' )'.repeat(20)}`;
    expect(decide(shallow).decision).toBe('deny');
  });

  it.each([
    ['`${` without end', `echo ${'${'.repeat(50_000)}`],
    ['`$[` without end', `echo ${'$['.repeat(30_000)}`],
    ['`((` without end', '(('.repeat(30_000)],
    ['`$((` without end', `echo ${'$(('.repeat(20_000)}`],
    ['`"$(` without end', `echo ${'"$('.repeat(20_000)}`],
    ['`<(` without end', `cat ${'<('.repeat(20_000)}`],
    ['`case` in `case`', `case ${'x in x) case '.repeat(5_000)}`],
    ['`(` closed', `${'('.repeat(30_000)}x${')'.repeat(30_000)}`],
    ['backticks in `$(`', `echo ${'$(`'.repeat(10_000)}`],
  ])('%s never overflows the stack', (_label, command) => {
    expect(() => analyzeCommand(command, DEFAULT_TABLE, null)).not.toThrow();
    expect(units(command).some((u) => u.kind === 'raw')).toBe(true);
    expect(decide(command).decision).not.toBe('allow');
  });
});

describe(`words: ${MAX_WORDS}`, () => {
  const words = (n: number) =>
    ['rm', ...Array.from({ length: n - 1 }, (_, i) => `f${i}`)].join(' ');

  it('the limit is read; one more word is unparseable', () => {
    expect(units(words(MAX_WORDS)).map((u) => u.kind)).toEqual(['command']);
    expect(rawReason(words(MAX_WORDS + 1))).toBe('the command has more than 4,096 words');
  });

  it('words in substitutions and scripts count too', () => {
    const half = Array.from({ length: MAX_WORDS / 2 }, (_, i) => `w${i}`).join(' ');
    expect(rawReason(`echo ${half} $(echo ${half})`)).toBe('the command has more than 4,096 words');
    expect(rawReason(`bash -c 'echo ${half}'; bash -c 'echo ${half}'`)).toBe(
      'the command has more than 4,096 words',
    );
  });

  it('the leading words still apply as written past the limit (E42)', () => {
    expect(decide(words(MAX_WORDS + 1)).decision).toBe('deny');
  });
});

describe(`simple commands: ${MAX_COMMANDS}`, () => {
  const chain = (n: number) => Array.from({ length: n }, () => 'rm a').join(' && ');

  it('the limit is read; one more command is unparseable', () => {
    expect(units(chain(MAX_COMMANDS))).toHaveLength(MAX_COMMANDS);
    expect(rawReason(chain(MAX_COMMANDS + 1))).toBe(
      'the command has more than 256 simple commands',
    );
  });

  it('commands in substitutions count too', () => {
    const subs = Array.from({ length: 130 }, () => 'echo $(rm a)').join('; ');
    expect(rawReason(subs)).toBe('the command has more than 256 simple commands');
  });

  it('a restrictive rule on the leading words still denies past the limit (E42)', () => {
    expect(decide(chain(MAX_COMMANDS + 1)).decision).toBe('deny');
  });

  it('a command with no rule on its leading words prompts past the limit', () => {
    const command = `true && ${chain(MAX_COMMANDS)}`;
    const result = decide(command);
    expect(result.decision).toBe('prompt');
  });
});

describe('reading stays linear and bounded', () => {
  const MB = 1 << 20;
  const giant: Record<string, string> = {
    'an and-chain': Array.from({ length: MB / 8 }, () => 'rm a').join(' && '),
    'a quoted word': `echo "${'a'.repeat(MB)}"`,
    'open brackets': `echo ${'['.repeat(MB)}`,
    'open braces': `echo ${'{'.repeat(MB)}`,
    backslashes: `echo ${'\\a'.repeat(MB / 2)}`,
    'many substitutions': Array.from({ length: MB / 16 }, () => 'echo $(rm a)').join(';'),
    'a comment': `#${'x'.repeat(MB)}`,
  };

  it.each(Object.keys(giant))('%s of 1 MB is refused without reading it whole', (shape) => {
    const command = giant[shape] as string;
    const started = performance.now();
    const analysis = analyzeCommand(command, DEFAULT_TABLE, null);
    const elapsed = performance.now() - started;
    expect(analysis.units.map((u) => u.kind)).toEqual(['raw']);
    // Generous for a loaded machine: the work is a bounded prefix, not the megabyte.
    expect(elapsed).toBeLessThan(250);
  });

  it.each([
    ['open brackets', (n: number) => `echo ${'['.repeat(n)}`],
    ['open braces', (n: number) => `echo ${'{'.repeat(n)}`],
    ['a double-quoted word', (n: number) => `echo "${'a$b'.repeat(n / 3)}"`],
    ['parameters', (n: number) => `echo ${'$a'.repeat(n / 2)}`],
    ['arithmetic', (n: number) => `echo $(( ${'1+'.repeat(n / 2)}1 ))`],
    ['ANSI-C escapes', (n: number) => `echo $'${'\\x41'.repeat(n / 4)}'`],
  ])('%s just under the length limit read in milliseconds', (_label, make) => {
    const command = make(MAX_COMMAND_LENGTH - 64);
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      analyzeCommand(`${command}${' '.repeat(i)}`, DEFAULT_TABLE, null);
      best = Math.min(best, performance.now() - started);
    }
    // A few milliseconds on an idle machine; generous for a loaded one.
    expect(best).toBeLessThan(100);
  });
});
