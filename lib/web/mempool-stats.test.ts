import { describe, expect, it } from 'vitest';
import type { NodeMempoolEntry } from '../api/endpoints/node-format';
import { feeRateHistogram, mempoolRows, projectNextBlocks } from './mempool-stats';

/** A mempool entry as kaspad reports it: `mass` is the storage mass, the compute mass is in the verbose data. */
function entry(id: string, fee: number, computeMass: number, storageMass = 0, isOrphan = false): NodeMempoolEntry {
  return {
    fee: String(fee),
    isOrphan,
    transaction: {
      mass: String(storageMass),
      verboseData: { transactionId: id, hash: id, computeMass: String(computeMass), blockHash: '', blockTime: '0' },
    },
  } as unknown as NodeMempoolEntry;
}

describe('mempool stats', () => {
  it('measures a payment by its compute mass, not by the storage mass kaspad reports as `mass`', () => {
    // The transaction: 2,036 sompi for 2,036 grams of compute mass, storage mass 4.
    const [row] = mempoolRows([entry('a', 2036, 2036, 4)]);
    expect(row).toMatchObject({ computeMass: 2036n, storageMass: 4n, mass: 2036n, fee: 2036n, feeRate: 1 });
  });

  it('measures a transaction with small outputs by its storage mass when that is larger', () => {
    const [row] = mempoolRows([entry('a', 204_700, 2047, 9900)]);
    expect(row).toMatchObject({ mass: 9900n, feeRate: 204_700 / 9900 });
  });

  it('orders rows by fee rate, orphans (whose fee kaspad reports as 0) last with an unknown fee', () => {
    const rows = mempoolRows([entry('a', 2000, 2000), entry('b', 9000, 3000), entry('c', 0, 1000, 0, true), entry('d', 5000, 1000)]);
    expect(rows.map((row) => [row.transactionId, row.feeRate, row.fee])).toEqual([
      ['d', 5, 5000n],
      ['b', 3, 9000n],
      ['a', 1, 2000n],
      ['c', null, null],
    ]);
  });

  it('bins fee rates from the lowest to the highest occupied bin, leaving orphans out', () => {
    const rows = mempoolRows([
      entry('a', 100_000, 1000),
      entry('b', 100_400, 1000),
      entry('c', 160_000, 1000),
      entry('d', 20_000_000, 1000),
      entry('e', 0, 1, 0, true),
    ]);
    const bins = feeRateHistogram(rows);
    expect(bins[0]).toMatchObject({ from: 100, to: 150, count: 2, mass: 2000n });
    expect(bins[1]).toMatchObject({ from: 150, to: 200, count: 1 });
    expect(bins.at(-1)).toMatchObject({ from: 10_000, to: null, count: 1 });
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(4);
    expect(feeRateHistogram(mempoolRows([entry('e', 0, 1, 0, true)]))).toEqual([]);
  });

  it('fills blocks greedily by fee rate within the mass budget, by the larger of the two masses', () => {
    const rows = mempoolRows([entry('a', 600, 300), entry('b', 400, 100, 400), entry('c', 300, 300), entry('d', 0, 100, 0, true)]);
    const blocks = projectNextBlocks(rows, 2, 700);
    expect(blocks).toEqual([
      { transactions: 2, mass: 700n, fees: 1000n, minFeeRate: 1, maxFeeRate: 2 },
      { transactions: 1, mass: 300n, fees: 300n, minFeeRate: 1, maxFeeRate: 1 },
    ]);
    expect(projectNextBlocks(rows, 1, 700)).toHaveLength(1);
  });
});
