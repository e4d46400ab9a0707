// How commands are named and tokenised: facet names (E25, E38) and the token
// split used for unparseable commands (E23, E35).

import type { Word } from './ast.js';

/** White space, the E35 characters, and `* ? [ ] ~ #` make a word need quotes. */
const NEEDS_QUOTES = /[\s|&;()<>'"$`{}\\*?[\]~#]/;

/** A word as a facet name shows it: its value, POSIX single-quoted when needed. */
export function displayWord(word: Word): string {
  let text = '';
  let quote = false;
  for (const part of word.parts) {
    text += part.text;
    if (part.kind !== 'param' && NEEDS_QUOTES.test(part.text)) quote = true;
  }
  if (text === '') return "''";
  return quote ? singleQuote(text) : text;
}

export function singleQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

export function joinWords(words: readonly Word[]): string {
  return words.map(displayWord).join(' ');
}

const TOKEN_SPLIT = /[\s|&;()<>'"$`{}\\]+/;

/** Splits raw text into tokens at white space and the E35 characters. */
export function rawTokens(text: string): string[] {
  return text.split(TOKEN_SPLIT).filter((token) => token !== '');
}

/** Whether `needles` occur in `tokens` as whole tokens, in order (not necessarily adjacent). */
export function occursInOrder(needles: readonly string[], tokens: readonly string[]): boolean {
  let at = 0;
  for (const needle of needles) {
    while (at < tokens.length && tokens[at] !== needle) at++;
    if (at >= tokens.length) return false;
    at++;
  }
  return true;
}
