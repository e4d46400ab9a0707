// Agent-written text (tool arguments, task titles) is evidence, never part of
// the report's own sentences (I11, A5): it appears only as quoted data —
// redacted, on one line, length-capped, and unable to close the code span it
// is shown in.

import { Redactor } from '../audit/redact.js';

/** Turns text into its redacted form; deterministic for the same input. */
export type RedactText = (text: string) => string;

const plain = new Redactor();

/** The pattern redactor (token shapes, secret assignments) with no known literals. */
export const defaultRedact: RedactText = (text) => plain.redactText(text).text;

export const DEFAULT_QUOTE_CHARS = 80;

/** Text on one line, its length capped, backticks and control characters made harmless. */
export function quoteText(
  text: string,
  redact: RedactText,
  maxChars = DEFAULT_QUOTE_CHARS,
): string {
  // Redact first: a cap must never cut a secret in half and leave its start readable.
  const oneLine = redact(text)
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/gu, ' ')
    .replace(/`/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...oneLine];
  return chars.length <= maxChars ? oneLine : `${chars.slice(0, maxChars - 1).join('')}…`;
}

/** An identifier Warden stamped (agent id, tool name, run id) as it may appear in a sentence. */
export function codeName(name: string, maxChars = 64): string {
  return `\`${quoteText(name, (t) => t, maxChars)}\``;
}
