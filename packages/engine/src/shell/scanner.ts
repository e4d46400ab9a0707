// Reads shell words: quoting, escapes, parameter expansion, arithmetic and
// substitutions. The grammar on top lives in parser.ts; this file knows only
// characters. Every context in which bash expands a word is either read (the
// commands of a substitution are parsed, so the classifier sees them) or
// makes the word doubtful, which makes its command unparseable (G14b, E32).

import type { ListNode, Word, WordPart } from './ast.js';
import type { Budget } from './limits.js';
import { LIMIT_REASONS, MAX_NESTING, freshBudget } from './limits.js';

/** Thrown when the text cannot be read as shell with confidence. */
export class ShellSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'ShellSyntaxError';
  }
}

/** Thrown when the text is past one of the hard limits (limits.ts): nothing more of it is read. */
export class ShellLimitError extends ShellSyntaxError {
  constructor(message: string, position: number) {
    super(message, position);
    this.name = 'ShellLimitError';
  }
}

const METACHARS = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const SPECIAL_PARAMS = new Set(['@', '*', '#', '?', '$', '!', '-', '0']);
/** `[A-Za-z_]` and `[A-Za-z0-9_]`, by character code. */
function nameStart(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
}
function nameChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return nameStart(ch) || (code >= 0x30 && code <= 0x39);
}
function digit(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code >= 0x30 && code <= 0x39;
}

/** Character classes by code, for the loops that run once per input character. */
const PLAIN_CODE = new Uint8Array(128);
const META_CODE = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@+,%^~{}-')
  PLAIN_CODE[ch.charCodeAt(0)] = 1;
for (const ch of METACHARS) META_CODE[ch.charCodeAt(0)] = 1;

/** Not a metacharacter, quote, escape or expansion: copied as it is, outside quotes. */
function ordinaryUnquoted(code: number): boolean {
  if (code >= 128) return true;
  if (META_CODE[code] === 1) return false;
  return code !== 0x5c && code !== 0x27 && code !== 0x22 && code !== 0x24 && code !== 0x60;
}

/** Not `"`, `\`, `$` or a backtick: copied as it is inside double quotes. */
function ordinaryDoubleQuoted(code: number): boolean {
  return code !== 0x22 && code !== 0x5c && code !== 0x24 && code !== 0x60;
}

/** Why a word cannot be read with confidence. */
export const DOUBTS = {
  substitution: 'it holds a command substitution',
  process: 'it holds a process substitution',
  arithmetic: 'it holds arithmetic on more than plain numbers, which can run commands',
  subscript: 'it holds an array subscript, which the shell evaluates and which can run commands',
  indirect: 'it reads a variable named by another variable, which can run commands',
  prompt: 'it expands a variable as a prompt string, which can run commands',
  parameter: 'it holds a parameter expansion that cannot be read',
  translated: 'it holds a `$"…"` string, which the shell may replace by a translation',
} as const;

interface WordBuilder {
  parts: WordPart[];
  literal: boolean;
  confident: boolean;
  glob: boolean;
  /** The first reason the word cannot be read with confidence. */
  doubt: string | null;
  /** Unquoted text seen so far, for brace-expansion detection. */
  unquoted: string;
}

function builder(): WordBuilder {
  return { parts: [], literal: true, confident: true, glob: false, doubt: null, unquoted: '' };
}

/**
 * Marks a word unreadable. `stops` (the default) also ends the confident
 * leading words there (E24); a word that is probably what it says (`$"rm"`)
 * still classifies as leading word but keeps its command unparseable.
 */
function distrust(b: WordBuilder, reason: string, stops = true): void {
  if (stops) {
    b.confident = false;
    b.literal = false;
  }
  b.doubt ??= reason;
}

/** Numbers only: digits, `0x…`, `base#…`, operators, parentheses and blanks. */
const NUMBER_LITERAL = /0[xX][0-9A-Fa-f]+|[0-9]+#[0-9A-Za-z@_]+|[0-9]+/g;
const ARITH_OPERATORS = /^[\s+\-*/%<>=!&|^~?:,()]*$/;

/** Arithmetic that names no variable and no subscript: nothing in it can run a command. */
export function plainArithmetic(text: string): boolean {
  return ARITH_OPERATORS.test(text.replace(NUMBER_LITERAL, ' '));
}

/** `$#`, `$?`, `$$`, `$!`, `${#name}`: parameters whose value is always a number. */
const NUMERIC_PARAM = /\$(?:[#?$!]|\{(?:#[A-Za-z_][A-Za-z0-9_]*|[#?$!])\})/y;

export abstract class Scanner {
  protected pos = 0;

  constructor(
    protected readonly src: string,
    protected readonly budget: Budget = freshBudget(),
  ) {}

  /** Parses `$( … )` contents starting at `pos`, leaving `pos` on the closing `)`. */
  protected abstract parseSubstitutionBody(): ListNode;

  /** Parses a complete script held in a string (backtick contents). */
  protected abstract parseNested(text: string): ListNode | null;

  protected atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  protected peekChar(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  protected fail(message: string): never {
    throw new ShellSyntaxError(message, this.pos);
  }

  protected enter(): void {
    if (++this.budget.depth > MAX_NESTING) {
      throw new ShellLimitError(LIMIT_REASONS.nesting, this.pos);
    }
  }

  protected leave(): void {
    this.budget.depth--;
  }

  /** Skips blanks and line continuations, never newlines. */
  protected skipBlanks(): void {
    for (;;) {
      const ch = this.peekChar();
      if (ch === ' ' || ch === '\t') this.pos++;
      else if (ch === '\\' && this.peekChar(1) === '\n') this.pos += 2;
      else return;
    }
  }

  /** Skips a comment if one starts here; the newline stays. */
  protected skipComment(): boolean {
    if (this.peekChar() !== '#') return false;
    const end = this.src.indexOf('\n', this.pos);
    this.pos = end < 0 ? this.src.length : end;
    return true;
  }

  protected isWordStart(): boolean {
    if (this.atEnd()) return false;
    return !METACHARS.has(this.peekChar());
  }

  /**
   * Reads one word at `pos`. The caller makes sure a word starts here. Where
   * bash accepts an assignment (`subscripts: 'assignment'`, before the command
   * word) a name followed by `[` takes the whole bracketed subscript into the
   * word, blanks and separators included, as bash does; so does an element of
   * an array that starts with `[` (`subscripts: 'element'`).
   */
  protected readWord(subscripts: 'assignment' | 'element' | null = null): Word {
    if (--this.budget.words < 0) throw new ShellLimitError(LIMIT_REASONS.words, this.pos);
    const start = this.pos;
    const src = this.src;
    // Fast path: a word of plain characters needs no quoting rules.
    let end = start;
    while (end < src.length) {
      const code = src.charCodeAt(end);
      if (code >= 128 || PLAIN_CODE[code] !== 1) break;
      end++;
    }
    if (end > start && (end === src.length || METACHARS.has(src.charAt(end)))) {
      this.pos = end;
      const text = src.slice(start, end);
      const plain = !(text.charAt(0) === '~' || (text.includes('{') && hasBraceExpansion(text)));
      return {
        raw: text,
        parts: [{ kind: 'lit', text, quoted: false }],
        value: text,
        literal: plain,
        confident: true,
        glob: false,
      };
    }
    const b = builder();
    while (!this.atEnd()) {
      const ch = this.peekChar();
      if (METACHARS.has(ch)) {
        // `<(` and `>(` inside a word end it; the parser sees the operator.
        break;
      }
      if (ch === '\\') {
        const next = this.peekChar(1);
        if (next === '\n') {
          this.pos += 2;
          continue;
        }
        if (next === '') this.fail('a backslash ends the command');
        this.addLit(b, next, true);
        this.pos += 2;
        continue;
      }
      if (this.readQuotedOrExpansion(b, ch)) continue;
      if (ch === '[' && subscripts !== null && this.subscriptHere(b, start, subscripts)) {
        this.readSubscript(b);
        continue;
      }
      if (ch === '~' && this.pos === start) b.literal = false;
      let run = this.pos + 1;
      // Stops at `[` where a subscript may open, so the check above sees it.
      while (
        run < src.length &&
        ordinaryUnquoted(src.charCodeAt(run)) &&
        (subscripts === null || src.charCodeAt(run) !== 0x5b)
      )
        run++;
      this.addLit(b, src.slice(this.pos, run), false);
      this.pos = run;
    }
    if (this.pos === start) this.fail('expected a word');
    if (hasGlob(b.unquoted)) {
      b.glob = true;
      b.literal = false;
    }
    if (hasBraceExpansion(b.unquoted)) b.literal = false;
    return finishWord(src.slice(start, this.pos), b);
  }

  /** Whether a `[` at `pos` opens an assignment's subscript (after a plain name) or an element's. */
  private subscriptHere(
    b: WordBuilder,
    start: number,
    subscripts: 'assignment' | 'element',
  ): boolean {
    if (subscripts === 'element') return this.pos === start;
    const only = b.parts.length === 1 ? b.parts[0] : undefined;
    return (
      only !== undefined &&
      only.kind === 'lit' &&
      !only.quoted &&
      /^[A-Za-z_][A-Za-z0-9_]*$/.test(only.text)
    );
  }

  /** A bracketed subscript, up to its matching `]`: blanks and separators inside belong to it. */
  private readSubscript(b: WordBuilder): void {
    let depth = 0;
    for (;;) {
      if (this.atEnd()) this.fail('unbalanced `[`');
      const ch = this.peekChar();
      if (ch === '\\') {
        const next = this.peekChar(1);
        if (next === '') this.fail('a backslash ends the command');
        if (next !== '\n') this.addLit(b, next, true);
        this.pos += 2;
        continue;
      }
      if (this.readQuotedOrExpansion(b, ch)) continue;
      if (ch === '[') depth++;
      else if (ch === ']') depth--;
      this.addLit(b, ch, false);
      this.pos++;
      if (depth === 0) return;
    }
  }

  /** Reads a process substitution `<( … )` or `>( … )` as (the start of) a word. */
  protected readProcessSubstitution(): Word {
    const start = this.pos;
    const b = builder();
    distrust(b, DOUBTS.process);
    this.enter();
    this.pos += 2;
    const script = this.parseSubstitutionBody();
    this.pos++; // the closing parenthesis
    this.leave();
    b.parts.push({ kind: 'subst', text: this.src.slice(start, this.pos), script });
    const rest = this.isWordStart() ? this.readWord() : null;
    if (rest !== null) {
      b.parts.push(...rest.parts);
      if (rest.doubt !== undefined) b.doubt ??= rest.doubt;
    }
    return finishWord(this.src.slice(start, this.pos), b);
  }

  /**
   * Reads an arithmetic command `(( … ))` (or the header of `for (( … ))`) as
   * one word, which is never confident: arithmetic commands are not classified.
   */
  protected readArithmeticCommand(): Word {
    const start = this.pos;
    const b = builder();
    this.readArithmetic(b, 2, '))');
    distrust(b, b.doubt ?? 'it is an arithmetic command, which is not read');
    return finishWord(this.src.slice(start, this.pos), b);
  }

  private addLit(b: WordBuilder, text: string, quoted: boolean): void {
    if (!quoted) b.unquoted += text;
    else b.unquoted += '\u0000'; // quoted text breaks a brace expansion's shape
    const last = b.parts[b.parts.length - 1];
    if (last !== undefined && last.kind === 'lit' && last.quoted === quoted) {
      b.parts[b.parts.length - 1] = { kind: 'lit', text: last.text + text, quoted };
    } else {
      b.parts.push({ kind: 'lit', text, quoted });
    }
  }

  private readDoubleQuoted(b: WordBuilder): void {
    let sawText = false;
    const src = this.src;
    for (;;) {
      if (this.atEnd()) this.fail('unbalanced double quote');
      const ch = this.peekChar();
      if (ch === '"') {
        this.pos++;
        if (!sawText) this.addLit(b, '', true);
        return;
      }
      sawText = true;
      if (ch === '\\') {
        const next = this.peekChar(1);
        if (next === '\n') {
          this.pos += 2;
        } else if (next === '$' || next === '`' || next === '"' || next === '\\') {
          this.addLit(b, next, true);
          this.pos += 2;
        } else {
          this.addLit(b, '\\', true);
          this.pos++;
        }
        continue;
      }
      if (ch === '$') {
        this.readDollar(b, true);
        continue;
      }
      if (ch === '`') {
        this.readBacktick(b, true);
        continue;
      }
      let run = this.pos + 1;
      while (run < src.length && ordinaryDoubleQuoted(src.charCodeAt(run))) run++;
      this.addLit(b, src.slice(this.pos, run), true);
      this.pos = run;
    }
  }

  private readDollar(b: WordBuilder, inDouble: boolean): void {
    const start = this.pos;
    const next = this.peekChar(1);
    if (!inDouble && next === "'") {
      this.pos += 2;
      this.addLit(b, this.readAnsiC(), true);
      return;
    }
    if (!inDouble && next === '"') {
      // Read as double quotes; a message catalogue may replace the text, expansions included.
      this.pos += 2;
      this.readDoubleQuoted(b);
      distrust(b, DOUBTS.translated, false);
      return;
    }
    if (next === '(' && this.peekChar(2) === '(') {
      // `$((` is arithmetic unless it does not close as such: then bash reads `$( (…) …)`.
      const saved = { pos: this.pos, depth: this.budget.depth, parts: b.parts.length };
      try {
        this.readArithmetic(b, 3, '))');
        return;
      } catch (error) {
        if (!(error instanceof ShellSyntaxError) || error instanceof ShellLimitError) throw error;
        this.pos = saved.pos;
        this.budget.depth = saved.depth;
        b.parts.length = saved.parts;
      }
    }
    if (next === '(') {
      this.enter();
      this.pos += 2;
      const script = this.parseSubstitutionBody();
      this.pos++;
      this.leave();
      b.parts.push({ kind: 'subst', text: this.src.slice(start, this.pos), script });
      distrust(b, DOUBTS.substitution);
      return;
    }
    if (next === '[') {
      // The legacy `$[ … ]` is arithmetic too.
      this.readArithmetic(b, 2, ']');
      return;
    }
    if (next === '{') {
      this.readBraceParameter(b, inDouble);
      return;
    }
    if (nameStart(next)) {
      let end = this.pos + 2;
      while (end < this.src.length && nameChar(this.src.charAt(end))) end++;
      this.pos = end;
      b.parts.push({ kind: 'param', text: this.src.slice(start, this.pos) });
      b.literal = false;
      return;
    }
    if (digit(next) || SPECIAL_PARAMS.has(next)) {
      this.pos += 2;
      b.parts.push({ kind: 'param', text: this.src.slice(start, this.pos) });
      b.literal = false;
      return;
    }
    // A lone `$` is an ordinary character.
    this.addLit(b, '$', inDouble);
    this.pos++;
  }

  /**
   * Arithmetic: `$(( … ))`, `$[ … ]`, `(( … ))`. Its substitutions are parsed;
   * anything but plain numbers and operators makes the word doubtful, since a
   * variable's value is itself evaluated, subscripts and their `$(…)` included.
   */
  private readArithmetic(b: WordBuilder, open: number, close: '))' | ']'): void {
    const start = this.pos;
    this.enter();
    this.pos += open;
    const inner = builder();
    const plain = this.scanArithmetic(inner, close === ']' ? ']' : ')');
    if (close === '))') {
      if (this.peekChar(1) !== ')') this.fail('unbalanced `((`');
      this.pos += 2;
    } else this.pos++;
    this.leave();
    pushExpansion(b, this.src.slice(start, this.pos), inner);
    if (!plain) distrust(b, inner.doubt ?? DOUBTS.arithmetic);
  }

  /**
   * Scans arithmetic up to `stop` at nesting level 0 (left on it), reading its
   * substitutions into `inner`. True when it is plain numbers and operators.
   */
  private scanArithmetic(inner: WordBuilder, stop: string, alsoStop = ''): boolean {
    const src = this.src;
    let plain = true;
    let text = '';
    let parens = 0;
    let brackets = 0;
    for (;;) {
      if (this.atEnd()) this.fail(`unbalanced arithmetic`);
      const ch = this.peekChar();
      if (parens === 0 && brackets === 0 && (ch === stop || (alsoStop !== '' && ch === alsoStop)))
        break;
      if (ch === '$') {
        NUMERIC_PARAM.lastIndex = this.pos;
        if (NUMERIC_PARAM.test(src)) {
          text += ' 0 ';
          this.pos = NUMERIC_PARAM.lastIndex;
          continue;
        }
        plain = false;
        this.readDollar(inner, true);
        continue;
      }
      if (ch === '`') {
        plain = false;
        this.readBacktick(inner, true);
        continue;
      }
      if (ch === '"') {
        plain = false;
        this.pos++;
        this.readDoubleQuoted(inner);
        continue;
      }
      if (ch === '\\') {
        plain = false;
        this.pos += 2;
        continue;
      }
      if (ch === '(') parens++;
      else if (ch === ')') {
        if (parens === 0) this.fail('unbalanced arithmetic');
        parens--;
      } else if (ch === '[') brackets++;
      else if (ch === ']' && brackets > 0) brackets--;
      text += ch;
      this.pos++;
    }
    return plain && plainArithmetic(text);
  }

  /** `${…}` with every operator bash knows. */
  private readBraceParameter(b: WordBuilder, inDouble: boolean): void {
    const start = this.pos;
    this.enter();
    this.pos += 2;
    const inner = builder();
    const src = this.src;
    let doubt: string | null = null;
    let simple = false;
    let length = false;
    if (this.peekChar() === '!' && this.peekChar(1) !== '}') {
      doubt = DOUBTS.indirect;
      this.pos++;
    } else if (this.peekChar() === '#' && this.peekChar(1) !== '}' && this.peekChar(1) !== ':') {
      length = true;
      this.pos++;
    }
    // The parameter: a name, digits or one special character.
    const paramStart = this.pos;
    const ch0 = this.peekChar();
    if (nameStart(ch0)) {
      this.pos++;
      while (nameChar(this.peekChar())) this.pos++;
    } else if (digit(ch0)) {
      while (digit(this.peekChar())) this.pos++;
    } else if (SPECIAL_PARAMS.has(ch0) || ch0 === '-') {
      this.pos++;
    }
    if (this.pos === paramStart) doubt ??= DOUBTS.parameter; // `${ cmd; }`, `${|cmd;}`, `${}`
    if (this.peekChar() === '[') {
      this.pos++;
      const subscriptStart = this.pos;
      const plain = this.scanArithmetic(inner, ']');
      const subscript = src.slice(subscriptStart, this.pos);
      this.pos++;
      if (!plain && subscript !== '@' && subscript !== '*') doubt ??= DOUBTS.subscript;
    }
    const op = this.peekChar();
    if (op === '}') {
      simple = doubt === null && !length;
    } else if (length || doubt === DOUBTS.parameter) {
      doubt ??= DOUBTS.parameter;
      this.scanBraceWord(inner, inDouble);
    } else if (op === ':' && !'-=?+'.includes(this.peekChar(1) || 'x')) {
      // `${a:offset}`, `${a:offset:length}`: both are arithmetic.
      this.pos++;
      let plain = this.scanArithmetic(inner, '}', ':');
      if (this.peekChar() === ':') {
        this.pos++;
        plain = this.scanArithmetic(inner, '}') && plain;
      }
      if (!plain) doubt ??= DOUBTS.arithmetic;
    } else if (op === '@' && this.peekChar(1) === '}') {
      this.pos++; // `${!prefix@}`
      doubt ??= DOUBTS.parameter;
    } else if (op === '@') {
      const transform = this.peekChar(1);
      this.pos += 2;
      if (transform === 'P') doubt ??= DOUBTS.prompt;
      else if (!'QEAKaUuLk'.includes(transform) || transform === '') doubt ??= DOUBTS.parameter;
      if (this.peekChar() !== '}') {
        doubt ??= DOUBTS.parameter;
        this.scanBraceWord(inner, inDouble);
      }
    } else if (':-=?+#%/^,'.includes(op)) {
      // `:-` `:=` `:+` `:?` `-` `=` `+` `?` `#` `##` `%` `%%` `/…/…` `^` `^^` `,` `,,`
      this.pos++;
      this.scanBraceWord(inner, inDouble);
    } else {
      doubt ??= DOUBTS.parameter;
      this.scanBraceWord(inner, inDouble);
    }
    if (this.peekChar() !== '}') this.fail('unbalanced `${`');
    this.pos++;
    this.leave();
    const text = src.slice(start, this.pos);
    if (simple && inner.parts.length === 0) {
      b.parts.push({ kind: 'param', text });
      b.literal = false;
      return;
    }
    pushExpansion(b, text, inner);
    if (doubt !== null) distrust(b, doubt);
  }

  /**
   * The word of a `${…}` operator, up to the closing `}` (left on it). Outside
   * double quotes, single quotes quote; inside them bash still matches the
   * quotes to find the `}`, but expands what they hold.
   */
  /**
   * Reads a single- or double-quoted string, a `$` expansion or a backtick
   * substitution starting at the current character into `b`; false when the
   * character starts none of them.
   */
  private readQuotedOrExpansion(b: WordBuilder, ch: string): boolean {
    switch (ch) {
      case "'": {
        const close = this.src.indexOf("'", this.pos + 1);
        if (close < 0) this.fail('unbalanced single quote');
        this.addLit(b, this.src.slice(this.pos + 1, close), true);
        this.pos = close + 1;
        return true;
      }
      case '"':
        this.pos++;
        this.readDoubleQuoted(b);
        return true;
      case '$':
        this.readDollar(b, false);
        return true;
      case '`':
        this.readBacktick(b, false);
        return true;
      default:
        return false;
    }
  }

  private scanBraceWord(inner: WordBuilder, inDouble: boolean): void {
    const src = this.src;
    for (;;) {
      if (this.atEnd()) this.fail('unbalanced `${`');
      const ch = this.peekChar();
      if (ch === '}') return;
      if (ch === '\\') {
        this.pos += 2;
        continue;
      }
      if (ch === "'") {
        if (!inDouble) {
          const close = src.indexOf("'", this.pos + 1);
          if (close < 0) this.fail('unbalanced single quote');
          this.pos = close + 1;
          continue;
        }
        this.pos++;
        for (;;) {
          if (this.atEnd()) this.fail('unbalanced single quote');
          const q = this.peekChar();
          if (q === "'") break;
          if (q === '\\') this.pos += 2;
          else if (q === '$') this.readDollar(inner, true);
          else if (q === '`') this.readBacktick(inner, true);
          else this.pos++;
        }
        this.pos++;
        continue;
      }
      if (ch === '"') {
        this.pos++;
        this.readDoubleQuoted(inner);
        continue;
      }
      if (ch === '$') {
        this.readDollar(inner, inDouble);
        continue;
      }
      if (ch === '`') {
        this.readBacktick(inner, inDouble);
        continue;
      }
      this.pos++;
    }
  }

  private readBacktick(b: WordBuilder, inDouble: boolean): void {
    const start = this.pos;
    this.pos++;
    const src = this.src;
    const pieces: string[] = [];
    let from = this.pos;
    for (;;) {
      if (this.atEnd()) this.fail('unbalanced backtick');
      const ch = this.peekChar();
      if (ch === '`') {
        pieces.push(src.slice(from, this.pos));
        this.pos++;
        break;
      }
      if (ch === '\\') {
        const next = this.peekChar(1);
        if (next === '`' || next === '\\' || next === '$' || (inDouble && next === '"')) {
          pieces.push(src.slice(from, this.pos), next);
          this.pos += 2;
          from = this.pos;
          continue;
        }
      }
      this.pos++;
    }
    this.enter();
    const script = this.parseNested(pieces.join(''));
    this.leave();
    b.parts.push({ kind: 'subst', text: src.slice(start, this.pos), script });
    distrust(b, DOUBTS.substitution);
  }

  /**
   * `$'…'`: decodes the ANSI-C escapes bash knows. `pos` is after the opening
   * quote. Bash ends the string at a decoded NUL, so what follows it is dropped.
   */
  private readAnsiC(): string {
    const out: string[] = [];
    let cut = false;
    const add = (text: string): void => {
      if (cut) return;
      const nul = text.indexOf('\u0000');
      if (nul >= 0) {
        out.push(text.slice(0, nul));
        cut = true;
      } else out.push(text);
    };
    for (;;) {
      if (this.atEnd()) this.fail("unbalanced `$'`");
      const ch = this.peekChar();
      this.pos++;
      if (ch === "'") return out.join('');
      if (ch !== '\\') {
        add(ch);
        continue;
      }
      const esc = this.peekChar();
      this.pos++;
      const mapped = ANSI_C[esc];
      if (mapped !== undefined) {
        add(mapped);
      } else if (/[0-7]/.test(esc)) {
        let digits = esc;
        while (digits.length < 3 && /[0-7]/.test(this.peekChar())) digits += this.src[this.pos++];
        add(String.fromCharCode(parseInt(digits, 8) & 0xff));
      } else if (esc === 'x' || esc === 'u' || esc === 'U') {
        const max = esc === 'x' ? 2 : esc === 'u' ? 4 : 8;
        let digits = '';
        while (digits.length < max && /[0-9a-fA-F]/.test(this.peekChar()))
          digits += this.src[this.pos++];
        if (digits === '') add(`\\${esc}`);
        else {
          const code = parseInt(digits, 16);
          add(code <= 0x10ffff ? String.fromCodePoint(code) : '');
        }
      } else if (esc === 'c') {
        const ctl = this.peekChar();
        this.pos++;
        add(String.fromCharCode(ctl.charCodeAt(0) & 0x1f));
      } else {
        add(`\\${esc}`);
      }
    }
  }
}

const ANSI_C: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Adds an expansion read with `inner`: its substitutions' scripts, and its doubt. */
function pushExpansion(b: WordBuilder, text: string, inner: WordBuilder): void {
  const scripts: ListNode[] = [];
  for (const part of inner.parts)
    if (part.kind === 'subst' && part.script) scripts.push(part.script);
  const merged = mergeScripts(scripts);
  if (merged !== null || !inner.confident) b.parts.push({ kind: 'subst', text, script: merged });
  else b.parts.push({ kind: 'expansion', text });
  b.literal = false;
  if (inner.doubt !== null) distrust(b, inner.doubt, !inner.confident);
}

function finishWord(raw: string, b: WordBuilder): Word {
  let value = '';
  for (const part of b.parts) value += part.text;
  const word: Word = {
    raw,
    parts: b.parts,
    value,
    literal: b.literal,
    confident: b.confident,
    glob: b.glob,
  };
  return b.doubt === null ? word : { ...word, doubt: b.doubt };
}

/** `*`, `?` or a bracket expression `[…]` in unquoted text make a pattern. */
function hasGlob(unquoted: string): boolean {
  if (unquoted.includes('*') || unquoted.includes('?')) return true;
  const open = unquoted.indexOf('[');
  return open >= 0 && unquoted.indexOf(']', open + 1) >= 0;
}

/** `{a,b}` or `{1..3}` in unquoted text expands to several words. */
function hasBraceExpansion(unquoted: string): boolean {
  const open = unquoted.indexOf('{');
  if (open < 0) return false;
  const close = unquoted.indexOf('}', open);
  if (close < 0) return false;
  const inner = unquoted.slice(open + 1, close);
  return inner.includes(',') || inner.includes('..');
}

function mergeScripts(scripts: readonly ListNode[]): ListNode | null {
  if (scripts.length === 0) return null;
  if (scripts.length === 1) return scripts[0] as ListNode;
  return { type: 'list', items: scripts.flatMap((script) => script.items) };
}

/** A word made doubtful after it was read (a subscript, an arithmetic operand in `[[ … ]]`). */
export function doubtful(word: Word, reason: string): Word {
  return { ...word, literal: false, confident: false, doubt: word.doubt ?? reason };
}
