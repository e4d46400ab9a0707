// Disguises of a rule's target: the same command line spelled the ways the
// classifier claims to read — its wrappers, shells and substitutions, program
// paths, quoting, option spellings, and other spellings of the paths, refs and
// hosts a rule constrains. Bounded: at most `limit` disguises, each built by a
// fixed number of string operations, no recursion.

import { GIT_OPTIONS } from '../classify/git.js';
import { EXTRACTOR_OPTIONS } from '../classify/programs.js';
import type { ClassifierTable, OptionSpec, WrapperEntry } from '../classify/table.js';
import { singleQuote } from '../shell/render.js';
import { basename } from '../util/basename.js';

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
  | 'code'
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

/** The option tables in effect along a command's words: the program's, and a subcommand's after it. */
function optionTables(
  words: readonly string[],
  table: ClassifierTable,
): { spec: OptionSpec; from: number; to: number }[] {
  const name = basename(words[0] ?? '');
  const wrapper = Object.hasOwn(table.wrappers, name) ? table.wrappers[name] : undefined;
  // A wrapper's own options, as far as the command it runs (E43).
  if (wrapper !== undefined) return [{ spec: wrapper, from: 1, to: wrappedAt(words, wrapper) }];
  const extractor = table.programs[name];
  const spec = extractor === undefined ? undefined : EXTRACTOR_OPTIONS[extractor];
  if (extractor === undefined || spec === undefined) return [];
  if (extractor !== 'git') return [{ spec, from: 1, to: words.length }];
  // git: its global options, then the subcommand's own (the first word not an option or its value).
  const values = new Set(spec.values ?? []);
  let i = 1;
  while (i < words.length && (words[i] as string).startsWith('-'))
    i += values.has(words[i] as string) ? 2 : 1;
  const sub = GIT_OPTIONS.subcommands[words[i] ?? ''];
  const out = [{ spec, from: 1, to: i }];
  if (sub !== undefined) out.push({ spec: sub, from: i + 1, to: words.length });
  return out;
}

/**
 * Where the command a wrapper runs starts among its words: after every word that looks like an
 * option (and a value option's value). Unlike the classifier's strict scan it goes on past an
 * option the entry does not know — find's actions (`-exec`) are options to respell here.
 */
function wrappedAt(words: readonly string[], entry: WrapperEntry): number {
  const values = new Set(entry.values ?? []);
  let i = 1;
  while (i < words.length && (words[i] as string).startsWith('-') && words[i] !== '-')
    i += values.has(words[i] as string) ? 2 : 1;
  return Math.min(i, words.length);
}

type Arity = 'flags' | 'values' | 'optionalValues';

function arityOf(spec: OptionSpec, name: string): Arity | null {
  if (spec.values?.includes(name) === true) return 'values';
  if (spec.flags?.includes(name) === true) return 'flags';
  if (spec.optionalValues?.includes(name) === true) return 'optionalValues';
  return null;
}

const PAIRS = new WeakMap<OptionSpec, ReadonlyMap<string, string>>();

/**
 * The long option each short one stands for, as the option tables write
 * them: a short option followed by its long form starting with the same
 * letter (`'-f', '--force'`); or, for a short option not followed by a long
 * one, the one long option of the same kind starting with its letter. None
 * when the table leaves it open.
 */
function pairsOf(spec: OptionSpec & Pick<WrapperEntry, 'same'>): ReadonlyMap<string, string> {
  let pairs = PAIRS.get(spec);
  if (pairs !== undefined) return pairs;
  const found = new Map<string, string>();
  // A wrapper's entry names them (`same`): no guessing.
  if (spec.same !== undefined) {
    for (const group of spec.same) {
      const long = group.find((name) => name.startsWith('--'));
      if (long !== undefined)
        for (const name of group) if (/^-[A-Za-z]$/.test(name)) found.set(name, long);
    }
    PAIRS.set(spec, found);
    return found;
  }
  for (const list of [spec.flags ?? [], spec.values ?? [], spec.optionalValues ?? []]) {
    const initial = (o: string, short: string) =>
      o.startsWith('--') && o.charAt(2).toLowerCase() === short.charAt(1).toLowerCase();
    const adjacent = new Set<string>();
    list.forEach((short, i) => {
      const next = list[i + 1];
      if (!/^-[A-Za-z]$/.test(short) || next === undefined || !next.startsWith('--')) return;
      adjacent.add(short);
      if (initial(next, short)) found.set(short, next);
    });
    for (const short of list) {
      if (!/^-[a-z]$/.test(short) || adjacent.has(short)) continue;
      const longs = list.filter(
        (o) =>
          /^--[a-z]+$/.test(o) &&
          o.charAt(2) === short.charAt(1) &&
          ![...found.values()].includes(o),
      );
      if (longs.length === 1) found.set(short, longs[0] as string);
    }
  }
  pairs = found;
  PAIRS.set(spec, pairs);
  return pairs;
}

function longOf(spec: OptionSpec, short: string): string | null {
  return pairsOf(spec).get(short) ?? null;
}

function shortOf(spec: OptionSpec, long: string): string | null {
  const shorts = [...pairsOf(spec)].filter(([, l]) => l === long).map(([short]) => short);
  return shorts.length === 1 ? (shorts[0] as string) : null;
}

/** The shortest prefix of a long option the classifier reads as it (GNU getopt's abbreviation). */
function abbreviationOf(spec: OptionSpec, long: string): string | null {
  const longs = [...(spec.flags ?? []), ...(spec.values ?? []), ...(spec.optionalValues ?? [])];
  for (let n = 3; n < long.length; n++) {
    const prefix = long.slice(0, n);
    if (longs.every((o) => o === long || !o.startsWith(prefix))) return prefix;
  }
  return null;
}

type Spelling = { words: string[]; how: string };

/** Other spellings of one option word (and its value) that the table says are read the same. */
function spellingsOf(spec: OptionSpec, words: readonly string[], i: number): Spelling[] {
  const word = words[i] as string;
  const next = words[i + 1];
  const out: Spelling[] = [];
  const put = (by: readonly string[], count: number, how: string) =>
    out.push({ words: [...words.slice(0, i), ...by, ...words.slice(i + count)], how });
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const name = eq < 0 ? word : word.slice(0, eq);
    const attached = eq < 0 ? null : word.slice(eq + 1);
    const arity = arityOf(spec, name);
    if (arity === null) return out;
    const takesNext = arity === 'values' && attached === null && next !== undefined;
    const value = attached ?? (takesNext ? (next as string) : null);
    const count = takesNext ? 2 : 1;
    if (arity === 'values' && value !== null) {
      if (attached === null) put([`${name}=${value}`], 2, `option \`${name}=…\``);
      else put([name, attached], 1, `option \`${name} …\``);
    }
    const abbreviated = abbreviationOf(spec, name);
    if (abbreviated !== null)
      put(
        [value === null ? abbreviated : `${abbreviated}=${value}`],
        count,
        `option \`${abbreviated}\``,
      );
    const short = shortOf(spec, name);
    if (short !== null && (arity !== 'optionalValues' || value === null))
      put(value === null ? [short] : [short, value], count, `option \`${short}\``);
    return out;
  }
  if (!/^-[A-Za-z0-9]+$/.test(word)) return out;
  const arity = arityOf(spec, word);
  if (arity !== null) {
    const long = longOf(spec, word);
    if (arity === 'values' && next !== undefined) {
      put([`${word}${next}`], 2, `option \`${word}…\``);
      if (long !== null) {
        put([`${long}=${next}`], 2, `option \`${long}=…\``);
        put([long, next], 2, `option \`${long} …\``);
      }
    } else if (arity === 'flags' && long !== null) put([long], 1, `option \`${long}\``);
    return out;
  }
  // A cluster of short options (`-rf`, `-xzf FILE`): every letter a flag the
  // table knows, the last one perhaps taking the next word as its value.
  const letters = word
    .slice(1)
    .split('')
    .map((l) => `-${l}`);
  const last = letters[letters.length - 1] as string;
  const valued = arityOf(spec, last) === 'values' && next !== undefined;
  if (!letters.slice(0, -1).every((l) => arityOf(spec, l) === 'flags')) return out;
  if (!valued && arityOf(spec, last) !== 'flags') {
    // `-ovalue`: a short option with its value attached.
    const head = word.slice(0, 2);
    if (arityOf(spec, head) === 'values') put([head, word.slice(2)], 1, `option \`${head} …\``);
    return out;
  }
  put(letters, 1, `options \`${letters.join(' ')}\``);
  if (!valued) {
    const reversed = `-${word.slice(1).split('').reverse().join('')}`;
    put([reversed], 1, `options \`${reversed}\``);
  }
  const longs = letters.map((l) => longOf(spec, l) ?? l);
  if (longs.some((w) => w.startsWith('--'))) put(longs, 1, `options \`${longs.join(' ')}\``);
  return out;
}

/** Whether an option word takes the next word as its value. */
function takesNext(spec: OptionSpec, word: string): boolean {
  if (word.startsWith('--')) return !word.includes('=') && arityOf(spec, word) === 'values';
  if (arityOf(spec, word) !== null) return arityOf(spec, word) === 'values';
  return arityOf(spec, `-${word.charAt(word.length - 1)}`) === 'values';
}

/** At most this many option spellings per target. */
const MAX_OPTION_SPELLINGS = 40;

/**
 * The target's options spelled the other ways the program's option table
 * says its extractor reads them: long and short forms, `--opt=value` and
 * `--opt value`, `-ovalue`, abbreviated long options, clusters split and
 * reordered, and `--` before the first operand. A program without an option
 * table in the classifier gets none.
 */
function optionSpellings(words: readonly string[], table: ClassifierTable): Spelling[] {
  const out: Spelling[] = [];
  for (const { spec, from, to } of optionTables(words, table)) {
    let operand = -1;
    for (let i = from; i < to && out.length < MAX_OPTION_SPELLINGS; i++) {
      const word = words[i] as string;
      if (word === '--') break;
      if (!word.startsWith('-') || word === '-') {
        if (operand < 0) operand = i;
        continue;
      }
      out.push(...spellingsOf(spec, words, i));
      // The other names a wrapper's entry gives the option (find's `-execdir` for `-exec`).
      for (const other of sameAs(spec, word))
        out.push({ words: replaceAt(words, i, [other]), how: `option \`${other}\`` });
      if (takesNext(spec, word)) i++;
    }
    if (operand >= 0 && operand < to && !words.includes('--'))
      out.push({
        words: replaceAt(words, operand, ['--', words[operand] as string]),
        how: '`--` before the operands',
      });
  }
  const global = GIT_OPTIONS.global;
  if (table.programs[basename(words[0] ?? '')] === 'git' && words.length > 1) {
    for (const option of [['--no-pager'], ['-C', '.'], ['-c', 'color.ui=never']])
      if (arityOf(global, option[0] as string) !== null)
        out.push({
          words: replaceAt(words, 0, [words[0] as string, ...option]),
          how: `git \`${option.join(' ')}\``,
        });
  }
  return out.slice(0, MAX_OPTION_SPELLINGS);
}

/** The names other than `word` of the option a wrapper's `same` list groups it with. */
function sameAs(spec: OptionSpec & Pick<WrapperEntry, 'same'>, word: string): readonly string[] {
  const group = spec.same?.find((names) => names.includes(word));
  return group === undefined ? [] : group.filter((name) => name !== word);
}

function replaceAt(words: readonly string[], index: number, by: readonly string[]): string[] {
  return [...words.slice(0, index), ...by, ...words.slice(index + 1)];
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
  // Code handed to a shell as data: on standard input, a descriptor, a callback, a file.
  ['code', 'a here-string to `bash -`', (c) => `bash - <<< ${singleQuote(c)}`],
  ['code', 'a here-string to `bash /dev/stdin`', (c) => `bash /dev/stdin <<< ${singleQuote(c)}`],
  ['code', 'a here-string to `sh /dev/fd/0`', (c) => `sh /dev/fd/0 <<< ${singleQuote(c)}`],
  ['code', 'a here-string on descriptor 3', (c) => `bash /dev/fd/3 3<<< ${singleQuote(c)}`],
  ['code', 'a here-string to `. /dev/stdin`', (c) => `. /dev/stdin <<< ${singleQuote(c)}`],
  ['code', 'a here-string to `bash -s`', (c) => `bash -s <<< ${singleQuote(c)}`],
  ['code', 'a `mapfile -C` callback', (c) => `mapfile -C ${singleQuote(`${c} #`)} -c 1 a <<< x`],
  [
    'code',
    'a `readarray -C` callback',
    (c) => `readarray -C ${singleQuote(`${c} #`)} -c 1 a <<< x`,
  ],
  ['code', '`eval`', (c) => `eval ${singleQuote(c)}`],
  ['code', 'a `trap` on exit', (c) => `trap ${singleQuote(c)} EXIT`],
  [
    'code',
    'a file written, then sourced',
    (c) => `printf '%s\\n' ${singleQuote(c)} > .run.sh && . ./.run.sh`,
  ],
];

interface WrapperForm {
  readonly how: string;
  readonly build: string;
  /** The wrapper runs a command its table entry says cannot be read (standard input, another host). */
  readonly unreadable?: boolean;
}

/** The ways the table says a wrapper runs a command, each as a function of the command line. */
function wrapperForms(name: string, entry: WrapperEntry, words: readonly string[]): WrapperForm[] {
  const c = render(words);
  const q = singleQuote(c);
  const filler = (n: number) => Array.from({ length: n }, () => '1').join(' ');
  const before = entry.positionals !== undefined && entry.positionals > 0;
  const pos = before ? `${filler(entry.positionals ?? 0)} ` : '';
  const out: WrapperForm[] = [];
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
    case 'parallel':
      // GNU parallel joins its command words into a script, run once per argument.
      out.push({ how: `wrapper \`${name} … :::\``, build: `${name} ${c} ::: 1` });
      out.push({ how: `wrapper \`${name}\` with input`, build: `echo 1 | ${name} ${c}` });
      out.push({ how: `wrapper \`${name}\` with a quoted command`, build: `${name} ${q} ::: 1` });
      if (flag !== undefined)
        out.push({ how: `wrapper \`${name} ${flag}\``, build: `${name} ${flag} ${c} ::: 1` });
      break;
    case 'stdin':
      // The commands come on standard input: the table says they cannot be read.
      out.push({
        how: `\`${name}\` fed on standard input`,
        build: `echo ${q} | ${name}`,
        unreadable: true,
      });
      out.push({
        how: `\`${name}\` fed a here-string`,
        build: `${name} <<< ${q}`,
        unreadable: true,
      });
      for (const file of entry.files ?? [])
        out.push({
          how: `\`${name} ${file} /dev/stdin\``,
          build: `${name} ${file} /dev/stdin <<< ${q}`,
          unreadable: true,
        });
      break;
    case 'remote':
      // The command runs on another host: the table says it cannot be read.
      out.push({
        how: `wrapper \`${name}\` to a host`,
        build: `${name} localhost ${c}`,
        unreadable: true,
      });
      out.push({
        how: `wrapper \`${name}\` to a host, quoted`,
        build: `${name} localhost ${q}`,
        unreadable: true,
      });
      if (value !== undefined)
        out.push({
          how: `wrapper \`${name} ${value} …\` to a host`,
          build: `${name} ${value} 1 localhost ${q}`,
          unreadable: true,
        });
      break;
    default:
      break;
  }
  if (entry.kind === 'shell')
    out.push({
      how: `shell \`${name}\` fed on standard input`,
      build: `echo ${q} | ${name}`,
      unreadable: true,
    });
  return out;
}

export interface DisguiseOptions {
  /**
   * Also spell the command through the wrappers whose table entries say the
   * command they run cannot be read (`stdin` and `remote` kinds, a shell fed
   * on standard input): the engine asks for those by design (E34), so a deny
   * rule shows only that it asks.
   */
  readonly unreadable?: boolean;
}

/**
 * The disguises of a target, plain first, at most `limit`. Each is a full
 * command line; the same line is never listed twice.
 */
export function disguises(
  target: Target,
  table: ClassifierTable,
  limit: number = MAX_DISGUISES,
  options: DisguiseOptions = {},
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
  for (const option of optionSpellings(words, table))
    add('option', option.how, render(option.words));

  // The same command inside other command lines.
  for (const [kind, how, build] of CONTEXTS) add(kind, how, build(plain));

  // Every wrapper of the table, as the table says it runs a command: first one
  // spelling of each, then a few nestings, then the wrappers' other spellings,
  // so that the cap never leaves a wrapper out.
  const wrappers = Object.keys(table.wrappers)
    .sort()
    .map((name) => {
      const entry = table.wrappers[name] as WrapperEntry;
      const forms = wrapperForms(name, entry, words).filter(
        (form) => options.unreadable === true || form.unreadable !== true,
      );
      return { kind: entry.kind === 'shell' ? 'shell' : 'wrapper', entry, forms } as const;
    });
  for (const { kind, forms } of wrappers) {
    const first = forms[0];
    if (first !== undefined && !add(kind, first.how, first.build)) return out;
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
    if (uses.every((name) => table.wrappers[name] !== undefined) && !add('nested', how, command))
      return out;
  }

  const expanded = new Set<string>();
  for (const { kind, entry, forms } of wrappers) {
    // A command fed on standard input is tried once per entry (the POSIX shells share one).
    const key = JSON.stringify(entry);
    const again = expanded.has(key);
    expanded.add(key);
    for (const form of forms.slice(1))
      if (!(again && form.unreadable === true) && !add(kind, form.how, form.build)) return out;
  }
  return out;
}
