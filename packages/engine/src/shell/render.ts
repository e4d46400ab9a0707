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

/** The E35 characters and white space (as `\s` reads it), by character code below 128. */
const SPLIT_CODE = new Uint8Array(128);
for (const ch of '|&;()<>\'"$`{}\\ \t\n\v\f\r') SPLIT_CODE[ch.charCodeAt(0)] = 1;
const WIDE_SPACE = /\s/;

function splits(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return SPLIT_CODE[code] === 1;
  return WIDE_SPACE.test(text.charAt(index));
}

/** Splits raw text into tokens at white space and the E35 characters, in one pass. */
export function rawTokens(text: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (splits(text, i)) {
      if (start >= 0) tokens.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) tokens.push(text.slice(start));
  return tokens;
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
