// The shell grammar Warden reads (G14b): lists, and-or chains, pipelines,
// subshells, groups, control structures and function bodies. What it cannot
// read with confidence throws, and the caller treats the text as raw (E24).

import type {
  AndOrNode,
  CommandNode,
  CompoundNode,
  ListNode,
  PipelineNode,
  Redirect,
  SimpleNode,
  Word,
} from './ast.js';
import { Scanner, ShellSyntaxError } from './scanner.js';

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

/** Parses a whole command line; throws `ShellSyntaxError` when it cannot. */
export function parseShell(text: string): ListNode {
  const parser = new Parser(text);
  return parser.parseScript();
}

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
      return new Parser(text).parseScript();
    } catch (error) {
      if (error instanceof ShellSyntaxError) return null;
      throw error;
    }
  }

  private peekOp(): string | null {
    for (const op of OPERATORS) {
      if (this.src.startsWith(op, this.pos)) return op;
    }
    return null;
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

  /** The reserved word at `pos`, if an unquoted one stands there. */
  private peekReserved(): string | null {
    if (!this.isWordStart()) return null;
    const start = this.pos;
    const word = this.readWord();
    this.pos = start;
    return word.literal && word.raw === word.value && RESERVED.has(word.value) ? word.value : null;
  }

  private expectReserved(name: string): void {
    this.skipSpace();
    if (this.peekReserved() !== name) this.fail(`expected \`${name}\``);
    this.pos += name.length;
  }

  private parseList(stop: Stop): ListNode {
    this.enter();
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
    this.leave();
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

  private parseCommand(): CommandNode {
    this.enter();
    this.skipBlanks();
    let node: CommandNode;
    const op = this.peekOp();
    if (op === '(') {
      if (this.peekChar(1) === '(') this.fail('arithmetic commands are not read');
      this.pos++;
      const body = this.parseList({ words: new Set(), paren: true, caseItem: false });
      this.skipSpace();
      if (this.peekChar() !== ')') this.fail('unbalanced `(`');
      this.pos++;
      node = { type: 'subshell', body, redirects: this.parseRedirects() };
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
        case null:
          node = this.parseSimpleOrFunction();
          break;
        default:
          this.fail(`\`${reserved}\` is not read here`);
      }
    }
    this.leave();
    return node;
  }

  private parseGroup(): CommandNode {
    const body = this.parseList({ words: new Set(['}']), paren: false, caseItem: false });
    this.expectReserved('}');
    return { type: 'group', body, redirects: this.parseRedirects() };
  }

  private parseIf(): CompoundNode {
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
    return { type: 'compound', keyword: 'if', bodies, words: [], redirects: this.parseRedirects() };
  }

  private parseFor(): CompoundNode {
    this.pos += 3;
    this.skipBlanks();
    if (this.peekOp() === '(') this.fail('arithmetic `for` is not read');
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
    return {
      type: 'compound',
      keyword: 'for',
      bodies: [body],
      words,
      redirects: this.parseRedirects(),
    };
  }

  private parseWhile(keyword: 'while' | 'until'): CompoundNode {
    this.pos += keyword.length;
    const condition = this.parseList({ words: new Set(['do']), paren: false, caseItem: false });
    this.expectReserved('do');
    const body = this.parseList({ words: new Set(['done']), paren: false, caseItem: false });
    this.expectReserved('done');
    return {
      type: 'compound',
      keyword,
      bodies: [condition, body],
      words: [],
      redirects: this.parseRedirects(),
    };
  }

  private parseCase(): CompoundNode {
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
    return { type: 'compound', keyword: 'case', bodies, words, redirects: this.parseRedirects() };
  }

  private parseFunctionKeyword(): CompoundNode {
    this.pos += 8;
    this.skipBlanks();
    if (!this.isWordStart()) this.fail('expected a function name');
    const name = this.readWord().value;
    this.skipBlanks();
    if (this.peekOp() === '(') {
      this.pos++;
      this.skipBlanks();
      if (this.peekOp() !== ')') this.fail('expected `()`');
      this.pos++;
    }
    return this.parseFunctionBody(name);
  }

  private parseFunctionBody(name: string): CompoundNode {
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
    };
  }

  /** `[[ … ]]` holds words only; its operators are not separators. */
  private parseTest(): SimpleNode {
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
      words,
      redirects: [],
      raw: this.src.slice(start, this.pos),
    };
  }

  private parseSimpleOrFunction(): CommandNode {
    const start = this.pos;
    const assignments: Word[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    let end = this.pos;
    for (;;) {
      this.skipBlanks();
      if (this.atEnd()) break;
      const fdMatch = /^\d+(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 12));
      const op = fdMatch === null ? this.peekOp() : null;
      if (fdMatch !== null || (op !== null && REDIRECTS.has(op))) {
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
          return this.parseFunctionBody((words[0] as Word).value);
        }
        this.pos = save;
      }
      if (op !== null) break;
      if (this.peekChar() === '#') break;
      const word = this.readWord();
      if (words.length === 0 && isAssignment(word)) assignments.push(word);
      else words.push(word);
      end = this.pos;
    }
    if (assignments.length === 0 && words.length === 0 && redirects.length === 0) {
      this.fail(this.atEnd() ? 'expected a command' : `unexpected \`${this.peekChar()}\``);
    }
    return { type: 'simple', assignments, words, redirects, raw: this.src.slice(start, end) };
  }

  private parseRedirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (;;) {
      this.skipBlanks();
      const fdMatch = /^\d+(?=[<>])/.test(this.src.slice(this.pos, this.pos + 12));
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
    if (!this.isWordStart()) this.fail(`expected a target after \`${op}\``);
    const target = this.readWord();
    const dup = (op === '>&' || op === '<&') && /^(\d+-?|-)$/.test(target.raw);
    const writes = !dup && (WRITING.has(op) || op === '>&');
    return { op, fd, target, dup, writes };
  }
}

function isAssignment(word: Word): boolean {
  const first = word.parts[0];
  return (
    first !== undefined &&
    first.kind === 'lit' &&
    !first.quoted &&
    /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(first.text)
  );
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
