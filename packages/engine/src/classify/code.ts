// Programs that run code given as text (G14b, G14c, E27): an interpreter
// with inline code (`python -c`, `perl -e`, `node -e`, `ruby -e`, …), awk
// programs that call `system` or pipe to commands, editors and debuggers
// given commands (`vim -c`, `gdb -ex`), pagers given start-up commands,
// terminal multiplexers (`tmux new 'cmd'`). Code is not read: such a command
// is unparseable. A script given as a file is only processSpawn, like
// `bash x.sh`; in-place editing (`perl -i`) still writes the files it names.

import type { Word } from '../shell/ast.js';
import type { ExtractContext } from './effects.js';
import { writeEffects } from './effects.js';
import type { Extraction } from './programs.js';

const NONE: Extraction = { effects: [] };

type Extractor = (words: readonly Word[], ctx: ExtractContext) => Extraction;

/** Per interpreter: options whose value (or whose following words) is code. */
const INLINE_CODE: Readonly<Record<string, RegExp>> = {
  python: /^-[A-Za-z]*c/,
  pypy: /^-[A-Za-z]*c/,
  perl: /^-[A-Za-z]*[eEM]|^-[A-Za-z]*[dx]/,
  ruby: /^-[A-Za-z]*e/,
  node: /^(-[A-Za-z]*[ep]$|--eval|--print)/,
  deno: /^(eval|repl|-e)/,
  bun: /^(-e|--eval|-p|--print|-r|--preload)/,
  php: /^-[A-Za-z]*[rRBEF]|^-a/,
  lua: /^-[A-Za-z]*[el]/,
  luajit: /^-[A-Za-z]*[elj]/,
  Rscript: /^(-e|--expr)/,
  R: /^(-e|--expr|-f|--file)/,
  julia: /^(-[A-Za-z]*[eEL]|--eval|--print|--load)/,
  osascript: /^-[A-Za-z]*e/,
  pwsh: /^-(c|command|encodedcommand|ec|e|file|f)/i,
  powershell: /^-(c|command|encodedcommand|ec|e|file|f)/i,
  expect: /^-[A-Za-z]*[cf]/,
  tclsh: /^-/,
  wish: /^-/,
  gdb: /^(-ex|--ex|-iex|--iex|-x|--x|-ix|--ix|-eval-command|--eval-command|-init-eval-command|--init-eval-command|-command|--command|-p|--pid|--args|-batch|--batch)/,
  lldb: /^(-o|--one-line|-O|-s|--source|-S|-k|-K|-b|--batch|-p|--attach-pid)/,
  vim: /^(-c|--cmd|-S|-s|-y|-e|-E|-u|\+)/,
  less: /^\+/,
  more: /^\+/,
  man: /^(-H|--html|-P|--pager|-X|-Z|-l)/,
  make: /^(--eval|-E|--eval=)/,
  psql: /^(-c|--command|-f|--file)/,
  mysql: /^(-e|--execute|--init-command)/,
  jshell: /^/,
  irb: /^/,
};

/** Programs whose command is never readable. */
const ALWAYS_UNREADABLE: Readonly<Record<string, string>> = {
  hyperfine: '`hyperfine` runs the commands it is given as shell text',
  proxychains: 'a command run through `proxychains` reaches the proxies its configuration names',
  proxychains4: 'a command run through `proxychains` reaches the proxies its configuration names',
  torsocks: 'a command run through `torsocks` reaches hosts through Tor',
  torify: 'a command run through `torify` reaches hosts through Tor',
  tsocks: 'a command run through `tsocks` reaches the proxies its configuration names',
};

/** Programs that read their code from standard input when given no script. */
const READS_STDIN = new Set([
  'python',
  'pypy',
  'perl',
  'ruby',
  'node',
  'php',
  'lua',
  'luajit',
  'Rscript',
  'R',
  'julia',
  'osascript',
  'pwsh',
  'powershell',
  'expect',
  'tclsh',
  'wish',
  'jshell',
  'irb',
  'psql',
  'mysql',
]);

/** The program's family name: `python3.12` is `python`, `gawk` is `awk`, `nvim` is `vim`. */
function family(program: string): string {
  const base = program.split('/').pop() ?? program;
  if (/^python[0-9.]*$/.test(base)) return 'python';
  if (/^pypy[0-9.]*$/.test(base)) return 'pypy';
  if (/^(g|m|n|busybox-)?awk$/.test(base)) return 'awk';
  if (/^(n?vim?|ex|view)$/.test(base)) return 'vim';
  if (base === 'nodejs') return 'node';
  if (base === 'gmake') return 'make';
  return base;
}

/** awk programs that run commands (`system`, pipes) or write files (`print > f`), or include code. */
const AWK_RUNS =
  /system\s*\(|(?<!\|)\|(?!\|)|\b(print|printf)\b[^;}]*>|@(load|include)|\bgetline\b\s*</;

/** An awk program without its regular expression literals (`/a|b/`), whose `|` is no pipe. */
function withoutRegexes(program: string): string {
  // A `/` that follows an operand divides; one at the start or after an operator opens a regex.
  return program.replace(/(^|[({,;!~&|])(\s*)\/(?:\\.|[^/\n\\])*\//g, '$1$2""');
}

function awk(words: readonly Word[]): Extraction {
  const programs: (Word | undefined)[] = [];
  let sources = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as Word;
    if (!word.literal) return { effects: [], unparseable: 'the awk program is not literal' };
    const text = word.value;
    if (text === '--') {
      if (!sources) programs.push(words[i + 1]);
      break;
    }
    if (/^(-f|--file|-i|--include|-l|--load|-E|--exec)/.test(text))
      return { effects: [], unparseable: 'the awk program is read from a file' };
    // `-e PROGRAM`, `--source=PROGRAM` (gawk): program text, as many as given.
    if (text === '-e' || text === '--source') {
      sources = true;
      programs.push(words[++i]);
      continue;
    }
    if (text.startsWith('--source=')) {
      sources = true;
      programs.push({ ...word, value: text.slice('--source='.length) });
      continue;
    }
    if (/^-[vF]$/.test(text) || text === '--assign' || text === '--field-separator') {
      i++;
      continue;
    }
    if (text.startsWith('-')) continue;
    if (!sources) programs.push(word);
    break;
  }
  for (const program of programs) {
    if (program === undefined) continue;
    if (!program.literal) return { effects: [], unparseable: 'the awk program is not literal' };
    if (AWK_RUNS.test(withoutRegexes(program.value)))
      return { effects: [], unparseable: 'the awk program runs commands or writes files' };
  }
  return NONE;
}

/** Files `perl -i` / `ruby -i` edit in place: the operands after the code. */
function inPlace(words: readonly Word[], ctx: ExtractContext): Extraction['effects'] {
  const options = words.slice(1).filter((w) => w.literal && /^-[A-Za-z]*i/.test(w.value));
  if (options.length === 0) return [];
  const files: Word[] = [];
  let skipNext = false;
  let sawCode = false;
  for (const word of words.slice(1)) {
    if (skipNext) {
      skipNext = false;
      sawCode = true;
      continue;
    }
    if (word.literal && word.value.startsWith('-')) {
      // `-e CODE`, `-pie CODE`: the next word is code.
      if (/^-[A-Za-z]*[eE]$/.test(word.value)) skipNext = true;
      else if (/^-[A-Za-z]*[eE]./.test(word.value)) sawCode = true;
      continue;
    }
    if (!sawCode) {
      sawCode = true;
      continue;
    }
    files.push(word);
  }
  return writeEffects(files, ctx);
}

/**
 * An interpreter or tool given code as text: unparseable. `python -m pip …`
 * is left to the table's prefixes; a script file is only processSpawn.
 */
const code: Extractor = (words, ctx) => {
  const name = family((words[0] as Word).value);
  if (name === 'awk') return awk(words);
  if (ALWAYS_UNREADABLE[name] !== undefined)
    return { effects: [], unparseable: ALWAYS_UNREADABLE[name] };
  if (name === 'perf') {
    // `perf record|stat|trace … CMD` runs the command it is given.
    const verb = words[1];
    return verb !== undefined &&
      verb.literal &&
      ['record', 'stat', 'trace', 'mem', 'c2c', 'kmem', 'sched', 'lock', 'kvm', 'top'].includes(
        verb.value,
      ) &&
      words.length > 2
      ? { effects: [], unparseable: '`perf` runs the command it is given' }
      : NONE;
  }
  if (name === 'crontab')
    return words
      .slice(1)
      .every((w) => w.literal && /^-[lu]$|^-l|^[a-z_][a-z0-9_-]*$/.test(w.value)) &&
      words.some((w) => w.value === '-l')
      ? NONE
      : { effects: [], unparseable: '`crontab` installs commands that run later' };
  if (name === 'sqlite3') {
    const given = words.slice(1);
    const operands = given.filter((w) => !(w.literal && w.value.startsWith('-')));
    return operands.length >= 2 &&
      given.every(
        (w) =>
          w.literal &&
          !/^(-cmd|-init)$|^\s*\.(shell|system|sh|output|once|import|load)\b/.test(w.value),
      )
      ? NONE
      : {
          effects: [],
          unparseable: '`sqlite3` may run dot-commands that run programs or write files',
        };
  }
  const effects = name === 'perl' || name === 'ruby' ? inPlace(words, ctx) : [];
  const inline = INLINE_CODE[name];
  const args = words.slice(1);
  if (name === 'python' || name === 'pypy') {
    const module = args.findIndex((w) => w.literal && /^-[A-Za-z]*m/.test(w.value));
    if (module >= 0) {
      const which = args[module] as Word;
      const moduleName = which.value.replace(/^-[A-Za-z]*m/, '') || args[module + 1]?.value;
      // `python -m pip` installs (read by the table's prefixes); other modules run code of their own choosing.
      if (moduleName === 'pip' || moduleName === 'venv' || moduleName === 'ensurepip') return NONE;
    }
  }
  for (const word of args) {
    if (!word.literal) continue;
    if (word.value === '--') break;
    if (inline !== undefined && inline.test(word.value))
      return { effects, unparseable: `\`${name}\` runs the code it is given` };
    if (!word.value.startsWith('-') && !word.value.startsWith('+')) break;
  }
  // `python3 --version`, `node -v`: the program only says what it is.
  if (
    args.length > 0 &&
    args.every((w) => w.literal && /^(--version|-V|--help|-h|-v|-version|-help)$/.test(w.value))
  )
    return { effects };
  const operands = args.filter((w) => !(w.literal && /^[-+]/.test(w.value)));
  if (READS_STDIN.has(name) && (operands.length === 0 || operands[0]?.value === '-'))
    return { effects, unparseable: `\`${name}\` reads its code from standard input` };
  return { effects };
};

/** tmux subcommands that only look: anything else may run a command or type into a shell. */
const TMUX_SAFE = new Set([
  'ls',
  'list-sessions',
  'list-windows',
  'lsw',
  'list-panes',
  'lsp',
  'list-clients',
  'lsc',
  'has-session',
  'has',
  'kill-session',
  'kill-server',
  'kill-window',
  'kill-pane',
  'capture-pane',
  'capturep',
  'attach',
  'attach-session',
  'a',
  'detach',
  'detach-client',
  'rename-session',
  'rename-window',
  'select-window',
  'select-pane',
  'show-options',
  'list-keys',
  'list-commands',
  'info',
  '-V',
]);

/** `tmux`, `byobu`, `zellij`: commands run in a terminal (or typed into one with `send-keys`) cannot be read. */
const terminal: Extractor = (words) => {
  const sub = words.slice(1).find((w) => !(w.literal && /^-[a-zA-Z2-8]*$/.test(w.value)));
  if (sub !== undefined && sub.literal && TMUX_SAFE.has(sub.value)) return NONE;
  return {
    effects: [],
    unparseable: `\`${(words[0] as Word).value}\` may run a command in a terminal it opens`,
  };
};

export const CODE_EXTRACTORS = { code, terminal } satisfies Record<string, Extractor>;

export const CODE_DESCRIPTIONS: Readonly<Record<keyof typeof CODE_EXTRACTORS, string>> = {
  code: 'code given as text (`python -c`, `perl -e`, `node -e`, awk with `system`, `vim -c`, `gdb -ex`, …) or read from standard input is unparseable; a script file is only processSpawn; `perl -i` writes its files',
  terminal:
    'commands run or typed into a terminal (`tmux new`, `send-keys`, …) are unparseable; listing and killing sessions is only processSpawn',
};
