import { describe, expect, it } from 'vitest';
import { ADDRESS_CSV_HEADER, addressCsvFileName, addressCsvLine, csvLine } from './address-csv';

describe('address CSV', () => {
  it('quotes fields that need it', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'x\ny'])).toBe('a,"b,c","say ""hi""","x\ny"\r\n');
    expect(csvLine(ADDRESS_CSV_HEADER).split(',')).toHaveLength(10);
  });

  it('writes one exact line per transaction', () => {
    const line = addressCsvLine({
      transactionId: 'ab'.repeat(32),
      blockTime: Date.UTC(2026, 10, 22),
      isAccepted: true,
      acceptingBlockHash: 'cd'.repeat(32),
      confirmations: 12,
      amountSent: '0',
      amountReceived: '18446744073709551615',
      balanceChange: '18446744073709551615',
      fee: null,
    } as Parameters<typeof addressCsvLine>[0]);
    expect(line).toBe(
      `${'ab'.repeat(32)},2026-11-22T00:00:00.000Z,1795305600000,true,${'cd'.repeat(32)},12,0,18446744073709551615,18446744073709551615,\r\n`,
    );
  });

  it('makes a header-safe file name', () => {
    expect(addressCsvFileName('kaspadev:qz0"x')).toBe('kaspadev-qz0-x-transactions.csv');
  });
});
