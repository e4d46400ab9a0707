// RFC 8785 canonical JSON: sorted keys, no white space, ES number formatting.
// Generated rule ids and audit hashes are computed over this form, once per
// recorded entry, so it is fast: a value whose keys are already in order is
// handed to JSON.stringify as it is, and only the rest is written by hand.
//
// Never through a sorted copy: a JS object lists integer-like keys (`"9"`, `"10"`)
// first and in numeric order whatever order they were added in, and assigning
// `__proto__` sets the prototype instead of adding a member. JSON.stringify
// writes an object's members in `Object.keys` order, so when that order is
// already canonical (which it can be with such keys too) its output is canonical.

function invalid(value: unknown): never {
  if (typeof value === 'number')
    throw new TypeError('canonical JSON has no form for non-finite numbers');
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}

/**
 * `undefined` when JSON.stringify already writes `value` canonically (every
 * object plain, its keys in UTF-16 order); else the canonical text. Throws for
 * what has no form, anywhere in `value`.
 */
function written(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined': // only met inside containers: dropped or null, as JSON.stringify does
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : invalid(value);
    case 'object':
      if (value === null) return undefined;
      return Array.isArray(value) ? array(value) : object(value);
    default:
      return invalid(value);
  }
}

function array(value: readonly unknown[]): string | undefined {
  let texts: (string | undefined)[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const text = written(value[i]);
    if (text !== undefined) (texts ??= new Array<string | undefined>(value.length))[i] = text;
  }
  if (texts === undefined) return undefined;
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    if (i > 0) out += ',';
    out += texts[i] ?? member(value[i]);
  }
  return `${out}]`;
}

function object(value: object): string | undefined {
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const proto: unknown = Object.getPrototypeOf(value);
  // Anything else (a Date, a class instance) would meet its toJSON: its own members are written.
  let sorted = proto === Object.prototype || proto === null;
  let texts: (string | undefined)[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (sorted && i > 0 && (keys[i - 1] as string) > key) sorted = false;
    const text = written(record[key]);
    if (text !== undefined) (texts ??= new Array<string | undefined>(keys.length))[i] = text;
  }
  if (sorted && texts === undefined) return undefined;
  const order = keys.map((_, i) => i);
  // RFC 8785 sorts property names by their UTF-16 code units, as `<` compares strings.
  if (!sorted) order.sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : 1));
  let out = '{';
  for (const i of order) {
    const key = keys[i] as string;
    const item = record[key];
    if (item === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${texts?.[i] ?? member(item)}`;
  }
  return `${out}}`;
}

/** A value `written` found canonical as JSON.stringify writes it (`undefined` as an array item). */
function member(value: unknown): string {
  return value === undefined ? 'null' : (JSON.stringify(value) as string);
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) invalid(value);
  return written(value) ?? (JSON.stringify(value) as string);
}
