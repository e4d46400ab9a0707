// Reads the options of a command from an option table. An option the table
// does not know is reported, so a wrapper with one becomes unparseable (E27).

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
  /** The first option the table does not know, if any. */
  readonly unknown: string | null;
  /** Whether `--` ended the options. */
  readonly ended?: boolean;
}

interface ScanSettings {
  readonly numericFlags?: boolean;
  /** Stop at the first operand (POSIX) rather than reading options after operands. */
  readonly stopAtOperand?: boolean;
}

function literalWord(text: string): Word {
  return {
    raw: text,
    parts: [{ kind: 'lit', text, quoted: true }],
    value: text,
    literal: true,
    confident: true,
    glob: false,
  };
}

interface OptionSets {
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlySet<string>;
  readonly optional: ReadonlySet<string>;
}

const SETS = new WeakMap<OptionSpec, OptionSets>();

function setsOf(spec: OptionSpec): OptionSets {
  let sets = SETS.get(spec);
  if (sets === undefined) {
    sets = {
      flags: new Set(spec.flags ?? []),
      values: new Set(spec.values ?? []),
      optional: new Set(spec.optionalValues ?? []),
    };
    SETS.set(spec, sets);
  }
  return sets;
}

/** Scans options from `start` until the first operand or `--`. */
export function scanOptions(
  words: readonly Word[],
  start: number,
  spec: OptionSpec,
  settings: ScanSettings = {},
): OptionScan {
  const { flags, values, optional } = setsOf(spec);
  const seen: SeenOption[] = [];
  let i = start;
  while (i < words.length) {
    const word = words[i] as Word;
    if (!word.literal) break;
    const text = word.value;
    if (text === '--') return { next: i + 1, seen, unknown: null, ended: true };
    if (flags.has(text) && !values.has(text)) {
      seen.push({ name: text, value: null });
      i++;
      continue;
    }
    if (!(text.startsWith('-') || text.startsWith('+')) || text === '-' || text === '+') break;
    if (text.startsWith('+') && !values.has(text)) break;
    if (settings.numericFlags === true && /^-\d+$/.test(text)) {
      seen.push({ name: text, value: null });
      i++;
      continue;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text : text.slice(0, eq);
      if (values.has(name)) {
        if (eq >= 0) {
          seen.push({ name, value: literalWord(text.slice(eq + 1)) });
          i++;
        } else {
          seen.push({ name, value: words[i + 1] ?? null });
          i += 2;
        }
      } else if (optional.has(name) || (flags.has(name) && eq < 0)) {
        seen.push({ name, value: eq < 0 ? null : literalWord(text.slice(eq + 1)) });
        i++;
      } else {
        return { next: i, seen, unknown: name };
      }
      continue;
    }
    if (values.has(text)) {
      seen.push({ name: text, value: words[i + 1] ?? null });
      i += 2;
      continue;
    }
    // A cluster of short options: `-lc`, `-uroot`, `-Eu root`.
    const sign = text.charAt(0);
    let consumedNext = false;
    for (let c = 1; c < text.length; c++) {
      const name = `${sign}${text.charAt(c)}`;
      const rest = text.slice(c + 1);
      if (values.has(name)) {
        if (rest !== '') seen.push({ name, value: literalWord(rest) });
        else {
          seen.push({ name, value: words[i + 1] ?? null });
          consumedNext = true;
        }
        break;
      }
      if (optional.has(name)) {
        seen.push({ name, value: rest === '' ? null : literalWord(rest) });
        break;
      }
      if (!flags.has(name)) return { next: i, seen, unknown: name };
      seen.push({ name, value: null });
    }
    i += consumedNext ? 2 : 1;
  }
  return { next: i, seen, unknown: null };
}

/** Splits operands from options anywhere in the words (GNU style), for extractors. */
export function operandsAndOptions(
  words: readonly Word[],
  start: number,
  spec: OptionSpec,
): { operands: Word[]; seen: SeenOption[]; unknown: string[] } {
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
    if (!word.literal || !word.value.startsWith('-') || word.value === '-') {
      operands.push(word);
      i++;
      continue;
    }
    const scan = scanOptions(words, i, spec);
    seen.push(...scan.seen);
    if (scan.ended === true) {
      operands.push(...words.slice(scan.next));
      break;
    }
    if (scan.unknown !== null) {
      unknown.push(scan.unknown);
      i++;
    } else if (scan.next === i) {
      operands.push(word);
      i++;
    } else {
      i = scan.next;
    }
  }
  return { operands, seen, unknown };
}
