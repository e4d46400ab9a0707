// Properties over random shell (fast-check): `rm -rf /etc` hidden in random
// nestings of every expansion context bash knows, with random quoting around
// them, never comes out `allow` (G14b, E24, E32); random giant and deeply
// nested input never throws and stays within the hard limits.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import { DEFAULT_TABLE, MAX_COMMAND_LENGTH, analyzeCommand } from '../src/index.js';
import { rawTokens } from '../src/shell/render.js';

const HIDDEN = 'rm -rf /etc';

/** Deleting under /etc is denied; every other class is allowed. */
const NO_ETC = [
  { id: 'no-etc', action: 'fileDelete', decision: 'deny', when: { paths: ['/etc/**'] } },
  { id: 'delete-ok', action: 'fileDelete', decision: 'allow' },
  { id: 'push-ok', action: 'gitPush', decision: 'allow' },
  { id: 'egress-ok', action: 'networkEgress', decision: 'allow' },
  { id: 'write-ok', action: 'fileWriteOutsideWorktree', decision: 'allow' },
  { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
];

/** Only the command `rm` is denied, hard; every class is allowed. */
const NO_RM = [
  { id: 'no-rm', command: 'rm', decision: 'deny', enforcement: 'hard' },
  ...NO_ETC.filter((rule) => rule.id !== 'no-etc'),
];

function decision(rules: unknown[], command: string): string {
  return decideDocs(
    { version: 1, workspace: 'acme', rules },
    { workspace: 'acme', agent: 'a', command, worktree: '/srv/w' },
  ).decision;
}

/** Backtick contents: the backslashes and backticks of a nested command are escaped. */
const backtick = (cmd: string) => `\`${cmd.replace(/[\\`]/g, (ch) => `\\${ch}`)}\``;
/** POSIX single quotes around a script. */
const sq = (cmd: string) => `'${cmd.replace(/'/g, "'\\''")}'`;

/** Expansions whose value bash computes by running `cmd`. */
const WORDS: readonly ((cmd: string) => string)[] = [
  (cmd) => `$(${cmd})`,
  (cmd) => `"$(${cmd})"`,
  (cmd) => `x$(${cmd})y`,
  backtick,
  (cmd) => `"${backtick(cmd)}"`,
  (cmd) => `$(( $(${cmd}) ))`,
  (cmd) => `$(( a[$(${cmd})] + 1 ))`,
  (cmd) => `"$((${backtick(cmd)}))"`,
  (cmd) => `$[ $(${cmd}) ]`,
  (cmd) => `$[${backtick(cmd)}]`,
  (cmd) => `\${a:-$(${cmd})}`,
  (cmd) => `"\${a:=$(${cmd})}"`,
  (cmd) => `\${a:+x$(${cmd})}`,
  (cmd) => `\${a:?$(${cmd})}`,
  (cmd) => `\${a#$(${cmd})}`,
  (cmd) => `"\${a%%$(${cmd})}"`,
  (cmd) => `\${a/x/$(${cmd})}`,
  (cmd) => `\${a^^$(${cmd})}`,
  (cmd) => `\${a,$(${cmd})}`,
  (cmd) => `\${a:$(${cmd})}`,
  (cmd) => `\${a:0:$(${cmd})}`,
  (cmd) => `\${a[$(${cmd})]}`,
  (cmd) => `"\${a:-'$(${cmd})'}"`,
  (cmd) => `$"$(${cmd})"`,
  (cmd) => `<(${cmd})`,
  (cmd) => `{a,$(${cmd})}`,
  (cmd) => `~$(${cmd})`,
];

/** Commands that expand a word. */
const COMMANDS_OF_WORD: readonly ((word: string) => string)[] = [
  (w) => `echo ${w}`,
  (w) => w,
  (w) => `a=${w}`,
  (w) => `a=${w} ls`,
  (w) => `a=( x ${w} )`,
  (w) => `a[${w}]=1`,
  (w) => `declare a=${w}`,
  (w) => `local -a a=( ${w} )`,
  (w) => `export a=${w}`,
  (w) => `for f in ${w}; do :; done`,
  (w) => `case ${w} in x) ;; esac`,
  (w) => `case x in ${w}) ;; esac`,
  (w) => `[[ ${w} == x ]]`,
  (w) => `[[ -v a[${w}] ]]`,
  (w) => `(( ${w} ))`,
  (w) => `(( a[${w}] ))`,
  (w) => `echo x > ${w}`,
  (w) => `cat <<< ${w}`,
  (w) => `{ echo; } > ${w}`,
  (w) => `if true; then :; fi 2> ${w}`,
  (w) => `cat <<EOF\n${w}\nEOF`,
];

/** Commands that run a command. */
const COMMANDS_OF_COMMAND: readonly ((cmd: string) => string)[] = [
  (cmd) => `( ${cmd} )`,
  (cmd) => `{ ${cmd}; }`,
  (cmd) => `true && ${cmd}`,
  (cmd) => `false || ${cmd}`,
  (cmd) => `${cmd} | cat`,
  (cmd) => `echo a; ${cmd}`,
  (cmd) => `if true; then ${cmd}; fi`,
  (cmd) => `while true; do ${cmd}; done`,
  (cmd) => `f() { ${cmd}; }; f`,
  (cmd) => `bash -c ${sq(cmd)}`,
  (cmd) => `sh -c "${cmd.replace(/[\\"$`]/g, (ch) => `\\${ch}`)}"`,
  (cmd) => `timeout 5 ${cmd}`,
  (cmd) => `eval ${sq(cmd)}`,
];

type Layer =
  | { readonly kind: 'word'; readonly word: number; readonly command: number }
  | { readonly kind: 'command'; readonly command: number };

const layer: fc.Arbitrary<Layer> = fc.oneof(
  fc.record({
    kind: fc.constant('word' as const),
    word: fc.nat(WORDS.length - 1),
    command: fc.nat(COMMANDS_OF_WORD.length - 1),
  }),
  fc.record({
    kind: fc.constant('command' as const),
    command: fc.nat(COMMANDS_OF_COMMAND.length - 1),
  }),
);

function build(layers: readonly Layer[]): string {
  let command = HIDDEN;
  for (const step of layers) {
    command =
      step.kind === 'word'
        ? (COMMANDS_OF_WORD[step.command] as (w: string) => string)(
            (WORDS[step.word] as (c: string) => string)(command),
          )
        : (COMMANDS_OF_COMMAND[step.command] as (c: string) => string)(command);
  }
  return command;
}

/** At least one expansion layer, so the rm is hidden in one. */
const hidden = fc
  .array(layer, { minLength: 1, maxLength: 5 })
  .filter((layers) => layers.some((step) => step.kind === 'word'))
  .map(build);

describe('rm -rf /etc hidden in any expansion context never passes', () => {
  it('under a class rule denying deletes in /etc: deny or prompt (G14b, E32)', () => {
    fc.assert(
      fc.property(hidden, (command) => {
        expect(decision(NO_ETC, command), command).not.toBe('allow');
      }),
      { numRuns: 600 },
    );
  });

  it('under a hard deny on the command `rm` alone: deny or prompt (G14b, E23, E24)', () => {
    fc.assert(
      fc.property(hidden, (command) => {
        expect(decision(NO_RM, command), command).not.toBe('allow');
      }),
      { numRuns: 600 },
    );
  });

  it('the same shapes without the rm are decided too (the harness itself can tell them apart)', () => {
    // A command with no expansion at all is allowed by both policies: the denials above are the rm's doing.
    expect(decision(NO_ETC, 'echo a; ls -la')).toBe('allow');
    expect(decision(NO_RM, 'echo a; ls -la')).toBe('allow');
    expect(decision(NO_ETC, HIDDEN)).toBe('deny');
    expect(decision(NO_RM, HIDDEN)).toBe('deny');
  });
});

describe('random giant and deep input', () => {
  const pieces = fc.constantFrom(
    '(',
    ')',
    '{ ',
    '; }',
    '$(',
    '`',
    '\\`',
    '$((',
    '))',
    '$[',
    ']',
    '${',
    '}',
    '${a:-',
    '${!',
    '<(',
    '>(',
    '"',
    "'",
    "$'",
    '$"',
    '[[ ',
    ' ]]',
    '((',
    'a=(',
    'a[',
    ' && ',
    ' | ',
    '; ',
    '\n',
    'if x; then ',
    '; fi',
    'case x in x) ',
    ';; esac',
    'for f in ',
    '; do ',
    '; done',
    'rm -rf /etc',
    'echo a',
    ' ',
    '\\',
    '#',
    '<<EOF\n',
    '2>',
    '*',
    '~',
  );

  /** A random piece sequence, repeated up to about `size` characters. */
  const giant = (size: number) =>
    fc
      .tuple(fc.array(pieces, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: size }))
      .map(([seq, target]) => {
        const unit = seq.join('');
        return unit.repeat(Math.max(1, Math.ceil(target / unit.length)));
      });

  it('never throws, and ends within a bounded time (hard limits)', () => {
    fc.assert(
      fc.property(giant(3 * MAX_COMMAND_LENGTH), (command) => {
        const started = performance.now();
        let units: ReturnType<typeof analyzeCommand>['units'] = [];
        expect(() => {
          units = analyzeCommand(command, DEFAULT_TABLE, null).units;
        }).not.toThrow();
        // Generous for a loaded machine; a few milliseconds on an idle one.
        expect(performance.now() - started, `${command.length} characters`).toBeLessThan(500);
        if (command.length > MAX_COMMAND_LENGTH) expect(units.map((u) => u.kind)).toEqual(['raw']);
      }),
      { numRuns: 60 },
    );
  });

  it('deep random nesting of expansions (past the nesting limit) never throws and never passes', () => {
    // Only templates that do not escape their content, so the text grows linearly with the depth.
    const plainWords = WORDS.filter((f) => !f('q').includes('`'));
    const plainCommands = COMMANDS_OF_COMMAND.filter(
      (f) => !f('q').includes("'q'") && !f('q').includes('"q"'),
    );
    const deep = fc
      .array(
        fc.oneof(
          fc
            .nat(plainWords.length - 1)
            .map((i) => ({ word: plainWords[i] as (c: string) => string })),
          fc
            .nat(plainCommands.length - 1)
            .map((i) => ({ command: plainCommands[i] as (c: string) => string })),
        ),
        { minLength: 40, maxLength: 160 },
      )
      .map((steps) => {
        let command = HIDDEN;
        for (const step of steps)
          command = 'word' in step ? `echo ${step.word(command)}` : step.command(command);
        return command;
      });
    fc.assert(
      fc.property(deep, (command) => {
        expect(() => analyzeCommand(command, DEFAULT_TABLE, null)).not.toThrow();
        expect(decision(NO_ETC, command), command.slice(0, 200)).not.toBe('allow');
        expect(decision(NO_RM, command), command.slice(0, 200)).not.toBe('allow');
      }),
      { numRuns: 100 },
    );
  });
});

describe('raw tokens (E35)', () => {
  it('are the text split at white space and `| & ; ( ) < > \' " $ { } \\` and the backtick', () => {
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom(...'|&;()<>\'"$`{}\\ \t\n\r\v\f\u00a0\u2028\u3000\ufeff'),
        fc.constantFrom('a', 'rm', 'é', '日', '-', '/', '*'),
      ),
      maxLength: 60,
    });
    fc.assert(
      fc.property(text, (value) => {
        const expected = value.split(/[\s|&;()<>'"$`{}\\]+/).filter((token) => token !== '');
        expect(rawTokens(value)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
