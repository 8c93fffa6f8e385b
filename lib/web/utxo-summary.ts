import type { NodeUtxoEntry } from '@/lib/api/endpoints/node-format';

/**
 * What the address page shows of an address's UTXO set: its balance and counts, and a few entries. A miner's address
 * holds tens of thousands of UTXOs, so the page's first paint carries this summary, never the set.
 */
export interface UtxoSummary {
  /** Sompi, decimal. */
  balance: string;
  count: number;
  covenantBoundCount: number;
  /** The first `listed` covenant-bound entries, in the node's order. */
  covenantBound: NodeUtxoEntry[];
  /** The `listed` largest entries, largest first. */
  largest: NodeUtxoEntry[];
}

export const UTXOS_LISTED = 10;

export function summarizeUtxos(entries: readonly NodeUtxoEntry[], listed = UTXOS_LISTED): UtxoSummary {
  let balance = 0n;
  let covenantBoundCount = 0;
  const covenantBound: NodeUtxoEntry[] = [];
  for (const entry of entries) {
    balance += BigInt(entry.amount);
    if (entry.covenantId === undefined) continue;
    covenantBoundCount += 1;
    if (covenantBound.length < listed) covenantBound.push(entry);
  }
  const largest = [...entries].sort((a, b) => (BigInt(b.amount) > BigInt(a.amount) ? 1 : BigInt(b.amount) < BigInt(a.amount) ? -1 : 0)).slice(0, listed);
  return { balance: balance.toString(), count: entries.length, covenantBoundCount, covenantBound, largest };
}
