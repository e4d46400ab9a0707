// Builtins that evaluate a variable name run code hidden in it: a subscript
// (`a[$(cmd)]`) is evaluated, and so is a variable's value read as a number
// (`let x` with `x='a[$(cmd)]'` set by an earlier call, which no command
// line shows). Such a builtin with a name that is not plain and literal, or
// arithmetic over names, is unparseable (G14b, E24): it asks, never passes.

import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';

const policy = { version: 1, workspace: 'acme', rules: [] };
const ask = (command: string) => ({ workspace: 'acme', agent: 'a', command });
const decisionOf = (command: string) => decideDocs(policy, ask(command));

describe('builtins that evaluate a variable name (G14b, E24)', () => {
  it.each([
    'let x',
    'let y=x',
    'let "y = x + 1"',
    'declare -i y=x',
    'declare -i y',
    'typeset -i n=m',
    'local -i n=$m',
    'declare -n ref=target',
    "declare 'a[$(rm -rf /etc)]=1'",
    'declare "$x"=1',
    'printf -v "$x" %s 1',
    "printf -v 'a[$(id)]' %s 1",
    'read "$x" <<< 1',
    'read -r "a[$i]"',
    'read -a "$x"',
    'read -ra "$x"',
    'test -v "$x"',
    '[ -v "$x" ]',
    "[ -v 'a[$(id)]' ]",
    "unset 'a[$(id)]'",
    'unset "$x"',
    'mapfile -t "$x" < f',
    'getopts ab "$x"',
    'wait -p "$x"',
  ])('`%s` is unparseable', (command) => {
    const result = decisionOf(command);
    expect(result.decision).toBe('prompt');
    expect(result.facets.some((f) => f.rule === 'unparseable')).toBe(true);
  });

  it.each([
    'let 1+2',
    'declare x=1',
    'declare -a list',
    'export PATH=/usr/bin',
    'local name="$1"',
    'readonly VERSION=3',
    'printf -v out %s "$x"',
    'printf \'%s\\n\' "$x"',
    'read -r line < f',
    'while read -r a b; do echo "$a"; done < f',
    'read -p "name? " -r name',
    'read -rp "name? " name',
    'test -v HOME',
    "[ -v 'a[3]' ]",
    'unset tmp',
    'mapfile -t lines < f',
    'getopts ab opt "$@"',
    'test -f "$x"',
  ])('`%s` stays readable', (command) => {
    expect(decisionOf(command).decision).toBe('allow');
  });
});
