import { describe, expect, it } from 'vitest';
import { parseTimeBound, walletExportSchema } from './wallet-export-endpoints';

describe('export time bounds', () => {
  it('reads epoch milliseconds as a number or text, and ISO 8601 dates as UTC', () => {
    expect(parseTimeBound(1_767_225_600_000)).toBe(1_767_225_600_000n);
    expect(parseTimeBound('1767225600000')).toBe(1_767_225_600_000n);
    expect(parseTimeBound('2026-01-01')).toBe(BigInt(Date.UTC(2026, 0, 1)));
    expect(parseTimeBound('2026-01-01T06:30:00')).toBe(BigInt(Date.UTC(2026, 0, 1, 6, 30)));
    expect(parseTimeBound('2026-01-01T06:30:00+02:00')).toBe(BigInt(Date.UTC(2026, 0, 1, 4, 30)));
  });

  it('refuses what is not a time', () => {
    for (const bad of ['yesterday', '2026-13-45', '', -1, 1.5, '2026-01-01T']) expect(parseTimeBound(bad), String(bad)).toBeNull();
  });

  it('validates the wallet export body: one source, a known layout, a time', () => {
    expect(walletExportSchema.safeParse({ addresses: ['a'], layout: 'koinly', from: '2026-01-01' }).success).toBe(true);
    expect(walletExportSchema.safeParse({ addresses: ['a'], layout: 'turbotax' }).success).toBe(false);
    expect(walletExportSchema.safeParse({ addresses: ['a'], to: 'soon' }).success).toBe(false);
    expect(walletExportSchema.safeParse({ from: '2026-01-01' }).success).toBe(false);
  });
});
