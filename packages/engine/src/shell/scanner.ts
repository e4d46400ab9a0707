// Reads shell words: quoting, escapes, parameter expansion and substitutions.
// The grammar on top lives in parser.ts; this file knows only characters.

import type { ListNode, Word, WordPart } from './ast.js';

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

const METACHARS = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
/** Characters that mean nothing special inside a word. */
const PLAIN = /[A-Za-z0-9_./:=@+,%^~{}-]/;
const SPECIAL_PARAMS = new Set(['@', '*', '#', '?', '$', '!', '-', '0']);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

interface WordBuilder {
  parts: WordPart[];
  literal: boolean;
  confident: boolean;
  glob: boolean;
  /** Unquoted text seen so far, for brace-expansion detection. */
  unquoted: string;
}

export abstract class Scanner {
  protected pos = 0;
  protected depth = 0;

  constructor(protected readonly src: string) {}

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
    if (++this.depth > 64) this.fail('nesting too deep');
  }

  protected leave(): void {
    this.depth--;
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
    while (!this.atEnd() && this.peekChar() !== '\n') this.pos++;
    return true;
  }

  protected isWordStart(): boolean {
    if (this.atEnd()) return false;
    return !METACHARS.has(this.peekChar());
  }

  /** Reads one word at `pos`. The caller makes sure a word starts here. */
  protected readWord(): Word {
    const start = this.pos;
    // Fast path: a word of plain characters needs no quoting rules.
    let end = start;
    while (end < this.src.length && PLAIN.test(this.src.charAt(end))) end++;
    if (end > start && (end === this.src.length || METACHARS.has(this.src.charAt(end)))) {
      this.pos = end;
      const text = this.src.slice(start, end);
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
    const b: WordBuilder = { parts: [], literal: true, confident: true, glob: false, unquoted: '' };
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
      if (ch === "'") {
        const close = this.src.indexOf("'", this.pos + 1);
        if (close < 0) this.fail('unbalanced single quote');
        this.addLit(b, this.src.slice(this.pos + 1, close), true);
        this.pos = close + 1;
        continue;
      }
      if (ch === '"') {
        this.pos++;
        this.readDoubleQuoted(b);
        continue;
      }
      if (ch === '$') {
        this.readDollar(b, false);
        continue;
      }
      if (ch === '`') {
        this.readBacktick(b);
        continue;
      }
      if (ch === '~' && this.pos === start) b.literal = false;
      this.addLit(b, ch, false);
      this.pos++;
    }
    if (this.pos === start) this.fail('expected a word');
    if (hasGlob(b.unquoted)) {
      b.glob = true;
      b.literal = false;
    }
    if (hasBraceExpansion(b.unquoted)) b.literal = false;
    return finishWord(this.src.slice(start, this.pos), b);
  }

  /** Reads a process substitution `<( … )` or `>( … )` as (the start of) a word. */
  protected readProcessSubstitution(): Word {
    const start = this.pos;
    const b: WordBuilder = {
      parts: [],
      literal: false,
      confident: false,
      glob: false,
      unquoted: '',
    };
    this.pos += 2;
    const script = this.parseSubstitutionBody();
    this.pos++; // the closing parenthesis
    b.parts.push({ kind: 'subst', text: this.src.slice(start, this.pos), script });
    const rest = this.isWordStart() ? this.readWord() : null;
    if (rest !== null) b.parts.push(...rest.parts);
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
        this.readBacktick(b);
        continue;
      }
      this.addLit(b, ch, true);
      this.pos++;
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
      this.pos += 2;
      this.readDoubleQuoted(b);
      return;
    }
    if (next === '(' && this.peekChar(2) === '(') {
      this.readArithmetic(b);
      return;
    }
    if (next === '(') {
      this.enter();
      this.pos += 2;
      const script = this.parseSubstitutionBody();
      this.pos++;
      this.leave();
      b.parts.push({ kind: 'subst', text: this.src.slice(start, this.pos), script });
      b.literal = false;
      b.confident = false;
      return;
    }
    if (next === '[') {
      const close = this.src.indexOf(']', this.pos + 2);
      if (close < 0) this.fail('unbalanced `$[`');
      this.pos = close + 1;
      b.parts.push({ kind: 'expansion', text: this.src.slice(start, this.pos) });
      b.literal = false;
      return;
    }
    if (next === '{') {
      this.readBraceParameter(b);
      return;
    }
    if (NAME_START.test(next)) {
      this.pos += 2;
      while (NAME_CHAR.test(this.peekChar())) this.pos++;
      b.parts.push({ kind: 'param', text: this.src.slice(start, this.pos) });
      b.literal = false;
      return;
    }
    if (/[0-9]/.test(next) || SPECIAL_PARAMS.has(next)) {
      this.pos += 2;
      b.parts.push({ kind: 'param', text: this.src.slice(start, this.pos) });
      b.literal = false;
      return;
    }
    // A lone `$` is an ordinary character.
    this.addLit(b, '$', inDouble);
    this.pos++;
  }

  private readArithmetic(b: WordBuilder): void {
    const start = this.pos;
    this.pos += 3;
    let depth = 2;
    while (depth > 0) {
      if (this.atEnd()) this.fail('unbalanced `$((`');
      const ch = this.peekChar();
      if (ch === '(') depth++;
      else if (ch === ')') depth--;
      else if (ch === '`' || (ch === '$' && this.peekChar(1) === '(' && this.peekChar(2) !== '(')) {
        b.confident = false;
      }
      this.pos++;
    }
    b.parts.push({ kind: 'expansion', text: this.src.slice(start, this.pos) });
    b.literal = false;
  }

  private readBraceParameter(b: WordBuilder): void {
    const start = this.pos;
    this.pos += 2;
    const scripts: ListNode[] = [];
    let confident = true;
    for (;;) {
      if (this.atEnd()) this.fail('unbalanced `${`');
      const ch = this.peekChar();
      if (ch === '}') {
        this.pos++;
        break;
      }
      if (ch === '\\') {
        this.pos += 2;
        continue;
      }
      if (ch === "'") {
        const close = this.src.indexOf("'", this.pos + 1);
        if (close < 0) this.fail('unbalanced single quote');
        this.pos = close + 1;
        continue;
      }
      if (ch === '"' || ch === '$' || ch === '`') {
        const inner: WordBuilder = {
          parts: [],
          literal: true,
          confident: true,
          glob: false,
          unquoted: '',
        };
        if (ch === '"') {
          this.pos++;
          this.readDoubleQuoted(inner);
        } else if (ch === '$') this.readDollar(inner, true);
        else this.readBacktick(inner);
        for (const part of inner.parts)
          if (part.kind === 'subst' && part.script) scripts.push(part.script);
        if (!inner.confident) confident = false;
        continue;
      }
      this.pos++;
    }
    const text = this.src.slice(start, this.pos);
    b.literal = false;
    if (!confident) {
      b.confident = false;
      b.parts.push({ kind: 'subst', text, script: mergeScripts(scripts) });
    } else if (/^\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])\}$/.test(text)) {
      b.parts.push({ kind: 'param', text });
    } else {
      b.parts.push({ kind: 'expansion', text });
    }
  }

  private readBacktick(b: WordBuilder): void {
    const start = this.pos;
    this.pos++;
    let inner = '';
    for (;;) {
      if (this.atEnd()) this.fail('unbalanced backtick');
      const ch = this.peekChar();
      if (ch === '`') {
        this.pos++;
        break;
      }
      if (ch === '\\') {
        const next = this.peekChar(1);
        if (next === '`' || next === '\\' || next === '$') {
          inner += next;
          this.pos += 2;
          continue;
        }
      }
      inner += ch;
      this.pos++;
    }
    this.enter();
    const script = this.parseNested(inner);
    this.leave();
    b.parts.push({ kind: 'subst', text: this.src.slice(start, this.pos), script });
    b.literal = false;
    b.confident = false;
  }

  /**
   * `$'…'`: decodes the ANSI-C escapes bash knows. `pos` is after the opening
   * quote. Bash ends the string at a decoded NUL, so what follows it is dropped.
   */
  private readAnsiC(): string {
    let out = '';
    let cut = false;
    const add = (text: string): void => {
      if (cut) return;
      const nul = text.indexOf('\u0000');
      if (nul >= 0) {
        out += text.slice(0, nul);
        cut = true;
      } else out += text;
    };
    for (;;) {
      if (this.atEnd()) this.fail("unbalanced `$'`");
      const ch = this.peekChar();
      this.pos++;
      if (ch === "'") return out;
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

function finishWord(raw: string, b: WordBuilder): Word {
  let value = '';
  for (const part of b.parts) value += part.text;
  return { raw, parts: b.parts, value, literal: b.literal, confident: b.confident, glob: b.glob };
}

/** `*`, `?` or a bracket expression `[…]` in unquoted text make a pattern. */
function hasGlob(unquoted: string): boolean {
  return /[*?]/.test(unquoted) || /\[[^\]]*\]/.test(unquoted);
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
  return { type: 'list', items: scripts.flatMap((script) => script.items) };
}
