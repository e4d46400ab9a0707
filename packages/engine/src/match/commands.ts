// Command prefixes at word boundaries (G13) and the mode's command net (E35).
// A program given by path counts as its basename for restrictive rules; an
// allow applies only to the bare name or a standard system path (G14c, E27).

import { basename } from '../util/basename.js';
import type { WrapperMatch, WrapperReading } from './wrapper-options.js';
import { wrapperOptionsMatch } from './wrapper-options.js';

export interface ProgramInfo {
  /** The program word as written, e.g. `git` or `/usr/bin/git`. */
  readonly written: string;
  readonly basename: string;
  /** Given without any path. */
  readonly bare: boolean;
  /** Given by a path in one of the standard system folders. */
  readonly systemPath: boolean;
}

/** A parsed simple command as rules see it: word values, and whether each is exact. */
export interface CommandWords {
  readonly values: readonly string[];
  readonly matchable: readonly boolean[];
  readonly program: ProgramInfo;
  /** A wrapper's words read by its table entry: only restrictive rules read it (E43). */
  readonly reading?: WrapperReading;
}

export function programInfo(written: string, systemPaths: readonly string[]): ProgramInfo {
  const slash = written.lastIndexOf('/');
  if (slash < 0) return { written, basename: written, bare: true, systemPath: false };
  const dir = written.slice(0, slash) || '/';
  return {
    written,
    basename: written.slice(slash + 1),
    bare: false,
    systemPath: systemPaths.includes(dir),
  };
}

/** Whether the rule's words are a word-boundary prefix of the command (G13). */
export function prefixMatches(
  ruleWords: readonly string[],
  command: CommandWords,
  permissive: boolean,
): boolean {
  if (ruleWords.length === 0 || ruleWords.length > command.values.length) return false;
  if (!namesProgram(ruleWords[0] as string, command.program, permissive)) return false;
  for (let i = 1; i < ruleWords.length; i++) {
    if (!command.matchable[i] || command.values[i] !== ruleWords[i]) return false;
  }
  return true;
}

/**
 * Whether a rule's first word names the program: a path exactly; a bare name by basename for a
 * restrictive rule, and for an allow only the bare name or a standard system path (G14c).
 */
function namesProgram(first: string, program: ProgramInfo, permissive: boolean): boolean {
  if (first.includes('/')) return first === program.written;
  if (program.basename !== first) return false;
  return !permissive || program.bare || program.systemPath;
}

function isOption(word: string): boolean {
  return word.length > 1 && word.startsWith('-');
}

/**
 * E35: the entry's non-option words are a word-boundary prefix of the
 * command's non-option words, and its option words occur anywhere in it.
 */
export function netEntryMatches(entryWords: readonly string[], command: CommandWords): boolean {
  const values = command.values.map((value, index) =>
    index === 0 ? command.program.basename : value,
  );
  // The net is a restrictive tripwire: its program, too, counts by basename.
  const entryPlain = entryWords
    .filter((word) => !isOption(word))
    .map((word, index) => (index === 0 ? basename(word) : word));
  const entryOptions = entryWords.filter(isOption);
  const plain = values.filter((value, index) => command.matchable[index] && !isOption(value));
  if (entryPlain.length > plain.length) return false;
  for (let i = 0; i < entryPlain.length; i++) {
    if (plain[i] !== entryPlain[i]) return false;
  }
  return entryOptions.every((option) =>
    values.some((value, index) => command.matchable[index] && value === option),
  );
}

/**
 * E43: a restrictive rule read against the words of a wrapper a command runs under. As
 * written (G13); else, for a wrapper its table entry read in full, by that reading — the
 * rule's options among the wrapper's however spelled, its operands a prefix of the
 * wrapper's (`maybe` where the wrapper's value is computed); else as the net reads an entry
 * (E35), with bundled short options and `--name=value` split.
 */
export function wrapperMatch(ruleWords: readonly string[], wrapper: CommandWords): WrapperMatch {
  if (prefixMatches(ruleWords, wrapper, false)) return 'yes';
  const reading = wrapper.reading;
  if (reading !== undefined && !reading.partial) {
    if (!namesProgram(ruleWords[0] ?? '', wrapper.program, false)) return 'no';
    return wrapperOptionsMatch(ruleWords, reading);
  }
  return netEntryMatches(ruleWords, wrapper) || netEntryMatches(ruleWords, splitOptions(wrapper))
    ? 'yes'
    : 'no';
}

/** Whether a restrictive rule, a constraint or a mode's net (a tripwire) may name the wrapper: `maybe` counts. */
export function wrapperMatches(ruleWords: readonly string[], wrapper: CommandWords): boolean {
  return wrapperMatch(ruleWords, wrapper) !== 'no';
}

/** The words with `-abc` read as `-a -b -c` and `--name=value` as `--name value`. */
export function splitOptions(command: CommandWords): CommandWords {
  const values: string[] = [];
  const matchable: boolean[] = [];
  command.values.forEach((value, index) => {
    const exact = command.matchable[index] === true;
    if (index > 0 && exact && /^-[A-Za-z]{2,}$/.test(value)) {
      for (const letter of value.slice(1)) {
        values.push(`-${letter}`);
        matchable.push(true);
      }
    } else if (index > 0 && exact && /^--[^=]+=/.test(value)) {
      const at = value.indexOf('=');
      values.push(value.slice(0, at), value.slice(at + 1));
      matchable.push(true, true);
    } else {
      values.push(value);
      matchable.push(exact);
    }
  });
  return { values, matchable, program: command.program };
}
