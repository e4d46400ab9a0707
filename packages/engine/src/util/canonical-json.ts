// RFC 8785 canonical JSON: sorted keys, no white space, ES number formatting.
// Generated rule ids and audit hashes are computed over this form, once per
// recorded entry, so it is fast: a value whose keys are already in order is
// handed to JSON.stringify as it is, and only the rest is written by hand.
//
// Never through a sorted copy: an object lists integer-like keys (`"9"`, `"10"`)
// first, in numeric order, whatever order they were added in, and assigning
// `__proto__` sets the prototype instead of adding a member. JSON.stringify
// writes members in `Object.keys` order, so when that order is canonical (as it
// can be with such keys too) JSON.stringify's text is canonical.

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
  let at = 0;
  let first: string | undefined;
  while (at < value.length && (first = written(value[at])) === undefined) at++;
  if (first === undefined) return undefined;
  // Items before `at` JSON.stringify writes canonically; those after are yet to be looked at.
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (i > 0) out += ',';
    out += i < at ? plain(item) : i === at ? first : (written(item) ?? plain(item));
  }
  return `${out}]`;
}

function object(value: object): string | undefined {
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const proto: unknown = Object.getPrototypeOf(value);
  // Another prototype (a Date, a class instance) may bring a toJSON: its own members are written.
  let sorted = proto === Object.prototype || proto === null;
  for (let i = 1; sorted && i < keys.length; i++)
    if ((keys[i - 1] as string) > (keys[i] as string)) sorted = false;
  let at = -1;
  let first: string | undefined;
  if (sorted) {
    at = 0;
    while (at < keys.length && (first = written(record[keys[at] as string])) === undefined) at++;
    if (first === undefined) return undefined;
  } else {
    // RFC 8785 sorts property names by their UTF-16 code units: the default sort order.
    keys.sort();
  }
  let out = '';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = record[key];
    if (item === undefined) continue;
    if (out !== '') out += ',';
    out += `${quote(key)}:`;
    out += i < at ? plain(item) : i === at ? first : (written(item) ?? plain(item));
  }
  return `{${out}}`;
}

/** Text JSON.stringify writes as it is, between quotes: no quote, backslash, control or surrogate. */
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** A value `written` found canonical, as JSON.stringify writes it (`undefined` as an array item). */
function plain(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    default:
      return value === null ? 'null' : (JSON.stringify(value) as string);
  }
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) invalid(value);
  return written(value) ?? (JSON.stringify(value) as string);
}
