// Hard limits on what the shell reader takes on. A command past any of them is
// not read at all: it becomes one unparseable unit that prompts, with the
// limit as its reason. Reading stays linear in the input and each decision
// stays within a few milliseconds, whatever an agent sends.

/**
 * The longest command read, in characters. Agents' real command lines stay
 * well under this, long inline scripts included. Reading costs about 0.1 µs
 * a character for long words, so this bounds a word-heavy command to a few
 * milliseconds; denser shapes (many short commands or words) meet the count
 * limits below first.
 */
export const MAX_COMMAND_LENGTH = 65_536;

/**
 * Nesting of substitutions, subshells, groups, control structures and
 * `bash -c` scripts. Deeper than any command a person writes; it keeps every
 * recursion far from the stack's end.
 */
export const MAX_NESTING = 64;

/**
 * Words read in one command line, inner scripts included. Each word costs a
 * few hundred nanoseconds to read and classify, and a path or host in it is
 * matched against rules later, so 4,096 keeps a decision within milliseconds.
 */
export const MAX_WORDS = 4_096;

/**
 * Simple commands read in one command line, inner scripts included. Each one
 * is classified and may become a facet resolved through the scope chain; at
 * a few microseconds each end to end, 256 keep a decision within milliseconds,
 * far above what one agent call holds.
 */
export const MAX_COMMANDS = 256;

/** What one reading of a command line may still spend; shared by every parser it starts. */
export interface Budget {
  words: number;
  commands: number;
  depth: number;
}

export function freshBudget(): Budget {
  return { words: MAX_WORDS, commands: MAX_COMMANDS, depth: 0 };
}

/** `65536` → `65,536`, the same everywhere (no locale data). */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

export const LIMIT_REASONS = {
  length: `the command is longer than ${grouped(MAX_COMMAND_LENGTH)} characters`,
  nesting: `the command nests deeper than ${grouped(MAX_NESTING)} levels`,
  words: `the command has more than ${grouped(MAX_WORDS)} words`,
  commands: `the command has more than ${grouped(MAX_COMMANDS)} simple commands`,
} as const;
