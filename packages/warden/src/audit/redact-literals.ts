// The third layer of redaction: exact strings known to be secrets (API keys and passwords from
// agents' settings), found anywhere in any string in one pass, however many there are.

import { ALL_MARKERS } from './redact-markers.js';
import type { Span } from './redact-span.js';

/** Literals shorter than this are ignored unless a redactor is told otherwise. */
export const DEFAULT_MIN_LITERAL_LENGTH = 6;

/**
 * The literals worth searching for, each with the forms it takes in URLs and JSON text. A literal
 * inside a marker, or one that holds a whole marker, is dropped: no marker could then hide it.
 * A literal that begins or ends like a marker (`]abc…`, `…abc[RED`) also searches for its middle,
 * so that a marker next to the literal's remains cannot recreate it. (A middle shorter than the
 * minimum is not searched for: such a literal is still replaced wherever it occurs, but text that
 * spells it out of a marker and the middle could then read differently on a second pass.)
 */
function prepare(literals: Iterable<string>, minLength: number): string[] {
  const found = new Set<string>();
  for (const literal of literals) {
    if (typeof literal !== 'string' || literal.length < minLength) continue;
    for (const form of forms(literal)) {
      if (form.length < minLength || ALL_MARKERS.some((m) => m.includes(form) || form.includes(m)))
        continue;
      found.add(form);
      const core = withoutMarkerEdges(form);
      if (core !== form && core.length >= minLength) found.add(core);
    }
  }
  return [...found];
}

function forms(literal: string): string[] {
  const out = [literal, JSON.stringify(literal).slice(1, -1)];
  try {
    out.push(encodeURIComponent(literal));
  } catch {
    // A lone surrogate has no URL form.
  }
  return out;
}

const LONGEST_MARKER = Math.max(...ALL_MARKERS.map((m) => m.length));

/** The literal without a head that could end a marker and a tail that could start one. */
function withoutMarkerEdges(literal: string): string {
  const longest = Math.min(LONGEST_MARKER, literal.length) - 1;
  let head = 0;
  let tail = 0;
  // Every marker ends with `]` and starts with `[`: only such edges can overlap one.
  for (let k = longest; k >= 1 && head === 0; k -= 1) {
    if (literal[k - 1] !== ']') continue;
    const edge = literal.slice(0, k);
    if (ALL_MARKERS.some((m) => m.length > k && m.endsWith(edge))) head = k;
  }
  for (let k = longest; k >= 1 && tail === 0; k -= 1) {
    if (literal[literal.length - k] !== '[') continue;
    const edge = literal.slice(literal.length - k);
    if (ALL_MARKERS.some((m) => m.length > k && m.startsWith(edge))) tail = k;
  }
  return head + tail >= literal.length ? '' : literal.slice(head, literal.length - tail);
}

/**
 * A set of literals indexed by their first two characters: a scan costs one table look-up per
 * character of text, and only a look-up that hits compares whole literals (longest first).
 */
export class LiteralSet {
  readonly minLength: number;
  readonly size: number;
  /** A bit per hash of the first two characters: most positions stop at one array read. */
  readonly #filter: Uint8Array;
  readonly #buckets = new Map<number, string[]>();

  constructor(literals: Iterable<string>, minLength: number) {
    this.minLength = Math.max(2, Math.floor(minLength));
    const prepared = prepare(literals, this.minLength);
    this.size = prepared.length;
    this.#filter = new Uint8Array(this.size === 0 ? 0 : 1 << 16);
    for (const literal of prepared.sort((a, b) => b.length - a.length)) {
      const c0 = literal.charCodeAt(0);
      const c1 = literal.charCodeAt(1);
      this.#filter[(c0 * 31 + c1) & 0xffff] = 1;
      const key = c0 * 0x10000 + c1;
      const bucket = this.#buckets.get(key);
      if (bucket === undefined) this.#buckets.set(key, [literal]);
      else bucket.push(literal);
    }
  }

  /** Adds a span for the longest literal starting at each position; a list only if needed. */
  scan(text: string, spans: Span[] | undefined): Span[] | undefined {
    const last = text.length - this.minLength;
    if (this.size === 0 || last < 0) return spans;
    let c1 = text.charCodeAt(0);
    for (let i = 0; i <= last; i += 1) {
      const c0 = c1;
      c1 = text.charCodeAt(i + 1);
      if (this.#filter[(c0 * 31 + c1) & 0xffff] === 0) continue;
      const bucket = this.#buckets.get(c0 * 0x10000 + c1);
      if (bucket === undefined) continue;
      for (const literal of bucket) {
        if (text.startsWith(literal, i)) {
          (spans ??= []).push({ start: i, end: i + literal.length, kind: 'credential' });
          break;
        }
      }
    }
    return spans;
  }
}
