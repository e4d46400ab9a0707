// Disguises of a rule's target: the same command line spelled the ways the
// classifier claims to read — its wrappers, shells and substitutions, program
// paths, quoting, option spellings, and other spellings of the paths, refs and
// hosts a rule constrains. Bounded: at most `limit` disguises, each built by a
// fixed number of string operations, no recursion.

import type { ClassifierTable, WrapperEntry } from '../classify/table.js';
import { singleQuote } from '../shell/render.js';

export type DisguiseKind =
  | 'plain'
  | 'program'
  | 'quoting'
  | 'option'
  | 'value'
  | 'chain'
  | 'substitution'
  | 'wrapper'
  | 'shell'
  | 'nested';

export interface Disguise {
  /** The command line as the agent would send it. */
  readonly command: string;
  readonly kind: DisguiseKind;
  /** What was changed, in a few words: `wrapper \`sudo\``, `ref \`refs/heads/main\``. */
  readonly how: string;
}

export type SlotKey = 'paths' | 'refs' | 'hosts';

/** A word of the target that holds a constrained value, and how it is written there. */
export interface Slot {
  readonly index: number;
  readonly key: SlotKey;
  /** The value itself, or inside a URL (`https://<host>/`). */
  readonly form: 'plain' | 'url';
  readonly value: string;
}

/** The command a rule is about, as word values (unquoted), with its constrained values. */
export interface Target {
  readonly words: readonly string[];
  readonly slots: readonly Slot[];
}

/** The hard cap of disguises per rule. */
export const MAX_DISGUISES = 240;

/** Words that need no quoting in a shell. */
const BARE = /^[A-Za-z0-9_./:@%+=,-]+$/;

function shellWord(word: string): string {
  return word !== '' && BARE.test(word) ? word : singleQuote(word);
}

export function render(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}

function slotWord(slot: Slot, value: string): string {
  return slot.form === 'url' ? `https://${value}/` : value;
}

/** Other spellings of a path that name the same file. */
export function pathSpellings(path: string): string[] {
  const trimmed = path.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  const out = [`${trimmed}/`];
  if (path.startsWith('/')) {
    const dir = trimmed.slice(0, slash) || '';
    const parent = dir.slice(dir.lastIndexOf('/') + 1);
    out.push(`/.${trimmed}`, `/${trimmed}`);
    if (dir !== '' && parent !== '') out.push(`${dir}/../${parent}${trimmed.slice(slash)}`);
    if (slash > 0) out.push(`${dir}/.${trimmed.slice(slash)}`);
  } else {
    out.push(`./${trimmed}`, `zz/../${trimmed}`, `.//${trimmed}`);
  }
  return out;
}

/** Other spellings of a branch in a push: full ref, refspecs, forced, deleted. */
export function refSpellings(ref: string): string[] {
  const short = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
  return [
    `refs/heads/${short}`,
    `HEAD:${short}`,
    `HEAD:refs/heads/${short}`,
    `+${short}`,
    `+refs/heads/${short}`,
    `${short}:${short}`,
    `:${short}`,
  ];
}

/** Other spellings of a host: case, a trailing dot, a user, a port. */
export function hostSpellings(host: string, form: 'plain' | 'url'): string[] {
  const upper = host.toUpperCase();
  const mixed = host.charAt(0).toUpperCase() + host.slice(1);
  const out = [upper, mixed, `${host}.`, `${upper}.`];
  if (form === 'url') out.push(`${host}:443`, `user@${host}`, `${host}.:443`);
  else out.push(`user@${host}`, `user@${upper}.`);
  return out;
}

/** Long forms of short options for programs whose rules often name an option. */
const LONG_FORMS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  rm: { r: ['-R', '--recursive'], R: ['-r', '--recursive'], f: ['--force'], v: ['--verbose'] },
  git: { f: ['--force'], u: ['--set-upstream'], n: ['--dry-run'], m: ['--message'] },
  curl: { X: ['--request'], d: ['--data'], o: ['--output'], L: ['--location'] },
  wget: { O: ['--output-document'], q: ['--quiet'] },
  npm: { g: ['--global'], D: ['--save-dev'] },
};

function optionSpellings(words: readonly string[]): { words: string[]; how: string }[] {
  const out: { words: string[]; how: string }[] = [];
  const program = basename(words[0] ?? '');
  const forms = LONG_FORMS[program] ?? {};
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as string;
    if (!/^-[A-Za-z]+$/.test(word)) continue;
    const letters = word.slice(1).split('');
    if (letters.length > 1) {
      const split = letters.map((l) => `-${l}`);
      out.push({ words: replaceAt(words, i, split), how: `options \`${split.join(' ')}\`` });
      const reversed = `-${[...letters].reverse().join('')}`;
      out.push({ words: replaceAt(words, i, [reversed]), how: `options \`${reversed}\`` });
      const long = letters.map((l) => forms[l]?.find((f) => f.startsWith('--')) ?? `-${l}`);
      if (long.some((w) => w.startsWith('--')))
        out.push({ words: replaceAt(words, i, long), how: `options \`${long.join(' ')}\`` });
    } else {
      for (const other of forms[letters[0] as string] ?? [])
        out.push({ words: replaceAt(words, i, [other]), how: `option \`${other}\`` });
    }
  }
  if (program === 'git' && words.length > 1) {
    for (const global of [['--no-pager'], ['-C', '.'], ['-c', 'color.ui=never']])
      out.push({
        words: replaceAt(words, 0, [words[0] as string, ...global]),
        how: `git \`${global.join(' ')}\``,
      });
  }
  return out;
}

function replaceAt(words: readonly string[], index: number, by: readonly string[]): string[] {
  return [...words.slice(0, index), ...by, ...words.slice(index + 1)];
}

function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/** Ways to run a command line `c` inside another one, without a wrapper program. */
const CONTEXTS: readonly (readonly [DisguiseKind, string, (c: string) => string])[] = [
  ['chain', '`true && …`', (c) => `true && ${c}`],
  ['chain', '`…;` after another command', (c) => `cd . ; ${c}`],
  ['chain', '`false || …`', (c) => `false || ${c}`],
  ['chain', 'a pipe', (c) => `echo y | ${c}`],
  ['chain', 'a subshell', (c) => `( ${c} )`],
  ['chain', 'a group', (c) => `{ ${c}; }`],
  ['chain', 'a background job', (c) => `${c} &`],
  ['chain', 'a redirection', (c) => `${c} 2>/dev/null`],
  ['chain', 'a leading assignment', (c) => `LC_ALL=C ${c}`],
  ['chain', 'a new line', (c) => `echo start\n${c}`],
  ['substitution', '`$(…)`', (c) => `echo $(${c})`],
  ['substitution', 'backticks', (c) => `echo \`${c}\``],
  ['substitution', '`"$(…)"`', (c) => `echo "$(${c})"`],
  ['substitution', 'an assignment of `$(…)`', (c) => `out=$(${c})`],
  ['substitution', 'process substitution', (c) => `cat <(${c})`],
  ['substitution', 'a nested `$(…)`', (c) => `echo $(echo $(${c}))`],
];

/** The ways the table says a wrapper runs a command, each as a function of the command line. */
function wrapperForms(
  name: string,
  entry: WrapperEntry,
  words: readonly string[],
): { how: string; build: string }[] {
  const c = render(words);
  const q = singleQuote(c);
  const filler = (n: number) => Array.from({ length: n }, () => '1').join(' ');
  const before = entry.positionals !== undefined && entry.positionals > 0;
  const pos = before ? `${filler(entry.positionals ?? 0)} ` : '';
  const out: { how: string; build: string }[] = [];
  const skip = new Set([
    ...(entry.lookup ?? []),
    ...(entry.unsupported ?? []),
    ...(entry.script ?? []),
  ]);
  const flag = (entry.flags ?? []).find((f) => !skip.has(f) && f !== '-' && f.startsWith('-'));
  const value = (entry.values ?? []).find((v) => !skip.has(v) && !(entry.chdir ?? []).includes(v));
  const long = (entry.values ?? []).find(
    (v) => v.startsWith('--') && !skip.has(v) && !(entry.chdir ?? []).includes(v),
  );
  switch (entry.kind) {
    case 'exec':
      out.push({ how: `wrapper \`${name}\``, build: `${name} ${pos}${c}` });
      if (flag !== undefined)
        out.push({ how: `wrapper \`${name} ${flag}\``, build: `${name} ${flag} ${pos}${c}` });
      if (value !== undefined)
        out.push({ how: `wrapper \`${name} ${value} …\``, build: `${name} ${value} 1 ${pos}${c}` });
      if (long !== undefined)
        out.push({ how: `wrapper \`${name} ${long}=…\``, build: `${name} ${long}=1 ${pos}${c}` });
      if (entry.numericFlags === true)
        out.push({ how: `wrapper \`${name} -5\``, build: `${name} -5 ${c}` });
      if (name === 'env') out.push({ how: 'wrapper `env VAR=x`', build: `env FOO=bar ${c}` });
      break;
    case 'shell':
      for (const script of entry.script ?? [])
        out.push({ how: `shell \`${name} ${script}\``, build: `${name} ${script} ${q}` });
      if (flag !== undefined && (entry.script ?? []).length > 0)
        out.push({
          how: `shell \`${name} ${flag} ${entry.script?.[0] ?? ''}\``,
          build: `${name} ${flag} ${entry.script?.[0] ?? ''} ${q}`,
        });
      break;
    case 'xargs':
      out.push({ how: `wrapper \`${name}\``, build: `echo | ${name} ${c}` });
      if (flag !== undefined)
        out.push({ how: `wrapper \`${name} ${flag}\``, build: `echo | ${name} ${flag} ${c}` });
      break;
    case 'find':
      out.push({ how: `\`${name} -exec\``, build: `${name} . -exec ${c} \\;` });
      out.push({ how: `\`${name} -execdir\``, build: `${name} . -execdir ${c} {} +` });
      break;
    case 'watch':
      out.push({ how: `wrapper \`${name}\``, build: `${name} ${q}` });
      out.push({ how: `wrapper \`${name} -x\``, build: `${name} -x ${c}` });
      break;
    case 'flock':
      out.push({ how: `wrapper \`${name}\``, build: `${name} /tmp/lock ${c}` });
      for (const script of entry.script ?? [])
        out.push({
          how: `wrapper \`${name} ${script}\``,
          build: `${name} /tmp/lock ${script} ${q}`,
        });
      break;
    case 'su':
      for (const script of entry.script ?? [])
        out.push({ how: `wrapper \`${name} ${script}\``, build: `${name} ${script} ${q}` });
      if (entry.scriptOperand !== undefined)
        out.push({
          how: `wrapper \`${name}\` with a script operand`,
          build: `${name} ${filler(entry.scriptOperand)} ${q}`,
        });
      for (const after of entry.argvAfter ?? [])
        out.push({
          how: `wrapper \`${name} ${after} … --\``,
          build: `${name} ${after} root -- ${c}`,
        });
      break;
    case 'runner':
      out.push({ how: `wrapper \`${name} exec --\``, build: `${name} exec -- ${c}` });
      break;
    default:
      // `remote` runs elsewhere, `stdin` and `parallel` take their commands as data: no spelling of this one.
      break;
  }
  return out;
}

/**
 * The disguises of a target, plain first, at most `limit`. Each is a full
 * command line; the same line is never listed twice.
 */
export function disguises(
  target: Target,
  table: ClassifierTable,
  limit: number = MAX_DISGUISES,
): Disguise[] {
  const out: Disguise[] = [];
  const seen = new Set<string>();
  const add = (kind: DisguiseKind, how: string, command: string): boolean => {
    if (out.length >= limit) return false;
    if (!seen.has(command)) {
      seen.add(command);
      out.push({ command, kind, how });
    }
    return out.length < limit;
  };
  const words = target.words;
  const plain = render(words);
  add('plain', 'as written', plain);

  // Other spellings of each constrained value, then of the program and its options.
  for (const slot of target.slots) {
    const spellings =
      slot.key === 'paths'
        ? pathSpellings(slot.value)
        : slot.key === 'refs'
          ? refSpellings(slot.value)
          : hostSpellings(slot.value, slot.form);
    const noun = slot.key === 'paths' ? 'path' : slot.key === 'refs' ? 'ref' : 'host';
    for (const spelling of spellings) {
      const changed = replaceAt(words, slot.index, [slotWord(slot, spelling)]);
      add('value', `${noun} \`${spelling}\``, render(changed));
      if (slot.key === 'hosts' && slot.form === 'url')
        add(
          'value',
          `URL \`http://${spelling}\``,
          render(replaceAt(words, slot.index, [`http://${spelling}/x`])),
        );
    }
  }
  const program = words[0] ?? '';
  if (!program.includes('/')) {
    for (const dir of [...table.systemPaths.slice(0, 3), '/opt/tools/bin'])
      add(
        'program',
        `program path \`${dir}/${program}\``,
        render([`${dir}/${program}`, ...words.slice(1)]),
      );
  }
  const rest = render(words.slice(1));
  const tail = rest === '' ? '' : ` ${rest}`;
  add('quoting', 'program in single quotes', `'${program}'${tail}`);
  add('quoting', 'program in double quotes', `"${program}"${tail}`);
  add(
    'quoting',
    'program with an empty quote inside',
    `${program.slice(0, 1)}''${program.slice(1)}${tail}`,
  );
  add('quoting', 'program with a backslash', `\\${program}${tail}`);
  add('quoting', 'every word quoted', words.map((w) => singleQuote(w)).join(' '));
  add('quoting', 'extra white space', `  ${words.map(shellWord).join('   ')}  `);
  for (const option of optionSpellings(words)) add('option', option.how, render(option.words));

  // The same command inside other command lines.
  for (const [kind, how, build] of CONTEXTS) add(kind, how, build(plain));

  // Every wrapper of the table, as the table says it runs a command.
  const names = Object.keys(table.wrappers).sort();
  for (const name of names) {
    const entry = table.wrappers[name] as WrapperEntry;
    for (const form of wrapperForms(name, entry, words)) {
      if (!add(entry.kind === 'shell' ? 'shell' : 'wrapper', form.how, form.build)) return out;
    }
  }

  // A few nestings: wrappers around shells around substitutions.
  const q = singleQuote(plain);
  const nested: [readonly string[], string, string][] = [
    [['sudo', 'bash'], '`sudo` around `bash -c`', `sudo bash -c ${q}`],
    [
      ['env', 'timeout', 'sh'],
      '`env` around `timeout` around `sh -c`',
      `env FOO=1 timeout 5 sh -c ${q}`,
    ],
    [['bash'], '`bash -c` around `$(…)`', `bash -c ${singleQuote(`echo $(${plain})`)}`],
    [['xargs', 'sudo'], '`xargs` around `sudo`', `echo | xargs sudo ${plain}`],
    [['sh'], '`sh -c` inside `sh -c`', `sh -c ${singleQuote(`sh -c ${q}`)}`],
  ];
  if (!program.includes('/'))
    nested.push([['nice'], '`nice` around `/usr/bin/…`', `nice -n 5 /usr/bin/${plain}`]);
  for (const [uses, how, command] of nested) {
    if (uses.every((name) => table.wrappers[name] !== undefined)) add('nested', how, command);
  }
  return out;
}
