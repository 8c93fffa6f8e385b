import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonParseError, type JsonValue, parseJson, SERDE_JSON_MAX_DEPTH, stringifyJson } from './json';

const U64_MAX = (1n << 64n) - 1n;

/** Values the wire carries: safe integers and fractional doubles as numbers, anything larger as bigint. */
const wireValue: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.string({ unit: 'binary' }),
    fc.maxSafeInteger(),
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((value) => !Object.is(value, -0) && (!Number.isInteger(value) || Number.isSafeInteger(value))),
    fc.bigInt({ min: -U64_MAX, max: U64_MAX }).filter((value) => !Number.isSafeInteger(Number(value))),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

function toNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toNumbers);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toNumbers(item)]));
  }
  return value;
}

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

describe('parseJson / stringifyJson', () => {
  it('round-trips wire values exactly, bigints included', () => {
    fc.assert(
      fc.property(wireValue, (value) => {
        expect(parseJson(stringifyJson(value))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with JSON.parse on any JSON text, up to rounding of unsafe integers', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 6 }), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(toNumbers(parseJson(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('writes exactly what JSON.stringify writes for bigint-free values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 6 }), (value) => {
        expect(stringifyJson(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
    const awkward = { skipped: undefined, fn: () => 1, list: [undefined, () => 1], date: new Date(0), nan: NaN };
    expect(stringifyJson(awkward)).toBe(JSON.stringify(awkward));
    expect(stringifyJson('\ud800 lone surrogate')).toBe(JSON.stringify('\ud800 lone surrogate'));
  });

  it('keeps request ids near 2^64 − 1 exact in both directions', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: U64_MAX - 10_000n, max: U64_MAX }), fc.bigInt({ min: 0n, max: U64_MAX }), (near, any) => {
        for (const id of [near, any]) {
          const text = stringifyJson({ id, method: 'ping', params: {} });
          expect(text).toBe(`{"id":${id.toString()},"method":"ping","params":{}}`);
          const parsed = parseJson(text) as { id: unknown };
          expect(BigInt(parsed.id as bigint | number)).toBe(id);
          expect(typeof parsed.id).toBe(Number.isSafeInteger(Number(id)) ? 'number' : 'bigint');
        }
      }),
    );
    expect(parseJson('18446744073709551615')).toBe(U64_MAX);
    expect(parseJson('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseJson('9007199254740992')).toBe(9007199254740992n);
    expect(parseJson('-9007199254740993')).toBe(-9007199254740993n);
  });

  it('returns bigint for every integer under a bigint key, arrays included, and numbers elsewhere', () => {
    const keys = new Set(['amount', 'daaScores']);
    const parsed = parseJson('{"amount":5,"index":5,"daaScores":[1,2,[3]],"nested":{"amount":0},"ratio":1.5,"amountF":2}', {
      bigintKeys: keys,
    });
    expect(parsed).toEqual({ amount: 5n, index: 5, daaScores: [1n, 2n, [3n]], nested: { amount: 0n }, ratio: 1.5, amountF: 2 });
    expect(parseJson('{"amount":1.0,"other":[{"amount":7}]}', { bigintKeys: keys })).toEqual({ amount: 1, other: [{ amount: 7n }] });
  });

  it('rejects exactly the texts JSON.parse rejects', () => {
    const validText = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value));
    const candidates = fc.oneof(
      fc.string(),
      fc.tuple(validText, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
      fc.tuple(validText, fc.nat(), fc.constantFrom('"', '\\', ',', '}', ']', '0', '-', '.', 'e', '\u0001', ' '))
        .map(([text, at, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1))),
    );
    fc.assert(
      fc.property(candidates, (text) => {
        let nativeAccepts = true;
        try {
          JSON.parse(text);
        } catch {
          nativeAccepts = false;
        }
        if (nativeAccepts) expect(() => parseJson(text)).not.toThrow();
        else expect(() => parseJson(text)).toThrow(JsonParseError);
      }),
      { numRuns: 1000 },
    );
    for (const text of ['', ' ', '01', '1.', '.5', '1e', '+1', '-', 'tru', 'nul', '[1,]', '{"a":1,}', '{a:1}', "'a'", '"\\x"', '"a\nb"', '1 2']) {
      expect(() => parseJson(text), text).toThrow(JsonParseError);
    }
  });

  it('caps nesting at serde_json’s limit without overflowing the stack', () => {
    expect(parseJson(nested(SERDE_JSON_MAX_DEPTH))).toBeInstanceOf(Array);
    expect(() => parseJson(nested(SERDE_JSON_MAX_DEPTH + 1))).toThrow(JsonParseError);
    expect(() => parseJson(nested(200_000), { maxDepth: Number.POSITIVE_INFINITY })).toThrow(JsonParseError);
  });

  it('stores a "__proto__" key as data, never as the prototype', () => {
    const parsed = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(stringifyJson(parsed)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('refuses values it cannot write', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyJson(cyclic)).toThrow(TypeError);
    expect(() => stringifyJson(undefined)).toThrow(TypeError);
  });
});
