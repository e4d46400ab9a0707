// RFC 8785 canonical JSON: sorted keys, no white space, ES number formatting.
// Generated rule ids and audit hashes are computed over this form, once per
// recorded entry, so it is fast: values whose keys are already in order are
// handed to JSON.stringify as they are, and only the others are copied sorted.

function invalid(value: unknown): never {
  if (typeof value === 'number')
    throw new TypeError('canonical JSON has no form for non-finite numbers');
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}

/**
 * The value itself when JSON.stringify already writes it canonically (every
 * object's keys in UTF-16 order, no undefined to drop); else a copy that is.
 */
function ordered(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : invalid(value);
    case 'object': {
      if (value === null) return value;
      if (Array.isArray(value)) {
        let copy: unknown[] | null = null;
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          const next = item === undefined ? null : ordered(item);
          if (next !== item && copy === null) copy = value.slice(0, i);
          if (copy !== null) copy.push(next);
        }
        return copy ?? value;
      }
      if (
        Object.getPrototypeOf(value) !== Object.prototype &&
        Object.getPrototypeOf(value) !== null
      )
        return ordered(Object.fromEntries(Object.entries(value)));
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object);
      const items = new Array<unknown>(keys.length);
      let same = true;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        if (i > 0 && (keys[i - 1] as string) >= key) same = false;
        const item = object[key];
        const next = item === undefined ? undefined : ordered(item);
        if (next !== item || item === undefined) same = false;
        items[i] = next;
      }
      if (same) return value;
      // RFC 8785 sorts property names by their UTF-16 code units: the default sort order.
      const order = keys
        .map((_, i) => i)
        .sort((a, b) => {
          const ka = keys[a] as string;
          const kb = keys[b] as string;
          return ka < kb ? -1 : ka > kb ? 1 : 0;
        });
      const copy: Record<string, unknown> = {};
      for (const i of order) {
        const item = items[i];
        if (item !== undefined) copy[keys[i] as string] = item;
      }
      return copy;
    }
    default:
      return invalid(value);
  }
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(ordered(value));
}
