import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../rpc/json';
import { parseWireMessage } from '../rpc/protocol';
import { wireCopy } from './json-copy';

const viaText = (value: unknown) => parseWireMessage(stringifyJson(value));

const keys = fc.constantFrom('id', 'amount', 'daaScores', 'nonce', 'version', 'index', 'hash', 'payload', '__proto__', 'x');
const leaf = fc.oneof(
  fc.integer(),
  fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
  fc.double(),
  fc.constantFrom(0, -0, 2 ** 53, 2 ** 60, 1e21, Number.MAX_SAFE_INTEGER + 1, Number.NaN, Infinity),
  fc.string(),
  fc.constantFrom('\ud800', 'a"b\\c\n'),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(keys, tie('node'), { maxKeys: 5 }),
})).object;

describe('wireCopy', () => {
  it('equals a round trip through stringifyJson and parseWireMessage', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(wireCopy(input)).toStrictEqual(viaText(input));
      }),
      { numRuns: 2_000 },
    );
  });

  it('honours toJSON, drops functions and copies rather than shares', () => {
    const inner = { amount: 5, list: [1, undefined, () => 1] };
    const input = { when: { toJSON: () => 'later' }, skip: () => 1, inner, bytes: Uint8Array.of(7, 8) };
    const copied = wireCopy(input);
    expect(copied).toStrictEqual(viaText(input));
    expect(copied).toStrictEqual({ when: 'later', inner: { amount: 5n, list: [1, null, null] }, bytes: { 0: 7, 1: 8 } });
    expect((copied as { inner: unknown }).inner).not.toBe(inner);
  });
});
