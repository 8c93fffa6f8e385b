import { describe, expect, it } from 'vitest';
import {
  absoluteTime,
  compactTime,
  counted,
  formatDuration,
  formatHashrate,
  formatInteger,
  formatWait,
  kasDisplay,
  kasExact,
  relativeTime,
  shortAddress,
  shortHash,
} from './format';

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

  it('makes the noun agree with the count', () => {
    expect(counted(1, 'input')).toBe('1 input');
    expect(counted(2, 'input')).toBe('2 inputs');
    expect(counted(0n, 'confirmation')).toBe('0 confirmations');
    expect(counted(1200, 'entry', 'entries')).toBe('1,200 entries');
  });

  it('shows waits and elapsed times in whole units, sub-second waits as under a second', () => {
    expect(formatWait(0.04)).toBe('< 1 s');
    expect(formatWait(1.4)).toBe('~1 s');
    expect(formatWait(600)).toBe('~10 min');
    expect(formatDuration(999)).toBe('0 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(40 * 60_000 + 5_000)).toBe('40 min');
    expect(formatDuration(125 * 60_000)).toBe('2 h 5 min');
    expect(formatDuration(27 * 3600_000)).toBe('1 d 3 h');
    expect(compactTime(Date.UTC(2026, 10, 22, 4, 30, 59))).toBe('2026-11-22 04:30 UTC');
  });
});
