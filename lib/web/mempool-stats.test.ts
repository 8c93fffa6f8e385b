import { describe, expect, it } from 'vitest';
import type { NodeMempoolEntry } from '../api/node-format';
import { feeRateHistogram, mempoolRows, projectNextBlocks } from './mempool-stats';

function entry(id: string, fee: number, mass: number, isOrphan = false, computeMass = mass): NodeMempoolEntry {
  return {
    fee: String(fee),
    isOrphan,
    transaction: {
      mass: String(mass),
      verboseData: { transactionId: id, hash: id, computeMass: String(computeMass), blockHash: '', blockTime: '0' },
    },
  } as unknown as NodeMempoolEntry;
}

describe('mempool stats', () => {
  it('orders rows by fee rate and falls back to compute mass when mass is not stated', () => {
    const rows = mempoolRows([entry('a', 2000, 2000), entry('b', 9000, 3000), entry('c', 5000, 0, false, 1000)]);
    expect(rows.map((row) => [row.transactionId, row.feeRate])).toEqual([
      ['c', 5],
      ['b', 3],
      ['a', 1],
    ]);
  });

  it('bins fee rates, leaving orphans out', () => {
    const rows = mempoolRows([entry('a', 1500, 1000), entry('b', 2500, 1000), entry('c', 2_000_000, 1000), entry('d', 1, 1, true)]);
    const bins = feeRateHistogram(rows);
    expect(bins.find((bin) => bin.from === 1)?.count).toBe(1);
    expect(bins.find((bin) => bin.from === 2)?.count).toBe(1);
    expect(bins.at(-1)).toMatchObject({ from: 1000, to: null, count: 1 });
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(3);
  });

  it('fills blocks greedily by fee rate within the mass budget', () => {
    const rows = mempoolRows([entry('a', 600, 300), entry('b', 400, 400), entry('c', 300, 300), entry('d', 100, 100, true)]);
    const blocks = projectNextBlocks(rows, 2, 700);
    expect(blocks).toEqual([
      { transactions: 2, mass: 700n, fees: 1000n, minFeeRate: 1, maxFeeRate: 2 },
      { transactions: 1, mass: 300n, fees: 300n, minFeeRate: 1, maxFeeRate: 1 },
    ]);
    expect(projectNextBlocks(rows, 1, 700)).toHaveLength(1);
  });
});
