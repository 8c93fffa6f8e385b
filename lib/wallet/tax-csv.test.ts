import { describe, expect, it } from 'vitest';
import {
  boundaryAmount,
  csvLine,
  GENERIC_HEADER,
  kasText,
  KOINLY_HEADER,
  taxCsvFileName,
  taxCsvHeader,
  taxCsvLine,
  taxDirection,
  usdText,
  type TaxRow,
} from './tax-csv';
import { parseCsv } from './test-support/parse-csv';

/** The fields of a text that holds exactly one CRLF-terminated line. */
function onlyLine(text: string): string[] {
  const lines = parseCsv(text);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

const row: TaxRow = {
  blockTime: Date.UTC(2026, 0, 31, 12, 30, 5),
  transactionId: 'ab'.repeat(32),
  blockHash: 'cd'.repeat(32),
  acceptingBlockHash: 'ef'.repeat(32),
  acceptingBlockBlueScore: 1234n,
  direction: 'out',
  amount: 300_000_000n,
  fee: 2036n,
  netChange: -300_002_036n,
  runningBalance: 18_446_744_073_709_551_615n,
  kasUsd: 0.104213,
  priceSource: 'simulated',
  counterparties: ['kaspadev:qa', 'kaspadev:qb'],
  confirmations: 12,
  accepted: true,
};

describe('tax CSV', () => {
  it('writes KAS amounts exactly with 8 decimals and USD values to the cent', () => {
    expect(kasText(123_456_789n)).toBe('1.23456789');
    expect(kasText(-5n)).toBe('-0.00000005');
    expect(kasText(18_446_744_073_709_551_615n)).toBe('184467440737.09551615');
    expect(usdText(300_000_000n, 0.104213)).toBe('0.31');
    expect(usdText(300_000_000n, null)).toBe('');
  });

  it('quotes only fields that need it, doubling quotes (RFC 4180)', () => {
    const line = csvLine(['a', 'b,c', 'say "hi"', 'x\ny']);
    expect(line).toBe('a,"b,c","say ""hi""","x\ny"\r\n');
    expect(onlyLine(line)).toEqual(['a', 'b,c', 'say "hi"', 'x\ny']);
  });

  it('writes the generic line with every column, in header order', () => {
    expect(taxCsvHeader('generic')).toBe(`${GENERIC_HEADER.join(',')}\r\n`);
    const fields = onlyLine(taxCsvLine('generic', row));
    expect(Object.fromEntries(GENERIC_HEADER.map((name, index) => [name, fields[index]]))).toEqual({
      time_utc: '2026-01-31T12:30:05.000Z',
      transaction_id: 'ab'.repeat(32),
      block_hash: 'cd'.repeat(32),
      accepting_block_hash: 'ef'.repeat(32),
      accepting_block_blue_score: '1234',
      direction: 'out',
      amount_kas: '3.00000000',
      fee_kas: '0.00002036',
      net_change_kas: '-3.00002036',
      running_balance_kas: '184467440737.09551615',
      kas_usd: '0.104213',
      value_usd: '0.31',
      price_source: 'simulated',
      counterparties: 'kaspadev:qa kaspadev:qb',
      confirmations: '12',
      accepted: 'true',
    });
  });

  it('writes Koinly rows: a payment with its fee, a receipt, an internal transfer’s fee as a cost', () => {
    expect(taxCsvHeader('koinly')).toBe(`${KOINLY_HEADER.join(',')}\r\n`);
    expect(onlyLine(taxCsvLine('koinly', row))).toEqual([
      '2026-01-31 12:30:05 UTC',
      '3.00000000',
      'KAS',
      '',
      '',
      '0.00002036',
      'KAS',
      '0.31',
      'USD',
      '',
      'out; KAS/USD simulated',
      'ab'.repeat(32),
    ]);
    const receipt = onlyLine(taxCsvLine('koinly', { ...row, direction: 'in', amount: 50_000_000n, fee: 0n }));
    expect(receipt.slice(1, 7)).toEqual(['', '', '0.50000000', 'KAS', '', '']);
    const transfer = onlyLine(taxCsvLine('koinly', { ...row, direction: 'internal', amount: 0n, fee: 2036n, netChange: -2036n }));
    expect([transfer[1], transfer[2], transfer[5], transfer[9]]).toEqual(['0.00002036', 'KAS', '', 'cost']);
  });

  it('leaves transactions the DAG did not accept out of the Koinly layout but not the generic one', () => {
    const rejected = { ...row, accepted: false, acceptingBlockHash: null, acceptingBlockBlueScore: null };
    expect(taxCsvLine('koinly', rejected)).toBe('');
    expect(onlyLine(taxCsvLine('generic', rejected)).at(-1)).toBe('false');
  });

  it('names directions and boundary amounts', () => {
    expect([taxDirection('incoming', 1), taxDirection('outgoing', 2)]).toEqual(['in', 'out']);
    expect([taxDirection('internal', 1), taxDirection('internal', 2)]).toEqual(['self', 'internal']);
    expect(boundaryAmount('out', -310n, 10n)).toBe(300n);
    expect(boundaryAmount('in', 50n, 0n)).toBe(50n);
    expect(boundaryAmount('internal', -5n, 5n)).toBe(0n);
  });

  it('makes a header-safe file name', () => {
    expect(taxCsvFileName('kaspadev:qz0"x', 'koinly')).toBe('kaspadev-qz0-x-koinly-transactions.csv');
  });
});
