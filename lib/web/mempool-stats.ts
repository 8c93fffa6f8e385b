/**
 * What the mempool and fee pages derive from the node's mempool entries: fee rates, a fee-rate histogram, and the
 * blocks a miner would build next (highest fee rate first within the block's compute mass limit, as kaspad's template
 * builder orders them; its randomised selection is ignored, so this is the expected, not the exact, content).
 */
import type { NodeMempoolEntry } from '../api/node-format';

/** Compute mass limit of a block (consensus: 500,000 grams since Crescendo), less a reserve for the coinbase. */
export const BLOCK_MASS_BUDGET = 500_000 - 10_000;

export interface MempoolRow {
  transactionId: string;
  fee: bigint;
  mass: bigint;
  /** Sompi per gram. */
  feeRate: number;
  isOrphan: boolean;
}

export function mempoolRows(entries: readonly NodeMempoolEntry[]): MempoolRow[] {
  const rows: MempoolRow[] = [];
  for (const entry of entries) {
    const id = entry.transaction.verboseData?.transactionId;
    if (id === undefined) continue;
    const stated = BigInt(entry.transaction.mass);
    const mass = stated > 0n ? stated : BigInt(entry.transaction.verboseData?.computeMass ?? '0');
    const fee = BigInt(entry.fee);
    rows.push({ transactionId: id, fee, mass, feeRate: mass > 0n ? Number(fee) / Number(mass) : 0, isOrphan: entry.isOrphan });
  }
  return rows.sort((a, b) => b.feeRate - a.feeRate || a.transactionId.localeCompare(b.transactionId));
}

export interface HistogramBin {
  /** Lower bound in sompi per gram (inclusive); the last bin is open above. */
  from: number;
  to: number | null;
  count: number;
  mass: bigint;
}

const BIN_EDGES = [0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000];

export function feeRateHistogram(rows: readonly MempoolRow[]): HistogramBin[] {
  const bins: HistogramBin[] = BIN_EDGES.map((from, index) => ({ from, to: BIN_EDGES[index + 1] ?? null, count: 0, mass: 0n }));
  for (const row of rows) {
    if (row.isOrphan) continue;
    let index = bins.length - 1;
    while (index > 0 && row.feeRate < (bins[index] as HistogramBin).from) index -= 1;
    const bin = bins[index] as HistogramBin;
    bin.count += 1;
    bin.mass += row.mass;
  }
  return bins;
}

export interface ProjectedBlock {
  transactions: number;
  mass: bigint;
  fees: bigint;
  minFeeRate: number;
  maxFeeRate: number;
}

/** The next `count` blocks' expected content; orphans wait for their parents and are left out. */
export function projectNextBlocks(rows: readonly MempoolRow[], count: number, budget = BLOCK_MASS_BUDGET): ProjectedBlock[] {
  const blocks: ProjectedBlock[] = [];
  let current: ProjectedBlock | undefined;
  for (const row of rows) {
    if (row.isOrphan || row.mass > BigInt(budget)) continue;
    if (current === undefined || current.mass + row.mass > BigInt(budget)) {
      if (blocks.length === count) break;
      current = { transactions: 0, mass: 0n, fees: 0n, minFeeRate: row.feeRate, maxFeeRate: row.feeRate };
      blocks.push(current);
    }
    current.transactions += 1;
    current.mass += row.mass;
    current.fees += row.fee;
    current.minFeeRate = Math.min(current.minFeeRate, row.feeRate);
    current.maxFeeRate = Math.max(current.maxFeeRate, row.feeRate);
  }
  return blocks;
}
