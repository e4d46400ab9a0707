// A secret found in a text, and how an array of strings is read as one command line: shared by
// the pattern modules, the literal scan and the string redactor.

import type { RedactionKind } from './redact-markers.js';

/** Joins the string elements of an array so that `['--password', 'x']` reads as a command line. */
export const ARG_SEPARATOR = '\uE000';

/** A secret found in a text: `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly kind: RedactionKind;
}

/** A pattern: adds the spans it finds in a text. */
export type Find = (text: string, spans: Span[]) => void;
