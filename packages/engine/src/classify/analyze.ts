// Turns a command line into what rules see (G14b, G14c): one unit per simple
// command, with its facet name, its words, and the classes it reveals. The
// working directory is followed through `cd` so relative paths resolve (E26).

import { CLASS_ORDER } from '../model/classes.js';
import type { CommandWords } from '../match/commands.js';
import type {
  CommandNode,
  CompoundNode,
  ListNode,
  PipelineNode,
  Redirect,
  SimpleNode,
  Word,
} from '../shell/ast.js';
import type { Budget } from '../shell/limits.js';
import { LIMIT_REASONS, MAX_COMMAND_LENGTH, MAX_NESTING, freshBudget } from '../shell/limits.js';
import { leadingWords, parseShell } from '../shell/parser.js';
import { joinWords } from '../shell/render.js';
import { DOUBTS, ShellLimitError, ShellSyntaxError } from '../shell/scanner.js';
import type { Effect, ExtractContext } from './effects.js';
import { blurArgs, effect, openArgs, wordPath, writeEffects } from './effects.js';
import { prefixEffects } from './prefixes.js';
import type { ProgramResult, ReadingContext, Wrappers } from './program.js';
import {
  assignmentHazard,
  commandWords,
  extractProgram,
  resolveProgram,
  wrapperWords,
} from './program.js';
import type { ClassifierTable } from './table.js';

/** A simple command read with confidence. `inner` ones come from substitutions and get no facet (E32). */
export interface CommandUnit {
  readonly kind: 'command';
  readonly name: string;
  readonly words: CommandWords;
  readonly effects: readonly Effect[];
  readonly inner: boolean;
  /** The wrappers it runs under, outermost first: restrictive rules read them too. */
  readonly wrappers: readonly CommandWords[];
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
  /** The wrappers read with confidence around it, outermost first. */
  readonly wrappers: readonly CommandWords[];
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

/** How the commands being walked run: in a substitution, with arguments from input, … */
interface Flow {
  /** Inside `$(…)`, backticks or `<(…)`: classified, but no facet of its own (E32). */
  readonly inner: boolean;
  /** Arguments come from input (`xargs`, `find -exec`): paths and counts unknown (E26). */
  readonly blur: boolean;
  /** Text replaced at run time (`xargs -I X`, `find -exec … {}`). */
  readonly placeholder: string | null;
  /** The wrappers around the script being walked (`sudo bash -c '…'`), outermost first. */
  readonly wrappers: readonly CommandWords[];
}

const TOP: Flow = { inner: false, blur: false, placeholder: null, wrappers: [] };
const INNER: Flow = { inner: true, blur: false, placeholder: null, wrappers: [] };
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Analyses already made, per classifier table: agents repeat the same few command lines. */
const MEMO = new WeakMap<
  ClassifierTable,
  { entries: Map<string, CommandAnalysis>; chars: number }
>();
const MEMO_SIZE = 4096;
/** Only short command lines are remembered: those are the ones agents repeat. */
const MEMO_TEXT = 1024;
/**
 * The memo holds at most this many characters of command text in all: an
 * analysis takes some hundreds of bytes per character, and a memo full of
 * unique commands must not keep a heap that makes every collection slow.
 */
const MEMO_CHARS = 65_536;

/** What a command line does, read once per table, working directory and text (the result is shared: read-only). */
export function analyzeCommand(
  text: string,
  table: ClassifierTable,
  worktree: string | null,
): CommandAnalysis {
  if (text.length > MEMO_TEXT) return analyzeFresh(text, table, worktree);
  let memo = MEMO.get(table);
  if (memo === undefined) {
    memo = { entries: new Map(), chars: 0 };
    MEMO.set(table, memo);
  }
  const key = `${worktree ?? ''}\u0000${text}`;
  let analysis = memo.entries.get(key);
  if (analysis === undefined) {
    analysis = deepFreeze(analyzeFresh(text, table, worktree));
    if (memo.entries.size >= MEMO_SIZE || memo.chars + key.length > MEMO_CHARS) {
      memo.entries.clear();
      memo.chars = 0;
    }
    memo.entries.set(key, analysis);
    memo.chars += key.length;
  }
  return analysis;
}

/** A shared analysis cannot be changed by one decision under the next one's feet. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function analyzeFresh(
  text: string,
  table: ClassifierTable,
  worktree: string | null,
): CommandAnalysis {
  const walker = new Walker(table, worktree, text.slice(0, MAX_COMMAND_LENGTH));
  if (text.length > MAX_COMMAND_LENGTH) {
    // Past the limit nothing is parsed; the leading words of its start still classify it (E24).
    const head = text.slice(0, MAX_COMMAND_LENGTH);
    const leading = leadingWords(head);
    const last = leading[leading.length - 1];
    if (last !== undefined && head.endsWith(last.raw)) leading.pop(); // it may be cut short
    walker.rawUnit(text, leading, '.', TOP, LIMIT_REASONS.length);
    return { text, units: walker.units };
  }
  if (CONTROL.test(text)) {
    // Shells drop or stop at such bytes differently; what runs cannot be known.
    walker.rawUnit(text, [], '.', TOP, 'it holds control characters');
    return { text, units: walker.units };
  }
  try {
    walker.walkList(walker.parse(text), '.', TOP);
  } catch (error) {
    // The limits keep recursion shallow; should the stack still run out, the command is not read.
    if (!(error instanceof ShellSyntaxError) && !(error instanceof RangeError)) throw error;
    const reason = error instanceof ShellSyntaxError ? error.message : LIMIT_REASONS.nesting;
    walker.units = [];
    walker.rawUnit(text, leadingWords(text), '.', TOP, reason);
  }
  return { text, units: walker.units };
}

/** The first reason one of these words cannot be read with confidence, or null. */
function doubtOf(words: readonly Word[]): string | null {
  for (const word of words) {
    if (word.doubt !== undefined) return word.doubt;
    if (!word.confident) return DOUBTS.substitution;
  }
  return null;
}

class Walker implements ReadingContext {
  units: Unit[] = [];
  readonly functions = new Set<string>();
  /** Functions whose body changes the working directory. */
  private readonly movers = new Set<string>();
  readonly cdpath: boolean;
  readonly pathChanged: boolean;
  /** What is left to read: every script of this command line draws from it. */
  private readonly budget: Budget = freshBudget();
  /** Lists being walked, `bash -c` scripts included. */
  private depth = 0;

  constructor(
    readonly table: ClassifierTable,
    readonly worktree: string | null,
    text: string,
  ) {
    this.cdpath = text.includes('CDPATH');
    this.pathChanged = /\bPATH\+?=/.test(text);
  }

  /** Parses a script of this command line within its limits. */
  parse(text: string): ListNode {
    return parseShell(text, this.budget);
  }

  walkList(list: ListNode, cwd: string | null, flow: Flow): string | null {
    // The parser bounds each script's nesting; this bounds scripts nested in scripts (`bash -c`).
    if (++this.depth > MAX_NESTING + 2) throw new ShellLimitError(LIMIT_REASONS.nesting, 0);
    try {
      let current = cwd;
      for (const item of list.items) {
        const after = this.walkAndOr(item.node, current, flow);
        if (!item.background) current = after;
      }
      return current;
    } finally {
      this.depth--;
    }
  }

  private walkAndOr(
    node: ListNode['items'][number]['node'],
    cwd: string | null,
    flow: Flow,
  ): string | null {
    let current = this.walkPipeline(node.first, cwd, flow);
    let uncertain = false;
    for (const { op, pipeline } of node.rest) {
      if (op === '&&') {
        current = this.walkPipeline(pipeline, current, flow);
        continue;
      }
      // The right of `||` runs when the left failed, so a `cd` on the left may not have happened.
      const leftEnd = current;
      const right = this.walkPipeline(pipeline, leftEnd === cwd ? leftEnd : null, flow);
      if (isExit(pipeline)) current = leftEnd;
      else {
        current = right;
        uncertain = true;
      }
    }
    return uncertain && current !== cwd ? null : current;
  }

  private walkPipeline(pipeline: PipelineNode, cwd: string | null, flow: Flow): string | null {
    if (pipeline.commands.length === 1)
      return this.walkCommand(pipeline.commands[0] as CommandNode, cwd, flow);
    // Each part of a pipeline runs in a subshell.
    for (const command of pipeline.commands) this.walkCommand(command, cwd, flow);
    return cwd;
  }

  private walkCommand(node: CommandNode, cwd: string | null, flow: Flow): string | null {
    switch (node.type) {
      case 'simple':
        return this.walkSimple(node, cwd, flow);
      case 'subshell':
        this.walkList(node.body, cwd, flow);
        this.compoundRedirects(node.raw, node.redirects, cwd, flow);
        return cwd;
      case 'group': {
        const after = this.walkList(node.body, cwd, flow);
        this.compoundRedirects(node.raw, node.redirects, cwd, flow);
        return after;
      }
      case 'compound': {
        // Words the construct expands itself (`for … in`, `case … in`): read, or it is unparseable.
        const doubt = doubtOf(node.words);
        if (doubt !== null) this.rawUnit(node.raw, [], cwd, flow, doubt);
        for (const word of node.words) this.walkSubstitutions(word, cwd);
        const after = this.walkCompound(node, cwd, flow);
        this.compoundRedirects(node.raw, node.redirects, cwd, flow);
        return after;
      }
    }
  }

  /** A compound command's redirections: their targets classified, their substitutions read. */
  private compoundRedirects(
    raw: string,
    redirects: readonly Redirect[],
    cwd: string | null,
    flow: Flow,
  ): void {
    const targets = redirects.map((r) => r.target);
    const doubt = doubtOf(targets);
    if (doubt !== null) {
      this.rawUnit(raw, [], cwd, flow, doubt);
      for (const target of targets) this.walkSubstitutions(target, cwd);
    }
    this.redirectUnit(redirects, cwd);
  }

  /** Control structures: a condition's `cd` carries into its branch; after the structure, a move leaves the directory unknown. */
  private walkCompound(node: CompoundNode, cwd: string | null, flow: Flow): string | null {
    const bodies = node.bodies;
    let moved = false;
    const walk = (body: ListNode | undefined, from: string | null): string | null => {
      if (body === undefined) return from;
      const end = this.walkList(body, from, flow);
      if (end !== from || from !== cwd) moved = true;
      return end;
    };
    switch (node.keyword) {
      case 'if': {
        let from = cwd;
        let i = 0;
        for (; i + 1 < bodies.length; i += 2) {
          const afterCondition = walk(bodies[i], from);
          walk(bodies[i + 1], afterCondition);
          // The next condition runs when this one failed: its `cd` may or may not have happened.
          if (afterCondition !== from) from = null;
        }
        walk(bodies[i], from);
        break;
      }
      case 'while':
      case 'until': {
        const afterCondition = walk(bodies[0], cwd);
        walk(bodies[1], afterCondition);
        break;
      }
      case 'function': {
        if (node.name !== undefined) this.functions.add(node.name);
        for (const body of bodies) {
          if (this.walkList(body, cwd, flow) !== cwd && node.name !== undefined)
            this.movers.add(node.name);
        }
        return cwd;
      }
      default:
        for (const body of bodies) walk(body, cwd);
    }
    return moved ? null : cwd;
  }

  private walkSimple(node: SimpleNode, cwd: string | null, flow: Flow): string | null {
    const all = [...node.assignments, ...node.words, ...node.redirects.map((r) => r.target)];
    const doubt = doubtOf(all);
    if (doubt !== null) {
      const leading: Word[] = [];
      for (const word of node.words) {
        if (!word.confident) break;
        leading.push(word);
      }
      this.rawUnit(node.raw, leading, cwd, flow, doubt);
      for (const word of all) this.walkSubstitutions(word, cwd);
      return node.words[0]?.value === 'cd' ? null : cwd;
    }
    for (const assignment of node.assignments) {
      const problem = assignmentHazard(this.table, assignment, node.words.length === 0);
      if (problem !== null) {
        // The command still runs: its confident words keep what they certainly do (E42).
        this.rawUnit(node.raw, node.words, cwd, flow, problem, [], node.assignments);
        return cwd;
      }
    }
    if (node.words.length === 0) {
      this.redirectUnit(node.redirects, cwd);
      return cwd;
    }
    const assigned = node.assignments.map(
      (a) => /^[A-Za-z_][A-Za-z0-9_]*/.exec(a.value)?.[0] ?? '',
    );
    return this.classifyWords(
      node.words,
      node.raw,
      node.redirects,
      cwd,
      flow,
      assigned,
      node.assignments,
    );
  }

  /** Classifies a script's commands as far as it parses (E32: no facets of their own when inner). */
  private walkScript(text: string, cwd: string | null, flow: Flow): void {
    try {
      this.walkList(this.parse(text), cwd, flow);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError) || error instanceof ShellLimitError) throw error;
    }
  }

  private walkSubstitutions(word: Word, cwd: string | null): void {
    for (const part of word.parts) {
      if (part.kind === 'subst' && part.script !== null) this.walkList(part.script, cwd, INNER);
    }
  }

  private classifyWords(
    words: readonly Word[],
    raw: string,
    redirects: readonly Redirect[],
    cwd: string | null,
    flow: Flow,
    assigned: readonly string[],
    assignments: readonly Word[] = [],
  ): string | null {
    const resolved = resolveProgram(
      this,
      words,
      cwd,
      flow.blur,
      flow.placeholder,
      assigned,
      assignments,
    );
    const redirectEffects = this.redirectEffects(redirects, cwd);
    switch (resolved.kind) {
      case 'raw': {
        // A shell reading its commands where a literal here-string stands runs that text, as
        // `bash -c` runs its script: `bash - <<< 'rm -rf x'` is read as `rm -rf x`.
        const fed = resolved.stdin === undefined ? null : hereString(redirects, resolved.stdin);
        if (fed !== null && fed.literal) {
          const shellCwd = resolved.cwd === undefined ? cwd : resolved.cwd;
          const inner: Flow = { ...flow, wrappers: this.outer(flow, resolved.wrappers, assigned) };
          let script: ListNode;
          try {
            script = this.parse(`${fed.value}\n`);
          } catch (error) {
            if (!(error instanceof ShellSyntaxError) || error instanceof ShellLimitError)
              throw error;
            this.rawUnit(
              raw,
              leadingWords(fed.value),
              shellCwd,
              inner,
              `its script cannot be read: ${error.message}`,
            );
            return cwd;
          }
          this.walkList(script, shellCwd, inner);
          this.effectsUnit(redirectEffects);
          return cwd;
        }
        this.rawUnit(raw, words, cwd, flow, resolved.reason, assigned, assignments);
        if (resolved.script !== undefined) this.walkScript(resolved.script, cwd, INNER);
        return cwd;
      }
      case 'script': {
        // An assignment that changes what the shell runs first (`BASH_ENV=…`) makes the line
        // unreadable; what the script certainly does still counts (E42).
        if (resolved.hazard !== null)
          this.rawUnit(raw, words, cwd, flow, resolved.hazard, assigned, assignments);
        let script: ListNode;
        try {
          script = this.parse(resolved.text);
        } catch (error) {
          if (!(error instanceof ShellSyntaxError) || error instanceof ShellLimitError) throw error;
          // The script's own leading words still classify it, as a command line's do (E24):
          // `bash -c "git push 'x"` is read as `git push …` under a wrapper, never as less.
          this.rawUnit(
            raw,
            leadingWords(resolved.text),
            resolved.cwd,
            {
              ...flow,
              blur: resolved.blur,
              placeholder: resolved.placeholder,
              wrappers: this.outer(flow, resolved.wrappers, assigned),
            },
            `its script cannot be read: ${error.message}`,
          );
          return cwd;
        }
        this.walkList(script, resolved.cwd, {
          ...flow,
          blur: resolved.blur,
          placeholder: resolved.placeholder,
          wrappers: this.outer(flow, resolved.wrappers, assigned),
        });
        this.effectsUnit(redirectEffects);
        return cwd;
      }
      case 'find': {
        if (resolved.hazard !== null)
          this.rawUnit(raw, words, cwd, flow, resolved.hazard, assigned, assignments);
        const ctx: ExtractContext = {
          cwd: resolved.cwd,
          worktree: this.worktree,
          assigned: resolved.assigned,
          cdpath: this.cdpath,
        };
        const own = [
          ...(resolved.deletes ? [findDelete(resolved.starts, ctx)] : []),
          ...writeEffects(resolved.writes, ctx),
        ];
        if (resolved.commands.length === 0) {
          this.commandUnit(
            resolved.words,
            [...own, ...redirectEffects],
            resolved.assigned,
            flow.inner,
            flow.blur,
            this.outer(flow, resolved.wrappers, resolved.assigned),
          );
          return cwd;
        }
        this.effectsUnit(own);
        for (const command of resolved.commands) {
          this.classifyWords(
            command,
            joinWords(command),
            [],
            resolved.cwd,
            {
              ...flow,
              blur: true,
              placeholder: '{}',
              wrappers: this.outer(flow, [...resolved.wrappers, resolved.words], resolved.assigned),
            },
            [...resolved.assigned],
          );
        }
        this.effectsUnit(redirectEffects);
        return cwd;
      }
      case 'program': {
        const outcome = extractProgram(this, resolved);
        if (outcome.unparseable !== undefined) {
          this.rawUnit(raw, words, cwd, flow, outcome.unparseable, assigned, assignments);
          return cwd;
        }
        this.commandUnit(
          resolved.words,
          [...outcome.effects, ...redirectEffects],
          resolved.assigned,
          flow.inner,
          resolved.blur,
          this.outer(flow, resolved.wrappers, resolved.assigned),
        );
        return this.cwdAfter(resolved, outcome.cwd, cwd);
      }
    }
  }

  /** Where the shell stands after a command: moved by `cd`, unknown after a function that moves. */
  private cwdAfter(
    resolved: ProgramResult,
    moved: string | null | undefined,
    cwd: string | null,
  ): string | null {
    if (!resolved.inShell) return cwd;
    if (resolved.callsFunction)
      return this.movers.has((resolved.words[0] as Word).value) ? null : cwd;
    return moved === undefined ? cwd : moved;
  }

  /** The flow's wrappers and those just unwrapped, as rules read them. */
  private outer(
    flow: Flow,
    wrappers: Wrappers,
    assigned: ReadonlySet<string> | readonly string[],
  ): readonly CommandWords[] {
    if (wrappers.length === 0) return flow.wrappers;
    const names = assigned instanceof Set ? assigned : new Set(assigned);
    return [...flow.wrappers, ...wrappers.map((words) => wrapperWords(this, words, names))];
  }

  private commandUnit(
    words: readonly Word[],
    extracted: readonly Effect[],
    assigned: ReadonlySet<string>,
    inner: boolean,
    blur: boolean,
    wrappers: readonly CommandWords[],
  ): void {
    const read = commandWords(this, words, assigned);
    const effects: Effect[] = [
      ...extracted,
      ...prefixEffects(this.table, read),
      effect('processSpawn'),
    ];
    // Under `xargs` and `find -exec` the lists are open; the extractor kept what is certain (E42).
    const final = (blur ? effects.map((item) => openArgs(item)) : effects).sort(
      (a, b) => CLASS_ORDER[a.cls] - CLASS_ORDER[b.cls],
    );
    this.units.push({
      kind: 'command',
      name: joinWords(words),
      words: read,
      effects: final,
      inner,
      wrappers,
    });
  }

  /** A command that cannot be read with confidence, classified by its leading words (E24). */
  rawUnit(
    name: string,
    leading: readonly Word[],
    cwd: string | null,
    flow: Flow,
    reason: string,
    assigned: readonly string[] = [],
    assignments: readonly Word[] = [],
  ): void {
    let effects: Effect[] = [];
    let leadingWords: CommandWords | null = null;
    let wrappers = flow.wrappers;
    if (leading[0]?.literal === true) {
      const resolved = resolveProgram(
        this,
        leading,
        cwd,
        flow.blur,
        flow.placeholder,
        assigned,
        assignments,
      );
      wrappers = this.outer(flow, resolved.wrappers, assigned);
      if (resolved.kind === 'program') {
        leadingWords = commandWords(this, resolved.words, resolved.assigned);
        // What an extractor reports beside an unparseable part is certain (E42): keep it, blurred.
        // Under `xargs` the arguments come from input: nothing of them is certain.
        effects = extractProgram(this, resolved).effects.map(
          resolved.blur ? blurArgs : (e) => openArgs(e),
        );
        effects.push(...prefixEffects(this.table, leadingWords));
      }
    }
    effects.push(effect('processSpawn'));
    effects.sort((a, b) => CLASS_ORDER[a.cls] - CLASS_ORDER[b.cls]);
    this.units.push({
      kind: 'raw',
      name,
      leading: leadingWords,
      effects,
      inner: flow.inner,
      reason,
      wrappers,
    });
  }

  private redirectEffects(redirects: readonly Redirect[], cwd: string | null): Effect[] {
    const effects: Effect[] = [];
    const hosts: string[] = [];
    for (const redirect of redirects) {
      // Bash opens a connection for `/dev/tcp/HOST/PORT` and `/dev/udp/HOST/PORT`.
      const socket = /^\/dev\/(?:tcp|udp)\/([^/]+)\/[^/]+$/.exec(redirect.target.value);
      if (socket !== null) hosts.push(redirect.target.literal ? (socket[1] as string) : '');
    }
    if (hosts.length > 0)
      effects.push(effect('networkEgress', { hosts: hosts.includes('') ? null : hosts }));
    const targets = redirects
      .filter((r) => r.writes && !/^\/dev\/(?:tcp|udp)\//.test(r.target.value))
      .map((r) => r.target);
    if (targets.length > 0) {
      effects.push(
        ...writeEffects(targets, {
          cwd,
          worktree: this.worktree,
          assigned: new Set(),
          cdpath: this.cdpath,
        }),
      );
    }
    return effects;
  }

  private redirectUnit(redirects: readonly Redirect[], cwd: string | null): void {
    this.effectsUnit(this.redirectEffects(redirects, cwd));
  }

  private effectsUnit(effects: readonly Effect[]): void {
    if (effects.length > 0) this.units.push({ kind: 'effects', effects });
  }
}

/** The here-string (`<<< text`) given on descriptor `fd`, if the command has one; the last wins. */
function hereString(redirects: readonly Redirect[], fd: number): Word | null {
  let found: Word | null = null;
  for (const redirect of redirects) {
    const on = redirect.fd ?? (redirect.op.startsWith('>') || redirect.op === '&>' ? 1 : 0);
    if (on !== fd) continue;
    // Any later redirection of that descriptor replaces what the shell reads there.
    found = redirect.op === '<<<' ? redirect.target : null;
  }
  return found;
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
