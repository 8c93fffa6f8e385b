import { describe, expect, it } from 'vitest';
import type { NodeUtxoEntry } from '@/lib/api/endpoints/node-format';
import { summarizeUtxos } from './utxo-summary';

function entry(index: number, amount: bigint, covenantId?: string): NodeUtxoEntry {
  return {
    address: 'kaspadev:qq',
    outpoint: { transactionId: index.toString(16).padStart(64, '0'), index },
    amount: amount.toString(),
    scriptPublicKey: { version: 0, script: '' },
    blockDaaScore: String(index),
    isCoinbase: false,
    ...(covenantId === undefined ? {} : { covenantId }),
  };
}

describe('summarizeUtxos', () => {
  it('sums the whole set exactly and keeps only the listed entries', () => {
    // Beyond 2^53: the balance of a large address must not pass through a float.
    const entries = Array.from({ length: 25 }, (_, index) => entry(index, 10n ** 17n + BigInt(index), index % 4 === 0 ? 'c'.repeat(64) : undefined));
    const summary = summarizeUtxos(entries, 3);
    expect(summary.balance).toBe((25n * 10n ** 17n + 300n).toString());
    expect(summary.count).toBe(25);
    expect(summary.covenantBoundCount).toBe(7);
    expect(summary.covenantBound.map((item) => item.outpoint.index)).toEqual([0, 4, 8]);
    expect(summary.largest.map((item) => item.outpoint.index)).toEqual([24, 23, 22]);
  });

  it('summarises an empty set as nothing', () => {
    expect(summarizeUtxos([])).toEqual({ balance: '0', count: 0, covenantBoundCount: 0, covenantBound: [], largest: [] });
  });
});
