// Unwrapping commands that run other commands (G14c, E27): `sudo`, `timeout`,
// `env`, `xargs`, `bash -c`, `find -exec` and the rest of the table.

import type { Word } from '../shell/ast.js';
import { changeDir } from './effects.js';
import { operandsAndOptions, scanOptions } from './options.js';
import type { WrapperEntry } from './table.js';

export type Unwrapped =
  /** Runs nothing else (or only looks a command up): classify the words as they are. */
  | {
      readonly kind: 'plain';
      /** The wrapper was given no command; under `xargs` its command comes from input. */
      readonly bare: boolean;
    }
  | {
      readonly kind: 'inner';
      readonly words: readonly Word[];
      /** Set when the wrapper changes the working directory. */
      readonly cwd?: string | null;
      /** Arguments of the inner command are not known (`xargs`). */
      readonly blur: boolean;
      /** Text the wrapper replaces at run time (`xargs -I X`), if any. */
      readonly placeholder: string | null;
      /** Variables the wrapper sets for the inner command (`env A=1`). */
      readonly assigned: readonly string[];
      /** The assignment words themselves (`env A=1`), for the values they set. */
      readonly assignments?: readonly Word[];
    }
  | {
      readonly kind: 'script';
      readonly text: string;
      /** The script runs with arguments from input (`parallel`): paths and counts unknown. */
      readonly blur?: boolean;
    }
  | {
      readonly kind: 'find';
      readonly commands: readonly (readonly Word[])[];
      readonly deletes: boolean;
      readonly starts: readonly Word[];
      /** Files find itself writes (`-fprint FILE`). */
      readonly writes: readonly Word[];
    }
  | {
      readonly kind: 'unparseable';
      readonly reason: string;
      /**
       * The shell reads its commands from this descriptor (0: standard input,
       * `bash -`, `bash /dev/stdin`, `sh /dev/fd/0`): a literal here-string
       * given there is the script it runs.
       */
      readonly stdin?: number;
    };

/**
 * The descriptor a script operand names when it is one of the shell's inputs
 * rather than a file (`-`, `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`), or
 * null for a file. A computed word is not asked about.
 */
export function stdinDescriptor(word: Word): number | null {
  if (!word.literal) return null;
  const path = word.value.replace(/\/{2,}/g, '/');
  if (path === '-' || path === '/dev/stdin') return 0;
  const fd = /^\/(?:dev|proc\/(?:self|thread-self|[0-9]+))\/fd\/([0-9]{1,4})$/.exec(path);
  return fd === null ? null : Number(fd[1]);
}

/** `NAME=value`: an assignment env and sudo make before the command. */
export const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
const PLAIN: Unwrapped = { kind: 'plain', bare: false };
const BARE: Unwrapped = { kind: 'plain', bare: true };

export function unwrap(
  name: string,
  words: readonly Word[],
  entry: WrapperEntry,
  cwd: string | null,
): Unwrapped {
  switch (entry.kind) {
    case 'find':
      return unwrapFind(words);
    case 'su':
      return unwrapSu(name, words, entry);
    case 'runner':
      return unwrapRunner(name, words, entry);
    default:
      break;
  }
  const scan = scanOptions(words, 1, entry, { numericFlags: entry.numericFlags === true });
  if (scan.unknown !== null) {
    return { kind: 'unparseable', reason: `unknown option \`${scan.unknown}\` of \`${name}\`` };
  }
  let newCwd: string | null | undefined;
  let script: Word | null | undefined;
  let placeholder: string | null = null;
  for (const option of scan.seen) {
    if (entry.lookup?.includes(option.name)) return PLAIN;
    if (entry.unsupported?.includes(option.name)) {
      return { kind: 'unparseable', reason: `\`${name} ${option.name}\` cannot be read` };
    }
    if (entry.chdir?.includes(option.name))
      newCwd = changeDir(newCwd === undefined ? cwd : newCwd, option.value);
    if (entry.script?.includes(option.name)) script = option.value;
    if (
      entry.kind === 'xargs' &&
      (option.name === '-I' || option.name === '-i' || option.name === '--replace')
    ) {
      placeholder = option.value === null ? '{}' : option.value.value;
    }
  }
  let next = scan.next;
  switch (entry.kind) {
    case 'shell': {
      // `bash -c SCRIPT` (a flag, then the script); `fish --command=SCRIPT` (a value).
      if (script !== undefined) return scriptOf(script ?? words[next], name);
      // A computed word where the shell still reads options may be one (`bash $O -c …`).
      if (words[next] !== undefined && !(words[next] as Word).literal)
        return {
          kind: 'unparseable',
          reason: `a computed word where \`${name}\` reads its options may be one`,
        };
      // Without `-c` a shell runs a script file, or whatever reaches its standard input.
      if (next >= words.length || scan.seen.some((o) => o.name === '-s' || o.name === '-i')) {
        return {
          kind: 'unparseable',
          reason: `\`${name}\` reads its commands from standard input`,
          stdin: 0,
        };
      }
      // `bash -`, `bash /dev/stdin`, `sh /dev/fd/3`: the "file" is one of its inputs.
      const fd = stdinDescriptor(words[next] as Word);
      if (fd !== null)
        return {
          kind: 'unparseable',
          reason: `\`${name}\` reads its commands from ${fd === 0 ? 'standard input' : `descriptor ${fd}`}`,
          stdin: fd,
        };
      return PLAIN;
    }
    case 'flock': {
      if (script !== undefined) return scriptOf(script, name);
      // `flock [options] FILE -c COMMAND` or `flock [options] FILE COMMAND…`.
      if (next >= words.length) return BARE;
      const after = words[next + 1];
      if (after?.literal === true && (after.value === '-c' || after.value === '--command')) {
        return scriptOf(words[next + 2], name);
      }
      break;
    }
    case 'remote':
      return next + 1 < words.length
        ? {
            kind: 'unparseable',
            reason: `a command run through \`${name}\` on another host cannot be read`,
          }
        : PLAIN;
    case 'stdin':
      // `at -f file`: the commands come from a file, which is only processSpawn.
      if (scan.seen.some((option) => entry.files?.includes(option.name))) return PLAIN;
      return { kind: 'unparseable', reason: `\`${name}\` reads its commands from standard input` };
    case 'parallel': {
      // GNU parallel joins its command words and gives them to a shell, once per argument.
      const rest = words.slice(next);
      const end = rest.findIndex((word) => word.literal && /^:::+\+?$|^::::\+?$/.test(word.value));
      const command = end < 0 ? rest : rest.slice(0, end);
      if (command.length === 0) {
        return {
          kind: 'unparseable',
          reason: `\`${name}\` reads its commands from standard input`,
        };
      }
      if (command.some((word) => !word.literal)) {
        return { kind: 'unparseable', reason: `the command of \`${name}\` is not literal` };
      }
      return { kind: 'script', text: command.map((word) => word.value).join(' '), blur: true };
    }
    case 'watch':
      if (!scan.seen.some((option) => option.name === '-x' || option.name === '--exec')) {
        const rest = words.slice(next);
        if (rest.length === 0) return BARE;
        if (rest.some((word) => !word.literal)) {
          return { kind: 'unparseable', reason: `the command of \`${name}\` is not literal` };
        }
        return { kind: 'script', text: rest.map((word) => word.value).join(' ') };
      }
      break;
    default:
      break;
  }
  const positionals = entry.positionals ?? 0;
  if (next + positionals > words.length) return BARE;
  // A computed word where options may still stand could be one (`timeout "$O" 5 cat`):
  // then the words that follow are not what they seem to be.
  if (positionals > 0 && words.slice(next, next + positionals).some((word) => !word.literal))
    return {
      kind: 'unparseable',
      reason: `a computed word before the command of \`${name}\` may be an option`,
    };
  next += positionals;
  const assigned: string[] = [];
  const assignments: Word[] = [];
  if (entry.assignments === true) {
    for (;;) {
      const match = ASSIGNMENT.exec((words[next] as Word | undefined)?.value ?? '');
      if (match === null) break;
      assigned.push(match[1] as string);
      assignments.push(words[next] as Word);
      next++;
    }
  }
  const inner = words.slice(next);
  if (inner.length === 0) return startsShell(entry, scan.seen) ? stdinShell(name) : BARE;
  const result: Unwrapped = {
    kind: 'inner',
    words: inner,
    blur: entry.kind === 'xargs',
    placeholder,
    assigned,
    assignments,
  };
  return newCwd === undefined ? result : { ...result, cwd: newCwd };
}

/** `su [options] [-] [user [args]]`: its options may follow the user, as util-linux reads them. */
function unwrapSu(name: string, words: readonly Word[], entry: WrapperEntry): Unwrapped {
  const { operands, seen, unknown } = operandsAndOptions(words, 1, entry);
  if (unknown.length > 0)
    return {
      kind: 'unparseable',
      reason: `unknown option \`${unknown[0] as string}\` of \`${name}\``,
    };
  const script = seen.find((option) => entry.script?.includes(option.name));
  if (script !== undefined) return scriptOf(script.value, name);
  if (seen.some((option) => entry.argvAfter?.includes(option.name))) {
    // `runuser -u bob [--] cmd args`: the command is given as words.
    const end = words.findIndex((word) => word.literal && word.value === '--');
    const inner = end < 0 ? operands : words.slice(end + 1);
    if (inner.length === 0) return BARE;
    return { kind: 'inner', words: inner, blur: false, placeholder: null, assigned: [] };
  }
  if (entry.scriptOperand !== undefined && operands.length > entry.scriptOperand) {
    return scriptOf(operands[entry.scriptOperand], name);
  }
  // `su`, `su -`, `su root`: a login shell that reads its commands from standard input.
  if (seen.some((option) => entry.lookup?.includes(option.name))) return PLAIN;
  return stdinShell(name);
}

/** Whether the wrapper, given no command, starts a shell (always, or with an option seen). */
function startsShell(entry: WrapperEntry, seen: readonly { readonly name: string }[]): boolean {
  const shell = entry.shell;
  if (shell === undefined) return false;
  return shell === true || seen.some((option) => shell.includes(option.name));
}

function stdinShell(name: string): Unwrapped {
  return {
    kind: 'unparseable',
    reason: `\`${name}\` starts a shell that reads its commands from standard input`,
    stdin: 0,
  };
}

/**
 * `warden exec [options] -- <words>`: the words after `--` are joined into the
 * command line it runs in a shell, so they are read as that script. Its other
 * subcommands run nothing else.
 */
function unwrapRunner(name: string, words: readonly Word[], entry: WrapperEntry): Unwrapped {
  const sub = words[1];
  if (sub === undefined || !sub.literal || sub.value !== 'exec') return PLAIN;
  const scan = scanOptions(words, 2, entry, { numericFlags: false });
  if (scan.unknown !== null)
    return {
      kind: 'unparseable',
      reason: `unknown option \`${scan.unknown}\` of \`${name} exec\``,
    };
  if (scan.ended !== true)
    return {
      kind: 'unparseable',
      reason: `\`${name} exec\` without \`--\` before its command line`,
    };
  const rest = words.slice(scan.next);
  if (rest.length === 0) return BARE;
  if (rest.some((word) => !word.literal))
    return { kind: 'unparseable', reason: `the command line of \`${name} exec\` is not literal` };
  return { kind: 'script', text: rest.map((word) => word.value).join(' ') };
}

function scriptOf(word: Word | null | undefined, name: string): Unwrapped {
  if (word === null || word === undefined) {
    return { kind: 'unparseable', reason: `\`${name}\` is missing its script` };
  }
  if (!word.literal) {
    // An expansion inside a script is code the inner shell reads: it cannot be known.
    return { kind: 'unparseable', reason: `the script of \`${name}\` is not literal` };
  }
  return { kind: 'script', text: word.value };
}

const FIND_GLOBAL = new Set(['-H', '-L', '-P']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fls', '-fprintf']);
/** find's tests, actions and operators that take no argument: a word after one is another. */
const FIND_NO_ARGUMENT = new Set([
  '-print',
  '-print0',
  '-delete',
  '-ls',
  '-quit',
  '-prune',
  '-true',
  '-false',
  '-empty',
  '-depth',
  '-mount',
  '-xdev',
  '-noleaf',
  '-readable',
  '-writable',
  '-executable',
  '-nouser',
  '-nogroup',
  '-daystart',
  '-follow',
  '-ignore_readdir_race',
  '-noignore_readdir_race',
  '-not',
  '-a',
  '-and',
  '-o',
  '-or',
]);

function unwrapFind(words: readonly Word[]): Unwrapped {
  let i = 1;
  while (i < words.length) {
    const value = (words[i] as Word).value;
    if (FIND_GLOBAL.has(value) || /^-O\d*$/.test(value)) i++;
    else if (value === '-D') i += 2;
    else break;
  }
  const starts: Word[] = [];
  while (i < words.length) {
    const word = words[i] as Word;
    if (word.literal && /^[-(!,)]/.test(word.value)) break;
    starts.push(word);
    i++;
  }
  // A computed word may be an action (`-exec`, `-delete`): where it could be one — a start
  // path, or where an action may stand — and where a `;` or `+` ends no `-exec` that was
  // read, what find runs cannot be told.
  const unsure: Unwrapped = {
    kind: 'unparseable',
    reason: 'a computed word in the expression of `find` may be an action',
  };
  if (starts.some((word) => !word.literal || word.value === ';' || word.value === '+'))
    return unsure;
  const commands: Word[][] = [];
  const writes: Word[] = [];
  let deletes = false;
  let previous: Word | undefined;
  while (i < words.length) {
    const word = words[i] as Word;
    i++;
    const before = previous;
    previous = word;
    if (!word.literal) {
      // The argument of a test (`-name "$P"`) is a value; anywhere else it may be an action.
      const takesArgument =
        before?.literal === true &&
        before.value.startsWith('-') &&
        !FIND_NO_ARGUMENT.has(before.value);
      if (!takesArgument) return unsure;
      continue;
    }
    if (word.value === ';' || word.value === '+') return unsure;
    if (word.value === '-delete') deletes = true;
    if (FIND_WRITES.has(word.value)) {
      const target = words[i];
      if (target !== undefined) writes.push(target);
      i += word.value === '-fprintf' ? 2 : 1;
      previous = words[i - 1];
      continue;
    }
    if (!FIND_EXEC.has(word.value)) continue;
    const inner: Word[] = [];
    let closed = false;
    while (i < words.length) {
      const part = words[i] as Word;
      i++;
      if (part.literal && (part.value === ';' || part.value === '+')) {
        closed = true;
        previous = part;
        break;
      }
      inner.push(part);
    }
    if (!closed || inner.length === 0) {
      return { kind: 'unparseable', reason: `\`find ${word.value}\` has no complete command` };
    }
    commands.push(inner);
  }
  if (commands.length === 0 && !deletes && writes.length === 0) return PLAIN;
  return { kind: 'find', commands, deletes, starts, writes };
}
