// Redacts one string: known literals first, then the patterns over what is left, each stage's
// finds merged and replaced by markers. The order makes redaction idempotent (see below).

import type { LiteralSet } from './redact-literals.js';
import type { RedactionKind } from './redact-markers.js';
import { MARKER_START, marker } from './redact-markers.js';
import type { Span } from './redact-span.js';
import { findSecrets, mayHoldSecret } from './redact-patterns.js';
import { ARG_SEPARATOR } from './redact-span.js';

interface Cut {
  start: number;
  end: number;
  readonly kind: RedactionKind;
}

/** A guard, not a limit met in practice: fuzzed inputs settle after two rounds that change. */
const MAX_ROUNDS = 16;

/**
 * Idempotent by construction. Literals go first and never reappear (see `LiteralSet`); the
 * patterns then run until they find nothing more, because one pattern's marker can change what
 * another reads (a `;` hidden inside a value no longer ends a command). That terminates: a cut
 * always removes text that is not a marker, and a cut never splits a marker (one that starts or
 * ends inside a marker grows over it). Only strings that held a secret pay for the extra round.
 */
export function redactString(text: string, literals: LiteralSet): string {
  let out = replace(text, literals.scan(text, undefined));
  for (let round = 0; round < MAX_ROUNDS && mayHoldSecret(out); round += 1) {
    const spans: Span[] = [];
    findSecrets(out, spans);
    const next = replace(out, spans);
    if (next === out) break;
    out = next;
  }
  return out;
}

function replace(text: string, spans: Span[] | undefined): string {
  if (spans === undefined || spans.length === 0) return text;
  const cuts = merge(text.includes(MARKER_START) ? snapped(text, spans) : spans);
  let out = '';
  let at = 0;
  for (const cut of cuts) {
    out += text.slice(at, cut.start) + markers(text.slice(cut.start, cut.end), cut.kind);
    at = cut.end;
  }
  return out + text.slice(at);
}

/** One marker for the cut text, or one per argv element when it spans several. */
function markers(cut: string, kind: RedactionKind): string {
  const one = marker(kind);
  if (!cut.includes(ARG_SEPARATOR)) return one;
  return cut
    .split(ARG_SEPARATOR)
    .map((part) => (part === '' ? '' : one))
    .join(ARG_SEPARATOR);
}

/** Sorted, with overlapping and touching spans made one; the first at a position names it. */
function merge(spans: readonly Span[]): Cut[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const cuts: Cut[] = [];
  let current: Cut | undefined;
  for (const span of sorted) {
    if (current !== undefined && span.start <= current.end) {
      current.end = Math.max(current.end, span.end);
    } else {
      current = { start: span.start, end: span.end, kind: span.kind };
      cuts.push(current);
    }
  }
  return cuts;
}

const MARKER = /\[REDACTED(?::[a-z-]+)?\]/g;

/** Spans grown over the markers they start or end in; those that hold only markers dropped. */
function snapped(text: string, spans: readonly Span[]): Span[] {
  const found = [...text.matchAll(MARKER)].map((m) => [m.index, m.index + m[0].length] as const);
  const out: Span[] = [];
  for (const span of spans) {
    let { start, end } = span;
    for (const [from, to] of found) {
      if (from < start && start < to) start = from;
      if (from < end && end < to) end = to;
    }
    if (/^[\s\uE000]*$/.test(text.slice(start, end).replace(MARKER, ''))) continue;
    out.push(start === span.start && end === span.end ? span : { start, end, kind: span.kind });
  }
  return out;
}
