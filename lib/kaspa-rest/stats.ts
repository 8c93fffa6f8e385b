/**
 * The whole-index statistics kaspa-rest-server reads from tables its exporters pre-populate (transaction counts,
 * top addresses, balance tiers, the hardest block): here computed from the index itself, at most once per `ttlMs`, concurrent callers
 * sharing one computation. A failed computation is not kept.
 */
import {
  acceptedTransactionCounts,
  balanceRanking,
  hardestBlock,
  type AddressBalance,
  type BalanceTier,
  type HardestBlock,
  type Queryable,
  type TransactionCountBucket,
} from '../db';

export const STATS_TTL_MS = 60_000;
export const TOP_ADDRESSES = 100;

export interface Snapshot<T> {
  /** Epoch ms the value was computed at. */
  at: number;
  value: T;
}

export interface IndexStats {
  transactionCounts(): Promise<Snapshot<TransactionCountBucket[]>>;
  balances(): Promise<Snapshot<{ top: AddressBalance[]; tiers: BalanceTier[] }>>;
  hardestBlock(): Promise<Snapshot<HardestBlock | null>>;
}

function cached<T>(compute: () => Promise<T>, clock: () => number, ttlMs: number): () => Promise<Snapshot<T>> {
  let entry: { at: number; value: Promise<Snapshot<T>> } | undefined;
  return () => {
    const now = clock();
    if (entry === undefined || now - entry.at >= ttlMs) {
      const next = { at: now, value: compute().then((value) => ({ at: now, value })) };
      next.value.catch(() => {
        if (entry === next) entry = undefined;
      });
      entry = next;
    }
    return entry.value;
  };
}

export function createIndexStats(db: Queryable, clock: () => number, ttlMs = STATS_TTL_MS): IndexStats {
  return {
    transactionCounts: cached(() => acceptedTransactionCounts(db), clock, ttlMs),
    balances: cached(() => balanceRanking(db, TOP_ADDRESSES), clock, ttlMs),
    hardestBlock: cached(() => hardestBlock(db), clock, ttlMs),
  };
}
