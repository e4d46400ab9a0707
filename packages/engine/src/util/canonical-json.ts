// RFC 8785 canonical JSON: sorted keys, no white space, ES number formatting.
// Generated rule ids and audit hashes are computed over this form, once per
// recorded decision, so it is written as one tight loop.

export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError('canonical JSON has no form for non-finite numbers');
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const item: unknown = value[i];
          out += item === undefined ? 'null' : canonicalJson(item);
        }
        return `${out}]`;
      }
      const object = value as Record<string, unknown>;
      // RFC 8785 sorts property names by their UTF-16 code units: the default sort order.
      const keys = Object.keys(object).sort();
      let out = '{';
      let first = true;
      for (const key of keys) {
        const item = object[key];
        if (item === undefined) continue;
        if (!first) out += ',';
        first = false;
        out += `${JSON.stringify(key)}:${canonicalJson(item)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
  }
}
