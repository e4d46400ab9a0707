// Unwrapping commands that run other commands (G14c, E27): `sudo`, `timeout`,
// `env`, `xargs`, `bash -c`, `find -exec` and the rest of the table.

import type { Word } from '../shell/ast.js';
import { changeDir } from './programs.js';
import { scanOptions } from './options.js';
import type { WrapperEntry } from './table.js';

export type Unwrapped =
  /** Not running another command (or only looking one up): classify the words as they are. */
  | { readonly kind: 'plain' }
  | {
      readonly kind: 'inner';
      readonly words: readonly Word[];
      /** Set when the wrapper changes the working directory. */
      readonly cwd?: string | null;
      /** Arguments of the inner command are not known (`xargs`). */
      readonly blur: boolean;
    }
  | { readonly kind: 'script'; readonly text: string }
  | {
      readonly kind: 'find';
      readonly commands: readonly (readonly Word[])[];
      readonly deletes: boolean;
      readonly starts: readonly Word[];
    }
  | { readonly kind: 'unparseable'; readonly reason: string };

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function unwrap(
  name: string,
  words: readonly Word[],
  entry: WrapperEntry,
  cwd: string | null,
): Unwrapped {
  if (entry.kind === 'find') return unwrapFind(words);
  const scan = scanOptions(words, 1, entry, { numericFlags: entry.numericFlags === true });
  if (scan.unknown !== null) {
    return { kind: 'unparseable', reason: `unknown option \`${scan.unknown}\` of \`${name}\`` };
  }
  let newCwd: string | null | undefined;
  let script: Word | null | undefined;
  for (const option of scan.seen) {
    if (entry.lookup?.includes(option.name)) return { kind: 'plain' };
    if (entry.unsupported?.includes(option.name)) {
      return { kind: 'unparseable', reason: `\`${name} ${option.name}\` cannot be read` };
    }
    if (entry.chdir?.includes(option.name))
      newCwd = changeDir(newCwd === undefined ? cwd : newCwd, option.value);
    if (entry.script?.includes(option.name)) script = option.value;
  }
  let next = scan.next;
  switch (entry.kind) {
    case 'shell': {
      if (script === undefined) return { kind: 'plain' };
      const text = words[next];
      return scriptOf(text, name);
    }
    case 'su':
      return script === undefined ? { kind: 'plain' } : scriptOf(script, name);
    case 'flock':
      if (script !== undefined) return scriptOf(script, name);
      break;
    case 'remote':
      return next + 1 < words.length
        ? {
            kind: 'unparseable',
            reason: `a command run through \`${name}\` on another host cannot be read`,
          }
        : { kind: 'plain' };
    case 'watch':
      if (!scan.seen.some((option) => option.name === '-x' || option.name === '--exec')) {
        const rest = words.slice(next);
        if (rest.length === 0) return { kind: 'plain' };
        if (rest.some((word) => !word.literal)) {
          return { kind: 'unparseable', reason: `the command of \`${name}\` is not literal` };
        }
        return { kind: 'script', text: rest.map((word) => word.value).join(' ') };
      }
      break;
    default:
      break;
  }
  const positionals = entry.positionals ?? 0;
  if (next + positionals > words.length) return { kind: 'plain' };
  next += positionals;
  if (name === 'env') {
    while (next < words.length && ASSIGNMENT.test((words[next] as Word).value)) next++;
  }
  const inner = words.slice(next);
  if (inner.length === 0) return { kind: 'plain' };
  const blur = entry.kind === 'xargs';
  return newCwd === undefined
    ? { kind: 'inner', words: inner, blur }
    : { kind: 'inner', words: inner, cwd: newCwd, blur };
}

function scriptOf(word: Word | null | undefined, name: string): Unwrapped {
  if (word === null || word === undefined) {
    return { kind: 'unparseable', reason: `\`${name}\` is missing its script` };
  }
  if (!word.literal) {
    // An expansion inside a script is code the inner shell reads: it cannot be known.
    return { kind: 'unparseable', reason: `the script of \`${name}\` is not literal` };
  }
  return { kind: 'script', text: word.value };
}

const FIND_GLOBAL = new Set(['-H', '-L', '-P']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

function unwrapFind(words: readonly Word[]): Unwrapped {
  let i = 1;
  while (i < words.length) {
    const value = (words[i] as Word).value;
    if (FIND_GLOBAL.has(value) || /^-O\d*$/.test(value)) i++;
    else if (value === '-D') i += 2;
    else break;
  }
  const starts: Word[] = [];
  while (i < words.length) {
    const word = words[i] as Word;
    if (word.literal && /^[-(!,)]/.test(word.value)) break;
    starts.push(word);
    i++;
  }
  const commands: Word[][] = [];
  let deletes = false;
  while (i < words.length) {
    const word = words[i] as Word;
    i++;
    if (!word.literal) continue;
    if (word.value === '-delete') deletes = true;
    if (!FIND_EXEC.has(word.value)) continue;
    const inner: Word[] = [];
    let closed = false;
    while (i < words.length) {
      const part = words[i] as Word;
      i++;
      if (part.literal && (part.value === ';' || part.value === '+')) {
        closed = true;
        break;
      }
      inner.push(part);
    }
    if (!closed || inner.length === 0) {
      return { kind: 'unparseable', reason: `\`find ${word.value}\` has no complete command` };
    }
    commands.push(inner);
  }
  if (commands.length === 0 && !deletes) return { kind: 'plain' };
  return { kind: 'find', commands, deletes, starts };
}
