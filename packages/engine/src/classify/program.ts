// From the words of a simple command to the program that really runs: wrappers
// are followed (E27), and what the shell would run as computed text is refused
// (G14b): evaluating builtins, names filled in at run time, arithmetic that can
// expand `$(…)`, variables the shell later runs.

import type { CommandWords } from '../match/commands.js';
import { programInfo } from '../match/commands.js';
import type { WrapperReading } from '../match/wrapper-options.js';
import { exactWord, readWrapper } from '../match/wrapper-options.js';
import type { Word } from '../shell/ast.js';
import type { Effect, ExtractContext, KeyValues } from './effects.js';
import { LIST_KEYS, harmlessProgramSetting, openArgs } from './effects.js';
import { EXTRACTOR_FUNCTIONS } from './programs.js';
import type { ClassifierTable } from './table.js';
import { stdinDescriptor, unwrap } from './wrappers.js';

/** What the walker knows that reading one command needs. */
export interface ReadingContext {
  readonly table: ClassifierTable;
  readonly worktree: string | null;
  /** Functions the command line defines; calling one runs its body. */
  readonly functions: ReadonlySet<string>;
  readonly cdpath: boolean;
  /** The command line sets PATH, so no bare program name is what it seems. */
  readonly pathChanged: boolean;
}

export interface ProgramResult {
  readonly kind: 'program';
  readonly words: readonly Word[];
  readonly cwd: string | null;
  readonly blur: boolean;
  /** The command runs in the shell itself (so a `cd` changes the directory). */
  readonly inShell: boolean;
  readonly assigned: ReadonlySet<string>;
  /** The values assigned for the command (`A=1 cmd`, `env A=1 cmd`); null when not literal. */
  readonly environment: ReadonlyMap<string, string | null>;
  /** Text replaced at run time in the arguments (`xargs -I X`, `find -exec … {}`), or null. */
  readonly placeholder: string | null;
  /** Why an assignment for the command makes it unreadable (`LD_PRELOAD=…`), or null. */
  readonly hazard: string | null;
  /** The program is a function the command line defines. */
  readonly callsFunction: boolean;
  /** The words at each wrapper it was found under, outermost first (`sudo -u x rm y`, …). */
  readonly wrappers: Wrappers;
}

/** The words of each wrapper a command runs under, outermost first: restrictive rules read them too. */
export type Wrappers = readonly (readonly Word[])[];

export type Resolved =
  | ProgramResult
  | {
      readonly kind: 'script';
      readonly text: string;
      readonly cwd: string | null;
      readonly blur: boolean;
      readonly placeholder: string | null;
      /** The shell that runs the script among them (`bash -c …`). */
      readonly wrappers: Wrappers;
      /** An assignment before it that makes the line unreadable (`BASH_ENV=…`), if any (E42). */
      readonly hazard: string | null;
    }
  | {
      readonly kind: 'find';
      readonly words: readonly Word[];
      readonly commands: readonly (readonly Word[])[];
      readonly deletes: boolean;
      readonly starts: readonly Word[];
      readonly writes: readonly Word[];
      readonly cwd: string | null;
      readonly assigned: ReadonlySet<string>;
      /** The wrappers around `find` itself. */
      readonly wrappers: Wrappers;
      /** An assignment before it that makes the line unreadable, if any (E42). */
      readonly hazard: string | null;
    }
  | {
      readonly kind: 'raw';
      readonly reason: string;
      /**
       * Code the command runs that is still classified, without a facet: a
       * script with text filled in at run time, `eval`'s words, a `trap` or
       * `mapfile -C` callback.
       */
      readonly script?: string;
      /** A shell that reads its commands from this descriptor: a here-string there is its script. */
      readonly stdin?: number;
      /** Where the shell reading `stdin` stands. */
      readonly cwd?: string | null;
      /** The wrappers read with confidence before the command could not be. */
      readonly wrappers: Wrappers;
    };

const IN_SHELL_WRAPPERS = new Set(['builtin', 'command']);
const DECLARERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
const ASSIGNED_NAME = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;

/** Why a variable assignment cannot be read with confidence, or null. */
export function assignmentHazard(
  table: ClassifierTable,
  word: Word,
  persistent = false,
): string | null {
  const match = ASSIGNED_NAME.exec(word.value);
  const name = match?.[1];
  if (name !== undefined && table.dangerousVariables.includes(name)) {
    return `assigning \`${name}\` changes what the shell runs`;
  }
  // Set for later commands (`export X=…`, `X=…` alone), it acts where no command shows it.
  if (
    persistent &&
    name !== undefined &&
    table.persistentVariables?.includes(name) === true &&
    !(
      word.literal &&
      match !== null &&
      harmlessProgramSetting(name, word.value.slice(match[0].length))
    )
  ) {
    return `setting \`${name}\` for later commands changes what they run or reach`;
  }
  // A quoted `$(…)` in a value runs when arithmetic reads the variable as a subscript.
  if (match !== null && /\$\(|`/.test(word.value.slice(match[0].length))) {
    return 'a value holding `$(…)` may run when the variable is read as a number';
  }
  return null;
}

/** A name with a subscript of plain digits (`a[3]`): its subscript runs nothing. */
const PLAIN_ELEMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?$/;

/** Options of the name-taking builtins that take a value. */
const VALUED_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  read: new Set(['-a', '-d', '-i', '-n', '-N', '-p', '-t', '-u']),
  mapfile: new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']),
  readarray: new Set(['-d', '-n', '-O', '-s', '-u', '-C', '-c']),
};

const plainName = (word: Word | undefined): boolean =>
  word !== undefined && word.literal && PLAIN_ELEMENT.test(word.value);

/**
 * Builtins that take a variable name and evaluate it: a subscript in the name
 * (`a[$(cmd)]`) runs, and so does a variable's value read as a number (`let x`
 * with `x='a[$(cmd)]'` set by an earlier call). Such a name must be plain and
 * literal; arithmetic over names is not read at all.
 */
function nameHazard(base: string, words: readonly Word[]): string | null {
  const args = words.slice(1);
  const because = `\`${base}\` evaluates a variable name, where a subscript or a value read as a number can run code`;
  switch (base) {
    case 'let':
      // Every argument is arithmetic; a name in it is evaluated with its value.
      return args.every((w) => w.literal && /^[0-9+\-*/%<>=!&|^~() ]*$/.test(w.value))
        ? null
        : because;
    case 'declare':
    case 'typeset':
    case 'local':
    case 'export':
    case 'readonly': {
      const flags = args.filter((w) => w.value.startsWith('-') || w.value.startsWith('+'));
      // `-i` makes each value arithmetic; `-n` makes a name a reference evaluated later.
      if (flags.some((w) => !w.literal || /^[-+][a-zA-Z]*[in]/.test(w.value))) return because;
      for (const word of args) {
        if (word.value.startsWith('-') || word.value.startsWith('+')) continue;
        const name = /^([^=]*)(\+?=|$)/.exec(word.value)?.[1] ?? word.value;
        if (!PLAIN_ELEMENT.test(name)) return because;
      }
      return null;
    }
    case 'printf':
    case 'wait': {
      const at = args.findIndex((w) => w.value === (base === 'printf' ? '-v' : '-p'));
      return at >= 0 && !plainName(args[at + 1]) ? because : null;
    }
    case 'test':
    case '[': {
      const at = args.findIndex((w) => w.value === '-v' || w.value === '-R');
      return at >= 0 && !plainName(args[at + 1]) ? because : null;
    }
    case 'getopts':
      // `getopts OPTSTRING NAME [ARG…]`: the name is evaluated, the rest is data.
      return args.length > 1 && !plainName(args[1]) ? because : null;
    case 'read':
    case 'unset':
    case 'mapfile':
    case 'readarray': {
      // Option values (`read -p prompt`, `mapfile -d x`) are plain text; names are the rest.
      const valued = VALUED_OPTIONS[base] ?? new Set<string>();
      for (let i = 0; i < args.length; i++) {
        const word = args[i] as Word;
        if (word.value.startsWith('-') && word.literal) {
          // Combined flags (`-rp`) take a value when their last letter does.
          const last = `-${word.value.slice(-1)}`;
          if (valued.has(word.value) || (/^-[a-zA-Z]+$/.test(word.value) && valued.has(last))) {
            i++;
            if (last === '-a' && !plainName(args[i])) return because;
          }
          continue;
        }
        if (!word.literal || !PLAIN_ELEMENT.test(word.value)) return because;
      }
      return null;
    }
    default:
      return null;
  }
}

/**
 * The code an evaluating builtin runs, when it is given literally: `eval`'s
 * words joined, `trap`'s action, the callback of `mapfile -C`, `readarray -C`,
 * `complete -C` and `compgen -C`. It is classified although the command stays
 * unreadable, so a deny it meets still denies (E42).
 */
export function evaluatedCode(base: string, words: readonly Word[]): string | null {
  const args = words.slice(1);
  const literal = (word: Word | undefined): string | null =>
    word !== undefined && word.literal ? word.value : null;
  switch (base) {
    case 'eval': {
      const from = args[0]?.value === '--' ? args.slice(1) : args;
      return from.length > 0 && from.every((w) => w.literal)
        ? from.map((w) => w.value).join(' ')
        : null;
    }
    case 'trap': {
      const operands = args.filter((w) => !(w.literal && /^-[lp-]?$|^--$/.test(w.value)));
      return operands.length >= 2 ? literal(operands[0]) : null;
    }
    case 'mapfile':
    case 'readarray':
    case 'complete':
    case 'compgen': {
      for (let i = 0; i < args.length; i++) {
        const word = args[i] as Word;
        if (!word.literal || !word.value.startsWith('-')) continue;
        if (word.value === '-C') return literal(args[i + 1]);
        // Bundled (`-tC cb`) or attached (`-Ccb`).
        const at = word.value.indexOf('C');
        if (/^-[a-zA-Z]+$/.test(word.value) && at > 0)
          return at === word.value.length - 1 ? literal(args[i + 1]) : word.value.slice(at + 1);
      }
      return null;
    }
    default:
      return null;
  }
}

/** Whether a `mapfile`/`readarray`/`complete`/`compgen` command names a callback it runs. */
function namesCallback(base: string, words: readonly Word[]): boolean {
  return (
    ['mapfile', 'readarray', 'complete', 'compgen'].includes(base) &&
    words.slice(1).some((w) => !w.literal || /^-[a-zA-Z]*C/.test(w.value))
  );
}

function hazard(table: ClassifierTable, base: string, words: readonly Word[]): string | null {
  if (table.evaluators.includes(base)) return `\`${base}\` runs text as code`;
  if (namesCallback(base, words)) return `\`${base} -C\` runs its callback as code`;
  if (
    table.arithmeticBuiltins.includes(base) &&
    words.some((w, i) => i > 0 && /\$\(|`|\$\{/.test(w.value))
  ) {
    return `\`${base}\` evaluates arithmetic, where a subscript can run \`$(…)\``;
  }
  const named = nameHazard(base, words);
  if (named !== null) return named;
  if (DECLARERS.has(base)) {
    for (const word of words.slice(1)) {
      const problem = assignmentHazard(table, word, true);
      if (problem !== null) return problem;
    }
  }
  return null;
}

/** Records `NAME=value`: the value when it is literal, else null. */
function noteAssignment(environment: Map<string, string | null>, word: Word): void {
  const match = ASSIGNED_NAME.exec(word.value);
  if (match === null || match[1] === undefined) return;
  const append = match[0].endsWith('+=');
  environment.set(
    match[1],
    word.literal && match[2] === undefined && !append ? word.value.slice(match[0].length) : null,
  );
}

/** Follows wrappers down to the command that runs (E27). */
export function resolveProgram(
  ctx: ReadingContext,
  words: readonly Word[],
  cwd: string | null,
  blur: boolean,
  placeholder: string | null,
  assigned: readonly string[],
  assignments: readonly Word[] = [],
): Resolved {
  let current = words;
  const stages: (readonly Word[])[] = [];
  let currentCwd = cwd;
  let blurred = blur;
  let replaced = placeholder;
  let inShell = true;
  // `builtin x` and `command x` run x itself, never a function of that name.
  let functionsVisible = true;
  const names = new Set(assigned);
  const environment = new Map<string, string | null>();
  let assignmentProblem: string | null = null;
  const assign = (word: Word): void => {
    const name = ASSIGNED_NAME.exec(word.value)?.[1];
    if (name !== undefined) names.add(name);
    noteAssignment(environment, word);
    assignmentProblem ??= assignmentHazard(ctx.table, word);
  };
  assignments.forEach(assign);
  for (let depth = 0; depth < 32; depth++) {
    const program = current[0];
    if (program === undefined) return { kind: 'raw', reason: 'no command', wrappers: stages };
    if (!program.literal)
      return { kind: 'raw', reason: 'the command name is computed', wrappers: stages };
    if (replaced !== null && program.value.includes(replaced)) {
      return { kind: 'raw', reason: 'the command name is filled in at run time', wrappers: stages };
    }
    const base = programInfo(program.value, ctx.table.systemPaths).basename;
    const problem = hazard(ctx.table, base, current);
    if (problem !== null) {
      const code = evaluatedCode(base, current);
      return {
        kind: 'raw',
        reason: problem,
        wrappers: stages,
        ...(code === null ? {} : { script: code }),
      };
    }
    // `. /dev/stdin`, `source /dev/fd/3`: the shell runs what it reads there.
    if ((base === '.' || base === 'source') && inShell && current[1] !== undefined) {
      const fd = stdinDescriptor(current[1]);
      if (fd !== null)
        return {
          kind: 'raw',
          reason: `\`${base}\` runs the commands it reads from ${fd === 0 ? 'standard input' : `descriptor ${fd}`}`,
          stdin: fd,
          cwd: currentCwd,
          wrappers: stages,
        };
    }
    const asProgram = (callsFunction: boolean): ProgramResult => ({
      kind: 'program',
      words: current,
      cwd: currentCwd,
      blur: blurred,
      inShell,
      assigned: names,
      environment,
      placeholder: replaced,
      hazard: assignmentProblem,
      callsFunction,
      wrappers: stages,
    });
    if (inShell && functionsVisible && ctx.functions.has(program.value)) return asProgram(true);
    const entry = Object.hasOwn(ctx.table.wrappers, base) ? ctx.table.wrappers[base] : undefined;
    if (entry === undefined) return asProgram(false);
    const result = unwrap(base, current, entry, currentCwd);
    switch (result.kind) {
      case 'plain':
        if (result.bare && blurred)
          return {
            kind: 'raw',
            reason: `the command \`${base}\` runs comes from its input`,
            wrappers: [...stages, current],
          };
        return asProgram(false);
      case 'unparseable':
        return {
          kind: 'raw',
          reason: result.reason,
          wrappers: [...stages, current],
          ...(result.stdin === undefined ? {} : { stdin: result.stdin, cwd: currentCwd }),
        };
      case 'script':
        if (replaced !== null && result.text.includes(replaced)) {
          return {
            kind: 'raw',
            reason: 'the script is filled in at run time',
            script: result.text,
            wrappers: [...stages, current],
          };
        }
        return {
          kind: 'script',
          text: result.text,
          cwd: currentCwd,
          blur: blurred || result.blur === true,
          placeholder: replaced,
          wrappers: [...stages, current],
          hazard: assignmentProblem,
        };
      case 'find':
        return {
          kind: 'find',
          words: current,
          commands: result.commands,
          deletes: result.deletes,
          starts: result.starts,
          writes: result.writes,
          cwd: currentCwd,
          assigned: names,
          wrappers: stages,
          hazard: assignmentProblem,
        };
      case 'inner':
        stages.push(current);
        current = result.words;
        if (result.cwd !== undefined) currentCwd = result.cwd;
        blurred ||= result.blur;
        replaced = result.placeholder ?? replaced;
        for (const name of result.assigned) names.add(name);
        (result.assignments ?? []).forEach(assign);
        if (IN_SHELL_WRAPPERS.has(base)) functionsVisible = false;
        else inShell = false;
        break;
    }
  }
  return { kind: 'raw', reason: 'too many wrappers', wrappers: stages };
}

export interface Extracted {
  readonly effects: Effect[];
  readonly cwd?: string | null;
  readonly unparseable?: string;
}

export function extractProgram(ctx: ReadingContext, resolved: ProgramResult): Extracted {
  const program = resolved.words[0] as Word;
  const base = programInfo(program.value, ctx.table.systemPaths).basename;
  const extractor = Object.hasOwn(ctx.table.programs, base) ? ctx.table.programs[base] : undefined;
  const hazard = resolved.hazard === null ? {} : { unparseable: resolved.hazard };
  if (extractor === undefined) return { effects: [], ...hazard };
  const extractContext: ExtractContext = {
    cwd: resolved.cwd,
    worktree: ctx.worktree,
    assigned: resolved.assigned,
    environment: resolved.environment,
    cdpath: ctx.cdpath,
  };
  let extraction = EXTRACTOR_FUNCTIONS[extractor](resolved.words, extractContext);
  if (resolved.blur) {
    // Arguments come from input (`xargs`, `find -exec`): the lists are open, and only the values
    // given as they are, not those filled in at run time, are certain (E26, E42).
    const placeholder = resolved.placeholder;
    const given = (value: string): boolean => placeholder === null || !value.includes(placeholder);
    extraction = {
      ...extraction,
      effects: extraction.effects.map((item) => {
        const args: KeyValues = { ...item.args };
        for (const key of LIST_KEYS) {
          const list = args[key];
          if (list !== undefined && list !== null) args[key] = list.filter(given);
        }
        return openArgs({ cls: item.cls, args });
      }),
    };
  }
  // What the program certainly does still counts when an assignment makes it unreadable (E42).
  return resolved.hazard === null ? extraction : { ...extraction, ...hazard };
}

/**
 * A wrapper's words as restrictive rules read them (E43): as written, and read by its table
 * entry (`reading`), so `deny sudo -u root` holds for `sudo -uroot`, `sudo --user=root` and
 * `sudo -g wheel -u root`, and `deny su -c` for `su root --command=…`.
 */
export function wrapperWords(
  ctx: ReadingContext,
  words: readonly Word[],
  assigned: ReadonlySet<string>,
): CommandWords {
  const read = commandWords(ctx, words, assigned);
  const base = read.program.basename;
  const entry = Object.hasOwn(ctx.table.wrappers, base) ? ctx.table.wrappers[base] : undefined;
  if (entry === undefined) return read;
  // Read only when a restrictive rule names the wrapper: most decisions never ask.
  let reading: WrapperReading | undefined;
  return {
    ...read,
    get reading(): WrapperReading {
      reading ??= readWrapper(words, entry);
      return reading;
    },
  };
}

/** A simple command's words as rules read them (G13, G14c). */
export function commandWords(
  ctx: ReadingContext,
  words: readonly Word[],
  assigned: ReadonlySet<string>,
): CommandWords {
  const info = programInfo((words[0] as Word).value, ctx.table.systemPaths);
  // With PATH changed, a bare name may run a look-alike: it inherits no allow.
  const program = ctx.pathChanged || assigned.has('PATH') ? { ...info, bare: false } : info;
  return {
    values: words.map((word) => word.value),
    matchable: words.map(exactWord),
    program,
  };
}
