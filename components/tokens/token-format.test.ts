import { describe, expect, it } from 'vitest';
import { changeText, kasText, pricePrecision, priceText, safeHttpUrl, safeIconUrl, tokenAmount, usdText } from './token-format';

describe('token display formatting', () => {
  it('writes smallest units as exact whole tokens, past 2^53', () => {
    expect(tokenAmount(123_456_789n, 8)).toBe('1.23456789');
    expect(tokenAmount(100_000_000, 8)).toBe('1');
    expect(tokenAmount(5, 8)).toBe('0.00000005');
    expect(tokenAmount(21_000_000_000_000_000_000_000n, 8)).toBe('210,000,000,000,000');
    expect(tokenAmount(9_007_199_254_740_993n, 0)).toBe('9,007,199,254,740,993');
    expect(tokenAmount('-150', 2)).toBe('-1.5');
  });

  it('writes prices with significant digits when small and cents when large', () => {
    expect(priceText(0)).toBe('0');
    expect(priceText(0.000012345)).toBe('0.00001235');
    expect(priceText(1234.5)).toBe('1,234.50');
    expect(usdText(0.5)).toBe('$0.5');
    expect(kasText(2)).toBe('2.00 KAS');
    expect(changeText(1.234)).toBe('+1.23 %');
    expect(changeText(-0.5)).toBe('-0.50 %');
  });

  it('picks a chart precision from the smallest positive value', () => {
    expect(pricePrecision([])).toBe(2);
    expect(pricePrecision([0, 120])).toBe(2);
    expect(pricePrecision([0.0042, 0.01])).toBe(6);
    expect(pricePrecision([1e-12])).toBe(10);
  });

  it('keeps only absolute http and https URLs', () => {
    expect(safeHttpUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHttpUrl('http://example.com')).toBe('http://example.com/');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:text/html,<b>x</b>')).toBeNull();
    expect(safeHttpUrl('//example.com')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
  });

  it('draws icons from http(s) URLs and paths on this site only', () => {
    expect(safeIconUrl('/token-icons/dagb.svg')).toBe('/token-icons/dagb.svg');
    expect(safeIconUrl('https://example.com/a.svg')).toBe('https://example.com/a.svg');
    expect(safeIconUrl('//evil.example/a.svg')).toBeNull();
    expect(safeIconUrl('/\\evil.example/a.svg')).toBeNull();
    expect(safeIconUrl('javascript:alert(1)')).toBeNull();
    expect(safeIconUrl('')).toBeNull();
  });
});
