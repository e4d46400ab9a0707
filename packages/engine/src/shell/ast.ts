// The syntax tree of a command line, as far as Warden reads shell (G14b).

/** One piece of a word. `param` is a plain `$VAR` reference, shown as written. */
export type WordPart =
  | { readonly kind: 'lit'; readonly text: string; readonly quoted: boolean }
  | { readonly kind: 'param'; readonly text: string }
  | { readonly kind: 'expansion'; readonly text: string }
  | { readonly kind: 'subst'; readonly text: string; readonly script: ListNode | null };

export interface Word {
  /** The source text of the word. */
  readonly raw: string;
  readonly parts: readonly WordPart[];
  /** The value after quote removal; expansions appear as written. */
  readonly value: string;
  /** True when the value is exact: no expansion, no unquoted glob, brace or tilde. */
  readonly literal: boolean;
  /** False when the word holds `$(…)`, backticks or a process substitution. */
  readonly confident: boolean;
  /** True when the value holds an unquoted glob character (`*`, `?`, `[`). */
  readonly glob: boolean;
  /**
   * Why the word cannot be read with confidence, when it cannot. A word that is
   * not `confident` always has one; a confident word with one (`$"rm"`) still
   * counts among the leading words, but its command is unparseable.
   */
  readonly doubt?: string;
}

export interface Redirect {
  readonly op: string;
  readonly fd: number | null;
  readonly target: Word;
  /** `2>&1`, `>&-`: a descriptor duplication, no file. */
  readonly dup: boolean;
  /** Whether the redirection may write its target. */
  readonly writes: boolean;
}

export interface SimpleNode {
  readonly type: 'simple';
  readonly assignments: readonly Word[];
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  /** The source text of the whole simple command. */
  readonly raw: string;
}

export interface SubshellNode {
  readonly type: 'subshell';
  readonly body: ListNode;
  readonly redirects: readonly Redirect[];
  /** The source text of the whole command. */
  readonly raw: string;
}

export interface GroupNode {
  readonly type: 'group';
  readonly body: ListNode;
  readonly redirects: readonly Redirect[];
  /** The source text of the whole command. */
  readonly raw: string;
}

/** `if`, `for`, `while`, `until`, `case` and function bodies: their inner commands count. */
export interface CompoundNode {
  readonly type: 'compound';
  readonly keyword: string;
  /** A function's name. */
  readonly name?: string;
  /**
   * `if`: condition, branch, (condition, branch)…, [else branch];
   * `while`/`until`: condition, body; `for`, `function`: body; `case`: one body per item.
   */
  readonly bodies: readonly ListNode[];
  /** Words the construct expands itself (`for x in …`, `case w in p)`). */
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  /** The source text of the whole command. */
  readonly raw: string;
}

export type CommandNode = SimpleNode | SubshellNode | GroupNode | CompoundNode;

export interface PipelineNode {
  readonly type: 'pipeline';
  readonly commands: readonly CommandNode[];
}

export interface AndOrNode {
  readonly type: 'andor';
  readonly first: PipelineNode;
  readonly rest: readonly { readonly op: '&&' | '||'; readonly pipeline: PipelineNode }[];
}

export interface ListNode {
  readonly type: 'list';
  readonly items: readonly { readonly node: AndOrNode; readonly background: boolean }[];
}
