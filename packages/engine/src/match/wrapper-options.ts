// A wrapper's words read by its table entry, as restrictive rules meet them
// (E43): its options by name, wherever and however they are written — a
// cluster, an attached value (`-uroot`), a long name or its prefix
// (`--us=root`), any name the entry's `same` list gives the option — and its
// operands in order. A rule's own words are read the same way, so
// `sudo -u root` holds for `sudo -g wheel --user=root ls`.

import type { SeenOption } from '../classify/options.js';
import { literalWord, operandsAndOptions, scanOptions } from '../classify/options.js';
import type { WrapperEntry } from '../classify/table.js';
import { ASSIGNMENT } from '../classify/wrappers.js';
import { basename } from '../util/basename.js';
import type { Word } from '../shell/ast.js';

export interface WrapperOption {
  /** The option's first name in its `same` group, or its own name. */
  readonly key: string;
  readonly value: string | null;
  /** Whether the value is exact (no expansion): a rule may compare it. */
  readonly exact: boolean;
}

export interface WrapperReading {
  readonly entry: WrapperEntry;
  readonly options: readonly WrapperOption[];
  readonly operands: readonly string[];
  readonly exactOperands: readonly boolean[];
  /** find's start paths: a rule that names some names these. */
  readonly starts: readonly string[];
  /** An option the entry does not know stopped the reading: the words say more than it read. */
  readonly partial: boolean;
}

/** How a rule meets a wrapper: it names it, it cannot tell (a value is computed), or not. */
export type WrapperMatch = 'yes' | 'maybe' | 'no';

/** Whether rules may read a word as written: every part literal, and read with confidence. */
export function exactWord(word: Word): boolean {
  return word.confident && word.parts.every((part) => part.kind === 'lit');
}

/** A value rules may compare: exact, and no glob that could expand to another (`r[o]ot`). */
function valueExact(word: Word): boolean {
  return exactWord(word) && !word.glob;
}

function keyOf(entry: WrapperEntry, name: string): string {
  return entry.same?.find((group) => group.includes(name))?.[0] ?? name;
}

function optionOf(entry: WrapperEntry, seen: SeenOption): WrapperOption {
  // `nice -19` is `nice -n 19`.
  if (entry.numericFlags === true && /^-\d+$/.test(seen.name))
    return { key: keyOf(entry, '-n'), value: seen.name.slice(1), exact: true };
  // xargs `-i` is `-I {}`.
  const value = seen.value?.value ?? entry.defaults?.[seen.name] ?? null;
  return {
    key: keyOf(entry, seen.name),
    value,
    exact: seen.value === null || valueExact(seen.value),
  };
}

/** Reads a wrapper's words (program first) by its table entry. */
export function readWrapper(words: readonly Word[], entry: WrapperEntry): WrapperReading {
  const options: WrapperOption[] = [];
  const operands: string[] = [];
  const exactOperands: boolean[] = [];
  const starts: string[] = [];
  const named = (word: Word): boolean =>
    word.literal && entry.same?.some((group) => group.includes(word.value)) === true;
  const operand = (word: Word): void => {
    // An option's name among the operands still names it: find's actions, su's `-` and its
    // options after `--` (which reach the shell it starts).
    if (named(word)) options.push({ key: keyOf(entry, word.value), value: null, exact: true });
    else {
      operands.push(word.value);
      exactOperands.push(valueExact(word));
    }
  };
  const done = (partial: boolean): WrapperReading => ({
    entry,
    options,
    operands,
    exactOperands,
    starts,
    partial,
  });
  if (entry.kind === 'find') {
    // find has no options before its start paths, and its actions stand anywhere after them.
    let i = 1;
    while (i < words.length && /^-[HLP]$|^-O\d*$/.test((words[i] as Word).value)) i++;
    for (; i < words.length; i++) {
      const word = words[i] as Word;
      if (word.literal && /^[-(!,)]/.test(word.value)) break;
      starts.push(word.value);
    }
    // `-exec CMD …`: the program it runs is the action's value (`deny find -exec rm`).
    for (; i < words.length; i++) {
      const word = words[i] as Word;
      const next = words[i + 1];
      if (!named(word)) operand(word);
      else if (next === undefined) operand(word);
      else {
        options.push({ key: keyOf(entry, word.value), value: next.value, exact: valueExact(next) });
        i++;
      }
    }
    return done(false);
  }
  if (entry.kind === 'su') {
    // su, runuser and script read their options anywhere, as their unwrapping does.
    const read = operandsAndOptions(words, 1, entry);
    for (const seen of read.seen) options.push(optionOf(entry, seen));
    read.operands.forEach(operand);
    return done(read.unknown.length > 0);
  }
  const scan = scanOptions(words, 1, entry, { numericFlags: entry.numericFlags === true });
  for (const seen of scan.seen) options.push(optionOf(entry, seen));
  let i = scan.next;
  // Its positionals (timeout's duration, flock's file) come first; flock's `FILE -c SCRIPT`.
  for (const end = Math.min(words.length, i + (entry.positionals ?? 0)); i < end; i++)
    operand(words[i] as Word);
  const after = words[i];
  if (entry.kind === 'flock' && after?.literal === true && entry.script?.includes(after.value)) {
    const value = words[i + 1];
    options.push({
      key: keyOf(entry, after.value),
      value: value?.value ?? null,
      exact: value === undefined || valueExact(value),
    });
    i += 2;
  }
  // `env FOO=1 …`, `sudo FOO=1 …`: each assignment is a setting, in any order.
  if (entry.assignments === true)
    for (; i < words.length; i++) {
      const word = words[i] as Word;
      const match = ASSIGNMENT.exec(word.value);
      if (!word.literal || match === null) break;
      options.push({
        key: `${match[1] as string}=`,
        value: word.value.slice(match[0].length),
        exact: true,
      });
    }
  words.slice(i).forEach(operand);
  return done(scan.unknown !== null);
}

/** The value a rule names, as given or — a program by path (G14c) — by its basename. */
function sameValue(given: string | null, wanted: string): boolean {
  return (
    given === wanted || (given !== null && !wanted.includes('/') && basename(given) === wanted)
  );
}

/** A rule's words read by the wrapper's entry, once per rule and entry. */
const RULES = new WeakMap<readonly string[], WeakMap<WrapperEntry, WrapperReading>>();

function ruleReading(ruleWords: readonly string[], entry: WrapperEntry): WrapperReading {
  let byEntry = RULES.get(ruleWords);
  if (byEntry === undefined) {
    byEntry = new WeakMap();
    RULES.set(ruleWords, byEntry);
  }
  let reading = byEntry.get(entry);
  if (reading === undefined) {
    reading = readWrapper(ruleWords.map(literalWord), entry);
    byEntry.set(entry, reading);
  }
  return reading;
}

/**
 * Whether a rule's words name a wrapper as read: each option the rule gives is
 * among the wrapper's (with the rule's value, if it gives one — any occurrence,
 * as the stricter reading of an option given twice), and the rule's operands
 * begin the wrapper's. A computed value or operand where the rule names one is
 * `maybe`. A rule with an option the entry does not know names nothing here.
 */
export function wrapperOptionsMatch(
  ruleWords: readonly string[],
  wrapper: WrapperReading,
): WrapperMatch {
  const rule = ruleReading(ruleWords, wrapper.entry);
  if (rule.partial) return 'no';
  let maybe = false;
  for (const wanted of rule.options) {
    const found = wrapper.options.filter((option) => option.key === wanted.key);
    if (found.length === 0) return 'no';
    const value = wanted.value;
    if (value === null) continue;
    if (found.some((option) => option.exact && sameValue(option.value, value))) continue;
    if (!found.some((option) => !option.exact)) return 'no';
    maybe = true;
  }
  if (!rule.starts.every((start) => wrapper.starts.includes(start))) return 'no';
  for (let i = 0; i < rule.operands.length; i++) {
    if (i >= wrapper.operands.length) return 'no';
    const wanted = rule.operands[i] as string;
    const given = wrapper.operands[i] as string;
    if (wrapper.exactOperands[i] !== true) maybe = true;
    // A program given by path counts as its basename for a restrictive rule (G14c).
    else if (!sameValue(given, wanted)) return 'no';
  }
  return maybe ? 'maybe' : 'yes';
}
