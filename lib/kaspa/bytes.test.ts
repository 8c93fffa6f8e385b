import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as nodeCodec from './bytes';

const { bytesToHex, HexError, hexToBytes } = nodeCodec;

const EVEN_HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** The module as a browser loads it: no Buffer global, so hex decoding takes the portable path. */
async function loadWithoutBuffer(): Promise<typeof nodeCodec> {
  vi.resetModules();
  vi.stubGlobal('Buffer', undefined);
  try {
    return await import('./bytes');
  } finally {
    vi.unstubAllGlobals();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

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

  it('decodes exactly as Node does where no Buffer exists', async () => {
    const portable = await loadWithoutBuffer();
    const nearHexCharacter = fc.constantFrom(...'0123456789abcdefABCDEFgG/:@`x -\u0660');
    fc.assert(
      fc.property(fc.array(nearHexCharacter, { maxLength: 12 }).map((characters) => characters.join('')), (text) => {
        if (EVEN_HEX.test(text)) {
          expect(portable.hexToBytes(text)).toEqual(hexToBytes(text));
          expect(portable.hexToBytes(text)).toBeInstanceOf(Uint8Array);
        } else {
          expect(() => portable.hexToBytes(text)).toThrow(portable.HexError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
