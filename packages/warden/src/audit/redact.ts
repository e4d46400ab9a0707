// Secrets never reach the audit log or the inspector's answers: every value is copied through a
// redactor first (three layers: secret keys, token patterns, known credential literals).

import { formatPath } from '@warden/engine';
import type { PathSegment as EnginePathSegment } from '@warden/engine';
import { isSecretKey } from './redact-keys.js';
import { DEFAULT_MIN_LITERAL_LENGTH, LiteralSet } from './redact-literals.js';
import { BINARY, CIRCULAR, MAX_DEPTH, REDACTED, UNREADABLE } from './redact-markers.js';
import { ARG_SEPARATOR } from './redact-span.js';
import { redactString } from './redact-text.js';

export { isSecretKey } from './redact-keys.js';
export type { RedactionKind } from './redact-markers.js';
export { REDACTED, REDACTION_KINDS, marker } from './redact-markers.js';
export { credentialLiterals } from './redact-settings.js';

export interface RedactionResult<T> {
  /** A JSON-safe copy of the input with every secret replaced by a marker. */
  readonly value: T;
  /** Where something was redacted, e.g. `headers.authorization`, `args[2]`, `["x y"]`. */
  readonly paths: readonly string[];
}

export interface RedactorOptions {
  /** Exact secret values to replace wherever they occur (see `credentialLiterals`). */
  readonly literals?: Iterable<string>;
  /** Shorter literals are ignored so that values like `true` or `1234` never redact everything. */
  readonly minLiteralLength?: number;
  /** Containers nested deeper than this are replaced by `[MaxDepth]`. */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 64;
const KEY_CACHE_LIMIT = 4096;
/** Dropped from objects, `null` in arrays, as `JSON.stringify` does. */
const OMIT = Symbol('omit');
const UNCHANGED = Symbol('unchanged');

type PathSegment = EnginePathSegment;
interface Walk {
  readonly base: string;
  readonly segments: PathSegment[];
  readonly ancestors: object[];
  readonly paths: string[];
}

export class Redactor {
  readonly #sources: readonly string[];
  readonly #literals: LiteralSet;
  readonly #maxDepth: number;
  /** Object keys repeat from entry to entry: their redacted form is remembered. */
  readonly #keys = new Map<string, string>();

  constructor(options: RedactorOptions = {}) {
    this.#sources = [...(options.literals ?? [])];
    this.#literals = new LiteralSet(
      this.#sources,
      options.minLiteralLength ?? DEFAULT_MIN_LITERAL_LENGTH,
    );
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  /** A new redactor that also replaces these literals. */
  withLiterals(more: Iterable<string>): Redactor {
    return new Redactor({
      literals: [...this.#sources, ...more],
      minLiteralLength: this.#literals.minLength,
      maxDepth: this.#maxDepth,
    });
  }

  /** A redacted, JSON-safe deep copy; the input is never changed. Never throws. */
  redact<T>(value: T, basePath = ''): RedactionResult<T> {
    const walk: Walk = { base: basePath, segments: [], ancestors: [], paths: [] };
    const out = this.#value(value, 0, walk);
    return { value: (out === OMIT ? null : out) as T, paths: walk.paths };
  }

  redactText(text: string): { readonly text: string; readonly redacted: boolean } {
    const out = this.#text(text);
    return { text: out, redacted: out !== text };
  }

  #value(value: unknown, depth: number, walk: Walk): unknown {
    switch (typeof value) {
      case 'string': {
        const out = this.#text(value);
        if (out !== value) record(walk);
        return out;
      }
      case 'number':
        // As JSON writes them: `-0` is `0`, `NaN` and infinities are `null`.
        return Number.isFinite(value) ? value + 0 : null;
      case 'boolean':
        return value;
      case 'bigint':
        return this.#value(value.toString(), depth, walk);
      case 'object':
        return value === null ? null : this.#container(value, depth, walk);
      default:
        return OMIT;
    }
  }

  #container(value: object, depth: number, walk: Walk): unknown {
    if (walk.ancestors.includes(value)) return CIRCULAR;
    if (depth >= this.#maxDepth) return MAX_DEPTH;
    walk.ancestors.push(value);
    try {
      if (Array.isArray(value)) return this.#array(value, depth, walk);
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null)
        return this.#object(value as Record<string, unknown>, depth, walk);
      return this.#special(value, depth, walk);
    } catch {
      // A throwing getter, proxy trap or toJSON: the value cannot be read, so nothing leaks.
      return UNREADABLE;
    } finally {
      walk.ancestors.pop();
    }
  }

  /** Values JSON would turn into something else: copied as their JSON form, or a marker. */
  #special(value: object, depth: number, walk: Walk): unknown {
    if (value instanceof String || value instanceof Number || value instanceof Boolean)
      return this.#value(value.valueOf(), depth, walk);
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return BINARY;
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (value instanceof Map) return this.#object(mapEntries(value), depth, walk);
    if (value instanceof Set) return this.#array([...value], depth, walk);
    if (value instanceof Error)
      return this.#object({ ...value, name: value.name, message: value.message }, depth, walk);
    const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const json: unknown = toJSON.call(value);
      if (json !== value) return this.#value(json, depth + 1, walk);
    }
    return this.#object(value as Record<string, unknown>, depth, walk);
  }

  #object(value: Record<string, unknown>, depth: number, walk: Walk): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      let item: unknown;
      try {
        item = value[key];
      } catch {
        item = UNREADABLE;
      }
      const redactedKey = this.#key(key);
      // A redacted key takes no name another member has or will have, so none is overwritten.
      const outKey = redactedKey === key ? key : freeKey(out, value, redactedKey);
      walk.segments.push(outKey);
      if (outKey !== key) record(walk);
      let result: unknown;
      if (isSecretKey(key) && hidesSomething(item)) {
        if (item !== REDACTED) record(walk);
        result = REDACTED;
      } else {
        result = this.#value(item, depth + 1, walk);
      }
      walk.segments.pop();
      if (result !== OMIT) put(out, outKey, result);
    }
    return out;
  }

  /** String elements are redacted as one command line, so `['--password', 'x']` loses `x`. */
  #array(value: readonly unknown[], depth: number, walk: Walk): unknown[] {
    const argv = this.#argv(value);
    const out: unknown[] = new Array<unknown>(value.length);
    let k = 0;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      walk.segments.push(i);
      let result: unknown;
      if (argv !== undefined && typeof item === 'string') {
        result = argv === UNCHANGED ? item : argv[k];
        k += 1;
        if (result !== item) record(walk);
      } else {
        result = this.#value(item, depth + 1, walk);
      }
      walk.segments.pop();
      out[i] = result === OMIT ? null : result;
    }
    return out;
  }

  /**
   * The string elements redacted together, in order, when there are at least two; UNCHANGED
   * when that changes none of them (then none may be redacted on its own either, or a second
   * pass could find what the first did not).
   */
  #argv(value: readonly unknown[]): readonly string[] | typeof UNCHANGED | undefined {
    let joined = '';
    let count = 0;
    for (const item of value) {
      if (typeof item !== 'string') continue;
      // An element holding the separator would shift the others: such arrays go element-wise.
      if (item.includes(ARG_SEPARATOR)) return undefined;
      joined = count === 0 ? item : joined + ARG_SEPARATOR + item;
      count += 1;
    }
    if (count < 2) return undefined;
    const redacted = this.#text(joined);
    return redacted === joined ? UNCHANGED : redacted.split(ARG_SEPARATOR);
  }

  #key(key: string): string {
    let out = this.#keys.get(key);
    if (out === undefined) {
      out = this.#text(key);
      if (this.#keys.size >= KEY_CACHE_LIMIT) this.#keys.clear();
      this.#keys.set(key, out);
    }
    return out;
  }

  #text(text: string): string {
    return redactString(text, this.#literals);
  }
}

/**
 * Nothing to hide in `null` or a flag, and functions, symbols and `undefined` are dropped anyway;
 * every other value under a secret key (string, number, object, array) is replaced whole.
 */
function hidesSomething(value: unknown): boolean {
  const type = typeof value;
  return (
    value !== null &&
    (type === 'string' || type === 'number' || type === 'bigint' || type === 'object')
  );
}

/** `key`, or `key (2)`, `key (3)`, …: the first name neither the copy nor its source has. */
function freeKey(out: Record<string, unknown>, source: object, key: string): string {
  let candidate = key;
  for (let n = 2; Object.hasOwn(out, candidate) || Object.hasOwn(source, candidate); n += 1)
    candidate = `${key} (${n})`;
  return candidate;
}

/**
 * Adds `key` to a copy as an own data member, whatever its name: assigning `__proto__` would set
 * the copy's prototype instead, and the member would be gone from its JSON.
 */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else out[key] = value;
}

function mapEntries(map: Map<unknown, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of map) put(out, typeof key === 'string' ? key : String(key), value);
  return out;
}

function record(walk: Walk): void {
  const path = formatPath(walk.segments, walk.base);
  if (walk.paths[walk.paths.length - 1] !== path) walk.paths.push(path);
}
