// A wrapper's words read by its table entry, as restrictive rules meet them
// (E43): its options by name, wherever and however they are written — a
// cluster, an attached value (`-uroot`), a long name or its prefix
// (`--us=root`), any name the entry's `same` list gives the option — and its
// operands in order. A rule's own words are read the same way, so
// `sudo -u root` holds for `sudo -g wheel --user=root ls`.

import type { SeenOption } from '../classify/options.js';
import { literalWord, operandsAndOptions, scanOptions } from '../classify/options.js';
import type { WrapperEntry } from '../classify/table.js';
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
  /** An option the entry does not know stopped the reading: the words say more than it read. */
  readonly partial: boolean;
}

/** How a rule meets a wrapper: it names it, it cannot tell (a value is computed), or not. */
export type WrapperMatch = 'yes' | 'maybe' | 'no';

/** Whether rules may read a word as written: every part literal, and read with confidence. */
export function exactWord(word: Word): boolean {
  return word.confident && word.parts.every((part) => part.kind === 'lit');
}

function keyOf(entry: WrapperEntry, name: string): string {
  return entry.same?.find((group) => group.includes(name))?.[0] ?? name;
}

function optionOf(entry: WrapperEntry, seen: SeenOption): WrapperOption {
  // `nice -19` is `nice -n 19`.
  if (entry.numericFlags === true && /^-\d+$/.test(seen.name))
    return { key: keyOf(entry, '-n'), value: seen.name.slice(1), exact: true };
  return {
    key: keyOf(entry, seen.name),
    value: seen.value === null ? null : seen.value.value,
    exact: seen.value === null || exactWord(seen.value),
  };
}

/** Reads a wrapper's words (program first) by its table entry. */
export function readWrapper(words: readonly Word[], entry: WrapperEntry): WrapperReading {
  const options: WrapperOption[] = [];
  const operands: string[] = [];
  const exactOperands: boolean[] = [];
  const operand = (word: Word): void => {
    // An option's name among the operands still names it: find's actions, su's `-` and its
    // options after `--` (which reach the shell it starts), flock's `FILE --command …`.
    if (word.literal && entry.same?.some((group) => group.includes(word.value)) === true)
      options.push({ key: keyOf(entry, word.value), value: null, exact: true });
    else {
      operands.push(word.value);
      exactOperands.push(exactWord(word));
    }
  };
  if (entry.kind === 'find') {
    // find has no options before its operands: its actions stand anywhere among them.
    words.slice(1).forEach(operand);
    return { entry, options, operands, exactOperands, partial: false };
  }
  if (entry.kind === 'su') {
    // su, runuser and script read their options anywhere, as their unwrapping does.
    const read = operandsAndOptions(words, 1, entry);
    for (const seen of read.seen) options.push(optionOf(entry, seen));
    read.operands.forEach(operand);
    return { entry, options, operands, exactOperands, partial: read.unknown.length > 0 };
  }
  const scan = scanOptions(words, 1, entry, { numericFlags: entry.numericFlags === true });
  for (const seen of scan.seen) options.push(optionOf(entry, seen));
  words.slice(scan.next).forEach(operand);
  return { entry, options, operands, exactOperands, partial: scan.unknown !== null };
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
    if (wanted.value === null) continue;
    if (found.some((option) => option.exact && option.value === wanted.value)) continue;
    if (!found.some((option) => !option.exact)) return 'no';
    maybe = true;
  }
  for (let i = 0; i < rule.operands.length; i++) {
    if (i >= wrapper.operands.length) return 'no';
    if (wrapper.exactOperands[i] !== true) maybe = true;
    else if (wrapper.operands[i] !== rule.operands[i]) return 'no';
  }
  return maybe ? 'maybe' : 'yes';
}
