import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KasParseError, MAX_SOMPI, SOMPI_PER_KAS, formatKas, parseKas, type KasParseErrorCode } from './amount';

const arbSompi = fc.bigInt({ min: 0n, max: MAX_SOMPI });

function parseErrorCode(text: string): KasParseErrorCode | undefined {
  try {
    parseKas(text);
    return undefined;
  } catch (error) {
    if (error instanceof KasParseError) return error.code;
    throw error;
  }
}

describe('formatKas', () => {
  it('prints exact KAS with trailing zeros trimmed', () => {
    expect(formatKas(0n)).toBe('0');
    expect(formatKas(1n)).toBe('0.00000001');
    expect(formatKas(SOMPI_PER_KAS)).toBe('1');
    expect(formatKas(150_000_000n)).toBe('1.5');
    expect(formatKas(-150_000_000n)).toBe('-1.5');
    expect(formatKas(MAX_SOMPI)).toBe('29000000000');
    expect(formatKas((1n << 64n) - 1n)).toBe('184467440737.09551615');
  });

  it('rounds half away from zero when limiting decimals', () => {
    expect(formatKas(123_456_789n, { maxFractionDigits: 2 })).toBe('1.23');
    expect(formatKas(123_500_000n, { maxFractionDigits: 2 })).toBe('1.24');
    expect(formatKas(-123_500_000n, { maxFractionDigits: 2 })).toBe('-1.24');
    expect(formatKas(199_999_999n, { maxFractionDigits: 4 })).toBe('2');
    expect(formatKas(49_999_999n, { maxFractionDigits: 0 })).toBe('0');
    expect(formatKas(-1n, { maxFractionDigits: 2 })).toBe('0');
    expect(() => formatKas(1n, { maxFractionDigits: 9 })).toThrow(RangeError);
    expect(() => formatKas(1n, { maxFractionDigits: 1.5 })).toThrow(RangeError);
  });

  it('never prints more decimals than asked and stays within half a unit of the last digit', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_SOMPI, max: MAX_SOMPI }), fc.integer({ min: 0, max: 8 }), (sompi, digits) => {
        const text = formatKas(sompi, { maxFractionDigits: digits });
        const fraction = text.split('.')[1] ?? '';
        expect(fraction.length <= digits).toBe(true);
        expect(fraction.endsWith('0')).toBe(false);
        const magnitude = parseKas(text.replace('-', ''));
        const shown = text.startsWith('-') ? -magnitude : magnitude;
        const halfStep = 10n ** BigInt(8 - digits) / 2n;
        const error = shown - sompi;
        expect(error >= -halfStep && error <= halfStep).toBe(true);
      }),
    );
  });
});

describe('parseKas', () => {
  it('parses decimal KAS into sompi', () => {
    expect(parseKas('1')).toBe(SOMPI_PER_KAS);
    expect(parseKas('0.00000001')).toBe(1n);
    expect(parseKas(' 12.5 ')).toBe(1_250_000_000n);
    expect(parseKas('.5')).toBe(50_000_000n);
    expect(parseKas('7.')).toBe(700_000_000n);
    expect(parseKas('0007.10')).toBe(710_000_000n);
    expect(parseKas('29000000000')).toBe(MAX_SOMPI);
  });

  it('explains what is wrong with bad input', () => {
    expect(parseErrorCode('')).toBe('empty');
    expect(parseErrorCode('   ')).toBe('empty');
    expect(parseErrorCode('.')).toBe('invalid-character');
    expect(parseErrorCode('1,000')).toBe('invalid-character');
    expect(parseErrorCode('1e3')).toBe('invalid-character');
    expect(parseErrorCode('1.2.3')).toBe('invalid-character');
    expect(parseErrorCode('+1')).toBe('invalid-character');
    expect(parseErrorCode('١')).toBe('invalid-character');
    expect(parseErrorCode('-1')).toBe('negative');
    expect(parseErrorCode('0.000000001')).toBe('too-many-decimals');
    expect(parseErrorCode('29000000000.00000001')).toBe('out-of-range');
    expect(parseErrorCode('184467440737.09551616')).toBe('out-of-range');
    expect(() => parseKas('1,000')).toThrow(/contains ","/);
  });

  it('round-trips every amount up to MAX_SOMPI', () => {
    fc.assert(
      fc.property(arbSompi, (sompi) => {
        expect(parseKas(formatKas(sompi))).toBe(sompi);
      }),
    );
  });

  it('reads any well-formed decimal with up to 8 decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 28_999_999_999n }), fc.stringMatching(/^\d{0,8}$/), (whole, fraction) => {
        const text = fraction ? `${whole}.${fraction}` : `${whole}`;
        expect(parseKas(text)).toBe(whole * SOMPI_PER_KAS + BigInt(fraction.padEnd(8, '0') || '0'));
      }),
    );
  });
});
