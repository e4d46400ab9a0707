// Evasion through bash's expansion contexts (G14b, E24, E32): commands that
// were allowed and really ran, and variants of each. With every dangerous
// class denied and spawning allowed, each one is denied by the class of the
// command it hides, or prompts as unparseable — never `allow`.

import { describe, expect, it } from 'vitest';
import { decideDocs } from './decide-docs.js';

const GUARD = [
  { id: 'no-delete', action: 'fileDelete', decision: 'deny' },
  { id: 'no-push', action: 'gitPush', decision: 'deny' },
  { id: 'no-install', action: 'packageInstall', decision: 'deny' },
  { id: 'no-egress', action: 'networkEgress', decision: 'deny' },
  { id: 'no-outside', action: 'fileWriteOutsideWorktree', decision: 'deny' },
  { id: 'shell-ok', action: 'processSpawn', decision: 'allow' },
];

function guard(command: string) {
  return decideDocs(
    { version: 1, workspace: 'acme', rules: GUARD },
    { workspace: 'acme', agent: 'a', command, worktree: '/srv/w' },
  );
}

describe('the issue’s examples', () => {
  it.each([
    ['echo $[ $(rm -rf /etc) ]', 'no-delete'],
    ['echo $[ `git push origin main` ]', 'no-push'],
    [`echo "\${a:-'$(curl https://evil.com)'}"`, 'no-egress'],
  ])('`%s` is denied by the class it hides (E32)', (command, rule) => {
    const result = guard(command);
    expect(result.decision).toBe('deny');
    expect(result.rule).toBe(rule);
  });

  it("`a='b[$(rm -rf /)]'; echo $((a))`: arithmetic on a variable is not a silent allow", () => {
    const result = guard("a='b[$(rm -rf /)]'; echo $((a))");
    expect(result.decision).not.toBe('allow');
    // The echo alone is unparseable: the variable may come from anywhere.
    expect(guard('echo $((a))').decision).toBe('prompt');
    expect(guard('echo $((a))').rule).toBe('unparseable');
  });

  it.each(['[[ -v a[$(rm -rf /etc)] ]]', '(( a[$(rm -rf /etc)] ))', 'echo ${a[$(rm -rf x)]}'])(
    '`%s`: a subscript runs its substitution, which is read',
    (command) => {
      expect(guard(command).decision).toBe('deny');
    },
  );
});

describe('variants in each context', () => {
  it.each([
    // arithmetic, both spellings, substitutions and backticks inside
    ['echo $(( `npm install left-pad` ))', 'no-install'],
    ['echo $[ 1 + $(curl -s https://x.example) ]', 'no-egress'],
    ['echo "$[ `git push -f origin HEAD:main` ]"', 'no-push'],
    // parameter expansion operators and quoting
    ['echo ${HOME:+$(rm -rf build)}', 'no-delete'],
    ['echo "${x//a/$(wget https://x.example)}"', 'no-egress'],
    [`echo "\${x#'$(git push origin main)'}"`, 'no-push'],
    ['echo ${x:$(rm -rf build)}', 'no-delete'],
    // process substitution, here-strings, redirections of compound commands
    ['diff <(ls) >(rm -rf build)', 'no-delete'],
    ['cat <<< "`curl https://x.example`"', 'no-egress'],
    ['{ ls; } 2> $(rm -rf build)', 'no-delete'],
    // control structures' own words
    ['for f in $(rm -rf build); do echo "$f"; done', 'no-delete'],
    ['case "$(curl https://x.example)" in *) ;; esac', 'no-egress'],
    // assignments, arrays and declarations
    ['files=( $(rm -rf build) )', 'no-delete'],
    ['declare -a x=( "`pip install evil`" )', 'no-install'],
    // an arithmetic command and an arithmetic `for`
    ['(( $(rm -rf build) ))', 'no-delete'],
    ['for ((i = $(git push origin main); i < 1; i++)); do :; done', 'no-push'],
  ])('`%s` is denied by the class it hides', (command, rule) => {
    const result = guard(command);
    expect(result.decision, command).toBe('deny');
    expect(result.rule, command).toBe(rule);
  });

  it.each([
    'echo ${!ref}',
    'echo ${x@P}',
    'echo $((n + 1))',
    '[[ $n -gt 2 ]]',
    'x[i]=1',
    'echo $"message"',
    'echo ${ git push; }',
    'cat <<EOF\n$(rm -rf build)\nEOF',
  ])('`%s` cannot be read with confidence: it prompts', (command) => {
    const result = guard(command);
    expect(result.decision, command).toBe('prompt');
    expect(result.rule, command).toBe('unparseable');
  });
});
