// The shell grammar Warden reads (G14b): lists, and-or chains, pipelines,
// subshells, groups, control structures and function bodies. What it cannot
// read with confidence throws, and the caller treats the text as raw (E24).

import type {
  WordPart,
  AndOrNode,
  CommandNode,
  CompoundNode,
  ListNode,
  PipelineNode,
  Redirect,
  SimpleNode,
  Word,
} from './ast.js';
import type { Budget } from './limits.js';
import { LIMIT_REASONS, MAX_COMMAND_LENGTH, freshBudget } from './limits.js';
import {
  DOUBTS,
  Scanner,
  ShellLimitError,
  ShellSyntaxError,
  doubtful,
  plainArithmetic,
} from './scanner.js';

const OPERATORS = [
  ';;&',
  '<<<',
  '<<-',
  '&>>',
  '&&',
  '||',
  ';;',
  ';&',
  '|&',
  '&>',
  '<<',
  '<>',
  '<&',
  '>&',
  '>>',
  '>|',
  '<(',
  '>(',
  '(',
  ')',
  ';',
  '&',
  '|',
  '<',
  '>',
  '\n',
] as const;

/** The operators by their first character, longest first. */
const OPERATOR_START = new Map<string, string[]>();
for (const op of OPERATORS) {
  const list = OPERATOR_START.get(op.charAt(0)) ?? [];
  list.push(op);
  OPERATOR_START.set(op.charAt(0), list);
}

const REDIRECTS = new Set(['<', '>', '>>', '>|', '<>', '<&', '>&', '&>', '&>>', '<<<']);
const WRITING = new Set(['>', '>>', '>|', '<>', '&>', '&>>']);
const RESERVED = new Set([
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'for',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'in',
  '{',
  '}',
  '!',
  'function',
  'select',
  'coproc',
  '[[',
  ']]',
  'time',
]);

interface Stop {
  readonly words: ReadonlySet<string>;
  readonly paren: boolean;
  readonly caseItem: boolean;
}

const NO_STOP: Stop = { words: new Set(), paren: false, caseItem: false };

/**
 * Parses a whole command line; throws `ShellSyntaxError` when it cannot, and
 * `ShellLimitError` past a hard limit. Every parse of one command line (inner
 * scripts included) may share one budget.
 */
export function parseShell(text: string, budget: Budget = freshBudget()): ListNode {
  if (text.length > MAX_COMMAND_LENGTH) throw new ShellLimitError(LIMIT_REASONS.length, 0);
  const depth = budget.depth;
  try {
    return new Parser(text, budget).parseScript();
  } finally {
    budget.depth = depth;
  }
}

/** The reserved words, keyed by length for a constant-time look ahead. */
const LONGEST_RESERVED = 8;

/** `[[ … ]]` operators whose operands bash evaluates as arithmetic. */
const TEST_ARITHMETIC = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

class Parser extends Scanner {
  parseScript(): ListNode {
    const list = this.parseList(NO_STOP);
    this.skipSpace();
    if (!this.atEnd()) this.fail(`unexpected \`${this.peekChar()}\``);
    return list;
  }

  protected parseSubstitutionBody(): ListNode {
    const list = this.parseList({ words: new Set(), paren: true, caseItem: false });
    this.skipSpace();
    if (this.peekChar() !== ')') this.fail('unbalanced `$(`');
    return list;
  }

  protected parseNested(text: string): ListNode | null {
    try {
      return parseShell(text, this.budget);
    } catch (error) {
      if (error instanceof ShellSyntaxError && !(error instanceof ShellLimitError)) return null;
      throw error;
    }
  }

  private peekOp(): string | null {
    const first = OPERATOR_START.get(this.src.charAt(this.pos));
    if (first === undefined) return null;
    for (const op of first) {
      if (this.src.startsWith(op, this.pos)) return op;
    }
    return null;
  }

  /** `2>`, `10<`: the digits of a redirection's descriptor, or 0. */
  private fdDigits(): number {
    let end = this.pos;
    while (end < this.src.length && end - this.pos < 12) {
      const code = this.src.charCodeAt(end);
      if (code < 0x30 || code > 0x39) break;
      end++;
    }
    if (end === this.pos) return 0;
    const next = this.src.charAt(end);
    return next === '<' || next === '>' ? end - this.pos : 0;
  }

  /** Skips blanks, comments and newlines. */
  private skipSpace(): void {
    for (;;) {
      this.skipBlanks();
      if (this.skipComment()) continue;
      if (this.peekChar() === '\n') {
        this.pos++;
        continue;
      }
      return;
    }
  }

  /** The reserved word at `pos`, if an unquoted one stands there (looks at most 9 characters ahead). */
  private peekReserved(): string | null {
    if (!this.isWordStart()) return null;
    let end = this.pos;
    const limit = Math.min(this.src.length, this.pos + LONGEST_RESERVED + 1);
    while (end < limit && !this.isMeta(end)) end++;
    if (end === limit && limit < this.src.length) return null;
    const text = this.src.slice(this.pos, end);
    return RESERVED.has(text) ? text : null;
  }

  private isMeta(index: number): boolean {
    const ch = this.src.charAt(index);
    return (
      ch === ' ' ||
      ch === '\t' ||
      ch === '\n' ||
      ch === ';' ||
      ch === '&' ||
      ch === '|' ||
      ch === '(' ||
      ch === ')' ||
      ch === '<' ||
      ch === '>'
    );
  }

  private expectReserved(name: string): void {
    this.skipSpace();
    if (this.peekReserved() !== name) this.fail(`expected \`${name}\``);
    this.pos += name.length;
  }

  private parseList(stop: Stop): ListNode {
    const items: { node: AndOrNode; background: boolean }[] = [];
    for (;;) {
      this.skipSpace();
      if (this.atEnd()) break;
      const op = this.peekOp();
      if (op === ')') {
        if (stop.paren || stop.caseItem) break;
        this.fail('unbalanced `)`');
      }
      if (op === ';;' || op === ';&' || op === ';;&') {
        if (stop.caseItem) break;
        this.fail(`unexpected \`${op}\``);
      }
      if (op !== null && op !== '(' && op !== '<(' && op !== '>(' && !REDIRECTS.has(op)) {
        this.fail(`unexpected \`${op === '\n' ? 'newline' : op}\``);
      }
      const reserved = this.peekReserved();
      if (reserved !== null && stop.words.has(reserved)) break;
      const node = this.parseAndOr();
      this.skipBlanks();
      this.skipComment();
      const sep = this.peekOp();
      if (sep === ';' || sep === '\n') {
        this.pos++;
        items.push({ node, background: false });
      } else if (sep === '&') {
        this.pos++;
        items.push({ node, background: true });
      } else if (sep === ')' || sep === ';;' || sep === ';&' || sep === ';;&' || this.atEnd()) {
        items.push({ node, background: false });
      } else {
        this.fail(`unexpected \`${sep ?? this.peekChar()}\``);
      }
    }
    return { type: 'list', items };
  }

  private parseAndOr(): AndOrNode {
    const first = this.parsePipeline();
    const rest: { op: '&&' | '||'; pipeline: PipelineNode }[] = [];
    for (;;) {
      this.skipBlanks();
      const op = this.peekOp();
      if (op !== '&&' && op !== '||') break;
      this.pos += 2;
      this.skipSpace();
      rest.push({ op, pipeline: this.parsePipeline() });
    }
    return { type: 'andor', first, rest };
  }

  private parsePipeline(): PipelineNode {
    this.skipBlanks();
    for (;;) {
      const reserved = this.peekReserved();
      if (reserved === '!') {
        this.pos += 1;
        this.skipBlanks();
      } else if (reserved === 'time' && this.timeIsKeyword()) {
        this.pos += 4;
        this.skipBlanks();
        for (const option of ['-p', '--']) {
          if (this.src.startsWith(option, this.pos) && !this.isWordChar(this.pos + option.length)) {
            this.pos += option.length;
            this.skipBlanks();
          }
        }
      } else break;
    }
    const commands: CommandNode[] = [this.parseCommand()];
    for (;;) {
      this.skipBlanks();
      const op = this.peekOp();
      if (op !== '|' && op !== '|&') break;
      this.pos += op.length;
      this.skipSpace();
      commands.push(this.parseCommand());
    }
    return { type: 'pipeline', commands };
  }

  /**
   * Bash's `time` keyword takes only `-p` and `--`; with any other option the
   * word is the `time` program (as `sh` runs it), which the classifier unwraps.
   */
  private timeIsKeyword(): boolean {
    const rest = /^time[ \t]+(-\S*)/.exec(this.src.slice(this.pos, this.pos + 64));
    return rest === null || rest[1] === '-p' || rest[1] === '--';
  }

  private isWordChar(index: number): boolean {
    const ch = this.src[index];
    return ch !== undefined && !/[\s;&|()<>]/.test(ch);
  }

  /** A command; each subshell, group or control structure is one level of nesting deeper. */
  private parseCommand(): CommandNode {
    this.skipBlanks();
    const start = this.pos;
    const op = this.peekOp();
    if (op !== '(' && this.peekReserved() === null) return this.parseSimpleOrFunction();
    this.enter();
    let node: CommandNode;
    const arithmetic = op === '(' && this.peekChar(1) === '(' ? this.tryArithmeticCommand() : null;
    if (arithmetic !== null) {
      node = arithmetic;
    } else if (op === '(') {
      this.pos++;
      const body = this.parseList({ words: new Set(), paren: true, caseItem: false });
      this.skipSpace();
      if (this.peekChar() !== ')') this.fail('unbalanced `(`');
      this.pos++;
      node = { type: 'subshell', body, redirects: this.parseRedirects(), raw: this.from(start) };
    } else {
      const reserved = this.peekReserved();
      switch (reserved) {
        case '{':
          this.pos++;
          node = this.parseGroup();
          break;
        case 'if':
          node = this.parseIf();
          break;
        case 'for':
          node = this.parseFor();
          break;
        case 'while':
        case 'until':
          node = this.parseWhile(reserved);
          break;
        case 'case':
          node = this.parseCase();
          break;
        case 'function':
          node = this.parseFunctionKeyword();
          break;
        case '[[':
          node = this.parseTest();
          break;
        default:
          this.fail(`\`${reserved}\` is not read here`);
      }
    }
    this.leave();
    return node;
  }

  private from(start: number): string {
    return this.src.slice(start, this.pos);
  }

  /**
   * `(( … ))`: one doubtful word, its substitutions parsed. When the text does
   * not close as arithmetic, bash reads nested subshells instead, and so does this.
   */
  private tryArithmeticCommand(): SimpleNode | null {
    const start = this.pos;
    const depth = this.budget.depth;
    let word: Word;
    try {
      word = this.readArithmeticCommand();
    } catch (error) {
      if (!(error instanceof ShellSyntaxError) || error instanceof ShellLimitError) throw error;
      this.pos = start;
      this.budget.depth = depth;
      return null;
    }
    this.countCommand();
    const redirects = this.parseRedirects();
    return { type: 'simple', assignments: [], words: [word], redirects, raw: this.from(start) };
  }

  private parseGroup(): CommandNode {
    const start = this.pos - 1;
    const body = this.parseList({ words: new Set(['}']), paren: false, caseItem: false });
    this.expectReserved('}');
    return { type: 'group', body, redirects: this.parseRedirects(), raw: this.from(start) };
  }

  private parseIf(): CompoundNode {
    const start = this.pos;
    this.pos += 2;
    const bodies: ListNode[] = [];
    bodies.push(this.parseList({ words: new Set(['then']), paren: false, caseItem: false }));
    this.expectReserved('then');
    const branchEnd = new Set(['elif', 'else', 'fi']);
    bodies.push(this.parseList({ words: branchEnd, paren: false, caseItem: false }));
    for (;;) {
      this.skipSpace();
      const reserved = this.peekReserved();
      if (reserved === 'elif') {
        this.pos += 4;
        bodies.push(this.parseList({ words: new Set(['then']), paren: false, caseItem: false }));
        this.expectReserved('then');
        bodies.push(this.parseList({ words: branchEnd, paren: false, caseItem: false }));
      } else if (reserved === 'else') {
        this.pos += 4;
        bodies.push(this.parseList({ words: new Set(['fi']), paren: false, caseItem: false }));
        this.expectReserved('fi');
        break;
      } else {
        this.expectReserved('fi');
        break;
      }
    }
    const redirects = this.parseRedirects();
    return { type: 'compound', keyword: 'if', bodies, words: [], redirects, raw: this.from(start) };
  }

  private parseFor(): CompoundNode {
    const start = this.pos;
    this.pos += 3;
    this.skipBlanks();
    if (this.peekOp() === '(') {
      if (this.peekChar(1) !== '(') this.fail('expected a name after `for`');
      // `for (( init; test; step ))`: the header is arithmetic, its commands are not read.
      const header = this.readArithmeticCommand();
      this.skipBlanks();
      if (this.peekOp() === ';') this.pos++;
      this.skipSpace();
      let body: ListNode;
      if (this.peekReserved() === '{') {
        this.pos++;
        body = this.parseList({ words: new Set(['}']), paren: false, caseItem: false });
        this.expectReserved('}');
      } else {
        this.expectReserved('do');
        body = this.parseList({ words: new Set(['done']), paren: false, caseItem: false });
        this.expectReserved('done');
      }
      const redirects = this.parseRedirects();
      return {
        type: 'compound',
        keyword: 'for',
        bodies: [body],
        words: [header],
        redirects,
        raw: this.from(start),
      };
    }
    if (!this.isWordStart()) this.fail('expected a name after `for`');
    const name = this.readWord();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.raw)) this.fail('expected a name after `for`');
    const words: Word[] = [];
    this.skipBlanks();
    if (this.peekChar() === '\n') this.skipSpace();
    if (this.peekReserved() === 'in') {
      this.pos += 2;
      for (;;) {
        this.skipBlanks();
        if (!this.isWordStart()) break;
        words.push(this.readWord());
      }
    }
    this.skipBlanks();
    if (this.peekOp() === ';') this.pos++;
    this.expectReserved('do');
    const body = this.parseList({ words: new Set(['done']), paren: false, caseItem: false });
    this.expectReserved('done');
    const redirects = this.parseRedirects();
    return {
      type: 'compound',
      keyword: 'for',
      bodies: [body],
      words,
      redirects,
      raw: this.from(start),
    };
  }

  private parseWhile(keyword: 'while' | 'until'): CompoundNode {
    const start = this.pos;
    this.pos += keyword.length;
    const condition = this.parseList({ words: new Set(['do']), paren: false, caseItem: false });
    this.expectReserved('do');
    const body = this.parseList({ words: new Set(['done']), paren: false, caseItem: false });
    this.expectReserved('done');
    const redirects = this.parseRedirects();
    return {
      type: 'compound',
      keyword,
      bodies: [condition, body],
      words: [],
      redirects,
      raw: this.from(start),
    };
  }

  private parseCase(): CompoundNode {
    const start = this.pos;
    this.pos += 4;
    this.skipBlanks();
    if (!this.isWordStart()) this.fail('expected a word after `case`');
    const words: Word[] = [this.readWord()];
    this.expectReserved('in');
    const bodies: ListNode[] = [];
    for (;;) {
      this.skipSpace();
      if (this.peekReserved() === 'esac') {
        this.pos += 4;
        break;
      }
      if (this.atEnd()) this.fail('expected `esac`');
      if (this.peekOp() === '(') this.pos++;
      for (;;) {
        this.skipBlanks();
        if (!this.isWordStart()) this.fail('expected a case pattern');
        words.push(this.readWord());
        this.skipBlanks();
        if (this.peekOp() === '|') {
          this.pos++;
          continue;
        }
        break;
      }
      if (this.peekOp() !== ')') this.fail('expected `)` after a case pattern');
      this.pos++;
      bodies.push(this.parseList({ words: new Set(['esac']), paren: false, caseItem: true }));
      this.skipSpace();
      const op = this.peekOp();
      if (op === ';;' || op === ';&' || op === ';;&') this.pos += op.length;
    }
    const redirects = this.parseRedirects();
    return { type: 'compound', keyword: 'case', bodies, words, redirects, raw: this.from(start) };
  }

  private parseFunctionKeyword(): CompoundNode {
    const start = this.pos;
    this.pos += 8;
    this.skipBlanks();
    if (!this.isWordStart()) this.fail('expected a function name');
    const nameWord = this.readWord();
    if (!nameWord.confident || nameWord.doubt !== undefined)
      this.fail('a function name must be plain');
    const name = nameWord.value;
    this.skipBlanks();
    if (this.peekOp() === '(') {
      this.pos++;
      this.skipBlanks();
      if (this.peekOp() !== ')') this.fail('expected `()`');
      this.pos++;
    }
    return this.parseFunctionBody(name, start);
  }

  private parseFunctionBody(name: string, start: number): CompoundNode {
    this.skipSpace();
    const body = this.parseCommand();
    if (body.type === 'simple') this.fail('a function body must be a compound command');
    const list: ListNode = {
      type: 'list',
      items: [
        {
          node: { type: 'andor', first: { type: 'pipeline', commands: [body] }, rest: [] },
          background: false,
        },
      ],
    };
    return {
      type: 'compound',
      keyword: 'function',
      name,
      bodies: [list],
      words: [],
      redirects: [],
      raw: this.from(start),
    };
  }

  /** `[[ … ]]` holds words only; its operators are not separators. */
  private parseTest(): SimpleNode {
    this.countCommand();
    const start = this.pos;
    const words: Word[] = [this.readWord()];
    for (;;) {
      this.skipBlanks();
      if (this.atEnd()) this.fail('expected `]]`');
      const op = this.peekOp();
      if (op === '\n') this.fail('expected `]]`');
      if (op !== null && op !== '<(' && op !== '>(') {
        const text = op === '&&' || op === '||' ? op : op.charAt(0);
        words.push({
          raw: text,
          parts: [{ kind: 'lit', text, quoted: false }],
          value: text,
          literal: true,
          confident: true,
          glob: false,
        });
        this.pos += text.length;
        continue;
      }
      const word = op === null ? this.readWord() : this.readProcessSubstitution();
      words.push(word);
      if (word.raw === ']]') break;
    }
    return {
      type: 'simple',
      assignments: [],
      words: testArithmetic(words),
      redirects: [],
      raw: this.src.slice(start, this.pos),
    };
  }

  private countCommand(): void {
    if (--this.budget.commands < 0) throw new ShellLimitError(LIMIT_REASONS.commands, this.pos);
  }

  private parseSimpleOrFunction(): CommandNode {
    this.countCommand();
    const start = this.pos;
    const assignments: Word[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    let end = this.pos;
    for (;;) {
      this.skipBlanks();
      if (this.atEnd()) break;
      const fd = this.fdDigits();
      const op = fd === 0 ? this.peekOp() : null;
      if (fd > 0 || (op !== null && REDIRECTS.has(op))) {
        redirects.push(this.parseRedirect());
        end = this.pos;
        continue;
      }
      if (op === '<<' || op === '<<-') this.fail('here-documents are not read');
      if (op === '<(' || op === '>(') {
        words.push(this.readProcessSubstitution());
        end = this.pos;
        continue;
      }
      if (op === '(' && words.length === 1 && assignments.length === 0 && redirects.length === 0) {
        const save = this.pos;
        this.pos++;
        this.skipBlanks();
        if (this.peekOp() === ')') {
          this.pos++;
          const name = words[0] as Word;
          if (!name.confident || name.doubt !== undefined)
            this.fail('a function name must be plain');
          return this.parseFunctionBody(name.value, start);
        }
        this.pos = save;
      }
      if (op !== null) break;
      if (this.peekChar() === '#') break;
      const wordStart = this.pos;
      let word = this.readWord(words.length === 0 ? 'assignment' : null);
      if (ARRAY_HEAD.test(word.raw) && this.peekChar() === '(')
        word = this.readArray(word, wordStart);
      if (this.peekChar() === '<' || this.peekChar() === '>') word = fdVariableChecked(word);
      if (words.length === 0 && isAssignment(word)) assignments.push(subscriptChecked(word));
      else words.push(word);
      end = this.pos;
    }
    if (assignments.length === 0 && words.length === 0 && redirects.length === 0) {
      this.fail(this.atEnd() ? 'expected a command' : `unexpected \`${this.peekChar()}\``);
    }
    return { type: 'simple', assignments, words, redirects, raw: this.src.slice(start, end) };
  }

  /** `name=( … )`: an array's elements, read as words into one assignment word. */
  private readArray(head: Word, start: number): Word {
    this.enter();
    this.pos++;
    const parts: WordPart[] = [...head.parts, { kind: 'lit', text: '(', quoted: false }];
    let confident = head.confident;
    let doubt = head.doubt;
    for (;;) {
      this.skipSpace();
      if (this.atEnd()) this.fail('unbalanced `(` in an array');
      if (this.peekChar() === ')') {
        this.pos++;
        break;
      }
      if (!this.isWordStart()) this.fail(`unexpected \`${this.peekChar()}\` in an array`);
      const element = this.readWord('element');
      // `[i]=value`: an indexed array evaluates the subscript as arithmetic.
      const first = element.parts[0];
      const subscript =
        first?.kind === 'lit' && !first.quoted ? /^\[([^\]]*)\]\+?=/.exec(first.text) : null;
      if (subscript !== null && !plainArithmetic(subscript[1] as string))
        doubt ??= DOUBTS.subscript;
      if (
        first?.kind === 'lit' &&
        !first.quoted &&
        first.text.startsWith('[') &&
        subscript === null
      )
        doubt ??= DOUBTS.subscript;
      if (!element.confident) confident = false;
      doubt ??= element.doubt;
      parts.push(...element.parts, { kind: 'lit', text: ' ', quoted: false });
    }
    this.leave();
    parts.push({ kind: 'lit', text: ')', quoted: false });
    let value = '';
    for (const part of parts) value += part.text;
    const word: Word = {
      raw: this.src.slice(start, this.pos),
      parts,
      value,
      literal: false,
      confident: confident && doubt === undefined,
      glob: false,
    };
    return doubt === undefined ? word : { ...word, doubt };
  }

  private parseRedirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (;;) {
      this.skipBlanks();
      const fdMatch = this.fdDigits() > 0;
      const op = this.peekOp();
      if (op === '<<' || op === '<<-') this.fail('here-documents are not read');
      if (!fdMatch && (op === null || !REDIRECTS.has(op))) return redirects;
      redirects.push(this.parseRedirect());
    }
  }

  private parseRedirect(): Redirect {
    let fd: number | null = null;
    const digits = /^\d+/.exec(this.src.slice(this.pos, this.pos + 12));
    if (digits !== null) {
      fd = Number(digits[0]);
      this.pos += digits[0].length;
    }
    const op = this.peekOp();
    if (op === '<<' || op === '<<-') this.fail('here-documents are not read');
    if (op === null || !REDIRECTS.has(op)) this.fail('expected a redirection');
    this.pos += op.length;
    this.skipBlanks();
    const substitution = this.peekOp();
    let target: Word;
    if (substitution === '<(' || substitution === '>(') target = this.readProcessSubstitution();
    else if (!this.isWordStart()) this.fail(`expected a target after \`${op}\``);
    else target = this.readWord();
    const dup = (op === '>&' || op === '<&') && /^(\d+-?|-)$/.test(target.raw);
    const writes = !dup && (WRITING.has(op) || op === '>&');
    return { op, fd, target, dup, writes };
  }
}

const ARRAY_HEAD = /^[A-Za-z_][A-Za-z0-9_]*\+?=$/;
const ASSIGNED_SUBSCRIPT = /^[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]\+?=/;

/** `a[i]=v` evaluates `i` as arithmetic: a subscript other than plain numbers makes it doubtful. */
function subscriptChecked(word: Word): Word {
  const match = ASSIGNED_SUBSCRIPT.exec(word.value);
  if (match === null || plainArithmetic(match[1] as string)) return word;
  return doubtful(word, DOUBTS.subscript);
}

/**
 * `{name[i]}>file` stores the new descriptor in an array element, whose
 * subscript is evaluated: anything but plain numbers makes it doubtful.
 */
function fdVariableChecked(word: Word): Word {
  const match = /^\{[A-Za-z_][A-Za-z0-9_]*\[(.*)\]\}$/.exec(word.raw);
  if (match === null || plainArithmetic(match[1] as string)) return word;
  return doubtful(word, DOUBTS.subscript);
}

/** `$#`, `$?`, `$$`, `$!`, `${#name}`: parameters that always hold a number. */
const NUMERIC_PARAM = /^\$(?:[#?$!]|\{(?:#[A-Za-z_][A-Za-z0-9_]*|[#?$!])\})$/;

/** Whether a `[[ … ]]` operand is plain numbers, so evaluating it as arithmetic runs nothing. */
function plainOperand(word: Word): boolean {
  if (!word.confident || word.doubt !== undefined) return false;
  let text = '';
  for (const part of word.parts) {
    if (part.kind === 'lit') text += part.text;
    else if (NUMERIC_PARAM.test(part.text)) text += ' 0 ';
    else return false;
  }
  return plainArithmetic(text);
}

/** A `-v` operand: a plain name, with a plain subscript if any. */
function plainVariable(word: Word): boolean {
  if (!word.confident || word.doubt !== undefined) return false;
  if (!word.parts.every((part) => part.kind === 'lit')) return false;
  const match = /^[A-Za-z_][A-Za-z0-9_]*(?:\[([^\]]*)\])?$/.exec(word.value);
  if (match === null) return false;
  const subscript = match[1];
  return (
    subscript === undefined || subscript === '@' || subscript === '*' || plainArithmetic(subscript)
  );
}

/**
 * `[[ … ]]` evaluates the operands of `-eq` `-ne` `-lt` `-le` `-gt` `-ge` as
 * arithmetic, and `-v` reads a subscript: a variable's value there can run
 * commands, so anything but plain numbers and names makes the operand doubtful.
 */
function testArithmetic(words: readonly Word[]): Word[] {
  const out = [...words];
  for (let i = 1; i < words.length - 1; i++) {
    const op = words[i] as Word;
    if (!op.literal) continue;
    if (TEST_ARITHMETIC.has(op.value)) {
      for (const j of [i - 1, i + 1]) {
        const operand = out[j] as Word;
        if (!plainOperand(operand)) out[j] = doubtful(operand, DOUBTS.arithmetic);
      }
    } else if (op.value === '-v') {
      const operand = out[i + 1] as Word;
      if (!plainVariable(operand)) out[i + 1] = doubtful(operand, DOUBTS.subscript);
    }
  }
  return out;
}

function isAssignment(word: Word): boolean {
  const first = word.parts[0];
  if (first === undefined || first.kind !== 'lit' || first.quoted) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(first.text)) return true;
  // `a[$i]=v`, `a[$(x)]=v`: a subscript holding an expansion is still an assignment.
  return /^[A-Za-z_][A-Za-z0-9_]*\[/.test(first.text) && ASSIGNED_SUBSCRIPT.test(word.value);
}

/**
 * The words a command line starts with, up to the first thing that cannot be
 * read with confidence (E24): what classifies an unparseable command.
 */
export function leadingWords(text: string): Word[] {
  const parser = new LeadingReader(text);
  return parser.read();
}

class LeadingReader extends Parser {
  read(): Word[] {
    const words: Word[] = [];
    try {
      for (;;) {
        this.skipBlanks();
        if (!this.isWordStart() || this.peekChar() === '#') break;
        const word = this.readWord();
        if (!word.confident) break;
        if (words.length === 0 && isAssignment(word)) continue;
        words.push(word);
      }
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
    }
    return words;
  }
}
