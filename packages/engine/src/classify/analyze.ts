// Turns a command line into what rules see (G14b, G14c): one unit per simple
// command, with its facet name, its words, and the classes it reveals. The
// working directory is followed through `cd` so relative paths resolve (E26).

import { CLASS_ORDER } from '../model/classes.js';
import type { CommandWords } from '../match/commands.js';
import { netEntryMatches, programInfo } from '../match/commands.js';
import type {
  CommandNode,
  ListNode,
  PipelineNode,
  Redirect,
  SimpleNode,
  Word,
} from '../shell/ast.js';
import { leadingWords, parseShell } from '../shell/parser.js';
import { joinWords } from '../shell/render.js';
import { ShellSyntaxError } from '../shell/scanner.js';
import type { Effect, ExtractContext } from './effects.js';
import { blurArgs, effect, wordPath, writeEffects } from './effects.js';
import { EXTRACTOR_FUNCTIONS } from './programs.js';
import type { ClassifierTable } from './table.js';
import { unwrap } from './wrappers.js';

/** A simple command read with confidence. `inner` ones come from substitutions and get no facet (E32). */
export interface CommandUnit {
  readonly kind: 'command';
  readonly name: string;
  readonly words: CommandWords;
  readonly effects: readonly Effect[];
  readonly inner: boolean;
}

/** A simple command (or the whole line) that could not be read with confidence. */
export interface RawUnit {
  readonly kind: 'raw';
  readonly name: string;
  /** Its confidently read leading words, unwrapped; rules matching them apply as written (E23). */
  readonly leading: CommandWords | null;
  readonly effects: readonly Effect[];
  readonly inner: boolean;
  readonly reason: string;
}

/** Effects that belong to no simple command: a compound command's redirections. */
export interface EffectsUnit {
  readonly kind: 'effects';
  readonly effects: readonly Effect[];
}

export type Unit = CommandUnit | RawUnit | EffectsUnit;

export interface CommandAnalysis {
  readonly text: string;
  readonly units: readonly Unit[];
}

interface ProgramResult {
  readonly kind: 'program';
  readonly words: readonly Word[];
  readonly cwd: string | null;
  readonly blur: boolean;
  /** The command runs in the shell itself (so a `cd` changes the directory). */
  readonly inShell: boolean;
}

type Resolved =
  | ProgramResult
  | {
      readonly kind: 'script';
      readonly text: string;
      readonly cwd: string | null;
      readonly blur: boolean;
    }
  | {
      readonly kind: 'find';
      readonly words: readonly Word[];
      readonly commands: readonly (readonly Word[])[];
      readonly deletes: boolean;
      readonly starts: readonly Word[];
      readonly cwd: string | null;
    }
  | { readonly kind: 'raw'; readonly reason: string };

const IN_SHELL_WRAPPERS = new Set(['builtin', 'command']);

export function analyzeCommand(
  text: string,
  table: ClassifierTable,
  worktree: string | null,
): CommandAnalysis {
  const walker = new Walker(table, worktree);
  try {
    const script = parseShell(text);
    walker.walkList(script, '.', false, false);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    walker.reset();
    walker.rawUnit(text, leadingWords(text), '.', false, error.message);
  }
  return { text, units: walker.units };
}

interface Prefix {
  readonly words: readonly string[];
  readonly entry: ClassifierTable['commands'][number];
}

const PREFIXES = new WeakMap<ClassifierTable, ReadonlyMap<string, readonly Prefix[]>>();

/** The table's command prefixes by their first word, built once per table. */
function prefixesOf(table: ClassifierTable): ReadonlyMap<string, readonly Prefix[]> {
  let index = PREFIXES.get(table);
  if (index === undefined) {
    const built = new Map<string, Prefix[]>();
    for (const entry of table.commands) {
      const words = entry.command.split(/\s+/).filter(Boolean);
      const first = words[0];
      if (first === undefined) continue;
      const list = built.get(first);
      if (list === undefined) built.set(first, [{ words, entry }]);
      else list.push({ words, entry });
    }
    index = built;
    PREFIXES.set(table, index);
  }
  return index;
}

class Walker {
  units: Unit[] = [];
  private readonly prefixes: ReadonlyMap<string, readonly Prefix[]>;

  constructor(
    private readonly table: ClassifierTable,
    private readonly worktree: string | null,
  ) {
    this.prefixes = prefixesOf(table);
  }

  /** Classes the table's command prefixes give these words. */
  private prefixEffects(words: CommandWords): Effect[] {
    const effects: Effect[] = [];
    for (const prefix of this.prefixes.get(words.program.basename) ?? []) {
      if (netEntryMatches(prefix.words, words)) {
        for (const cls of prefix.entry.classes) effects.push(effect(cls));
      }
    }
    return effects;
  }

  reset(): void {
    this.units = [];
  }

  walkList(list: ListNode, cwd: string | null, inner: boolean, blur: boolean): string | null {
    let current = cwd;
    for (const item of list.items) {
      const after = this.walkAndOr(item.node, current, inner, blur);
      if (!item.background) current = after;
    }
    return current;
  }

  private walkAndOr(
    node: ListNode['items'][number]['node'],
    cwd: string | null,
    inner: boolean,
    blur: boolean,
  ): string | null {
    let current = this.walkPipeline(node.first, cwd, inner, blur);
    let uncertain = false;
    for (const { op, pipeline } of node.rest) {
      if (op === '&&') {
        current = this.walkPipeline(pipeline, current, inner, blur);
        continue;
      }
      // The right of `||` runs when the left failed, so a `cd` on the left may not have happened.
      const leftEnd = current;
      const right = this.walkPipeline(pipeline, leftEnd === cwd ? leftEnd : null, inner, blur);
      if (isExit(pipeline)) current = leftEnd;
      else {
        current = right;
        uncertain = true;
      }
    }
    return uncertain && current !== cwd ? null : current;
  }

  private walkPipeline(
    pipeline: PipelineNode,
    cwd: string | null,
    inner: boolean,
    blur: boolean,
  ): string | null {
    if (pipeline.commands.length === 1) {
      return this.walkCommand(pipeline.commands[0] as CommandNode, cwd, inner, blur);
    }
    // Each part of a pipeline runs in a subshell.
    for (const command of pipeline.commands) this.walkCommand(command, cwd, inner, blur);
    return cwd;
  }

  private walkCommand(
    node: CommandNode,
    cwd: string | null,
    inner: boolean,
    blur: boolean,
  ): string | null {
    switch (node.type) {
      case 'simple':
        return this.walkSimple(node, cwd, inner, blur);
      case 'subshell':
        this.walkList(node.body, cwd, inner, blur);
        this.redirectUnit(node.redirects, cwd);
        return cwd;
      case 'group': {
        const after = this.walkList(node.body, cwd, inner, blur);
        this.redirectUnit(node.redirects, cwd);
        return after;
      }
      case 'compound': {
        for (const word of node.words) this.walkSubstitutions(word, cwd);
        let changed = false;
        for (const body of node.bodies) {
          if (this.walkList(body, cwd, inner, blur) !== cwd) changed = true;
        }
        this.redirectUnit(node.redirects, cwd);
        if (node.keyword === 'function') return cwd;
        return changed ? null : cwd;
      }
    }
  }

  private walkSimple(
    node: SimpleNode,
    cwd: string | null,
    inner: boolean,
    blur: boolean,
  ): string | null {
    const all = [...node.assignments, ...node.words, ...node.redirects.map((r) => r.target)];
    if (all.some((word) => !word.confident)) {
      const leading: Word[] = [];
      for (const word of node.words) {
        if (!word.confident) break;
        leading.push(word);
      }
      this.rawUnit(node.raw, leading, cwd, inner, 'it holds a command substitution', blur);
      for (const word of all) this.walkSubstitutions(word, cwd);
      return node.words[0]?.value === 'cd' ? null : cwd;
    }
    if (node.words.length === 0) {
      this.redirectUnit(node.redirects, cwd);
      return cwd;
    }
    return this.classifyWords(node.words, node.raw, node.redirects, cwd, inner, blur);
  }

  private walkSubstitutions(word: Word, cwd: string | null): void {
    for (const part of word.parts) {
      if (part.kind === 'subst' && part.script !== null)
        this.walkList(part.script, cwd, true, false);
    }
  }

  /** Follows wrappers down to the command that runs (E27). */
  private resolve(words: readonly Word[], cwd: string | null, blur: boolean): Resolved {
    let current = words;
    let currentCwd = cwd;
    let blurred = blur;
    let inShell = true;
    for (let depth = 0; depth < 32; depth++) {
      const program = current[0];
      if (program === undefined) return { kind: 'raw', reason: 'no command' };
      if (!program.literal) return { kind: 'raw', reason: 'the command name is computed' };
      const base = programInfo(program.value, this.table.systemPaths).basename;
      if (base === 'eval') return { kind: 'raw', reason: '`eval` runs computed text' };
      const entry = Object.hasOwn(this.table.wrappers, base)
        ? this.table.wrappers[base]
        : undefined;
      if (entry === undefined)
        return { kind: 'program', words: current, cwd: currentCwd, blur: blurred, inShell };
      const result = unwrap(base, current, entry, currentCwd);
      switch (result.kind) {
        case 'plain':
          return { kind: 'program', words: current, cwd: currentCwd, blur: blurred, inShell };
        case 'unparseable':
          return { kind: 'raw', reason: result.reason };
        case 'script':
          return { kind: 'script', text: result.text, cwd: currentCwd, blur: blurred };
        case 'find':
          return {
            kind: 'find',
            words: current,
            commands: result.commands,
            deletes: result.deletes,
            starts: result.starts,
            cwd: currentCwd,
          };
        case 'inner':
          current = result.words;
          if (result.cwd !== undefined) currentCwd = result.cwd;
          blurred ||= result.blur;
          if (!IN_SHELL_WRAPPERS.has(base)) inShell = false;
          break;
      }
    }
    return { kind: 'raw', reason: 'too many wrappers' };
  }

  private classifyWords(
    words: readonly Word[],
    raw: string,
    redirects: readonly Redirect[],
    cwd: string | null,
    inner: boolean,
    blur: boolean,
  ): string | null {
    const resolved = this.resolve(words, cwd, blur);
    const redirectEffects = this.redirectEffects(redirects, cwd);
    switch (resolved.kind) {
      case 'raw':
        this.rawUnit(raw, words, cwd, inner, resolved.reason, blur);
        return cwd;
      case 'script': {
        let script: ListNode;
        try {
          script = parseShell(resolved.text);
        } catch (error) {
          if (!(error instanceof ShellSyntaxError)) throw error;
          this.rawUnit(raw, words, cwd, inner, `its script cannot be read: ${error.message}`, blur);
          return cwd;
        }
        this.walkList(script, resolved.cwd, inner, resolved.blur);
        this.effectsUnit(redirectEffects);
        return cwd;
      }
      case 'find': {
        const ctx: ExtractContext = { cwd: resolved.cwd, worktree: this.worktree };
        const deletes = resolved.deletes ? [findDelete(resolved.starts, ctx)] : [];
        if (resolved.commands.length === 0) {
          this.commandUnit(resolved.words, [...deletes, ...redirectEffects], inner, blur);
          return cwd;
        }
        this.effectsUnit(deletes);
        for (const command of resolved.commands) {
          this.classifyWords(command, joinWords(command), [], resolved.cwd, inner, true);
        }
        this.effectsUnit(redirectEffects);
        return cwd;
      }
      case 'program': {
        const outcome = this.extract(resolved);
        if (outcome.unparseable !== undefined) {
          this.rawUnit(raw, words, cwd, inner, outcome.unparseable, blur);
          return cwd;
        }
        this.commandUnit(
          resolved.words,
          [...outcome.effects, ...redirectEffects],
          inner,
          resolved.blur,
        );
        if (outcome.cwd !== undefined && resolved.inShell) return outcome.cwd;
        return cwd;
      }
    }
  }

  private extract(resolved: ProgramResult): {
    effects: Effect[];
    cwd?: string | null;
    unparseable?: string;
  } {
    const program = resolved.words[0] as Word;
    const base = programInfo(program.value, this.table.systemPaths).basename;
    const extractorName = Object.hasOwn(this.table.programs, base)
      ? this.table.programs[base]
      : undefined;
    const ctx: ExtractContext = { cwd: resolved.cwd, worktree: this.worktree };
    if (extractorName === undefined) return { effects: [] };
    const extraction = EXTRACTOR_FUNCTIONS[extractorName](resolved.words, ctx);
    if (extraction.unparseable !== undefined)
      return { effects: [], unparseable: extraction.unparseable };
    return extraction.cwd === undefined
      ? { effects: extraction.effects }
      : { effects: extraction.effects, cwd: extraction.cwd };
  }

  private commandWords(words: readonly Word[]): CommandWords {
    return {
      values: words.map((word) => word.value),
      matchable: words.map(
        (word) => word.confident && word.parts.every((part) => part.kind === 'lit'),
      ),
      program: programInfo((words[0] as Word).value, this.table.systemPaths),
    };
  }

  private commandUnit(
    words: readonly Word[],
    extracted: readonly Effect[],
    inner: boolean,
    blur: boolean,
  ): void {
    const commandWords = this.commandWords(words);
    const effects: Effect[] = [
      ...extracted,
      ...this.prefixEffects(commandWords),
      effect('processSpawn'),
    ];
    const final = (blur ? effects.map(blurArgs) : effects).sort(
      (a, b) => CLASS_ORDER[a.cls] - CLASS_ORDER[b.cls],
    );
    this.units.push({
      kind: 'command',
      name: joinWords(words),
      words: commandWords,
      effects: final,
      inner,
    });
  }

  /** A command that cannot be read with confidence, classified by its leading words (E24). */
  rawUnit(
    name: string,
    leading: readonly Word[],
    cwd: string | null,
    inner: boolean,
    reason: string,
    blur = false,
  ): void {
    let effects: Effect[] = [];
    let leadingWords: CommandWords | null = null;
    if (leading[0]?.literal === true) {
      const resolved = this.resolve(leading, cwd, blur);
      if (resolved.kind === 'program') {
        leadingWords = this.commandWords(resolved.words);
        const outcome = this.extract({ ...resolved, blur: true });
        if (outcome.unparseable === undefined) effects = outcome.effects.map(blurArgs);
        effects.push(...this.prefixEffects(leadingWords));
      }
    }
    effects.push(effect('processSpawn'));
    effects.sort((a, b) => CLASS_ORDER[a.cls] - CLASS_ORDER[b.cls]);
    this.units.push({
      kind: 'raw',
      name: name.trim(),
      leading: leadingWords,
      effects,
      inner,
      reason,
    });
  }

  private redirectEffects(redirects: readonly Redirect[], cwd: string | null): Effect[] {
    const targets = redirects.filter((r) => r.writes).map((r) => r.target);
    if (targets.length === 0) return [];
    return writeEffects(targets, { cwd, worktree: this.worktree });
  }

  private redirectUnit(redirects: readonly Redirect[], cwd: string | null): void {
    this.effectsUnit(this.redirectEffects(redirects, cwd));
  }

  private effectsUnit(effects: readonly Effect[]): void {
    if (effects.length > 0) this.units.push({ kind: 'effects', effects });
  }
}

function isExit(pipeline: PipelineNode): boolean {
  const only = pipeline.commands.length === 1 ? pipeline.commands[0] : undefined;
  if (only === undefined || only.type !== 'simple') return false;
  const name = only.words[0]?.value;
  return name === 'exit' || name === 'return';
}

function findDelete(starts: readonly Word[], ctx: ExtractContext): Effect {
  if (starts.length === 0) {
    return effect('fileDelete', { paths: ctx.cwd === null ? null : [ctx.cwd], count: null });
  }
  const paths: string[] = [];
  for (const start of starts) {
    const path = wordPath(start, ctx);
    if (path === null) return effect('fileDelete', { paths: null, count: null });
    paths.push(path);
  }
  return effect('fileDelete', { paths, count: null });
}
