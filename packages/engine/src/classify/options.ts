// Reads the options of a command from an option table, the way GNU getopt
// does: clusters of short options, `--name=value`, and unambiguous prefixes
// of long options (`--rec` is `--recursive`). Strictly for wrappers, where an
// option the table does not know makes the command unparseable (E27);
// leniently for extractors, which report what they did not know.

import type { Word } from '../shell/ast.js';
import type { OptionSpec } from './table.js';

export interface SeenOption {
  readonly name: string;
  readonly value: Word | null;
}

export interface OptionScan {
  /** Index of the first operand. */
  readonly next: number;
  readonly seen: readonly SeenOption[];
  /** The first option the table does not know (strict mode stops there). */
  readonly unknown: string | null;
  /** Whether `--` ended the options. */
  readonly ended?: boolean;
}

interface ScanSettings {
  readonly numericFlags?: boolean;
}

interface OptionSets {
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlySet<string>;
  readonly optional: ReadonlySet<string>;
  readonly longs: readonly string[];
}

const SETS = new WeakMap<OptionSpec, OptionSets>();

function setsOf(spec: OptionSpec): OptionSets {
  let sets = SETS.get(spec);
  if (sets === undefined) {
    const all = [...(spec.flags ?? []), ...(spec.values ?? []), ...(spec.optionalValues ?? [])];
    sets = {
      flags: new Set(spec.flags ?? []),
      values: new Set(spec.values ?? []),
      optional: new Set(spec.optionalValues ?? []),
      longs: [...new Set(all.filter((name) => name.startsWith('--')))],
    };
    SETS.set(spec, sets);
  }
  return sets;
}

/** A long option by its full name or an unambiguous prefix of it. */
function resolveLong(sets: OptionSets, name: string): string | null {
  if (sets.flags.has(name) || sets.values.has(name) || sets.optional.has(name)) return name;
  const matches = sets.longs.filter((long) => long.startsWith(name));
  return matches.length === 1 ? (matches[0] as string) : null;
}

/** A word read exactly as `text`, as an attached value or a rule's word is. */
export function literalWord(text: string): Word {
  return {
    raw: text,
    parts: [{ kind: 'lit', text, quoted: true }],
    value: text,
    literal: true,
    confident: true,
    glob: false,
  };
}

interface Step {
  readonly seen: SeenOption[];
  /** Words consumed, starting at the option word. */
  readonly consumed: number;
  readonly unknown: string | null;
}

/** Reads the option word at `i` (which starts with `-` or `+`). */
function readOption(words: readonly Word[], i: number, sets: OptionSets, lenient: boolean): Step {
  const text = (words[i] as Word).value;
  const seen: SeenOption[] = [];
  if (text.startsWith('--')) {
    const eq = text.indexOf('=');
    const written = eq < 0 ? text : text.slice(0, eq);
    const name = resolveLong(sets, written);
    const attached = eq < 0 ? null : literalWord(text.slice(eq + 1));
    if (name === null) return { seen, consumed: 1, unknown: written };
    if (sets.values.has(name)) {
      if (attached !== null)
        return { seen: [{ name, value: attached }], consumed: 1, unknown: null };
      return { seen: [{ name, value: words[i + 1] ?? null }], consumed: 2, unknown: null };
    }
    if (sets.optional.has(name) || attached === null)
      return { seen: [{ name, value: attached }], consumed: 1, unknown: null };
    return { seen, consumed: 1, unknown: written };
  }
  if (sets.values.has(text))
    return { seen: [{ name: text, value: words[i + 1] ?? null }], consumed: 2, unknown: null };
  if (sets.flags.has(text))
    return { seen: [{ name: text, value: null }], consumed: 1, unknown: null };
  // A cluster of short options: `-lc`, `-uroot`, `-Eu root`, `-rt dir`.
  const sign = text.charAt(0);
  let unknown: string | null = null;
  for (let c = 1; c < text.length; c++) {
    const name = `${sign}${text.charAt(c)}`;
    const rest = text.slice(c + 1);
    if (sets.values.has(name)) {
      if (rest !== '') seen.push({ name, value: literalWord(rest) });
      else {
        seen.push({ name, value: words[i + 1] ?? null });
        return { seen, consumed: 2, unknown };
      }
      return { seen, consumed: 1, unknown };
    }
    if (sets.optional.has(name)) {
      seen.push({ name, value: rest === '' ? null : literalWord(rest) });
      return { seen, consumed: 1, unknown };
    }
    if (!sets.flags.has(name)) {
      unknown ??= name;
      if (!lenient) return { seen, consumed: 1, unknown };
      continue;
    }
    seen.push({ name, value: null });
  }
  return { seen, consumed: 1, unknown };
}

/** An option word: `-…`, or a `+` option the table knows (`+o`, and a shell's `+x`, `+ex`). */
function isOptionWord(word: Word, sets: OptionSets): boolean {
  const text = word.value;
  if (!word.literal || text === '-' || text === '+') return false;
  if (text.startsWith('-')) return true;
  if (!text.startsWith('+')) return false;
  if (sets.values.has(text) || sets.flags.has(text)) return true;
  return [...text.slice(1)].every((c) => sets.flags.has(`+${c}`) || sets.values.has(`+${c}`));
}

/** Scans options from `start` until the first operand or `--`; stops at an unknown option. */
export function scanOptions(
  words: readonly Word[],
  start: number,
  spec: OptionSpec,
  settings: ScanSettings = {},
): OptionScan {
  const sets = setsOf(spec);
  const seen: SeenOption[] = [];
  let i = start;
  while (i < words.length) {
    const word = words[i] as Word;
    if (!word.literal) break;
    const text = word.value;
    if (text === '--') return { next: i + 1, seen, unknown: null, ended: true };
    if (sets.flags.has(text) && !sets.values.has(text)) {
      seen.push({ name: text, value: null });
      i++;
      continue;
    }
    if (!isOptionWord(word, sets)) break;
    if (settings.numericFlags === true && /^-\d+$/.test(text)) {
      seen.push({ name: text, value: null });
      i++;
      continue;
    }
    const step = readOption(words, i, sets, false);
    seen.push(...step.seen);
    if (step.unknown !== null) return { next: i, seen, unknown: step.unknown };
    i += step.consumed;
  }
  return { next: i, seen, unknown: null };
}

/**
 * Splits operands from options anywhere in the words (GNU style), for
 * extractors. Options the table does not know are read as flags and listed.
 */
export function operandsAndOptions(
  words: readonly Word[],
  start: number,
  spec: OptionSpec,
): { operands: Word[]; seen: SeenOption[]; unknown: string[] } {
  const sets = setsOf(spec);
  const operands: Word[] = [];
  const seen: SeenOption[] = [];
  const unknown: string[] = [];
  let i = start;
  while (i < words.length) {
    const word = words[i] as Word;
    if (word.literal && word.value === '--') {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (!isOptionWord(word, sets)) {
      operands.push(word);
      i++;
      continue;
    }
    const step = readOption(words, i, sets, true);
    seen.push(...step.seen);
    if (step.unknown !== null) unknown.push(step.unknown);
    i += step.consumed;
  }
  return { operands, seen, unknown };
}
