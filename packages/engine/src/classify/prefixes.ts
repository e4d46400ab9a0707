// The classifier's command prefixes (G14c): `npm install`, `pip install`, …
// An entry's program is matched by basename; its further plain words must
// follow in order among the command's plain words, so options and their
// values may stand between (`npm --prefix . install`); its option words must
// occur anywhere.

import type { CommandWords } from '../match/commands.js';
import type { ClassifierTable, PrefixEntry } from './table.js';
import type { Effect } from './effects.js';
import { effect } from './effects.js';

interface Prefix {
  readonly plain: readonly string[];
  readonly options: readonly string[];
  readonly entry: PrefixEntry;
}

const INDEX = new WeakMap<ClassifierTable, ReadonlyMap<string, readonly Prefix[]>>();

function isOption(word: string): boolean {
  return word.length > 1 && word.startsWith('-');
}

/** The table's prefixes by program, built once per table. */
function indexOf(table: ClassifierTable): ReadonlyMap<string, readonly Prefix[]> {
  let index = INDEX.get(table);
  if (index === undefined) {
    const built = new Map<string, Prefix[]>();
    for (const entry of table.commands) {
      const words = entry.command.split(/\s+/).filter(Boolean);
      const [program, ...rest] = words;
      if (program === undefined) continue;
      const prefix = {
        plain: rest.filter((w) => !isOption(w)),
        options: rest.filter(isOption),
        entry,
      };
      const list = built.get(program);
      if (list === undefined) built.set(program, [prefix]);
      else list.push(prefix);
    }
    index = built;
    INDEX.set(table, index);
  }
  return index;
}

function matches(prefix: Prefix, command: CommandWords): boolean {
  let at = 1;
  for (const word of prefix.plain) {
    while (
      at < command.values.length &&
      !(command.matchable[at] === true && command.values[at] === word)
    )
      at++;
    if (at >= command.values.length) return false;
    at++;
  }
  return prefix.options.every((option) =>
    command.values.some((value, i) => i > 0 && command.matchable[i] === true && value === option),
  );
}

/** Classes the table's command prefixes give these words. */
export function prefixEffects(table: ClassifierTable, command: CommandWords): Effect[] {
  const effects: Effect[] = [];
  for (const prefix of indexOf(table).get(command.program.basename) ?? []) {
    if (matches(prefix, command)) for (const cls of prefix.entry.classes) effects.push(effect(cls));
  }
  return effects;
}
