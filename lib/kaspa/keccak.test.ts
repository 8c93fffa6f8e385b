import { keccakP } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keccakF1600 } from './keccak';

describe('keccakF1600', () => {
  it('permutes any state exactly like @noble/hashes keccakP', () => {
    fc.assert(
      fc.property(fc.uint32Array({ minLength: 50, maxLength: 50 }), (words) => {
        const ours = Uint32Array.from(words);
        const reference = Uint32Array.from(words);
        keccakF1600(ours);
        keccakP(reference);
        expect(ours).toEqual(reference);
      }),
    );
  });

  it('rejects states that are not 50 words', () => {
    expect(() => keccakF1600(new Uint32Array(49))).toThrow(RangeError);
  });
});
