import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, HexError, hexToBytes } from './bytes';

const EVEN_HEX = /^(?:[0-9a-fA-F]{2})*$/;

describe('hex codec', () => {
  it('round-trips any bytes, and reads upper-case digits alike', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const hex = bytesToHex(bytes);
        expect(hexToBytes(hex)).toEqual(bytes);
        expect(hexToBytes(hex.toUpperCase())).toEqual(bytes);
      }),
    );
  });

  it('accepts exactly the strings made of an even number of hex digits', () => {
    const nearHexCharacter = fc.constantFrom(...'0123456789abcdefABCDEFgG/:@`x -\u0660');
    fc.assert(
      fc.property(fc.array(nearHexCharacter, { maxLength: 12 }).map((characters) => characters.join('')), (text) => {
        if (EVEN_HEX.test(text)) expect(hexToBytes(text)).toHaveLength(text.length / 2);
        else expect(() => hexToBytes(text)).toThrow(HexError);
      }),
      { numRuns: 500 },
    );
  });
});
