import { describe, expect, it } from 'vitest';
import { absoluteTime, formatHashrate, formatInteger, kasDisplay, kasExact, relativeTime, shortAddress, shortHash } from './format';

describe('format', () => {
  it('shows KAS grouped and rounded, and exact on demand', () => {
    expect(kasDisplay('123456789012345')).toBe('1,234,567.8901 KAS');
    expect(kasDisplay(1n)).toBe('0 KAS');
    expect(kasDisplay('-250000000')).toBe('-2.5 KAS');
    expect(kasExact('123456789012345')).toBe('1234567.89012345 KAS (123456789012345 sompi)');
  });

  it('shortens hashes and addresses keeping the prefix', () => {
    expect(shortHash('a'.repeat(64))).toBe(`${'a'.repeat(8)}…${'a'.repeat(8)}`);
    expect(shortAddress(`kaspadev:${'q'.repeat(61)}`, 4)).toBe('kaspadev:qqqq…qqqq');
  });

  it('writes times relative and absolute', () => {
    expect(relativeTime(0, 5_000)).toBe('5 seconds ago');
    expect(relativeTime(0, 3 * 3600_000)).toBe('3 hours ago');
    expect(absoluteTime(Date.UTC(2026, 10, 22, 4, 30))).toBe('2026-11-22 04:30:00.000 UTC');
  });

  it('groups integers exactly past 2^53 and scales hashrates', () => {
    expect(formatInteger('18446744073709551615')).toBe('18,446,744,073,709,551,615');
    expect(formatHashrate(12_345)).toBe('12.3 kH/s');
    expect(formatHashrate(5)).toBe('5.00 H/s');
  });
});
