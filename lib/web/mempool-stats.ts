/**
 * What the mempool and fee pages derive from the node's mempool entries: masses and fee rates, a fee-rate histogram,
 * and the blocks a miner would build next (highest fee rate first within the block's mass limit, as kaspad's template
 * builder orders them; its randomised selection is ignored, so this is the expected, not the exact, content).
 *
 * The masses are the two kaspad reports per entry (rpc/core/src/model/tx.rs): `verboseData.computeMass`, and the
 * storage mass, which kaspad 2.0 serialises as `storageMass` with `mass` as an alias (kaspad 1.x: `mass` only). The
 * `mass` field is therefore not the transaction's mass: a payment with large outputs has a storage mass of a few
 * grams. A transaction takes max(compute, storage) of the block's space (both block limits are 500,000 grams, so
 * neither needs scaling); kaspad also weighs transient mass (serialised bytes), which it does not report.
 */
import type { NodeMempoolEntry } from '../api/endpoints/node-format';

/** Mass limit of a block (500,000 grams per dimension since Crescendo), less a reserve for the coinbase. */
export const BLOCK_MASS_BUDGET = 500_000 - 10_000;

export interface MempoolRow {
  transactionId: string;
  /** Null for orphans: kaspad reports 0 because the fee is unknown until the spent outputs are. */
  fee: bigint | null;
  computeMass: bigint;
  storageMass: bigint;
  /** max(computeMass, storageMass): the block space the transaction takes. */
  mass: bigint;
  /** Sompi per gram of `mass`; null when the fee is unknown. */
  feeRate: number | null;
  isOrphan: boolean;
}

/** The block space a mempool entry takes, by the masses kaspad reports. */
export function entryMasses(entry: NodeMempoolEntry): { computeMass: bigint; storageMass: bigint; mass: bigint } {
  const computeMass = BigInt(entry.transaction.verboseData?.computeMass ?? '0');
  const storageMass = BigInt(entry.transaction.mass);
  return { computeMass, storageMass, mass: computeMass > storageMass ? computeMass : storageMass };
}

export function mempoolRows(entries: readonly NodeMempoolEntry[]): MempoolRow[] {
  const rows: MempoolRow[] = [];
  for (const entry of entries) {
    const id = entry.transaction.verboseData?.transactionId;
    if (id === undefined) continue;
    const masses = entryMasses(entry);
    const fee = entry.isOrphan ? null : BigInt(entry.fee);
    const feeRate = fee === null || masses.mass === 0n ? null : Number(fee) / Number(masses.mass);
    rows.push({ transactionId: id, fee, ...masses, feeRate, isOrphan: entry.isOrphan });
  }
  return rows.sort((a, b) => (b.feeRate ?? -1) - (a.feeRate ?? -1) || a.transactionId.localeCompare(b.transactionId));
}

export interface HistogramBin {
  /** Lower bound in sompi per gram (inclusive); the last bin is open above. */
  from: number;
  to: number | null;
  count: number;
  mass: bigint;
}

/**
 * Edges at 1, 1.5, 2, 3, 5 and 7.5 per decade from 1 to 10,000 sompi per gram: fine enough to separate the rates just
 * above kaspad 2.0's floor of 100 sompi per gram, and wide enough for the 1 sompi per gram of older nodes.
 */
const BIN_EDGES = [0, ...[1, 10, 100, 1000].flatMap((decade) => [1, 1.5, 2, 3, 5, 7.5].map((step) => step * decade)), 10_000];

/** Bins from the lowest to the highest occupied one (none when no transaction has a known rate); orphans left out. */
export function feeRateHistogram(rows: readonly MempoolRow[]): HistogramBin[] {
  const bins: HistogramBin[] = BIN_EDGES.map((from, index) => ({ from, to: BIN_EDGES[index + 1] ?? null, count: 0, mass: 0n }));
  for (const row of rows) {
    if (row.feeRate === null) continue;
    let index = bins.length - 1;
    while (index > 0 && row.feeRate < (bins[index] as HistogramBin).from) index -= 1;
    const bin = bins[index] as HistogramBin;
    bin.count += 1;
    bin.mass += row.mass;
  }
  const first = bins.findIndex((bin) => bin.count > 0);
  if (first < 0) return [];
  let last = bins.length - 1;
  while ((bins[last] as HistogramBin).count === 0) last -= 1;
  return bins.slice(first, last + 1);
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
    if (row.fee === null || row.feeRate === null || row.mass > BigInt(budget)) continue;
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
